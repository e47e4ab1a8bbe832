"""The project's accuracy metrics, defined once (DESIGN.md, "Metrics"); numpy only."""

from __future__ import annotations

import numpy as np

from cantoedge.runtime.audio import AUDIO, AudioParams, mel_center_frequencies

TONE_BAND_HZ = (50.0, 300.0)  # the Cantonese F0 range
_NEPER_TO_DB = 20.0 / np.log(10.0)  # log-mel is ln(magnitude): 1 neper = 8.686 dB


class MetricError(ValueError):
    """Inputs that cannot be compared (shapes, empty masks)."""


def _pair(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Trim two frame sequences (frames on the last axis) to their common length: a frame or two can
    differ after resynthesis."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape[:-1] != b.shape[:-1]:
        raise MetricError(f"cannot compare shapes {a.shape} and {b.shape}")
    n = min(a.shape[-1], b.shape[-1])
    if n == 0:
        raise MetricError("nothing to compare: zero frames")
    return a[..., :n], b[..., :n]


def tone_band_bins(params: AudioParams = AUDIO, band: tuple[float, float] = TONE_BAND_HZ) -> np.ndarray:
    """Indices of the mel bins whose centre frequency lies in the tone band."""
    centres = mel_center_frequencies(params)
    return np.flatnonzero((centres >= band[0]) & (centres <= band[1]))


def tone_band_error_db(mel_a: np.ndarray, mel_b: np.ndarray, voiced: np.ndarray,
                       params: AudioParams = AUDIO) -> float:
    """Mean |difference| in dB of two log-mels over the 50-300 Hz bins, on voiced frames."""
    a, b = _pair(mel_a, mel_b)
    v = np.asarray(voiced, dtype=bool)[: a.shape[1]]
    if not v.any():
        raise MetricError("no voiced frames to compare")
    bins = tone_band_bins(params)
    return float(np.mean(np.abs(a[bins][:, v] - b[bins][:, v])) * _NEPER_TO_DB)


def f0_rmse_cents(f0_a: np.ndarray, f0_b: np.ndarray) -> float:
    """RMSE in cents between two F0 tracks on frames voiced (f0 > 0) in both."""
    a, b = _pair(f0_a, f0_b)
    both = (a > 0) & (b > 0)
    if not both.any():
        raise MetricError("no frames voiced in both tracks")
    cents = 1200.0 * np.log2(a[both] / b[both])
    return float(np.sqrt(np.mean(cents**2)))


def mel_l1(mel_a: np.ndarray, mel_b: np.ndarray) -> float:
    """Mean absolute difference of two log-mels (natural-log units), all bins and frames."""
    a, b = _pair(mel_a, mel_b)
    return float(np.mean(np.abs(a - b)))


def _dct_ii(x: np.ndarray, n_coeffs: int) -> np.ndarray:
    """Orthonormal DCT-II along axis 0 (the mel axis)."""
    n = x.shape[0]
    k = np.arange(n_coeffs)[:, None]
    basis = np.cos(np.pi / n * (np.arange(n)[None, :] + 0.5) * k) * np.sqrt(2.0 / n)
    basis[0] /= np.sqrt(2.0)
    return basis @ x


def mel_cepstral_distortion(mel_a: np.ndarray, mel_b: np.ndarray, n_coeffs: int = 25) -> float:
    """MCD in dB: cepstra = DCT-II of the log-mel power, coefficients 1..24 (c0, loudness, left out);
    MCD = 10/ln10 * sqrt(2 * sum (ca - cb)^2), averaged over frames."""
    a, b = _pair(mel_a, mel_b)
    ca, cb = _dct_ii(2.0 * a, n_coeffs)[1:], _dct_ii(2.0 * b, n_coeffs)[1:]
    per_frame = np.sqrt(2.0 * np.sum((ca - cb) ** 2, axis=0))
    return float(10.0 / np.log(10.0) * np.mean(per_frame))


def tone_accuracy(predicted: np.ndarray, expected: np.ndarray) -> float:
    """Share of syllables whose classified tone matches the Jyutping tone asked for."""
    p, e = np.asarray(predicted), np.asarray(expected)
    if p.shape != e.shape or p.size == 0:
        raise MetricError(f"tone arrays must match and be non-empty, got {p.shape} and {e.shape}")
    return float(np.mean(p == e))


def snr_db(reference: np.ndarray, other: np.ndarray) -> float:
    """Signal-to-noise ratio of ``other`` against ``reference`` (same length), in float64."""
    a = np.asarray(reference, dtype=np.float64)
    b = np.asarray(other, dtype=np.float64)
    return float(10 * np.log10(np.sum(a**2) / max(np.sum((a - b) ** 2), 1e-20)))


def summarize(values: list[float]) -> dict[str, float]:
    """Median and p95 of a per-utterance metric (the project reports both)."""
    arr = np.asarray(values, dtype=np.float64)
    if arr.size == 0:
        return {"n": 0, "median": float("nan"), "p95": float("nan")}
    return {"n": int(arr.size), "median": float(np.median(arr)), "p95": float(np.percentile(arr, 95))}


def summary_cell(summary: dict, fmt: str) -> str:
    """A ``summarize`` result as a table cell: median (p95), or a dash when nothing was measured."""
    return f"{summary['median']:{fmt}} ({summary['p95']:{fmt}})" if summary["n"] else "–"
