import numpy as np
import pytest

from cantoedge.regression.metrics import (
    MetricError,
    f0_rmse_cents,
    mel_cepstral_distortion,
    mel_l1,
    summarize,
    tone_accuracy,
    tone_band_bins,
    tone_band_error_db,
)
from cantoedge.runtime.audio import mel_center_frequencies


def test_tone_band_error_is_in_db_over_50_300_hz_bins_on_voiced_frames():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(80, 50))
    b = a.copy()
    bins = tone_band_bins()
    centres = mel_center_frequencies()[bins]
    assert centres.min() >= 50 and centres.max() <= 300
    b[bins] += np.log(10 ** (1 / 20))  # +1 dB in magnitude inside the band
    b[40:] += 5.0  # outside the band: ignored
    voiced = np.zeros(50, bool)
    voiced[10:30] = True
    assert tone_band_error_db(a, b, voiced) == pytest.approx(1.0, rel=1e-9)
    b[bins, 0] += 100.0  # unvoiced frame: ignored
    assert tone_band_error_db(a, b, voiced) == pytest.approx(1.0, rel=1e-9)


def test_f0_rmse_in_cents_on_frames_voiced_in_both():
    a = np.array([100.0, 100.0, 0.0, 200.0, 150.0])
    b = np.array([100.0 * 2 ** (100 / 1200), 0.0, 120.0, 200.0 * 2 ** (-100 / 1200), 150.0])
    # voiced in both: frames 0, 3, 4 -> errors -100, +100, 0 cents
    assert f0_rmse_cents(a, b) == pytest.approx(np.sqrt((100**2 + 100**2) / 3))
    with pytest.raises(MetricError):
        f0_rmse_cents(np.zeros(4), np.ones(4))


def test_mel_l1_and_mcd():
    a = np.zeros((80, 10))
    assert mel_l1(a, a + 0.5) == pytest.approx(0.5)
    assert mel_cepstral_distortion(a, a + 0.5) == pytest.approx(0.0, abs=1e-9)  # loudness (c0) is left out
    rng = np.random.default_rng(1)
    noisy = a + rng.normal(scale=0.2, size=a.shape)
    assert mel_cepstral_distortion(a, noisy) > mel_cepstral_distortion(a, a + 0.5 * (noisy - a)) > 0


def test_shapes_are_checked_and_lengths_trimmed():
    assert mel_l1(np.zeros((80, 10)), np.ones((80, 12))) == pytest.approx(1.0)
    with pytest.raises(MetricError):
        mel_l1(np.zeros((80, 10)), np.zeros((40, 10)))


def test_tone_accuracy_and_summary():
    assert tone_accuracy([1, 2, 3, -1], [1, 2, 4, 4]) == 0.5
    s = summarize([1.0, 2.0, 3.0, 4.0])
    assert s["median"] == 2.5 and s["n"] == 4 and 3.8 < s["p95"] <= 4.0
