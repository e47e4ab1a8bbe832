"""The device side's input limits, defined once: the CLI, the Python API and the README state these."""

from __future__ import annotations

import math
import os

MAX_TEXT_CHARS = 20_000  # longer text is refused before any work (a book is many requests, not one)
SPEED_MIN, SPEED_MAX = 0.25, 4.0  # speaking rate, durations divided by it (OpenAI's speech API range)


def finite_within(value, lo: float, hi: float) -> bool:
    """A real number (not a bool, not NaN or infinite) within [lo, hi]: every numeric setting's test."""
    return (not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)
            and lo <= value <= hi)


def whole_at_least(value, lo: int) -> bool:
    """A whole number (not a bool) of at least ``lo``: every count setting's test."""
    return not isinstance(value, bool) and isinstance(value, int) and value >= lo


def check_speed(speed: float) -> float:
    """The speaking rate, or a ValueError naming the valid range (0.01 made 20 minutes of 60 characters)."""
    if not finite_within(speed, SPEED_MIN, SPEED_MAX):
        raise ValueError(f"speed must be within {SPEED_MIN:g}..{SPEED_MAX:g}, got {speed!r}")
    return float(speed)


def check_text(text: str) -> str:
    """Text within MAX_TEXT_CHARS, refused before the frontend spends time on it."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        raise ValueError(f"text is {len(text):,} characters; the limit is {MAX_TEXT_CHARS:,} (split it)")
    return text


def usable_cores() -> int:
    """The cores this process may run on (a container's CPU set, not the host's): the most threads worth asking
    for, and what the voice's default windows at once are counted from."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def check_threads(threads: int | None) -> int | None:
    """A voice's window threads: None (the default) or a whole number from 1, checked before any graph loads."""
    if threads is not None and not whole_at_least(threads, 1):
        raise ValueError(f"threads must be a whole number of at least 1 (or None), got {threads!r}")
    return threads
