"""Config dataclasses built from TOML tables, refusing settings this code does not know."""

from __future__ import annotations

from dataclasses import fields
from typing import TypeVar

T = TypeVar("T")


def from_table(cls: type[T], data: dict, section: str) -> T:
    unknown = set(data) - {f.name for f in fields(cls)}  # type: ignore[arg-type]
    if unknown:
        raise ValueError(f"unknown [{section}] settings: {sorted(unknown)}")
    return cls(**data)
