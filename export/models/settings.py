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
        kind = _kind_of(f.default)
        if f.name in data and kind and not _is_kind(data[f.name], kind[0]):
            raise ValueError(f"[{section}] {f.name} must be {kind[1]}, got {data[f.name]!r}")
    return cls(**data)


# A setting's default type -> the TOML values it takes and their name; bool first, as a bool is also an int.
_KINDS = ((bool, (bool,), "true or false"), (int, (int,), "an integer"), (float, (int, float), "a number"),
          (str, (str,), "a string"))


def _kind_of(default) -> tuple[tuple[type, ...], str] | None:
    """The value types a setting with this default takes, and their name (None where the class checks it)."""
    return next(((accepted, name) for cls, accepted, name in _KINDS if isinstance(default, cls)), None)


def _is_kind(value, accepted: tuple[type, ...]) -> bool:
    return isinstance(value, accepted) and (bool in accepted or not isinstance(value, bool))  # TOML true is not 1
