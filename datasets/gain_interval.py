"""How sure a G2P's gain over another is: a percentile bootstrap over the groups (conversations) an agreement was
counted in, both predictors resampled together, since syllables of one conversation share its words and its
annotator's habits and are not independent draws."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .lexicon import Agreement

DRAWS = 2000
LEVEL = 0.95


@dataclass(frozen=True)
class GainInterval:
    """``ours`` minus ``base`` in points of agreement, with the bootstrap interval at ``level``."""

    gain: float
    low: float
    high: float
    groups: int
    level: float = LEVEL


def gain_interval(ours: Agreement, base: Agreement, draws: int = DRAWS, level: float = LEVEL,
                  seed: int = 0) -> GainInterval:
    """The gain of ``ours`` over ``base`` on the same utterances, and its interval from resampling their groups
    with replacement ``draws`` times (seeded: the same figures every run)."""
    if [(g, t) for g, _, t in ours.groups] != [(g, t) for g, _, t in base.groups]:
        raise ValueError(f"{ours.name!r} and {base.name!r} were not counted on the same groups of syllables")
    if not ours.groups:
        raise ValueError("no groups to resample: count the agreements with syllable_agreement")
    gained = np.array([m for _, m, _ in ours.groups], np.int64) - np.array([m for _, m, _ in base.groups], np.int64)
    totals = np.array([t for _, _, t in ours.groups], np.int64)
    picks = np.random.default_rng(seed).integers(0, len(totals), size=(draws, len(totals)))
    share = gained[picks].sum(axis=1) / np.maximum(totals[picks].sum(axis=1), 1)
    low, high = np.quantile(share, [(1 - level) / 2, (1 + level) / 2])
    return GainInterval(100 * gained.sum() / totals.sum(), 100 * float(low), 100 * float(high), len(totals), level)
