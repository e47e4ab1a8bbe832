"""Activation ranges from |x| histograms: TensorRT's EntropyCalibration2 (the threshold whose 128-level
quantisation loses the least information, by KL divergence) next to plain max and a percentile."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

N_BINS = 2048  # TensorRT's histogram
N_LEVELS = 128  # int8 magnitudes: the quantised histogram has this many bins


@dataclass
class Histogram:
    """|x| counts over [0, limit) in ``N_BINS`` equal bins, filled in one pass: the first values set the limit,
    and a larger value later doubles it as often as needed, merging neighbouring bins exactly."""

    counts: np.ndarray  # int64 (N_BINS,)
    limit: float = 0.0  # 0 until the first nonzero value
    peak: float = 0.0  # the largest |x| seen

    @classmethod
    def empty(cls, bins: int = N_BINS) -> Histogram:
        return cls(np.zeros(bins, dtype=np.int64))

    def add(self, values: np.ndarray) -> None:
        mags = np.abs(np.asarray(values, dtype=np.float32)).ravel()
        if mags.size == 0:
            return
        n = self.counts.size
        peak = float(mags.max())
        self.peak = max(self.peak, peak)
        if peak > self.limit:
            self._grow(peak)
        if self.limit == 0.0:  # only zeros so far
            self.counts[0] += mags.size
            return
        mags *= np.float32(n / self.limit)
        np.minimum(mags, n - 1, out=mags)
        self.counts += np.bincount(mags.astype(np.int32), minlength=n)

    def _grow(self, peak: float) -> None:
        n = self.counts.size
        if self.limit == 0.0:
            self.limit = peak
            return
        factor = 2 ** math.ceil(math.log2(peak / self.limit))
        merged = self.counts.reshape(-1, factor).sum(axis=1) if factor <= n else self.counts.sum(keepdims=True)
        self.counts = np.zeros(n, dtype=np.int64)
        self.counts[: merged.size] = merged
        self.limit *= factor

    @property
    def width(self) -> float:
        return self.limit / self.counts.size


def entropy_amax(hist: Histogram, levels: int = N_LEVELS) -> float:
    """TensorRT's EntropyCalibration2 threshold. For each candidate bin count i: P is the histogram cut at i
    with the outliers added to its last bin; Q spreads the first i bins over ``levels`` equal ranges and back,
    evenly over the bins that held values. The i with the least KL(P || Q) wins (the last of equal ones), and
    the threshold is that bin's upper edge.

    All candidates are scored at once from prefix sums: the bins of one range share one Q value, so
    sum_j P_j log Q_j is a sum over the ``levels`` ranges of (counts in the range) x log(Q of the range)."""
    counts = hist.counts.astype(np.float64)
    n = counts.size
    total = counts.sum()
    if total == 0:
        return 0.0
    filled = counts > 0
    cum_counts = np.concatenate([[0.0], np.cumsum(counts)])
    cum_filled = np.concatenate([[0.0], np.cumsum(filled)])
    plogp = np.concatenate([[0.0], np.cumsum(np.where(filled, counts * np.log(np.where(filled, counts, 1.0) / total),
                                                      0.0))])
    cand = np.arange(levels, n + 1)[:, None]  # candidate bin counts i
    edges = -((-np.arange(levels + 1)[None, :] * cand) // levels)  # range k covers bins [edges[k], edges[k+1])
    mass = cum_counts[edges[:, 1:]] - cum_counts[edges[:, :-1]]
    spread = cum_filled[edges[:, 1:]] - cum_filled[edges[:, :-1]]
    with np.errstate(divide="ignore", invalid="ignore"):
        log_q = np.log(mass / spread / cum_counts[cand])  # Q of each filled bin in range k (normalised)
    log_q = np.where(mass > 0, log_q, 0.0)  # empty ranges hold no P either
    i = cand[:, 0]
    last = counts[i - 1]
    body_mass = mass.copy()
    body_mass[:, -1] -= last  # bin i-1 is scored with the outliers below
    body = plogp[i - 1] - (body_mass * log_q).sum(axis=1)
    p_last = total - cum_counts[i - 1]  # the last kept bin plus every outlier
    with np.errstate(divide="ignore", invalid="ignore"):
        tail = np.where(p_last > 0, p_last * (np.log(p_last / total) - log_q[:, -1]), 0.0)
    kl = np.where((p_last > 0) & (last == 0), np.inf, (body + tail) / total)  # Q is empty where P has outliers
    best = int(np.flatnonzero(kl <= kl.min() * (1 + 1e-12) + 1e-300)[-1])
    return min(int(i[best]) * hist.width, hist.peak)  # a bin edge can lie past the largest value seen


def percentile_amax(hist: Histogram, percentile: float = 99.99) -> float:
    """The |x| below which ``percentile`` % of the values lie (upper edge of that bin)."""
    total = hist.counts.sum()
    if total == 0:
        return 0.0
    cdf = np.cumsum(hist.counts) / total
    i = int(np.searchsorted(cdf, percentile / 100.0, side="left"))
    return min((min(i, hist.counts.size - 1) + 1) * hist.width, hist.peak)
