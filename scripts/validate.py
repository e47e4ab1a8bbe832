"""Validation at the edge, one way for every subcommand: argparse types that check numeric ranges and paths
before any work starts, so a bad option costs one line naming the option, the value and the valid range."""

from __future__ import annotations

import argparse
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from cantoedge.runtime.limits import usable_cores


def _number(kind: type, text: str) -> int | float:
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {'an integer' if kind is int else 'a number'}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text} is not a finite number")
    return value


def _in_range(kind: type, lo: float | None, hi: float | None) -> Callable[[str], int | float]:
    def parse(text: str) -> int | float:
        value = _number(kind, text)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"{text} is outside the valid range {describe_range(lo, hi)}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its own messages
    return parse


def describe_range(lo: float | None, hi: float | None) -> str:
    """How --help and errors state a range: '1..64', '>= 1', '0.25..4'."""
    if lo is not None and hi is not None:
        return f"{lo:g}..{hi:g}"
    return f">= {lo:g}" if lo is not None else f"<= {hi:g}"


def int_in(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer within [lo, hi] (either bound may be open)."""
    return _in_range(int, lo, hi)  # type: ignore[return-value]


def float_in(lo: float | None = None, hi: float | None = None) -> Callable[[str], float]:
    """An argparse type: a finite number within [lo, hi]."""
    return _in_range(float, lo, hi)  # type: ignore[return-value]


def max_threads() -> int:
    """More threads than usable cores only slows inference down (1000 threads ran for minutes)."""
    return usable_cores()


def existing_file(text: str) -> str:
    """An argparse type: a readable file that exists."""
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{text}: {'is a directory' if path.is_dir() else 'no such file'}")
    if not os.access(path, os.R_OK):
        raise argparse.ArgumentTypeError(f"{text}: not readable")
    return text


def existing_dir(text: str) -> str:
    """An argparse type: a directory that exists."""
    if not Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"{text}: no such directory")
    return text


def graph_dir(text: str) -> str:
    """An argparse type: a graph directory that exists, or a hint at the command that makes one."""
    if not Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"{text}: no such directory (make the graphs with `cantoedge export`)")
    return text


def _writable_dir(directory: Path) -> str | None:
    """Why ``directory`` (or the nearest ancestor that exists) cannot take new files, or None if it can."""
    probe = directory
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        return f"{probe} is not a directory"
    try:  # os.access says yes to root even where the kernel says no (/proc): ask the kernel
        with tempfile.TemporaryFile(dir=probe):
            pass
    except OSError as exc:
        return f"cannot create files in {probe} ({exc.strerror or exc})"
    return None


def output_file(text: str) -> str:
    """An argparse type: a file path that can be written (its folder is created when it is written)."""
    if text == "-":
        return text
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a directory, not a file")
    problem = _writable_dir(path.parent if str(path.parent) else Path("."))
    if problem:
        raise argparse.ArgumentTypeError(f"{text}: {problem}")
    return text


WAV_SUFFIXES = ("", ".wav", ".wave")  # what the speaking commands write: 16-bit PCM WAV, nothing else


def wav_output(text: str) -> str:
    """An argparse type: an output_file for a WAV (or - for standard output); a name asking for another format
    (out.mp3, out.flac) is refused, since a WAV written under it would be mislabelled."""
    text = output_file(text)
    suffix = Path(text).suffix if text != "-" else ""
    if suffix.lower() not in WAV_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"{text}: the audio is written as WAV (22,050 Hz, 16-bit), not {suffix}; name it .wav and convert it "
            f"(e.g. ffmpeg -i {Path(text).with_suffix('.wav').name} {Path(text).name})")
    return text


def output_dir(text: str) -> str:
    """An argparse type: a directory that exists and can be written, or can be created."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} exists and is not a directory")
    problem = _writable_dir(path)
    if problem:
        raise argparse.ArgumentTypeError(f"{text}: {problem}")
    return text


def named_path(must_exist: str | None = None) -> Callable[[str], tuple[str, str]]:
    """An argparse type: NAME=PATH, e.g. teacher=runs/teacher/model.safetensors; ``must_exist`` 'file' or
    'dir' also checks the path."""

    def parse(text: str) -> tuple[str, str]:
        name, sep, path = text.partition("=")
        if not sep or not name or not path:
            raise argparse.ArgumentTypeError(f"takes NAME=PATH, got {text!r}")
        if must_exist == "file":
            existing_file(path)
        elif must_exist == "dir":
            existing_dir(path)
        return name, path

    parse.__name__ = "NAME=PATH"
    return parse
