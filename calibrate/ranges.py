"""The ONE ranges file: every activation's threshold by each method, and the layers kept in float. The
Q/DQ graphs, the TensorRT caches and the RKNN builds are all derived from it."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cantoedge.runtime.fileio import atomic_write_text

RANGES_VERSION = 1
METHODS = ("max", "percentile", "entropy")


@dataclass
class GraphRanges:
    sha256: str  # of the FP32 graph the ranges were measured on
    amax: dict[str, dict[str, float]]  # tensor -> method -> threshold (max |x| kept)
    fallback: list[str] = field(default_factory=list)  # node names every builder keeps in float
    inputs: dict[str, str] = field(default_factory=dict)  # INT8-capable node -> the activation it reads
    # equalised convolution (calibrate/equalise.py) -> max |y| of each of its output channels
    channel_peaks: dict[str, list[float]] = field(default_factory=dict)

    def thresholds(self, method: str) -> dict[str, float]:
        if method not in METHODS:
            raise ValueError(f"unknown range method {method!r}; one of {', '.join(METHODS)}")
        return {name: by_method[method] for name, by_method in self.amax.items()}

    def per_tensor_fallback(self) -> list[str]:
        """The layers a build with one scale per tensor and no graph of its own (TensorRT's implicit calibrator)
        keeps float: the fallback and every equalised convolution, whose channel scales only the Q/DQ graph has."""
        return sorted(set(self.fallback) | set(self.channel_peaks))


@dataclass
class Ranges:
    method: str  # the one the derived graphs and caches use
    calibration: dict  # what was measured on: set, utterances, bins, percentile
    graphs: dict[str, GraphRanges]
    version: int = RANGES_VERSION

    def check(self, source: str | Path = "ranges") -> Ranges:
        """Refuse thresholds that are zero or not finite: they quantise a tensor to nothing (a calibration on
        no data wrote all zeros, and its INT8 graphs spoke pure silence)."""
        bad = [(graph, tensor, method) for graph, g in self.graphs.items() for tensor, by in g.amax.items()
               for method, value in by.items() if not (math.isfinite(value) and value > 0)]
        bad += [(graph, node, "channel peaks") for graph, g in self.graphs.items()
                for node, peaks in g.channel_peaks.items() if not all(math.isfinite(p) and p >= 0 for p in peaks)]
        if bad:
            graph, tensor, method = bad[0]
            raise ValueError(f"{source}: {len(bad)} thresholds are zero or not finite (first: {graph} {tensor} "
                             f"{method}): the calibration data never reached those activations; calibrate again "
                             "on more utterances")
        return self

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, sort_keys=True) + "\n"

    def save(self, path: Path) -> None:
        atomic_write_text(Path(path), self.check(path).to_json())

    @classmethod
    def load(cls, path: Path) -> Ranges:
        path = Path(path)
        try:
            data = json.loads(path.read_text("utf-8"))
            if data.get("version") != RANGES_VERSION:
                raise ValueError(f"version {data.get('version')}, this code reads {RANGES_VERSION}")
            graphs = {name: GraphRanges(**g) for name, g in data["graphs"].items()}
            ranges = cls(data["method"], data["calibration"], graphs)
        except (OSError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path} is not a readable cantoedge ranges file: {exc}") from exc
        if ranges.method not in METHODS:
            raise ValueError(f"{path}: unknown method {ranges.method!r}")
        return ranges.check(path)
