"""Tone classification from F0 contours: the ear the regression suite listens with (numpy only).

Each syllable's F0 (semitones, z-normalised with the speaker's statistics) is sampled at five points
over its voiced frames; with its slope, range, log length and the neighbouring syllables' mean pitch
it feeds a small MLP trained on the corpus (``cantoedge regress tone-train``)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

N_POINTS = 5
N_FEATURES = N_POINTS + 6
FORMAT_VERSION = 2  # 2: robust speaker statistics (median, IQR)


@dataclass(frozen=True)
class SpeakerStats:
    """Centre and spread of a speaker's voiced pitch in semitones (re 1 Hz): the median and the
    interquartile range scaled to a normal's standard deviation. Robust on purpose: 1 % of octave errors
    in the reference audio's YIN tracks doubled the plain standard deviation (4.1 against 2.2 semitones),
    so audio tracked more cleanly than the reference was normalised on another scale and misheard."""

    mean: float
    std: float

    @classmethod
    def from_tracks(cls, f0_tracks: Sequence[np.ndarray]) -> SpeakerStats:
        voiced = np.concatenate([np.asarray(f, np.float64)[np.asarray(f) > 0] for f in f0_tracks] or [[]])
        if voiced.size < 2:
            raise ValueError("not enough voiced frames to estimate the speaker's pitch range")
        q1, median, q3 = np.percentile(12.0 * np.log2(voiced), [25, 50, 75])
        return cls(float(median), float(max((q3 - q1) / 1.349, 1e-3)))


def contour_features(f0: np.ndarray, spans: Sequence[tuple[int, int]], stats: SpeakerStats) -> np.ndarray:
    """(n_syllables, N_FEATURES); rows are NaN for syllables with fewer than two voiced frames."""
    f0 = np.asarray(f0, dtype=np.float64)
    rows = np.full((len(spans), N_FEATURES), np.nan)
    means = np.full(len(spans), np.nan)
    for k, (s, e) in enumerate(spans):
        seg = f0[s:e]
        idx = np.flatnonzero(seg > 0)
        if idx.size < 2:
            continue
        z = (12.0 * np.log2(seg[idx]) - stats.mean) / stats.std
        pos = (idx - idx[0]) / max(idx[-1] - idx[0], 1)
        points = np.interp(np.linspace(0, 1, N_POINTS), pos, z)
        slope = np.polyfit(pos, z, 1)[0] if idx.size >= 3 else points[-1] - points[0]
        rows[k, :N_POINTS] = points
        rows[k, N_POINTS: N_POINTS + 3] = (slope, z.max() - z.min(), np.log(max(e - s, 1)))
        means[k] = z.mean()
    # Context: the neighbours' mean pitch, relative to this syllable (level tones are told apart this way).
    for k in range(len(spans)):
        if np.isnan(means[k]):
            continue
        prev = means[k - 1] if k > 0 and not np.isnan(means[k - 1]) else means[k]
        nxt = means[k + 1] if k + 1 < len(spans) and not np.isnan(means[k + 1]) else means[k]
        rows[k, N_POINTS + 3:] = (means[k], means[k] - prev, means[k] - nxt)
    return rows


@dataclass(frozen=True)
class ToneClassifier:
    """A one-hidden-layer MLP over contour features; tones are 1..6, -1 means "could not tell"."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    mu: np.ndarray
    sigma: np.ndarray

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        x = (np.nan_to_num(features) - self.mu) / self.sigma
        h = np.tanh(x @ self.w1 + self.b1)
        logits = h @ self.w2 + self.b2
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)

    def predict(self, features: np.ndarray) -> np.ndarray:
        features = np.atleast_2d(features)
        if features.shape[0] == 0:
            return np.zeros(0, dtype=np.int64)
        tones = self.probabilities(features).argmax(axis=1) + 1
        return np.where(np.isnan(features).any(axis=1), -1, tones)

    def to_bytes(self) -> bytes:
        buf = io.BytesIO()
        np.savez(buf, version=np.int32(FORMAT_VERSION), w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2,
                 mu=self.mu, sigma=self.sigma)
        return buf.getvalue()

    @classmethod
    def load(cls, path: str | Path | None = None) -> ToneClassifier:
        """The bundled classifier (regression/data/tone_classifier.npz) or a file of the same format."""
        if path is None:
            return _bundled()
        with np.load(path, allow_pickle=False) as data:
            return cls._from_arrays(data, str(path))

    @classmethod
    def _from_arrays(cls, data, source: str) -> ToneClassifier:
        try:
            version = int(data["version"])
            arrays = {k: np.asarray(data[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2", "mu", "sigma")}
        except KeyError as exc:
            raise ValueError(f"{source} is not a tone classifier file (missing {exc})") from exc
        if version != FORMAT_VERSION or arrays["w1"].shape[0] != N_FEATURES or arrays["w2"].shape[1] != 6:
            raise ValueError(f"{source}: tone classifier format v{version} with shapes "
                             f"{arrays['w1'].shape}/{arrays['w2'].shape} does not match this code")
        return cls(**arrays)


@lru_cache(maxsize=1)
def _bundled() -> ToneClassifier:
    ref = resources.files("cantoedge.regression").joinpath("data/tone_classifier.npz")
    with ref.open("rb") as fh, np.load(io.BytesIO(fh.read()), allow_pickle=False) as data:
        return ToneClassifier._from_arrays(data, "tone_classifier.npz")


def train_classifier(features: np.ndarray, tones: np.ndarray, hidden: int = 48, epochs: int = 600,
                     lr: float = 0.01, weight_decay: float = 1e-4, seed: int = 0) -> ToneClassifier:
    """Full-batch Adam on cross-entropy; rows with NaN (unvoiced syllables) are left out."""
    keep = ~np.isnan(features).any(axis=1)
    x, y = features[keep], np.asarray(tones)[keep] - 1
    if x.shape[0] < 12 or np.unique(y).size < 2:
        raise ValueError(f"too few voiced syllables to train a tone classifier ({x.shape[0]})")
    rng = np.random.default_rng(seed)
    mu, sigma = x.mean(axis=0), x.std(axis=0) + 1e-6
    xn = (x - mu) / sigma
    params = {
        "w1": rng.normal(0, 1 / np.sqrt(x.shape[1]), (x.shape[1], hidden)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0, 1 / np.sqrt(hidden), (hidden, 6)),
        "b2": np.zeros(6),
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    onehot = np.eye(6)[y]
    for step in range(1, epochs + 1):
        h = np.tanh(xn @ params["w1"] + params["b1"])
        logits = h @ params["w2"] + params["b2"]
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        g_logits = (p - onehot) / x.shape[0]
        g_h = (g_logits @ params["w2"].T) * (1 - h**2)
        grads = {"w2": h.T @ g_logits, "b2": g_logits.sum(axis=0), "w1": xn.T @ g_h, "b1": g_h.sum(axis=0)}
        for k, g in grads.items():
            g = g + weight_decay * params[k]
            m, v = moments[k]
            m[:] = 0.9 * m + 0.1 * g
            v[:] = 0.999 * v + 0.001 * g**2
            params[k] -= lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return ToneClassifier(params["w1"], params["b1"], params["w2"], params["b2"], mu, sigma)
