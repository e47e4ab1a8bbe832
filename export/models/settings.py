"""Config dataclasses built from TOML tables, refusing settings this code does not know or of the wrong type."""

from __future__ import annotations

import math
from dataclasses import fields
from typing import TypeVar

T = TypeVar("T")

# the corpus speaker's log-F0 centre and spread: pitch is presented to and predicted by networks on this scale
PITCH_CENTRE, PITCH_SCALE = math.log(90.0), 0.25


def from_table(cls: type[T], data: dict, section: str) -> T:
    unknown = set(data) - {f.name for f in fields(cls)}  # type: ignore[arg-type]
    if unknown:
        raise ValueError(f"unknown [{section}] settings: {sorted(unknown)}")
    for f in fields(cls):  # type: ignore[arg-type]
        wanted = _kind_of(f.default)
        if f.name in data and wanted and not _is_kind(data[f.name], wanted):
            raise ValueError(f"[{section}] {f.name} must be {wanted}, got {data[f.name]!r}")
    return cls(**data)


def _kind_of(default) -> str:
    """What a TOML value for a setting with this default must be ('' where the class checks it itself)."""
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int):
        return "an integer"
    if isinstance(default, float):
        return "a number"
    if isinstance(default, str):
        return "a string"
    return ""


def _is_kind(value, kind: str) -> bool:
    if kind == "true or false":
        return isinstance(value, bool)
    if isinstance(value, bool):  # TOML's true is not the number 1
        return False
    return isinstance(value, {"an integer": int, "a number": (int, float), "a string": str}[kind])
