"""Config dataclasses built from TOML tables, refusing settings this code does not know."""

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
    return cls(**data)
