"""TensorRT's calibration cache, in its own text format: a ``TRT-<version>-EntropyCalibration2`` header, then
one ``<tensor>: <scale>`` line per tensor, the scale (amax / 127) as big-endian float32 hex. JetPack 5/6's
TensorRT 8.5/10.3 read it with the implicit INT8 calibrator; nothing here needs TensorRT."""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path

from cantoedge.runtime.fileio import atomic_write_text

ALGORITHM = "EntropyCalibration2"
DEFAULT_TRT_VERSION = 8503  # JetPack 5.1's TensorRT 8.5.3; the header is informational for 8.x and 10.x
_HEADER = re.compile(r"^TRT-(\d+)-(\w+)$")
_LINE = re.compile(r"^(.+): ([0-9a-fA-F]{8})$")


@dataclass(frozen=True)
class CalibrationCache:
    scales: dict[str, float]  # tensor name -> scale (amax / 127)
    trt_version: int = DEFAULT_TRT_VERSION
    algorithm: str = ALGORITHM

    @classmethod
    def from_amax(cls, amax: dict[str, float], trt_version: int = DEFAULT_TRT_VERSION) -> CalibrationCache:
        return cls({name: value / 127.0 for name, value in amax.items()}, trt_version)

    def amax(self) -> dict[str, float]:
        return {name: scale * 127.0 for name, scale in self.scales.items()}

    def to_text(self) -> str:
        lines = [f"TRT-{self.trt_version}-{self.algorithm}"]
        for name in sorted(self.scales):
            lines.append(f"{name}: {struct.pack('>f', self.scales[name]).hex()}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str, source: str = "cache") -> CalibrationCache:
        lines = [line.rstrip("\r") for line in text.splitlines() if line.strip()]
        if not lines or not (head := _HEADER.match(lines[0])):
            raise ValueError(f"{source}: not a TensorRT calibration cache (first line {lines[:1]!r})")
        scales = {}
        for number, line in enumerate(lines[1:], start=2):
            match = _LINE.match(line)
            if not match:
                raise ValueError(f"{source}:{number}: expected '<tensor>: <8 hex digits>', got {line!r}")
            (scales[match.group(1)],) = struct.unpack(">f", bytes.fromhex(match.group(2)))
        return cls(scales, int(head.group(1)), head.group(2))


def write_cache(path: Path, cache: CalibrationCache) -> None:
    atomic_write_text(Path(path), cache.to_text())


def read_cache(path: Path) -> CalibrationCache:
    return CalibrationCache.from_text(Path(path).read_text("utf-8"), str(path))
