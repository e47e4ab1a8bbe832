"""``cantoedge calibrate``: measure the ranges once on the tone-balanced calibration set, write the ranges
file, and derive from it the INT8 Q/DQ graphs and the TensorRT calibration caches."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

import numpy as np

from cantoedge.runtime.fileio import file_sha256
from cantoedge.runtime.graphs import GRAPHS, GraphSpec
from cantoedge.runtime.jyutping import TONES
from cantoedge.runtime.manifest import read_manifest
from cantoedge.runtime.synth import Voice

from .collect import Utterance, collect_histograms, graph_inputs
from .derive import RANGES_FILE, Int8Build, derive
from .entropy import N_BINS, entropy_amax, percentile_amax
from .equalise import EQUALISED
from .qdq import QUANTISED_OPS
from .ranges import GraphRanges, Ranges
from .sensitivity import choose_layers

PERCENTILE = 99.99
# Layers that stay float in every build (any node whose name contains one of these): quantising the duration
# path changed output lengths in 22 of 30 inputs (DESIGN.md); the pitch heads (per token in the encoder, per
# frame in the decoder), the encoder's pitch projection and the vocoder's pitch input carry the tone contour;
# and the vocoder's depthwise convolutions are under 1 % of its multiply-adds, so INT8 cannot speed them up
# anywhere, while onnxruntime's CPU provider runs them as DequantizeLinear + float Conv (it fuses QLinearConv
# only when the output is quantised, and a LayerNorm follows). Measured with graph v3: without their Q/DQ the
# INT8 decoder+vocoder windows went from 1.20x to 1.32x FP32's speed and the tone-band error from 0.276 to
# 0.186 dB. The decoder's stay as the sensitivity run chose: all float, they bent the INT8 voice's tone-2 rise
# in the carrier from 0.60 to 0.49 semitone.
ALWAYS_FLOAT = {"encoder": ("/encoder/duration/", "/encoder/pitch/", "/encoder/pitch_proj/"),
                "decoder": ("/pitch_out/",), "vocoder": ("/pitch_embed/", "/dwconv/")}


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
    patterns = ALWAYS_FLOAT.get(spec.name, ())
    return sorted(n.name for n in model.graph.node
                  if n.op_type in QUANTISED_OPS and any(p in n.name for p in patterns))


def measure_ranges(onnx_dir: Path, utterances: list[Utterance], method: str = "entropy",
                   source: str = "", progress: Callable[[Iterable, str], Iterable] | None = None) -> Ranges:
    """Histograms of every float activation of the FP32 graphs, reduced to max, percentile and entropy."""
    import onnx

    onnx_dir = Path(onnx_dir)
    feeds = graph_inputs(Voice(onnx_dir, "fp32"), utterances)  # one onnxruntime thread a call: same bits anywhere
    graphs = {}
    for spec in GRAPHS:
        path = onnx_dir / spec.filename()
        model = onnx.load(str(path))
        equalised = {n.name: n.output[0] for n in model.graph.node if n.name in EQUALISED.get(spec.name, ())}
        hists, peaks = collect_histograms(model, feeds[spec.name], progress, equalised.values())
        amax = {name: {"max": h.peak, "percentile": percentile_amax(h, PERCENTILE), "entropy": entropy_amax(h)}
                for name, h in hists.items()}
        inputs = {n.name: n.input[0] for n in model.graph.node if n.op_type in QUANTISED_OPS}
        graphs[spec.name] = GraphRanges(file_sha256(path), amax, protected_nodes(spec, model), inputs,
                                        {node: peaks[out].tolist() for node, out in equalised.items()})
    calibration = {"set": source, "utterances": len(utterances), "bins": N_BINS, "percentile": PERCENTILE,
                   "windows": {name: len(f) for name, f in feeds.items()}}
    return Ranges(method, calibration, graphs)


def calibrate_voice(onnx_dir: Path, corpus_dir: Path, out_dir: Path, method: str = "entropy",
                    limit: int | None = None, sensitivity: int = 0,
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
    ranges = measure_ranges(onnx_dir, utterances, method, source, progress)
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
    if not isinstance(fallback, dict) or not all(
            isinstance(layers, list) and all(isinstance(n, str) for n in layers) for layers in fallback.values()):
        raise ValueError('a fallback is {graph: [layer name, ...]}, e.g. {"vocoder": ["/embed/Conv"]}; got '
                         f"{json.dumps(fallback)[:80]}")
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
        graphs[name] = replace(g, fallback=sorted(set(g.fallback) | set(layers)))
    return Ranges(ranges.method, ranges.calibration, graphs)
