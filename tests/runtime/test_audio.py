import numpy as np
import pytest

from cantoedge.runtime.audio import AUDIO, log_mel, mel_center_frequencies, mel_filterbank, stft_magnitude


@pytest.mark.slow  # librosa (build side) is the reference; its first call compiles with numba
def test_mel_filterbank_matches_librosa():
    librosa = pytest.importorskip("librosa")
    ref = librosa.filters.mel(sr=22050, n_fft=1024, n_mels=80, fmin=0, fmax=8000)
    np.testing.assert_allclose(mel_filterbank(), ref, atol=1e-6)


@pytest.mark.slow  # librosa (build side) is the reference; its first call compiles with numba
def test_log_mel_matches_librosa_melspectrogram():
    librosa = pytest.importorskip("librosa")
    rng = np.random.default_rng(0)
    audio = (0.3 * np.sin(2 * np.pi * 180 * np.arange(22050) / 22050) + 0.01 * rng.standard_normal(22050))
    ref = librosa.feature.melspectrogram(y=audio.astype(np.float32), sr=22050, n_fft=1024, hop_length=256,
                                         win_length=1024, n_mels=80, fmin=0, fmax=8000, power=1.0,
                                         center=True, pad_mode="reflect")
    ours = log_mel(audio)
    assert ours.shape == ref.shape == (80, AUDIO.n_frames(22050))
    np.testing.assert_allclose(ours, np.log(np.maximum(ref, 1e-5)), atol=1e-3)


def test_frame_count_and_tone_band_bins():
    assert stft_magnitude(np.zeros(1000)).shape == (513, 1 + 1000 // 256)
    centres = mel_center_frequencies()
    assert centres.shape == (80,) and np.all(np.diff(centres) > 0)
    assert 5 <= np.sum((centres >= 50) & (centres <= 300)) <= 9


def test_soft_limit_leaves_quiet_samples_alone_and_never_reaches_full_scale():
    from cantoedge.runtime.audio import LIMIT_CEILING, LIMIT_KNEE, soft_limit
    from cantoedge.runtime.wavio import pcm16

    quiet = np.linspace(-LIMIT_KNEE, LIMIT_KNEE, 101, dtype=np.float32)
    np.testing.assert_array_equal(soft_limit(quiet), quiet)
    loud = np.array([0.95, 1.0, 1.3, 5.0, 1e6, -1.3, -1e6], dtype=np.float32)
    out = soft_limit(loud)
    assert np.all(np.abs(out) <= np.float32(LIMIT_CEILING)) and np.all(np.sign(out) == np.sign(loud))
    assert np.all(np.diff(out[:3]) > 0) and np.all(np.diff(out[:5]) >= 0)  # a louder input stays louder
    assert not np.any(np.abs(pcm16(out).astype(np.int32)) >= 32767)  # no sample hard-clipped at full scale
