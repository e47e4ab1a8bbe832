"""Where a window's time goes: onnxruntime's own profiler over the decoder and vocoder windows (share of
kernel time per operator type), next to the numpy stages the device runs between graphs (harmonic source,
mixing, inverse STFT), all measured in one run on the same input."""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from cantoedge.runtime.backends.ort import OrtLoader, import_ort
from cantoedge.runtime.excitation import harmonic_source
from cantoedge.runtime.graphs import DECODER, VOCODER
from cantoedge.runtime.istft import overlap_add
from cantoedge.runtime.synth import VocoderWindow, Voice

from .latency import taking_turns, typical_feeds

PROFILE_TEXT = "今日天氣好好，我哋去飲茶啦。佢讀市呢個字，香港嘅天氣真係好熱。"


@dataclass(frozen=True)
class OpProfile:
    graph: str
    precision: str
    run_ms: float  # median of the profiled runs
    shares: dict[str, float] = field(default_factory=dict)  # operator type -> share of kernel time


def profile_graph(path: Path, feed: dict[str, np.ndarray], threads: int = 1, repeats: int = 30,
                  warmup: int = 5) -> tuple[float, dict[str, float]]:
    """Median run time (ms) and each operator type's share of kernel time, from onnxruntime's profiler, with
    the runtime's own session settings (default optimisation level, so Q/DQ pairs fuse as they do there)."""
    loader = OrtLoader(Path(path), threads)
    with tempfile.TemporaryDirectory() as tmp:
        options = loader.session_options()
        options.enable_profiling = True
        options.profile_file_prefix = str(Path(tmp) / "profile")
        session = import_ort().InferenceSession(str(path), options, providers=loader.providers())
        for _ in range(warmup + repeats):
            session.run(None, feed)
        events = json.loads(Path(session.end_profiling()).read_text())
    kernels: Counter = Counter()
    runs = [e["dur"] for e in events if e.get("cat") == "Session" and e.get("name") == "model_run"]
    for e in events:
        if e.get("cat") == "Node" and e.get("name", "").endswith("_kernel_time"):
            kernels[e["args"]["op_name"]] += e["dur"]
    total = sum(kernels.values()) or 1
    return float(np.median(runs[warmup:]) / 1e3), {op: t / total for op, t in kernels.most_common()}


def dsp_stages(voice: Voice, feeds: dict, window: VocoderWindow, repeats: int = 30) -> dict[str, float]:
    """Median ms of the numpy stages of one vocoder window: its harmonic source, the mixing and the inverse
    STFT (the graph's outputs and the source computed once for the later stages)."""
    outputs = [x[0] for x in voice.vocoder(**feeds)]
    source = harmonic_source(window.f0, window.phase)
    stages = {"harmonic source": lambda: harmonic_source(window.f0, window.phase),
              "mixing": lambda: voice.mix(*outputs, window, source),
              "inverse STFT": lambda: overlap_add(*voice.mix(*outputs, window, source))}
    out = {name: median for name, (median, _) in taking_turns(stages, {}, repeats).items()}
    out["inverse STFT"] -= out["mixing"]  # timed with its mixing, which it needs as input
    return out


def profile_voice(graph_dir: Path, threads: int = 1, repeats: int = 30) -> tuple[list[OpProfile], dict[str, float]]:
    """Both precisions' decoder and vocoder windows (INT8 where calibrated) and the vocoder's numpy stages."""
    graph_dir = Path(graph_dir)
    voice = Voice(graph_dir, "fp32", threads=threads)
    g2p = voice.frontend(PROFILE_TEXT)
    feeds, window = typical_feeds(voice, np.asarray(g2p.tokens), np.asarray(g2p.tones))
    profiles = []
    for precision in ("fp32", "int8"):
        for spec in (DECODER, VOCODER):
            path = graph_dir / spec.filename(precision)
            if path.exists():
                ms, shares = profile_graph(path, feeds[spec.name], threads, repeats)
                profiles.append(OpProfile(spec.name, precision, ms, shares))
    return profiles, dsp_stages(voice, feeds["vocoder"], window, repeats)


def profile_markdown(profiles: list[OpProfile], dsp: dict[str, float], top: int = 6) -> str:
    lines = ["| graph | precision | window (ms, median) | kernel time by operator |", "|---|---|---|---|"]
    for p in profiles:
        ops = ", ".join(f"{op} {share:.0%}" for op, share in list(p.shares.items())[:top])
        lines.append(f"| {p.graph} | {p.precision} | {p.run_ms:.2f} | {ops} |")
    lines.append("")
    lines.append("Vocoder window, numpy between graphs (ms, median): "
                 + ", ".join(f"{name} {ms:.2f}" for name, ms in dsp.items()) + ".")
    return "\n".join(lines) + "\n"
