"""The runtime's bundled data files, read by their path beside the package: importlib.resources cost 15 ms of
imports (tempfile, shutil, zipfile) on every start, and the runtime is installed as files, never run from a zip."""

from __future__ import annotations

import os

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def read_package_bytes(name: str) -> bytes:
    """A file of the runtime package by its path inside it ("data/lexicon.tsv")."""
    with open(os.path.join(PACKAGE_DIR, name), "rb") as f:
        return f.read()


def read_package_text(name: str) -> str:
    return read_package_bytes(name).decode("utf-8")
