"""Atomic file writes: a file either has its old content or its complete new content, never a part."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

Writer = Callable[[str], None]


def _temp_beside(path: Path) -> str:
    """A fresh temporary file in ``path``'s folder (created if missing); errors name ``path``, not the temp."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot write {path}: {exc.strerror or exc}") from None
    os.close(fd)
    return tmp


def atomic_write_all(outputs: Sequence[tuple[Path, Writer]]) -> None:
    """Write every ``(path, write)`` to a temp file beside its path, then rename them all into place: when any
    write fails, no output is touched and no temp file is left (a WAV is never left without its alignment)."""
    temps: list[str] = []
    try:
        for path, write in outputs:
            temps.append(_temp_beside(Path(path)))
            try:
                write(temps[-1])
            except OSError as exc:
                raise OSError(exc.errno, f"cannot write {path}: {exc.strerror or exc}") from None
        for tmp, (path, _) in zip(temps, outputs):
            os.chmod(tmp, 0o644)  # mkstemp makes 0600; results are meant to be shared
            os.replace(tmp, path)
    except BaseException:
        for tmp in temps:
            Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write(path: Path, write: Writer) -> None:
    """Call ``write(tmp_path)`` on a temp file beside ``path``, then rename it into place."""
    atomic_write_all([(Path(path), write)])


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def remove_stale_temps(folder: Path) -> int:
    """Delete the temp files that a killed writer left under ``folder`` (``.<name>.<random>.tmp``); call it
    only where no other writer is running. Returns how many were removed."""
    removed = 0
    for tmp in Path(folder).rglob(".*.tmp"):
        if tmp.is_file():
            tmp.unlink(missing_ok=True)
            removed += 1
    return removed


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file's bytes: how graphs and ranges name the exact file they came from."""
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
