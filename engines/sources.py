"""What a build starts from: the exported graphs of one precision in a graph folder (`cantoedge export` and
`cantoedge calibrate` write them), the ranges file and the layers it keeps in float."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cantoedge.runtime.graphs import GRAPHS

RANGES_FILE = "ranges.json"


@dataclass(frozen=True)
class BuildSources:
    folder: Path
    graphs: dict[str, Path]  # graph name -> the ONNX file a backend builds from
    ranges: Path | None  # the ONE ranges file, for INT8 builds
    float_layers: dict[str, list[str]]  # graph name -> node names every builder keeps in float

    def files(self) -> list[Path]:
        """Every input the build read, for the manifest's hashes."""
        return [*self.graphs.values(), *([self.ranges] if self.ranges else [])]


def find_sources(folder: Path, precision: str, qdq: bool) -> BuildSources:
    """FP32 graphs for fp32/fp16 builds; for int8, the Q/DQ graphs (``qdq``: ONNX Runtime, TensorRT's explicit
    INT8) or the FP32 graphs a toolkit calibrates itself (RKNN, TensorRT's implicit INT8), plus the ranges."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"no graph folder at {folder}: run `cantoedge export --out {folder}` first")
    suffix = "int8" if precision == "int8" and qdq else "fp32"
    graphs = {spec.name: folder / spec.filename(suffix) for spec in GRAPHS}
    missing = [str(p) for p in graphs.values() if not p.is_file()]
    if missing:
        make = "cantoedge calibrate" if suffix == "int8" else "cantoedge export"
        raise FileNotFoundError(f"missing {', '.join(missing)}: run `{make}` for {folder} first")
    if precision != "int8":
        return BuildSources(folder, graphs, None, {})
    from cantoedge.calibrate.ranges import Ranges

    ranges_path = folder / RANGES_FILE
    if not ranges_path.is_file():
        raise FileNotFoundError(f"no {RANGES_FILE} in {folder}: run `cantoedge calibrate --onnx {folder}` first")
    ranges = Ranges.load(ranges_path)
    # a toolkit that calibrates the FP32 graph itself has one scale per tensor: the equalised layers stay float
    return BuildSources(folder, graphs, ranges_path, {name: list(g.fallback) if qdq else g.per_tensor_fallback()
                                                      for name, g in ranges.graphs.items()})


def check_layer_names(graph: str, wanted: list[str], present: set[str], where: str) -> None:
    """A fallback or range name that a parser or fuser renamed would silently quantise a protected layer:
    fail the build, naming the layers that disappeared."""
    lost = sorted(set(wanted) - present)
    if lost:
        raise RuntimeError(f"{len(lost)} layer(s) of the {graph} graph kept in float are not in {where} "
                           f"(renamed or fused away): {', '.join(lost[:5])}; the build would quantise them")
