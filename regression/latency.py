"""onnxruntime CPU latency of each graph: medians over repeats of the same input, per thread count, with
the FP32 graphs measured in the same run as the baseline."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from cantoedge.runtime.backends.ort import OrtRunner
from cantoedge.runtime.graphs import GRAPHS
from cantoedge.runtime.synth import VocoderWindow, Voice


@dataclass(frozen=True)
class Latency:
    graph: str
    build: str
    threads: int
    median_ms: float
    p95_ms: float
    repeats: int

    def to_json(self) -> dict:
        return asdict(self)


def typical_feeds(voice: Voice, tokens: np.ndarray, tones: np.ndarray
                  ) -> tuple[dict[str, dict[str, np.ndarray]], VocoderWindow]:
    """One real input per graph from one utterance (its tokens, its first decoder and vocoder windows), and
    what that vocoder window needs besides its feeds."""
    frames, position, _ = voice.encode_tokens(tokens, tones)
    f, p, _ = next(voice.decoder_inputs(frames, position))
    vocoder, window = next(voice.vocoder_feeds(*voice.decode(frames, position)))
    return {"encoder": {"tokens": tokens.astype(np.int64)[None], "tones": tones.astype(np.int64)[None]},
            "decoder": {"frames": f, "position": p}, "vocoder": vocoder}, window


def time_runner(runner, feed: dict[str, np.ndarray], repeats: int = 30, warmup: int = 3) -> tuple[float, float]:
    """Median and p95 milliseconds of one call of ``runner`` on ``feed`` (any backend)."""
    for _ in range(warmup):
        runner(**feed)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        runner(**feed)
        times.append(time.perf_counter() - start)
    ms = np.asarray(times) * 1e3
    return float(np.median(ms)), float(np.percentile(ms, 95))


def benchmark(builds: dict[str, tuple[Path, str]], feeds: dict[str, dict[str, np.ndarray]],
              threads: tuple[int, ...] = (1, 2), repeats: int = 30, warmup: int = 3) -> list[Latency]:
    """``builds``: name -> (graph directory, precision suffix). Per graph and thread count, the builds' runs
    take turns one call at a time, so a change in machine load hits them alike (on this shared machine a
    build's 30 runs in a row could differ by 30 % from the next build's)."""
    out = []
    for spec in GRAPHS:
        for n in threads:
            runners = {name: OrtRunner(Path(directory) / spec.filename(precision), spec, n)
                       for name, (directory, precision) in builds.items()}
            times: dict[str, list[float]] = {name: [] for name in runners}
            for i in range(warmup + repeats):
                for name, runner in runners.items():
                    start = time.perf_counter()
                    runner(**feeds[spec.name])
                    if i >= warmup:
                        times[name].append(time.perf_counter() - start)
            for name, t in times.items():
                ms = np.asarray(t) * 1e3
                out.append(Latency(spec.name, name, n, float(np.median(ms)), float(np.percentile(ms, 95)), repeats))
    return out
