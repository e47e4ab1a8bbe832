"""A tone-balanced calibration subset: every tone and every tone pair across syllable boundaries."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from cantoedge.runtime.jyutping import TONES, parse_syllable
from cantoedge.runtime.manifest import Record

PAIRS = tuple((a, b) for a in TONES for b in TONES)


def tone_events(record: Record) -> Counter:
    """Counts of single tones and adjacent tone pairs (bigrams across syllable boundaries)."""
    tones = [parse_syllable(s).tone for s in record.jyutping]
    counts: Counter = Counter(tones)
    counts.update(zip(tones, tones[1:]))
    return counts


@dataclass(frozen=True)
class CalibSet:
    ids: list[str]
    tone_counts: dict[int, int]
    pair_counts: dict[tuple[int, int], int]
    utterances: list[dict] = field(default_factory=list)  # {id, tokens, tones}: calibration needs no corpus

    @property
    def missing(self) -> list:
        return [t for t in TONES if not self.tone_counts.get(t)] + [p for p in PAIRS if not self.pair_counts.get(p)]

    def coverage_table(self) -> str:
        """Markdown: tone counts, then a 6x6 table of pair counts (row: first tone, column: second)."""
        lines = ["| tone | " + " | ".join(map(str, TONES)) + " |", "|---" * 7 + "|",
                 "| syllables | " + " | ".join(str(self.tone_counts.get(t, 0)) for t in TONES) + " |", "",
                 "| first \\ second | " + " | ".join(map(str, TONES)) + " |", "|---" * 7 + "|"]
        for a in TONES:
            lines.append(f"| {a} | " + " | ".join(str(self.pair_counts.get((a, b), 0)) for b in TONES) + " |")
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict:
        return {"ids": self.ids, "tones": {str(t): self.tone_counts.get(t, 0) for t in TONES},
                "pairs": {f"{a}{b}": self.pair_counts.get((a, b), 0) for a, b in PAIRS},
                "missing": [str(m) for m in self.missing], "utterances": self.utterances}


def select(records: Sequence[Record], size: int) -> CalibSet:
    """Greedy: repeatedly take the utterance that adds most to the rarest tones and pairs so far
    (gain of an event = 1 / (1 + times already covered)), ties to the earlier record; deterministic."""
    if size <= 0:
        raise ValueError("calibration set size must be positive")
    if not records:
        raise ValueError("no utterances to choose from")
    keys = list(TONES) + list(PAIRS)
    col = {k: i for i, k in enumerate(keys)}
    matrix = np.zeros((len(records), len(keys)))
    for r, rec in enumerate(records):
        for k, n in tone_events(rec).items():
            matrix[r, col[k]] = n
    # Pairs are what is rare; single tones are weighted like one pair so they never dominate.
    weights = np.ones(len(keys))
    covered = np.zeros(len(keys))
    chosen: list[int] = []
    available = np.ones(len(records), dtype=bool)
    lengths = matrix[:, : len(TONES)].sum(axis=1)
    for _ in range(min(size, len(records))):
        gain_per_event = weights / (1.0 + covered)
        gains = (np.minimum(matrix, 3) * gain_per_event).sum(axis=1) / np.sqrt(np.maximum(lengths, 1))
        gains[~available] = -np.inf
        best = int(np.argmax(gains))
        chosen.append(best)
        available[best] = False
        covered += matrix[best]
    tone_counts = {t: int(covered[col[t]]) for t in TONES}
    pair_counts = {p: int(covered[col[p]]) for p in PAIRS}
    return CalibSet([records[i].id for i in chosen], tone_counts, pair_counts,
                    [{"id": records[i].id, "tokens": list(records[i].tokens), "tones": list(records[i].tones)}
                     for i in chosen])
