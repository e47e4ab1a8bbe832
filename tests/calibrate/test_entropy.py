"""Entropy (KL) thresholds behave as TensorRT's EntropyCalibration2 does on known distributions."""

import numpy as np
import pytest

from cantoedge.calibrate.entropy import Histogram, entropy_amax, percentile_amax


def _hist(x: np.ndarray) -> Histogram:
    h = Histogram.empty()
    h.add(x)
    return h


def test_gaussian_with_outliers_is_clipped_near_four_sigma():
    x = np.random.default_rng(0).normal(size=500_000)
    x[:20] = 40.0  # a few outliers stretch max but must not stretch the range
    amax = entropy_amax(_hist(x))
    assert 3.0 < amax < 6.0


def test_uniform_data_keeps_its_full_range():
    x = np.random.default_rng(1).uniform(-2.0, 2.0, size=200_000)
    assert entropy_amax(_hist(x)) == pytest.approx(2.0, rel=0.01)


def test_heavier_tails_get_a_wider_range_than_a_gaussian():
    rng = np.random.default_rng(2)
    gauss, laplace = rng.normal(size=300_000), rng.laplace(size=300_000) / np.sqrt(2)  # both unit variance
    for x in (gauss, laplace):
        x[:5] = 30.0
    assert entropy_amax(_hist(laplace)) > entropy_amax(_hist(gauss))


def test_percentile_and_empty_histograms():
    x = np.random.default_rng(3).uniform(0, 1, size=100_000)
    h = _hist(x)
    assert percentile_amax(h, 50.0) == pytest.approx(0.5, abs=0.01)
    assert percentile_amax(h, 100.0) == pytest.approx(h.limit)
    empty = Histogram.empty()
    assert entropy_amax(empty) == 0.0 and percentile_amax(empty) == 0.0


def test_histogram_grows_in_one_pass_by_merging_bins_exactly():
    h = Histogram.empty(bins=4)
    h.add(np.zeros(3))  # zeros first: no range yet
    h.add(np.array([0.1, -0.3, 0.6, 1.0]))  # the range is set by the first nonzero peak: 1.0
    assert h.limit == 1.0 and h.counts.tolist() == [4, 1, 1, 1]
    h.add(np.array([-3.5]))  # 3.5x the range: it doubles twice (to 4.0), pairs and then quads merge
    assert h.limit == 4.0 and h.peak == 3.5 and h.counts.tolist() == [7, 0, 0, 1]
    assert h.counts.sum() == 8


def _reference_amax(hist: Histogram, levels: int = 128) -> float:
    """The documented algorithm, one candidate at a time (slow, obviously right)."""
    counts = hist.counts.astype(float)
    best, best_i = np.inf, counts.size
    for i in range(levels, counts.size + 1):
        p = counts[:i].copy()
        p[-1] += counts[i:].sum()
        owner = (np.arange(i) * levels) // i
        q = np.zeros(i)
        for k in range(levels):
            members = (owner == k) & (counts[:i] > 0)
            if members.any():
                q[members] = counts[:i][owner == k].sum() / members.sum()
        p, q = p / p.sum(), q / q.sum()
        if np.any((p > 0) & (q == 0)):
            continue
        kl = np.sum(p[p > 0] * np.log(p[p > 0] / q[p > 0]))
        if kl <= best + 1e-12:
            best, best_i = min(kl, best), i
    return best_i * hist.width


@pytest.mark.parametrize("seed", range(4))
def test_vectorised_search_picks_what_the_one_by_one_algorithm_picks(seed):
    rng = np.random.default_rng(seed)
    x = [rng.normal(size=20_000), rng.laplace(size=20_000), rng.gamma(0.5, size=20_000),
         rng.normal(size=5_000) ** 3][seed]
    h = Histogram.empty(bins=512)
    h.add(x)
    assert entropy_amax(h) == pytest.approx(_reference_amax(h))
