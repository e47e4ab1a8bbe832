"""The device's inverse STFT: overlap-add of inverse real FFTs gives back the analysed signal, and equals the
vocoder's training-time MatMul inverse on the samples a window keeps."""

import numpy as np
import pytest
import torch

from cantoedge.runtime.audio import AUDIO
from cantoedge.runtime.istft import OVERLAP, overlap_add

HOP, N_FFT = AUDIO.hop_length, AUDIO.n_fft


def _stft(x: np.ndarray) -> np.ndarray:
    return torch.stft(torch.from_numpy(x), N_FFT, HOP, N_FFT, torch.hann_window(N_FFT, dtype=torch.float64),
                      center=True, pad_mode="constant", return_complex=True).T.numpy()


def test_overlap_add_inverts_the_analysis_between_its_first_and_last_frames():
    x = np.random.default_rng(0).standard_normal(40 * HOP)
    spec = _stft(x)
    audio = overlap_add(spec.real.astype(np.float32), spec.imag.astype(np.float32))
    assert audio.dtype == np.float32 and audio.size == (spec.shape[0] - (OVERLAP - 1)) * HOP
    # block m is frame m + 1's centre hop: samples from HOP on
    np.testing.assert_allclose(audio, x[HOP: HOP + audio.size], atol=1e-5)


def test_a_window_longer_than_the_spectrum_block_inverts_the_same_and_the_buffer_serves_every_length():
    """numpy 1 transforms SPECTRUM_BLOCK rows at a time through one padded buffer: a 300-frame window inverts its
    analysis as a short one does, and windows of other lengths in between change none of its samples."""
    from cantoedge.runtime.istft import SPECTRUM_BLOCK

    x = np.random.default_rng(6).standard_normal(2 * SPECTRUM_BLOCK * HOP + 40 * HOP)
    spec = _stft(x)
    real, imag = spec.real.astype(np.float32), spec.imag.astype(np.float32)
    audio = overlap_add(real, imag)
    np.testing.assert_allclose(audio, x[HOP: HOP + audio.size], atol=1e-5)
    for rows in (20, SPECTRUM_BLOCK + 5, 4):
        overlap_add(real[:rows], imag[:rows])
    assert overlap_add(real, imag).tobytes() == audio.tobytes()


def test_overlap_add_equals_the_vocoders_matmul_inverse():
    from cantoedge.export.models.vocoder import Vocoder, VocoderConfig

    voc = Vocoder(VocoderConfig(dim=16, hidden=32, layers=1))
    rng = np.random.default_rng(1)
    real, imag = (rng.standard_normal((20, N_FFT // 2 + 1)).astype(np.float32) for _ in range(2))
    with torch.no_grad():
        ref = voc.istft(torch.from_numpy(real)[None], torch.from_numpy(imag)[None])[0].numpy()
    np.testing.assert_allclose(overlap_add(real, imag), ref[HOP: (20 - 2) * HOP], atol=1e-5)


def test_overlap_add_refuses_what_it_cannot_invert():
    with pytest.raises(ValueError, match="at least 4 frames"):
        overlap_add(np.zeros((3, 513)), np.zeros((3, 513)))
    with pytest.raises(ValueError, match="513"):
        overlap_add(np.zeros((8, 512)), np.zeros((8, 512)))


def test_the_float32_transform_numpy_2_runs_gives_the_same_samples(monkeypatch):
    """On numpy 2 the inverse FFT runs in complex64 (float32); numpy 1 takes it too, only slower."""
    import cantoedge.runtime.istft as istft

    rng = np.random.default_rng(2)
    real, imag = (rng.normal(0, 5, (30, N_FFT // 2 + 1)).astype(np.float32) for _ in range(2))
    wide = overlap_add(real, imag)
    monkeypatch.setattr(istft, "FFT_DTYPE", np.complex64)
    narrow = istft.overlap_add(real, imag)
    assert narrow.dtype == np.float32
    np.testing.assert_allclose(narrow, wide, atol=1e-5 * float(np.abs(wide).max()))


def test_concurrent_windows_do_not_share_a_buffer():
    """The server vocodes windows of several requests at once: each thread's spectra stay its own."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(4)
    inputs = [tuple(rng.normal(0, 3, (20, N_FFT // 2 + 1)).astype(np.float32) for _ in range(2)) for _ in range(8)]
    expected = [overlap_add(*x) for x in inputs]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(5):
            for got, want in zip(pool.map(lambda x: overlap_add(*x), inputs), expected):
                np.testing.assert_array_equal(got, want)
