"""Window planning: whole windows longer than the graph's chunk where the graphs take any length."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cantoedge.runtime.chunks import CHUNK_FRAMES, LONGEST_WINDOW_FRAMES, planned_chunk, windows


@given(st.integers(1, 50_000))
def test_planned_windows_are_at_least_a_chunk_at_most_the_longest_and_as_few_as_that_allows(n_frames):
    chunk = planned_chunk(n_frames, CHUNK_FRAMES)
    assert CHUNK_FRAMES <= chunk <= LONGEST_WINDOW_FRAMES
    ws = list(windows(n_frames, 29, chunk, short_last=True))
    assert sum(w.keep for w in ws) == n_frames
    assert len(ws) == max(1, -(-n_frames // LONGEST_WINDOW_FRAMES)) or chunk == CHUNK_FRAMES
    assert {w.keep for w in ws[:-1]} <= {chunk} and ws[-1].keep <= chunk


def test_planning_examples_and_bad_values():
    assert planned_chunk(1000, 128, longest=256) == 250  # four equal windows, not 256 + 256 + 256 + 232
    assert planned_chunk(1000, 128, longest=384) == 334
    assert planned_chunk(200, 128, longest=256) == 200 and planned_chunk(100, 128, longest=256) == 128
    assert planned_chunk(1000, 128, longest=128) == 128
    with pytest.raises(ValueError, match="bad planning"):
        planned_chunk(0, 128)
    with pytest.raises(ValueError, match="bad planning"):
        planned_chunk(10, 128, longest=0)
