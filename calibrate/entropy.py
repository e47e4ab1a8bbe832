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
    return int(i[best]) * hist.width


def percentile_amax(hist: Histogram, percentile: float = 99.99) -> float:
    """The |x| below which ``percentile`` % of the values lie (upper edge of that bin)."""
    total = hist.counts.sum()
    if total == 0:
        return 0.0
    cdf = np.cumsum(hist.counts) / total
    i = int(np.searchsorted(cdf, percentile / 100.0, side="left"))
    return (min(i, hist.counts.size - 1) + 1) * hist.width
