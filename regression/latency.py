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
    """One real input per graph from one utterance (its tokens, its first whole decoder and vocoder windows), and
    what that vocoder window needs besides its feeds."""
    frames, position, _ = voice.encode_tokens(tokens, tones)
    with voice.whole_windows():  # a 128-frame window whatever the utterance's length, on every backend
        f, p, _ = next(voice.decoder_inputs(frames, position))
        vocoder, window = next(voice.vocoder_feeds(*voice.decode(frames, position)))
    return {"encoder": {"tokens": tokens.astype(np.int64)[None], "tones": tones.astype(np.int64)[None]},
            "decoder": {"frames": f, "position": p}, "vocoder": vocoder}, window


def time_runner(runner, feed: dict[str, np.ndarray], repeats: int = 30, warmup: int = 3) -> tuple[float, float]:
    """Median and p95 milliseconds of one call of ``runner`` on ``feed`` (any backend)."""
    return taking_turns({"runner": runner}, feed, repeats, warmup)["runner"]


def taking_turns(runners: dict, feed: dict[str, np.ndarray], repeats: int = 30, warmup: int = 3
                 ) -> dict[str, tuple[float, float]]:
    """Median and p95 milliseconds of each runner on ``feed``, the runners taking turns one call at a time, so
    a change in machine load hits them alike (on this shared machine one runner's 30 calls in a row could
    differ by 30 % from the next one's)."""
    times: dict[str, list[float]] = {name: [] for name in runners}
    for i in range(warmup + repeats):
        for name, runner in runners.items():
            start = time.perf_counter()
            runner(**feed)
            if i >= warmup:
                times[name].append(time.perf_counter() - start)
    summary = {}
    for name, t in times.items():
        ms = np.asarray(t) * 1e3
        summary[name] = (float(np.median(ms)), float(np.percentile(ms, 95)))
    return summary


def benchmark(builds: dict[str, tuple[Path, str]], feeds: dict[str, dict[str, np.ndarray]],
              threads: tuple[int, ...] = (1, 2), repeats: int = 30, warmup: int = 3) -> list[Latency]:
    """``builds``: name -> (graph directory, precision suffix); per graph and thread count the builds take
    turns (``taking_turns``)."""
    out = []
    for spec in GRAPHS:
        for n in threads:
            runners = {name: OrtRunner(Path(directory) / spec.filename(precision), spec, n)
                       for name, (directory, precision) in builds.items()}
            for name, (median, p95) in taking_turns(runners, feeds[spec.name], repeats, warmup).items():
                out.append(Latency(spec.name, name, n, median, p95, repeats))
    return out
