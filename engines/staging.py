"""Builds write into a hidden folder beside their output and rename it into place at the end: an interrupted
build leaves the previous folder as it was and nothing half-written."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def staged_folder(out: Path) -> Iterator[Path]:
    """Yield an empty work folder; on success it replaces ``out`` whole, on any error or interrupt it goes."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} exists and is not a folder")
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out.name}.building-", dir=out.parent))
    try:
        yield work
        os.chmod(work, 0o755)  # mkdtemp makes 0700; a voice folder is meant to be shared
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
            os.replace(out, old / out.name)
            os.replace(work, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(work, out)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def carry_eval_bundle(graph_dir: Path, work: Path) -> None:
    """The evaluation bundle beside the graphs (`cantoedge corpus eval-bundle`) travels with the engines, so
    `cantoedge regress` on the device finds it in the folder."""
    from cantoedge.regression.evalbundle import BUNDLE_FILE

    bundle = Path(graph_dir) / BUNDLE_FILE
    if bundle.is_file():
        shutil.copyfile(bundle, Path(work) / BUNDLE_FILE)
