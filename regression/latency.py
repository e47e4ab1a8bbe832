"""onnxruntime CPU latency of each graph: medians over repeats of the same input, per thread count, with
the FP32 graphs measured in the same run as the baseline. n threads means what it means to the voice: n windows
at once, each call on one onnxruntime thread (runtime/synth.Voice), not n intra-op threads on one window, which
the voice never uses."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
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
    threads: int  # calls at once, one onnxruntime thread each
    median_ms: float  # per call: the wall time of ``threads`` calls at once, divided by ``threads``
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


class SideBySide:
    """One graph on n one-thread sessions called at once, how the voice vocodes n windows on n threads: the
    first on the calling thread, the others on ``pool`` (n - 1 workers), so one call alone has no hand-off.
    Measured on 2 cores with the bundled voice: FP32's vocoder window took 3.0-3.1 ms alone, 2.6 ms on two
    intra-op threads and 1.6-1.8 ms a window two at a time; INT8's 1.7-1.9, 2.1 and 0.9-1.2."""

    def __init__(self, runners: list, pool: ThreadPoolExecutor | None) -> None:
        if not runners:
            raise ValueError("side by side needs at least one runner")
        if len(runners) > 1 and pool is None:
            raise ValueError("more than one runner needs a pool to call the others on")
        self.runners, self.pool = runners, pool

    def __call__(self, **feed: np.ndarray) -> None:
        others = [self.pool.submit(runner, **feed) for runner in self.runners[1:]] if self.pool else []
        self.runners[0](**feed)
        for future in others:
            future.result()


def benchmark(builds: dict[str, tuple[Path, str]], feeds: dict[str, dict[str, np.ndarray]],
              threads: tuple[int, ...] = (1, 2), repeats: int = 30, warmup: int = 3) -> list[Latency]:
    """``builds``: name -> (graph directory, precision suffix); per graph and thread count the builds take
    turns (``taking_turns``), each running ``threads`` calls at once (``SideBySide``)."""
    out = []
    for n in threads:
        with ThreadPoolExecutor(n - 1) if n > 1 else nullcontext() as pool:  # one window alone needs no pool
            for spec in GRAPHS:
                runners = {name: SideBySide([OrtRunner(Path(directory) / spec.filename(precision), spec, 1)
                                             for _ in range(n)], pool)
                           for name, (directory, precision) in builds.items()}
                for name, (median, p95) in taking_turns(runners, feeds[spec.name], repeats, warmup).items():
                    out.append(Latency(spec.name, name, n, median / n, p95 / n, repeats))
    return out
