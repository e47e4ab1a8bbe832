"""F0 tracking (YIN) in numpy, so reference and synthesised audio are measured by the same code anywhere."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cantoedge.runtime.audio import AUDIO, AudioParams


@dataclass(frozen=True)
class PitchParams:
    fmin: float = 50.0  # Cantonese F0 spans roughly 50-300 Hz; 500 leaves room for raised voices
    fmax: float = 500.0
    frame_length: int = 1024  # 46 ms: longer frames smear fast contour tones (measured against WORLD)
    threshold: float = 0.2  # on the cumulative-mean-normalised difference; 0.2 kept octave errors under 1 %
    silence_db: float = -50.0  # frames this far below the loudest are unvoiced


def _frames(audio: np.ndarray, frame_length: int, hop: int, n_frames: int) -> np.ndarray:
    pad = frame_length // 2
    padded = np.pad(audio, (pad, pad + frame_length), mode="constant")
    idx = np.arange(frame_length)[None, :] + hop * np.arange(n_frames)[:, None]
    return padded[idx]


def yin(audio: np.ndarray, params: AudioParams = AUDIO, pitch: PitchParams = PitchParams()
        ) -> tuple[np.ndarray, np.ndarray]:
    """(f0 Hz, voiced) per mel frame; f0 is 0 where unvoiced. Frames are centred like the mel's."""
    audio = np.asarray(audio, dtype=np.float64)
    sr, hop = params.sample_rate, params.hop_length
    n_frames = params.n_frames(audio.size)
    tau_min = max(2, int(sr / pitch.fmax))
    tau_max = min(int(np.ceil(sr / pitch.fmin)), pitch.frame_length // 2)
    w = pitch.frame_length - tau_max
    frames = _frames(audio, pitch.frame_length, hop, n_frames)
    frames = frames - frames.mean(axis=1, keepdims=True)
    # d(tau) = E(x[:w]) + E(x[tau:tau+w]) - 2 r(tau), the correlation term through the FFT.
    n_fft = 1 << int(np.ceil(np.log2(pitch.frame_length + w)))
    spec = np.fft.rfft(frames, n_fft) * np.conj(np.fft.rfft(frames[:, :w], n_fft))
    corr = np.fft.irfft(spec, n_fft)[:, : tau_max + 1]
    sq = np.concatenate([np.zeros((n_frames, 1)), np.cumsum(frames**2, axis=1)], axis=1)
    taus = np.arange(tau_max + 1)
    energy_tau = sq[:, taus + w] - sq[:, taus]
    diff = np.maximum(energy_tau[:, :1] + energy_tau - 2 * corr, 0.0)
    cum = np.cumsum(diff[:, 1:], axis=1)
    cmnd = np.ones_like(diff)
    cmnd[:, 1:] = diff[:, 1:] * taus[1:] / np.maximum(cum, 1e-12)
    search = cmnd[:, tau_min: tau_max]
    below = search < pitch.threshold
    # First dip under the threshold, then walk down to its local minimum.
    first = np.where(below.any(axis=1), below.argmax(axis=1), search.argmin(axis=1))
    best = first.copy()
    for _ in range(tau_max):
        nxt = np.minimum(best + 1, search.shape[1] - 1)
        move = search[np.arange(n_frames), nxt] < search[np.arange(n_frames), best]
        if not move.any():
            break
        best = np.where(move, nxt, best)
    tau = best + tau_min
    rows = np.arange(n_frames)
    left = cmnd[rows, np.maximum(tau - 1, 1)]
    mid = cmnd[rows, tau]
    right = cmnd[rows, np.minimum(tau + 1, tau_max)]
    denom = left - 2 * mid + right
    shift = np.where(np.abs(denom) > 1e-12, 0.5 * (left - right) / np.where(denom == 0, 1, denom), 0.0)
    period = tau + np.clip(shift, -1, 1)
    rms = np.sqrt(np.mean(frames[:, :w] ** 2, axis=1))
    loud = 20 * np.log10(np.maximum(rms, 1e-10)) > 20 * np.log10(max(rms.max(), 1e-10)) + pitch.silence_db
    voiced = below.any(axis=1) & (search[rows, best] < pitch.threshold * 2) & loud
    f0 = _despike(np.where(voiced, sr / period, 0.0))
    return f0.astype(np.float32), f0 > 0


def _despike(f0: np.ndarray) -> np.ndarray:
    """Median of three inside voiced runs: removes single-frame octave jumps without shifting contours."""
    if f0.size < 3:
        return f0
    trio = np.stack([f0[:-2], f0[1:-1], f0[2:]])
    out = f0.copy()
    inner = (trio > 0).all(axis=0)
    out[1:-1] = np.where(inner, np.median(trio, axis=0), f0[1:-1])
    return out
