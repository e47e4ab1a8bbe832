"""The vocoder's inverse STFT on the device, between graphs: an inverse real FFT per frame, the synthesis
window and overlap-add (numpy only). As a graph it was two dense (bins × n_fft) MatMuls per frame that INT8
cannot take (one per-tensor scale for a spectrum of that dynamic range); the FFT is O(n log n) and exact."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .audio import AUDIO, periodic_hann
from .scratch import scratch

OVERLAP = 4  # n_fft / hop: frames that share every sample
WINDOW_LEVEL = 1.5  # sum of the squared periodic Hann window at 75 % overlap, the overlap-add's gain
# The spectrum type the FFT runs in. numpy 2 transforms complex64 natively, in float32 (measured here in a
# numpy 2.4 environment: 0.22-0.33 ms a window, against 1.2-1.5 ms for complex128); numpy 1 converts complex64
# through a slow path (3-4 ms), so there complex128 is the fast input. A device install gets numpy 2; this
# repository's environment stays on numpy 1 (nvidia-pytriton pins it).
FFT_DTYPE = np.complex64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else np.complex128


# Frames transformed at once on numpy 1: its padded spectrum buffer stays this many rows (2 MB) however long a
# window is (a window of LONGEST_WINDOW_FRAMES = 256 kept frames has 259 rows).
SPECTRUM_BLOCK = 128


def _padded_spectrum(frames: int, n_fft: int) -> np.ndarray:
    """numpy 1's irfft pads a (frames, bins) spectrum to (frames, n_fft) on every call, a fresh 2 MB array
    that page-faults each time (measured here: 2.5-3.8 ms a window, against 0.4-0.6 without it). A thread's
    own buffer, already that wide and zero past the bins, is transformed as it is (its first ``frames`` rows)."""
    return scratch(f"istft.spectrum{n_fft}", (frames, n_fft), np.complex128, zeroed=True)  # rows never move


@lru_cache(maxsize=4)
def synthesis_window(n_fft: int, dtype: type = np.float64) -> np.ndarray:
    """The periodic Hann window divided by the overlap-add's gain."""
    return (periodic_hann(n_fft) / WINDOW_LEVEL).astype(dtype)


def overlap_add(real: np.ndarray, imag: np.ndarray, n_fft: int = AUDIO.n_fft) -> np.ndarray:
    """(T, bins) STFT parts of consecutive centred frames -> the samples (T - 3) * hop between them, float32:
    block m is frame m + 1's centre hop, the first block every one of its OVERLAP frames covers."""
    real, imag = np.asarray(real), np.asarray(imag)
    bins = n_fft // 2 + 1
    if real.shape != imag.shape or real.ndim != 2 or real.shape[1] != bins:
        raise ValueError(f"need two (frames, {bins}) spectra, got {real.shape} and {imag.shape}")
    if real.shape[0] < OVERLAP:
        raise ValueError(f"need at least {OVERLAP} frames, got {real.shape[0]}")
    hop = n_fft // OVERLAP
    if FFT_DTYPE is np.complex64:
        spectrum = np.empty(real.shape, FFT_DTYPE)
        spectrum.real, spectrum.imag = real, imag
        frames = np.fft.irfft(spectrum, n=n_fft, axis=-1)
    else:  # a block of rows at a time through the thread's padded buffer (each row's transform is its own)
        frames = np.empty((real.shape[0], n_fft), np.float64)
        for first in range(0, real.shape[0], SPECTRUM_BLOCK):
            rows = slice(first, min(first + SPECTRUM_BLOCK, real.shape[0]))
            spectrum = _padded_spectrum(rows.stop - rows.start, n_fft)
            spectrum[:, :bins].real, spectrum[:, :bins].imag = real[rows], imag[rows]
            frames[rows] = np.fft.irfft(spectrum, n=n_fft, axis=-1)
    frames *= synthesis_window(n_fft, frames.dtype.type)
    blocks = real.shape[0] - (OVERLAP - 1)
    # block m (frame m + 1's centre hop) holds segment 3 of frame m, 2 of m + 1, 1 of m + 2 and 0 of m + 3
    out = frames[: blocks, 3 * hop:].copy()
    for segment in range(OVERLAP - 1):
        out += frames[OVERLAP - 1 - segment: OVERLAP - 1 - segment + blocks, segment * hop: (segment + 1) * hop]
    return out.astype(np.float32).reshape(-1)
