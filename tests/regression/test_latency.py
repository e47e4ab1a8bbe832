"""Latency benchmark (regression/latency.py): n threads are n calls at once on one-thread sessions, as the voice
vocodes its windows, and the times are per call."""

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from cantoedge.regression.latency import SideBySide, benchmark, typical_feeds
from cantoedge.runtime.graphs import GRAPHS
from cantoedge.runtime.synth import Voice


class Meeting:
    """A runner that returns only once ``n`` of its kind are inside at the same time (or fails after 10 s)."""

    def __init__(self, barrier: threading.Barrier, seen: list) -> None:
        self.barrier, self.seen = barrier, seen

    def __call__(self, **feed) -> None:
        self.seen.append((threading.get_ident(), sorted(feed)))
        self.barrier.wait(timeout=10)


def test_side_by_side_runs_every_runner_at_once_on_the_same_feed():
    barrier, seen = threading.Barrier(3), []
    with ThreadPoolExecutor(2) as pool:
        three = SideBySide([Meeting(barrier, seen) for _ in range(3)], pool)
        three(mel=1, f0=2)  # would raise BrokenBarrierError if the calls ran one after another
        three(mel=1, f0=2)
    assert len(seen) == 6 and len({ident for ident, _ in seen[:3]}) == 3
    assert threading.get_ident() in {ident for ident, _ in seen[:3]}  # one call on the caller's own thread
    assert all(keys == ["f0", "mel"] for _, keys in seen)


def test_one_runner_is_called_directly_and_more_need_a_pool():
    seen = []
    SideBySide([lambda **feed: seen.append(threading.get_ident())], None)()
    assert seen == [threading.get_ident()]
    with pytest.raises(ValueError, match="needs a pool"):
        SideBySide([print, print], None)
    with pytest.raises(ValueError, match="at least one runner"):
        SideBySide([], None)


def test_benchmark_reports_per_window_times_for_each_thread_count(tiny_graphs):
    voice = Voice(tiny_graphs, "fp32", threads=1)
    g = voice.frontend("我話詩畀你聽。")
    feeds, _ = typical_feeds(voice, np.asarray(g.tokens), np.asarray(g.tones))
    latency = benchmark({"a": (tiny_graphs, "fp32"), "b": (tiny_graphs, "fp32")}, feeds, (1, 2), repeats=3,
                        warmup=1)
    assert {(t.graph, t.build, t.threads) for t in latency} == {
        (spec.name, build, n) for spec in GRAPHS for build in "ab" for n in (1, 2)}
    assert all(0 < t.median_ms <= t.p95_ms and t.repeats == 3 for t in latency)


def test_a_missing_graph_is_named_before_anything_runs(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"no encoder graph at .*encoder\.onnx: run `cantoedge export`"):
        benchmark({"gone": (tmp_path, "fp32")}, {}, (1,), repeats=1)
