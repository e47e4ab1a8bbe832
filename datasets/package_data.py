"""Records each bundled data file's size and CRC-32 in runtime/data/checksums.tsv when a build step writes it,
so the runtime can tell a damaged install from the files it was built with (runtime/datafiles.py).
``python -m cantoedge.datasets.package_data`` records every file as it is now, after a change by hand."""

from __future__ import annotations

import argparse
from pathlib import Path

from cantoedge.runtime.datafiles import (
    CHECKSUMS_FILE,
    DATA_DIR,
    PACKAGE_DIR,
    Recorded,
    crc32_hex,
    parse_checksums,
    recorded_checksums,
)
from cantoedge.runtime.fileio import atomic_write_text

DATA_PATH = Path(PACKAGE_DIR) / DATA_DIR
CHECKSUMS_PATH = DATA_PATH / CHECKSUMS_FILE
HEADER = ("# file<TAB>bytes<TAB>crc32<TAB>the command that rebuilds it: the runtime reads a data file only if it is\n"
          "# the one recorded here. Written by each build step; after a change by hand: "
          "python -m cantoedge.datasets.package_data\n")
HAND_WRITTEN = ""  # the command of a file no build step writes (inventory.json: the models' token contract)


def data_files() -> list[Path]:
    """The data files the package ships (everything in runtime/data but checksums.tsv itself)."""
    return sorted(p for p in DATA_PATH.iterdir() if p.is_file() and p.name != CHECKSUMS_FILE
                  and not p.name.startswith("."))


def current_records() -> dict[str, Recorded]:
    return parse_checksums(CHECKSUMS_PATH.read_text("utf-8")) if CHECKSUMS_PATH.exists() else {}


def write_records(records: dict[str, Recorded]) -> None:
    lines = [f"{name}\t{r.size}\t{r.crc32}\t{r.command}\n" for name, r in sorted(records.items())]
    atomic_write_text(CHECKSUMS_PATH, HEADER + "".join(lines))
    recorded_checksums.cache_clear()


def record_of(path: Path, command: str) -> Recorded:
    data = Path(path).read_bytes()
    return Recorded(len(data), crc32_hex(data), command)


def record_data_files(command: str, *paths: Path) -> list[Path]:
    """After ``command`` wrote ``paths``: record those that are the package's data files, in one write of
    checksums.tsv. Returns them (an output written elsewhere, by ``--out``, is not the package's)."""
    ours = [Path(p) for p in paths if Path(p).resolve().parent == DATA_PATH.resolve()]
    if ours:
        records = current_records()
        records.update((p.name, record_of(p, command)) for p in ours)
        write_records(records)
    return ours


def record_all() -> dict[str, Recorded]:
    """Record every data file as it is now, keeping each one's command."""
    old = current_records()
    records = {p.name: record_of(p, old[p.name].command if p.name in old else HAND_WRITTEN) for p in data_files()}
    write_records(records)
    return records


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__).parse_args(argv)
    records = record_all()
    print(f"{len(records)} data files recorded -> {CHECKSUMS_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
