"""The INT8 report: every build derived from the one ranges file (PTQ with max, percentile and entropy
ranges, entropy with the fallback layers, and QAT when there is one) against the FP32 graphs on the same
held-out utterances, with file sizes and onnxruntime CPU latency. JSON for machines, Markdown for people."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from cantoedge.regression.compare import Comparison, compare_builds, render_reference
from cantoedge.regression.latency import Latency, benchmark, typical_feeds
from cantoedge.regression.targets import INT8_TARGETS
from cantoedge.regression.toneset import corpus_speaker_stats
from cantoedge.runtime.fileio import atomic_write_text
from cantoedge.runtime.graphs import GRAPHS
from cantoedge.runtime.manifest import load_features, split_records
from cantoedge.runtime.synth import Voice

from .derive import RANGES_FILE, derive
from .ranges import Ranges

PTQ_VARIANTS = {"ptq-max": ("max", False), "ptq-percentile": ("percentile", False),
                "ptq-entropy": ("entropy", False), "ptq-entropy+fallback": ("entropy", True)}


@dataclass
class Report:
    comparisons: list[Comparison]
    latency: list[Latency]
    sizes: dict[str, dict[str, int]]  # build -> graph -> bytes
    fallback: dict[str, list[str]]
    calibration: dict

    def to_json(self) -> dict:
        return {"targets": INT8_TARGETS.to_json(), "calibration": self.calibration, "fallback": self.fallback,
                "accuracy": [c.to_json() for c in self.comparisons],
                "latency": [t.to_json() for t in self.latency], "sizes": self.sizes,
                "speedup": self.speedups(), "targets_met": self.targets_met()}

    def speedups(self) -> dict[str, dict[str, float]]:
        """FP32 / build median latency of decoder chunk + vocoder chunk, per thread count."""
        def total(build: str, threads: int) -> float:
            return sum(t.median_ms for t in self.latency
                       if t.build == build and t.threads == threads and t.graph in ("decoder", "vocoder"))

        threads = sorted({t.threads for t in self.latency})
        builds = [b for b in dict.fromkeys(t.build for t in self.latency) if b != "fp32"]
        return {b: {str(n): total("fp32", n) / total(b, n) for n in threads} for b in builds}

    def targets_met(self) -> dict[str, dict[str, bool]]:
        fp32 = next(c for c in self.comparisons if c.name == "fp32")
        out = {}
        for c in self.comparisons:
            if c.name == "fp32":
                continue
            j = c.to_json()
            out[c.name] = {
                **INT8_TARGETS.checks(j["tone_band_db"]["median"], j["f0_cents"]["median"],
                                      fp32.tone_accuracy - c.tone_accuracy),
                "speedup": min(self.speedups().get(c.name, {"0": 0.0}).values()) >= INT8_TARGETS.speedup}
        return out

    def markdown(self) -> str:
        fp32 = next(c for c in self.comparisons if c.name == "fp32")
        speed = self.speedups()
        threads = sorted({t.threads for t in self.latency})
        lines = ["| build | tone-band vs FP32 (dB) | F0 RMSE vs FP32 (cents) | tone accuracy | mel L1 vs FP32 "
                 "| durations changed | size (MB) | " + " | ".join(f"dec+voc speed-up, {n} thr" for n in threads)
                 + " |", "|---" * (7 + len(threads)) + "|"]
        for c in self.comparisons:
            j = c.to_json()
            size = sum(self.sizes.get(c.name, {}).values()) / 1e6
            drop = "" if c is fp32 else f" ({100 * (c.tone_accuracy - fp32.tone_accuracy):+.1f})"
            ups = [("1.00×" if c is fp32 else f"{speed.get(c.name, {}).get(str(n), 0.0):.2f}×") for n in threads]
            lines.append(f"| {c.name} | {_cell(j, 'tone_band_db')} | {_cell(j, 'f0_cents')} | "
                         f"{100 * c.tone_accuracy:.1f} %{drop} | {_cell(j, 'mel_l1')} | "
                         f"{c.durations_changed}/{c.utterances} | {size:.2f} | " + " | ".join(ups) + " |")
        lines += ["", "N thr: N windows at once, each on one onnxruntime thread, as the voice runs them; times per "
                  "window (the wall time of the N calls over N).",
                  "", "| graph | build | threads | median (ms) | p95 (ms) |", "|---|---|---|---|---|"]
        lines += [f"| {t.graph} | {t.build} | {t.threads} | {t.median_ms:.2f} | {t.p95_ms:.2f} |"
                  for t in self.latency]
        lines += ["", "Layers kept in float: " + "; ".join(f"{g}: {', '.join(names) or 'none'}"
                                                         for g, names in self.fallback.items())]
        return "\n".join(lines) + "\n"


def _cell(row: dict, key: str) -> str:
    return "–" if row[key]["n"] == 0 else f"{row[key]['median']:.3f} (p95 {row[key]['p95']:.3f})"


def build_variants(ranges: Ranges, onnx_dir: Path, out_dir: Path) -> dict[str, Path]:
    """Each PTQ variant as a self-contained INT8 graph directory under ``out_dir``."""
    dirs = {}
    for name, (method, fallback) in PTQ_VARIANTS.items():
        target = Path(out_dir) / name.replace("+", "-")
        derive(ranges, onnx_dir, target, method, fallback=fallback)
        dirs[name] = target
    return dirs


def qat_variant(qat_run: Path, ptq_dir: Path, out_dir: Path) -> Path:
    """The QAT build: the encoder and decoder Q/DQ graphs ``cantoedge train qat`` wrote, and the PTQ
    (entropy + fallback) vocoder, since QAT fine-tunes the acoustic model only."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for spec in GRAPHS:
        source = (qat_run if spec.name != "vocoder" else ptq_dir) / spec.filename("int8")
        if not source.exists():
            raise FileNotFoundError(f"no {source}: run `cantoedge train qat` first")
        shutil.copyfile(source, out_dir / spec.filename("int8"))
    return out_dir


def write_report(onnx_dir: Path, corpus_dir: Path, out_dir: Path, utterances: int = 50,
                 qat_dir: Path | None = None, threads: tuple[int, ...] = (1, 2), repeats: int = 100,
                 progress: Callable[[Iterable], Iterable] | None = None) -> Report:
    """Build the variants from ``out_dir/ranges.json`` (measured on the FP32 graphs in ``onnx_dir``) and write
    ``out_dir/int8_report.{json,md}``."""
    onnx_dir, out_dir, corpus_dir = Path(onnx_dir), Path(out_dir), Path(corpus_dir)
    ranges = Ranges.load(out_dir / RANGES_FILE)  # where `cantoedge calibrate` wrote it
    variants_dir = out_dir / "variants"
    if variants_dir.exists():
        shutil.rmtree(variants_dir)
    dirs = build_variants(ranges, onnx_dir, variants_dir)
    if qat_dir is not None:
        dirs["qat"] = qat_variant(Path(qat_dir), dirs["ptq-entropy+fallback"], variants_dir / "qat")
    test = split_records(corpus_dir, "test")
    records = test[:utterances]
    if not records:
        raise ValueError(f"{corpus_dir} has no test utterances to compare on")
    reference = Voice(onnx_dir, "fp32", threads=1)
    candidates = {name: Voice(d, "int8", threads=1, float_graphs_allowed=True) for name, d in dirs.items()}
    ref = render_reference(reference, records, lambda r: load_features(corpus_dir, r))
    comparisons = compare_builds(ref, candidates, progress=progress, stats=corpus_speaker_stats(corpus_dir, test))
    first = load_features(corpus_dir, records[0])
    feeds, _ = typical_feeds(reference, first["tokens"], first["tones"])
    builds = {"fp32": (onnx_dir, "fp32"), **{name: (d, "int8") for name, d in dirs.items()}}
    latency = benchmark(builds, feeds, threads, repeats)
    sizes = {name: {s.name: (Path(d) / s.filename(p)).stat().st_size for s in GRAPHS}
             for name, (d, p) in builds.items()}
    fallback = {g: r.fallback for g, r in ranges.graphs.items()}
    report = Report(comparisons, latency, sizes, fallback, ranges.calibration)
    atomic_write_text(out_dir / "int8_report.json", json.dumps(report.to_json(), indent=1) + "\n")
    atomic_write_text(out_dir / "int8_report.md", report.markdown())
    return report
