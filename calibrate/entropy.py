"""Activation ranges from |x| histograms: TensorRT's EntropyCalibration2 (the threshold whose 128-level
quantisation loses the least information, by KL divergence) next to plain max and a percentile."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

N_BINS = 2048  # TensorRT's histogram
N_LEVELS = 128  # int8 magnitudes: the quantised histogram has this many bins


@dataclass
class Histogram:
    """|x| counts over [0, limit) in ``N_BINS`` bins; the limit is fixed by a first pass over the data."""

    counts: np.ndarray  # int64 (N_BINS,)
    limit: float

    @classmethod
    def empty(cls, limit: float, bins: int = N_BINS) -> Histogram:
        return cls(np.zeros(bins, dtype=np.int64), float(limit) if limit > 0 else 1e-8)

    def add(self, values: np.ndarray) -> None:
        mags = np.abs(np.asarray(values, dtype=np.float32)).ravel()
        idx = np.minimum((mags / self.limit * self.counts.size).astype(np.int64), self.counts.size - 1)
        self.counts += np.bincount(idx, minlength=self.counts.size)

    @property
    def width(self) -> float:
        return self.limit / self.counts.size


def _kl(p: np.ndarray, q: np.ndarray) -> float:
    """KL(p || q) of unnormalised counts; infinite when q misses mass that p has."""
    p = p / p.sum()
    q_sum = q.sum()
    if q_sum == 0:
        return float("inf")
    q = q / q_sum
    mask = p > 0
    if np.any(q[mask] == 0):
        return float("inf")
    return float(np.sum(p[mask] * np.log(p[mask] / q[mask])))


def entropy_amax(hist: Histogram, levels: int = N_LEVELS) -> float:
    """TensorRT's EntropyCalibration2 threshold. For each candidate bin count i: P is the histogram cut at i
    with the outliers added to its last bin; Q spreads the first i bins over ``levels`` equal ranges and back,
    evenly over the bins that held values. The i with the least KL(P || Q) wins (the last of equal ones), and
    the threshold is that bin's upper edge."""
    counts = hist.counts.astype(np.float64)
    n = counts.size
    if counts.sum() == 0:
        return 0.0
    tail = np.concatenate([np.cumsum(counts[::-1])[::-1], [0.0]])  # tail[i] = counts[i:].sum()
    best_kl, best_i = float("inf"), n
    for i in range(levels, n + 1):
        kept = counts[:i]
        p = kept.copy()
        p[-1] += tail[i]
        owner = (np.arange(i) * levels) // i  # the quantised range each bin falls in
        nonzero = kept > 0
        mass = np.bincount(owner, weights=kept, minlength=levels)
        spread = np.bincount(owner, weights=nonzero, minlength=levels)
        q = np.where(nonzero, mass[owner] / np.maximum(spread[owner], 1), 0.0)
        kl = _kl(p, q)
        if kl <= best_kl:
            best_kl, best_i = kl, i
    return best_i * hist.width


def percentile_amax(hist: Histogram, percentile: float = 99.99) -> float:
    """The |x| below which ``percentile`` % of the values lie (upper edge of that bin)."""
    total = hist.counts.sum()
    if total == 0:
        return 0.0
    cdf = np.cumsum(hist.counts) / total
    i = int(np.searchsorted(cdf, percentile / 100.0, side="left"))
    return (min(i, hist.counts.size - 1) + 1) * hist.width
