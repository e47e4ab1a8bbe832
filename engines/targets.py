"""One entry to every builder: `cantoedge build` and the pipeline both build a folder through it."""

from __future__ import annotations

from pathlib import Path

from cantoedge.runtime.enginefolder import TARGETS, EngineManifest


def build_folder(target: str, graphs: Path, precision: str, out: Path, corpus: Path | None = None,
                 rknn_dtype: str = "w8a8", workspace_mb: int = 1024,
                 timing_cache: Path | None = None) -> EngineManifest:
    """Build ``target``'s device folder at ``out`` from the graph folder (each builder imports its toolkit)."""
    if target == "ort":
        from .ort import build_ort

        return build_ort(graphs, precision, out)
    if target == "rknn":
        from .rknn import build_rknn

        return build_rknn(graphs, precision, out, corpus, rknn_dtype)
    if target == "trt":
        from .tensorrt import build_trt

        return build_trt(graphs, precision, out, workspace_mb=workspace_mb, timing_cache=timing_cache)
    raise ValueError(f"unknown target {target!r}; one of {', '.join(TARGETS)}")
