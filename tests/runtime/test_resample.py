"""The server's other output rates: a streamed polyphase resampler and G.711 mu-law, numpy only."""

import math

import numpy as np
import pytest

from cantoedge.runtime.resample import Resampler, ulaw_encode
from cantoedge.runtime.wavio import pcm16

SOURCE = 22050


def _whole(rate: int, x: np.ndarray) -> np.ndarray:
    r = Resampler(SOURCE, rate)
    return np.concatenate([r.resample(x), r.flush()])


@pytest.mark.parametrize("rate", [8000, 16000, 24000, 44100, 48000])
def test_a_tone_comes_out_at_the_new_rate_clean_and_aligned(rate):
    x = (0.5 * np.sin(2 * np.pi * 1000 * np.arange(SOURCE) / SOURCE)).astype(np.float32)
    y = _whole(rate, x)
    assert y.dtype == np.float32 and y.size == math.ceil(x.size * rate / SOURCE)
    ideal = 0.5 * np.sin(2 * np.pi * 1000 * np.arange(y.size) / rate)  # no delay: sample n is at n / rate
    inner = slice(200, y.size - 200)
    snr = 10 * np.log10(np.mean(ideal[inner] ** 2) / np.mean((y[inner] - ideal[inner]) ** 2))
    assert snr > 65


@pytest.mark.parametrize("rate", [8000, 16000])
def test_what_the_lower_rate_cannot_carry_is_filtered_out_not_folded_back(rate):
    x = (0.5 * np.sin(2 * np.pi * (rate / 2 + 1500) * np.arange(SOURCE) / SOURCE)).astype(np.float32)
    y = _whole(rate, x)[200:-200]
    assert 10 * np.log10(np.mean(y ** 2) / 0.125) < -60  # the alias, against the tone's own power


def test_chunks_of_any_size_give_the_samples_the_whole_gives():
    rng = np.random.default_rng(0)
    x = rng.uniform(-0.5, 0.5, 20_000).astype(np.float32)
    for rate in (16000, 44100):
        r, parts, i = Resampler(SOURCE, rate), [], 0
        while i < x.size:
            step = int(rng.integers(1, 3000))
            parts.append(r.resample(x[i: i + step]))
            i += step
        parts.append(r.flush())
        # the same samples, but for float rounding (a chunk's last outputs take the einsum of a part period)
        np.testing.assert_allclose(np.concatenate(parts), _whole(rate, x), rtol=0, atol=1e-6)
    assert _whole(16000, np.zeros(0, np.float32)).size == 0


def test_bad_rates_are_refused():
    with pytest.raises(ValueError, match="positive"):
        Resampler(SOURCE, 0)


def test_float_samples_round_to_int16_and_clip():  # a resampled chunk may overshoot full scale a little
    np.testing.assert_array_equal(pcm16(np.array([0.0, 0.5, 1.2, -1.2])), [0, 16384, 32767, -32768])


def test_mu_law_is_the_reference_g711_encoding():
    audioop = pytest.importorskip("audioop", reason="Python's audioop (removed in 3.13) is the reference")
    pcm = np.arange(-32768, 32768, dtype=np.int16)
    reference = np.frombuffer(audioop.lin2ulaw(pcm.tobytes(), 2), np.uint8)
    np.testing.assert_array_equal(ulaw_encode(pcm), reference)
