import numpy as np
import pytest

from cantoedge.regression.pitch import yin
from cantoedge.runtime.audio import AUDIO


def _tone(f0_hz: np.ndarray, sr: int = 22050) -> np.ndarray:
    phase = 2 * np.pi * np.cumsum(f0_hz) / sr
    # a voiced-like signal: a few harmonics with falling amplitude
    return sum(0.3 / k * np.sin(k * phase) for k in range(1, 6))


@pytest.mark.parametrize("hz", [70.0, 110.0, 180.0, 280.0])
def test_steady_pitch_within_a_few_cents(hz):
    audio = _tone(np.full(22050, hz))
    f0, voiced = yin(audio)
    assert f0.shape == (AUDIO.n_frames(audio.size),)
    inner = f0[5:-5]
    assert voiced[5:-5].all()
    assert np.max(np.abs(1200 * np.log2(inner / hz))) < 10


def test_rising_contour_is_followed_and_silence_is_unvoiced():
    sr = 22050
    glide = np.linspace(90, 140, sr)
    audio = np.concatenate([np.zeros(sr // 2), _tone(glide), np.zeros(sr // 2)])
    f0, voiced = yin(audio)
    assert not voiced[:30].any() and not voiced[-30:].any()
    mid = f0[voiced]
    assert mid.size > 70 and np.all(np.diff(mid[3:-3]) > -1.0)  # rises, allowing tiny jitter
    assert 88 < mid.min() < 100 and 130 < mid.max() < 142


def test_agrees_with_world_on_espeak_speech(tiny_corpus):
    import pyworld

    from cantoedge.runtime.manifest import read_manifest
    from cantoedge.runtime.wavio import read_wav

    cents = []
    for rec in read_manifest(tiny_corpus)[:6]:
        audio, sr = read_wav(tiny_corpus / rec.wav)
        ours, _ = yin(audio)
        x = audio.astype(np.float64)
        f, t = pyworld.dio(x, sr, f0_floor=50, f0_ceil=500, frame_period=1000 * AUDIO.hop_length / sr)
        f = pyworld.stonemask(x, f, t, sr)
        n = min(f.size, ours.size)
        both = (f[:n] > 0) & (ours[:n] > 0)
        cents.append(1200 * np.log2(ours[:n][both] / f[:n][both]))
    cents = np.concatenate(cents)
    assert np.median(np.abs(cents)) < 15
    assert np.mean(np.abs(cents) > 100) < 0.03  # octave/gross errors are rare
