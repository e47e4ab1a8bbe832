"""When each syllable is spoken: frame spans from token durations, and the alignment TSV the CLIs write."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .audio import AUDIO
from .fileio import atomic_write_text


@dataclass(frozen=True)
class SyllableTime:
    jyutping: str
    start: float  # seconds
    end: float


def syllable_spans(durations: Sequence[int], syllable_index: Sequence[int]) -> list[tuple[int, int]]:
    """Frame span [start, end) of each syllable: the union of its onset and rime tokens."""
    ends = np.cumsum(np.asarray(durations, dtype=np.int64))
    starts = ends - np.asarray(durations, dtype=np.int64)
    spans: dict[int, list[int]] = {}
    for s, e, idx in zip(starts, ends, syllable_index):
        if idx >= 0:
            span = spans.setdefault(int(idx), [int(s), int(e)])
            span[0], span[1] = min(span[0], int(s)), max(span[1], int(e))
    return [tuple(spans[k]) for k in sorted(spans)]  # type: ignore[misc]


def syllable_times(jyutping: Sequence[str], durations: Sequence[int],
                   syllable_index: Sequence[int]) -> list[SyllableTime]:
    """Each spoken syllable's start and end in seconds, from the (predicted) token durations."""
    sec = AUDIO.hop_length / AUDIO.sample_rate
    spans = syllable_spans(durations, syllable_index)
    return [SyllableTime(j, s * sec, e * sec) for j, (s, e) in zip(jyutping, spans)]


def alignment_tsv(rows: Sequence[SyllableTime]) -> str:
    """Tab-separated: a header, then ``jyutping  start  end`` (seconds, 3 decimals) per syllable."""
    return "jyutping\tstart\tend\n" + "".join(f"{r.jyutping}\t{r.start:.3f}\t{r.end:.3f}\n" for r in rows)


def write_alignment(path: Path, rows: Sequence[SyllableTime]) -> None:
    atomic_write_text(Path(path), alignment_tsv(rows))
