"""The runtime's bundled data files, read by their path beside the package and checked against the size and
CRC-32 recorded for each when it was built (data/checksums.tsv), so a damaged install fails with the file's name
instead of reading text wrong: a truncated dictionary dropped characters silently. importlib.resources cost 15 ms
of imports (tempfile, shutil, zipfile) on every start, and the runtime is installed as files, never run from a
zip; CRC-32 (zlib, 0.3 ms to import) catches damage, which is what this guards against, where hashlib's import
costs 2.5 ms of every start."""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass
from functools import lru_cache

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
DATA_DIR = "data"  # the data files' folder inside the runtime package
CHECKSUMS_FILE = "checksums.tsv"  # in DATA_DIR: file<TAB>bytes<TAB>crc32<TAB>the command that rebuilds it
REINSTALL = "reinstall cantoedge (pip install --force-reinstall)"


class DataFileError(RuntimeError):
    """A bundled data file that is missing, unreadable or not the file the package was built with: a broken
    install, not bad input."""


@dataclass(frozen=True)
class Recorded:
    """What checksums.tsv holds for one data file."""

    size: int
    crc32: str  # 8 lower-case hex digits
    command: str  # the command that rebuilds the file ("" for one written by hand)


def crc32_hex(data: bytes) -> str:
    return f"{zlib.crc32(data):08x}"


def _data_path(file: str) -> str:
    """Where the data file ``file`` ("lexicon.tsv") lies, as errors name it."""
    return os.path.join(PACKAGE_DIR, DATA_DIR, file)


def _read(rel: str) -> bytes:
    path = os.path.join(PACKAGE_DIR, rel)
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise DataFileError(f"cannot read the bundled data file {path}: {exc.strerror or exc}; {REINSTALL}") from None


def parse_checksums(text: str) -> dict[str, Recorded]:
    """checksums.tsv's lines after its ``#`` header, every field checked."""
    recorded: dict[str, Recorded] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or not fields[1].isdigit() or len(fields[2]) != 8 \
                or any(c not in "0123456789abcdef" for c in fields[2]):
            raise DataFileError(f"{_data_path(CHECKSUMS_FILE)} line {number} is damaged "
                                f"(want file, bytes, crc32, command, tab-separated): {line[:80]!r}; {REINSTALL}")
        recorded[fields[0]] = Recorded(int(fields[1]), fields[2], fields[3])
    return recorded


@lru_cache(maxsize=1)
def recorded_checksums() -> dict[str, Recorded]:
    """Every data file's recorded size and CRC-32, read once."""
    data = _read(os.path.join(DATA_DIR, CHECKSUMS_FILE))
    try:
        return parse_checksums(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise DataFileError(f"{_data_path(CHECKSUMS_FILE)} is not UTF-8 text; {REINSTALL}") from None


def check_data_bytes(file: str, data: bytes) -> None:
    """Raise DataFileError unless ``data`` is the data file ``file`` ("lexicon.tsv") as recorded."""
    path = _data_path(file)
    record = recorded_checksums().get(file)
    if record is None:
        raise DataFileError(f"{path} has no size and CRC-32 in {CHECKSUMS_FILE}; {REINSTALL}")
    crc = crc32_hex(data) if len(data) == record.size else None
    if crc != record.crc32:
        found = f"{len(data):,} bytes" + (f" with CRC-32 {crc}" if crc else "")
        rebuild = f", or rebuild it with `{record.command}`" if record.command else ""
        raise DataFileError(f"{path} is damaged: {found} where the package recorded {record.size:,} bytes with "
                            f"CRC-32 {record.crc32} ({CHECKSUMS_FILE}); {REINSTALL}{rebuild}")


def read_package_bytes(name: str) -> bytes:
    """A data file of the runtime package by its path inside it ("data/lexicon.tsv"), checked as recorded."""
    folder, _, file = name.partition("/")
    if folder != DATA_DIR or not file:
        raise ValueError(f"not a data file of the package: {name!r} (want 'data/<file>')")
    data = _read(name)
    check_data_bytes(file, data)
    return data


def read_package_text(name: str) -> str:
    return read_package_bytes(name).decode("utf-8")


def verify_package_data() -> list[str]:
    """Read and check every recorded data file (about 2 MB, a few ms): a voice checks them all when it loads,
    before any synthesis starts, where the frontend reads each on first need. Returns the files' names."""
    files = sorted(recorded_checksums())
    for file in files:
        read_package_bytes(f"{DATA_DIR}/{file}")
    return files
