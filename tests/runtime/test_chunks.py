"""Window planning: whole windows longer than the graph's chunk where the graphs take any length."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cantoedge.runtime.chunks import CHUNK_FRAMES, LONGEST_WINDOW_FRAMES, planned_chunk, windows


@given(st.integers(1, 50_000), st.integers(1, 8))
def test_planned_windows_are_at_least_a_chunk_at_most_the_longest_and_one_per_worker(n_frames, workers):
    chunk = planned_chunk(n_frames, CHUNK_FRAMES, workers)
    assert CHUNK_FRAMES <= chunk <= LONGEST_WINDOW_FRAMES
    ws = list(windows(n_frames, 29, chunk, short_last=True))
    assert sum(w.keep for w in ws) == n_frames
    assert len(ws) >= min(workers, -(-n_frames // CHUNK_FRAMES))  # every thread gets a window while there are frames
    assert len(ws) <= max(workers, -(-n_frames // LONGEST_WINDOW_FRAMES)) + workers - 1  # no more than it takes


def test_planning_examples_and_bad_values():
    assert planned_chunk(1000, 128, longest=256) == 250  # four equal windows, not 256 + 256 + 256 + 232
    assert planned_chunk(1000, 128, longest=384) == 334
    assert planned_chunk(200, 128, longest=256) == 200 and planned_chunk(100, 128, longest=256) == 128
    assert planned_chunk(600, 128, workers=2, longest=384) == 300  # a window for each of two threads
    assert planned_chunk(224, 128, workers=2) == 128  # two windows, though one would do
    assert planned_chunk(1000, 128, longest=128) == 128
    with pytest.raises(ValueError, match="bad planning"):
        planned_chunk(0, 128)
    with pytest.raises(ValueError, match="bad planning"):
        planned_chunk(10, 128, workers=0)
