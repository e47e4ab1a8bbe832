"""From a ranges file to the INT8 Q/DQ graphs and the TensorRT calibration caches: the one step every
calibration, sensitivity trial and report variant shares."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from cantoedge.runtime.fileio import atomic_write, file_sha256
from cantoedge.runtime.graphs import GRAPHS, META_PREFIX

from .equalise import EQUALISED
from .qdq import quantise, quantised_nodes
from .ranges import Ranges
from .trtcache import CalibrationCache, write_cache

RANGES_FILE = "ranges.json"


@dataclass(frozen=True)
class Int8Build:
    ranges: Path
    graphs: dict[str, Path]  # graph name -> INT8 Q/DQ ONNX
    caches: dict[str, Path]  # graph name -> TensorRT calibration cache
    quantised: dict[str, int]  # graph name -> ops running in INT8


def derive(ranges: Ranges, onnx_dir: Path, out_dir: Path, method: str | None = None,
           graph_names: Iterable[str] | None = None, suffix: str = "int8", fallback: bool = True) -> Int8Build:
    """INT8 Q/DQ graphs (``<graph>.<suffix>.onnx``) and TensorRT caches from the ranges file's thresholds;
    ``fallback=False`` quantises every capable layer (plain PTQ, for comparison)."""
    import onnx


    onnx_dir, out_dir = Path(onnx_dir), Path(out_dir)
    method = method or ranges.method
    wanted = set(graph_names or ranges.graphs)
    graphs, caches, quantised = {}, {}, {}
    ranges_path = out_dir / RANGES_FILE
    for spec in GRAPHS:
        if spec.name not in wanted:
            continue
        source = onnx_dir / spec.filename()
        g = ranges.graphs[spec.name]
        if file_sha256(source) != g.sha256:
            raise ValueError(f"{source} is not the graph the ranges were measured on; run `cantoedge calibrate` again")
        model = onnx.load(str(source))
        if not fallback:
            g = replace(g, fallback=[])
        unmeasured = sorted(n.name for n in model.graph.node if n.name in EQUALISED.get(spec.name, ())
                            and n.name not in g.fallback and n.name not in g.channel_peaks)
        if unmeasured:  # quantised with one scale it would bend the tones (calibrate/equalise.py)
            raise ValueError(f"the ranges file has no channel peaks for {', '.join(unmeasured)} of the {spec.name} "
                             "graph (it predates channel equalisation); run `cantoedge calibrate` again")
        q = quantise(model, g, method)
        q.metadata_props.add(key=META_PREFIX + "precision", value=suffix)
        q.metadata_props.add(key=META_PREFIX + "range_method", value=method)
        q.metadata_props.add(key=META_PREFIX + "fallback", value=json.dumps(g.fallback))
        onnx.checker.check_model(q, full_check=True)
        data = q.SerializeToString(deterministic=True)
        path = out_dir / spec.filename(suffix)
        atomic_write(path, lambda tmp, data=data: Path(tmp).write_bytes(data))
        graphs[spec.name], quantised[spec.name] = path, len(quantised_nodes(q))
        cache = out_dir / f"{spec.name}.calib.cache"
        # every range goes in; the builders keep the fallback layers float by name (from the ranges file)
        write_cache(cache, CalibrationCache.from_amax(g.thresholds(method)))
        caches[spec.name] = cache
    return Int8Build(ranges_path, graphs, caches, quantised)
