"""Tone-aware sensitivity: quantise one layer at a time and measure what it does to the tone band and F0;
then keep the most harmful layers in float, one by one, until the whole INT8 build meets the targets. The
choice goes into the ranges file, so every engine builder honours it. Measured on the validation split
(the report uses the test split)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from cantoedge.regression.compare import Comparison, ReferenceRun, compare_builds, render_reference
from cantoedge.regression.targets import INT8_TARGETS, Int8Targets
from cantoedge.runtime.fileio import atomic_write, atomic_write_text
from cantoedge.runtime.graphs import GRAPHS
from cantoedge.runtime.manifest import load_features, read_manifest
from cantoedge.runtime.synth import Voice

from .derive import derive
from .qdq import QUANTISED_OPS, quantise
from .ranges import Ranges


@dataclass(frozen=True)
class LayerEffect:
    graph: str
    node: str
    tone_band_db: float  # median over the utterances, against FP32
    f0_cents: float
    tone_accuracy: float

    def to_json(self) -> dict:
        return asdict(self)


def targets_met(targets: Int8Targets, build: Comparison, fp32: Comparison) -> bool:
    j = build.to_json()
    return all(targets.checks(j["tone_band_db"]["median"], j["f0_cents"]["median"],
                              fp32.tone_accuracy - build.tone_accuracy).values())


def _trial_dir(onnx_dir: Path, work: Path) -> Path:
    """A directory of ``<graph>.int8.onnx`` files that are the FP32 graphs; experiments overwrite one."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    for spec in GRAPHS:
        shutil.copyfile(Path(onnx_dir) / spec.filename(), work / spec.filename("int8"))
    return work


def layer_effects(ranges: Ranges, onnx_dir: Path, ref: ReferenceRun, work: Path, method: str = "entropy",
                  progress: Callable[[Iterable, str], Iterable] | None = None) -> list[LayerEffect]:
    """Each INT8-capable layer (not already protected) quantised alone, everything else FP32."""
    import onnx

    onnx_dir = Path(onnx_dir)
    trial = _trial_dir(onnx_dir, Path(work))
    effects = []
    for spec in GRAPHS:
        g = ranges.graphs[spec.name]
        model = onnx.load(str(onnx_dir / spec.filename()))
        layers = [n.name for n in model.graph.node if n.op_type in QUANTISED_OPS and n.name not in g.fallback]
        for node in progress(layers, f"{spec.name} layers") if progress else layers:
            alone = replace(g, fallback=[n for n in layers if n != node] + g.fallback)
            data = quantise(model, alone, method).SerializeToString()
            atomic_write(trial / spec.filename("int8"), lambda tmp, data=data: Path(tmp).write_bytes(data))
            trial_voice = Voice(trial, "int8", threads=1, float_graphs_allowed=True)  # one layer INT8, the rest FP32
            (c,) = compare_builds(ref, {node: trial_voice}, with_reference=False)
            j = c.to_json()
            effects.append(LayerEffect(spec.name, node, j["tone_band_db"]["median"], j["f0_cents"]["median"],
                                       c.tone_accuracy))
        shutil.copyfile(onnx_dir / spec.filename(), trial / spec.filename("int8"))
    shutil.rmtree(trial)
    return effects


def choose_fallback(ranges: Ranges, onnx_dir: Path, ref: ReferenceRun, effects: list[LayerEffect], work: Path,
                    targets: Int8Targets = INT8_TARGETS, max_layers: int = 24,
                    log: Callable[[str], None] | None = None) -> tuple[Ranges, list[dict]]:
    """Add the most harmful layers to the fallback (tone-band effect first, then F0) until the whole build
    meets ``targets`` on ``ref``'s utterances, or ``max_layers`` are float. Returns the updated ranges and
    the trail of whole-build measurements."""
    (fp32,) = compare_builds(ref, {})
    order = sorted(effects, key=lambda e: (-e.tone_band_db, -e.f0_cents))
    chosen: list[LayerEffect] = []
    trail = []
    while True:
        trial = Ranges(ranges.method, ranges.calibration, {
            name: replace(g, fallback=sorted(set(g.fallback) | {e.node for e in chosen if e.graph == name}))
            for name, g in ranges.graphs.items()})
        derive(trial, onnx_dir, Path(work))
        (build,) = compare_builds(ref, {"int8": Voice(Path(work), "int8", threads=1)}, with_reference=False)
        j = build.to_json()
        step = {"float_layers": [e.node for e in chosen], "tone_band_db": j["tone_band_db"]["median"],
                "f0_cents": j["f0_cents"]["median"], "tone_accuracy": build.tone_accuracy,
                "met": targets_met(targets, build, fp32)}
        trail.append(step)
        if log:
            log(f"{len(chosen)} layers float: tone-band {step['tone_band_db']:.3f} dB, F0 {step['f0_cents']:.2f} "
                f"cents, tone accuracy {100 * build.tone_accuracy:.1f} % (FP32 {100 * fp32.tone_accuracy:.1f} %)")
        if step["met"] or len(chosen) >= min(max_layers, len(order)):
            break
        chosen.append(order[len(chosen)])
    shutil.rmtree(work, ignore_errors=True)
    return trial, trail


def sensitivity_table(effects: list[LayerEffect], chosen: set[str]) -> str:
    lines = ["| graph | layer | tone-band vs FP32 (dB) | F0 RMSE (cents) | tone accuracy | kept float |",
             "|---|---|---|---|---|---|"]
    for e in sorted(effects, key=lambda e: (-e.tone_band_db, -e.f0_cents)):
        lines.append(f"| {e.graph} | `{e.node}` | {e.tone_band_db:.3f} | {e.f0_cents:.2f} | "
                     f"{100 * e.tone_accuracy:.1f} % | {'yes' if e.node in chosen else ''} |")
    return "\n".join(lines) + "\n"


def choose_layers(ranges: Ranges, onnx_dir: Path, corpus_dir: Path, out_dir: Path, utterances: int,
                  method: str, progress: Callable[[Iterable, str], Iterable] | None = None,
                  log: Callable[[str], None] | None = None) -> Ranges:
    """The sensitivity table and the greedy fallback (``OUT/sensitivity.{md,json}``); returns the new ranges."""
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
