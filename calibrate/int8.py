"""``cantoedge calibrate``: measure the ranges once on the tone-balanced calibration set, write the ranges
file, and derive from it the INT8 Q/DQ graphs and the TensorRT calibration caches."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cantoedge.runtime.fileio import atomic_write, atomic_write_text, file_sha256
from cantoedge.runtime.graphs import GRAPHS, META_PREFIX, GraphSpec
from cantoedge.runtime.jyutping import TONES
from cantoedge.runtime.manifest import load_features, read_manifest
from cantoedge.runtime.synth import Voice

from .collect import Utterance, collect_histograms, graph_inputs
from .entropy import N_BINS, entropy_amax, percentile_amax
from .qdq import QUANTISED_OPS, quantise, quantised_nodes
from .ranges import GraphRanges, Ranges
from .trtcache import CalibrationCache, write_cache

PERCENTILE = 99.99
RANGES_FILE = "ranges.json"
# The duration and pitch heads stay float in every build: quantising the duration path changed output
# lengths in 22 of 30 inputs (DESIGN.md), and the pitch heads (per token in the encoder, per frame in the
# decoder), the encoder's pitch projection and the vocoder's pitch input carry the tone contour.
ALWAYS_FLOAT = {"encoder": ("/encoder/duration/", "/encoder/pitch/", "/encoder/pitch_proj/"),
                "decoder": ("/pitch_out/",), "vocoder": ("/pitch_embed/",)}


@dataclass(frozen=True)
class Int8Build:
    ranges: Path
    graphs: dict[str, Path]  # graph name -> INT8 Q/DQ ONNX
    caches: dict[str, Path]  # graph name -> TensorRT calibration cache
    quantised: dict[str, int]  # graph name -> ops running in INT8


def calibration_utterances(source: Path, limit: int | None = None) -> tuple[list[Utterance], str]:
    """The calibration set chosen by ``cantoedge corpus calib-set`` (its ids, in order), from a corpus folder
    (CORPUS/calib_set.json) or a calib_set.json file. A file that carries its utterances' tokens and tones is
    self-contained: the bundled voice's (export/voice/calib_set.json) calibrates without the corpus."""
    source = Path(source)
    path = source if source.suffix == ".json" else source / "calib_set.json"
    if not path.exists():
        raise FileNotFoundError(f"no calibration set at {path}: run `cantoedge corpus calib-set --corpus "
                                f"{path.parent}` first")
    if limit is not None and limit < 1:
        raise ValueError(f"the calibration limit must be at least 1 utterance, got {limit}")
    data = json.loads(path.read_text("utf-8"))
    # named by content, not by path: the corpus's file and a self-contained copy give the same ranges file
    digest = hashlib.sha256(json.dumps(data["ids"][:limit]).encode()).hexdigest()[:16]
    source = f"calib_set.json ids sha256:{digest}"
    if "utterances" in data:
        chosen = [(u["tokens"], u["tones"]) for u in data["utterances"][:limit]]
    else:
        ids = data["ids"][:limit]
        records = {r.id: r for r in read_manifest(path.parent)}
        missing = [i for i in ids if i not in records]
        if missing:
            raise ValueError(f"{path} names utterances the corpus lacks: {', '.join(missing[:5])}")
        chosen = [(records[i].tokens, records[i].tones) for i in ids]
    uncovered = sorted(set(TONES) - {t for _, tones in chosen for t in tones})
    if uncovered:
        raise ValueError(f"the calibration set ({len(chosen)} utterances from {path}) never says tone "
                         f"{', '.join(map(str, uncovered))}: INT8 ranges from it would not cover every tone; "
                         "calibrate on more utterances (--limit) or rebuild it with `cantoedge corpus calib-set`")
    return [Utterance(np.asarray(t, np.int32), np.asarray(z, np.int8)) for t, z in chosen], source


def protected_nodes(spec: GraphSpec, model) -> list[str]:
    prefixes = ALWAYS_FLOAT.get(spec.name, ())
    return sorted(n.name for n in model.graph.node
                  if n.op_type in QUANTISED_OPS and n.name.startswith(prefixes)) if prefixes else []


def measure_ranges(onnx_dir: Path, utterances: list[Utterance], method: str = "entropy",
                   source: str = "", threads: int | None = None,
                   progress: Callable[[Iterable, str], Iterable] | None = None) -> Ranges:
    """Histograms of every float activation of the FP32 graphs, reduced to max, percentile and entropy."""
    import onnx


    onnx_dir = Path(onnx_dir)
    feeds = graph_inputs(Voice(onnx_dir, "fp32", threads), utterances)
    graphs = {}
    for spec in GRAPHS:
        path = onnx_dir / spec.filename()
        model = onnx.load(str(path))
        hists = collect_histograms(model, feeds[spec.name], threads, progress)
        amax = {name: {"max": h.peak, "percentile": percentile_amax(h, PERCENTILE), "entropy": entropy_amax(h)}
                for name, h in hists.items()}
        inputs = {n.name: n.input[0] for n in model.graph.node if n.op_type in QUANTISED_OPS}
        graphs[spec.name] = GraphRanges(file_sha256(path), amax, protected_nodes(spec, model), inputs)
    calibration = {"set": source, "utterances": len(utterances), "bins": N_BINS, "percentile": PERCENTILE,
                   "windows": {name: len(f) for name, f in feeds.items()}}
    return Ranges(method, calibration, graphs)


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
            g = GraphRanges(g.sha256, g.amax, [], g.inputs)
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


def calibrate_voice(onnx_dir: Path, corpus_dir: Path, out_dir: Path, method: str = "entropy",
                    limit: int | None = None, threads: int | None = None, sensitivity: int = 0,
                    fallback: dict[str, list[str]] | None = None,
                    progress: Callable[[Iterable, str], Iterable] | None = None,
                    log: Callable[[str], None] | None = None, calib_set: Path | None = None) -> Int8Build:
    """Ranges on the calibration set; then either the per-layer sensitivity table and the fallback that meets
    the targets (``sensitivity`` > 0 validation utterances) or a fallback chosen earlier (``fallback``,
    graph -> layer names); then the derived INT8 graphs and caches."""
    out_dir = Path(out_dir)
    if fallback:
        check_fallback(onnx_dir, fallback)  # before minutes of measuring
    utterances, source = calibration_utterances(calib_set or corpus_dir, limit)
    ranges = measure_ranges(onnx_dir, utterances, method, source, threads, progress)
    if fallback:
        ranges = with_fallback(ranges, onnx_dir, fallback)
    ranges.save(out_dir / RANGES_FILE)
    if sensitivity > 0:
        ranges = choose_layers(ranges, onnx_dir, corpus_dir, out_dir, sensitivity, method, progress, log)
        ranges.save(out_dir / RANGES_FILE)
    return derive(ranges, onnx_dir, out_dir, method)


def check_fallback(onnx_dir: Path, fallback: dict[str, list[str]]) -> None:
    """Every name must be an INT8-capable layer of its graph."""
    import onnx

    names = [spec.name for spec in GRAPHS]
    for name, layers in fallback.items():
        if name not in names:
            raise ValueError(f"fallback names a graph {name!r}; the graphs are {', '.join(names)}")
        model = onnx.load(str(Path(onnx_dir) / f"{name}.onnx"))
        capable = {n.name for n in model.graph.node if n.op_type in QUANTISED_OPS}
        unknown = sorted(set(layers) - capable)
        if unknown:
            raise ValueError(f"fallback layers not in the {name} graph: {', '.join(unknown[:5])}")


def with_fallback(ranges: Ranges, onnx_dir: Path, fallback: dict[str, list[str]]) -> Ranges:
    """``ranges`` with more layers kept float."""
    check_fallback(onnx_dir, fallback)
    graphs = dict(ranges.graphs)
    for name, layers in fallback.items():
        g = graphs[name]
        graphs[name] = GraphRanges(g.sha256, g.amax, sorted(set(g.fallback) | set(layers)), g.inputs)
    return Ranges(ranges.method, ranges.calibration, graphs)


def choose_layers(ranges: Ranges, onnx_dir: Path, corpus_dir: Path, out_dir: Path, utterances: int,
                  method: str, progress: Callable[[Iterable, str], Iterable] | None = None,
                  log: Callable[[str], None] | None = None) -> Ranges:
    """The sensitivity table and the greedy fallback (``OUT/sensitivity.{md,json}``); returns the new ranges."""
    from cantoedge.regression.compare import render_reference

    from .sensitivity import choose_fallback, layer_effects, sensitivity_table

    records = [r for r in read_manifest(Path(corpus_dir)) if r.split == "val"][:utterances]
    if not records:
        raise ValueError(f"{corpus_dir} has no validation utterances for the sensitivity analysis")
    ref = render_reference(Voice(onnx_dir, "fp32", threads=1), records, lambda r: load_features(Path(corpus_dir), r))
    effects = layer_effects(ranges, onnx_dir, ref, out_dir / ".sensitivity", method, progress)
    chosen, trail = choose_fallback(ranges, onnx_dir, ref, effects, out_dir / ".fallback", log=log)
    before = {n for g in ranges.graphs.values() for n in g.fallback}
    new = {n for g in chosen.graphs.values() for n in g.fallback} - before
    atomic_write_text(out_dir / "sensitivity.md", sensitivity_table(effects, new))
    atomic_write_text(out_dir / "fallback.json", json.dumps(
        {name: g.fallback for name, g in chosen.graphs.items()}, indent=1, sort_keys=True) + "\n")
    atomic_write_text(out_dir / "sensitivity.json", json.dumps(
        {"utterances": len(records), "split": "val", "layers": [e.to_json() for e in effects], "trail": trail},
        indent=1) + "\n")
    return chosen
