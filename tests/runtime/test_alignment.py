"""Syllable spans and the alignment TSV."""

import pytest

from cantoedge.runtime.alignment import syllable_spans, syllable_times, write_alignment
from cantoedge.runtime.audio import AUDIO


def test_syllable_spans_join_onset_and_rime():
    assert syllable_spans([3, 2, 4, 1, 5, 2], [-1, 0, 0, -1, 1, -1]) == [(3, 9), (10, 15)]


def test_alignment_rows_are_seconds_in_order(tmp_path):
    rows = syllable_times(["nei5", "hou2"], [3, 2, 4, 1, 5, 2], [-1, 0, 0, -1, 1, -1])
    frame = AUDIO.hop_length / AUDIO.sample_rate
    assert [r.jyutping for r in rows] == ["nei5", "hou2"]
    assert rows[0].start == pytest.approx(3 * frame) and rows[1].end == pytest.approx(15 * frame)
    write_alignment(tmp_path / "a.tsv", rows)
    lines = (tmp_path / "a.tsv").read_text().splitlines()
    assert lines[0] == "jyutping\tstart\tend" and lines[1] == f"nei5\t{3 * frame:.3f}\t{9 * frame:.3f}"
