"""Audio parameters and the log-mel analysis every stage shares (numpy only, device safe)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np


@dataclass(frozen=True)
class AudioParams:
    sample_rate: int = 22050
    n_fft: int = 1024
    hop_length: int = 256
    win_length: int = 1024
    n_mels: int = 80
    fmin: float = 0.0
    fmax: float = 8000.0
    log_floor: float = 1e-5  # log-mel is ln(max(mel magnitude, floor))

    def n_frames(self, n_samples: int) -> int:
        """Frames of a centred STFT: one per hop, plus the frame at sample 0."""
        return 1 + n_samples // self.hop_length


AUDIO = AudioParams()


def hz_to_mel(hz: np.ndarray | float) -> np.ndarray:
    """Slaney's mel scale (linear below 1 kHz, logarithmic above), as librosa's default."""
    hz = np.asarray(hz, dtype=np.float64)
    f_sp, min_log_hz = 200.0 / 3, 1000.0
    min_log_mel, logstep = min_log_hz / f_sp, np.log(6.4) / 27.0
    return np.where(hz >= min_log_hz, min_log_mel + np.log(np.maximum(hz, 1e-10) / min_log_hz) / logstep,
                    hz / f_sp)


def mel_to_hz(mel: np.ndarray | float) -> np.ndarray:
    mel = np.asarray(mel, dtype=np.float64)
    f_sp, min_log_hz = 200.0 / 3, 1000.0
    min_log_mel, logstep = min_log_hz / f_sp, np.log(6.4) / 27.0
    return np.where(mel >= min_log_mel, min_log_hz * np.exp(logstep * (mel - min_log_mel)), f_sp * mel)


def mel_center_frequencies(params: AudioParams = AUDIO) -> np.ndarray:
    """Centre frequency in Hz of each mel bin (used to pick the tone band)."""
    edges = mel_to_hz(np.linspace(hz_to_mel(params.fmin), hz_to_mel(params.fmax), params.n_mels + 2))
    return edges[1:-1]


@lru_cache(maxsize=4)
def mel_filterbank(params: AudioParams = AUDIO) -> np.ndarray:
    """(n_mels, n_fft//2+1) Slaney-normalised triangular filters, equal to librosa.filters.mel."""
    fft_freqs = np.linspace(0, params.sample_rate / 2, params.n_fft // 2 + 1)
    edges = mel_to_hz(np.linspace(hz_to_mel(params.fmin), hz_to_mel(params.fmax), params.n_mels + 2))
    widths = np.diff(edges)
    ramps = edges[:, None] - fft_freqs[None, :]
    lower = -ramps[:-2] / widths[:-1, None]
    upper = ramps[2:] / widths[1:, None]
    weights = np.maximum(0, np.minimum(lower, upper))
    weights *= (2.0 / (edges[2:] - edges[:-2]))[:, None]
    return weights.astype(np.float32)


def periodic_hann(n: int) -> np.ndarray:
    """The periodic Hann window, float64: the analysis STFT's, and the synthesis window of the vocoder's
    inverse STFT on the device (runtime/istft.py) and in training."""
    return 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)


def stft_magnitude(audio: np.ndarray, params: AudioParams = AUDIO) -> np.ndarray:
    """|STFT| with a periodic Hann window and reflect-padded centred frames: (n_fft//2+1, n_frames)."""
    audio = np.asarray(audio, dtype=np.float32)
    pad = params.n_fft // 2
    mode = "reflect" if audio.size > pad else "constant"
    padded = np.pad(audio, pad, mode=mode)
    n_frames = params.n_frames(audio.size)
    idx = np.arange(params.n_fft)[None, :] + params.hop_length * np.arange(n_frames)[:, None]
    window = np.zeros(params.n_fft, dtype=np.float32)
    off = (params.n_fft - params.win_length) // 2
    window[off:off + params.win_length] = periodic_hann(params.win_length)
    spec = np.fft.rfft(padded[idx] * window, axis=1)
    return np.abs(spec).T.astype(np.float32)


def log_mel_from_magnitude(magnitude: np.ndarray, params: AudioParams = AUDIO) -> np.ndarray:
    """(n_mels, n_frames) natural-log mel magnitude, floored at params.log_floor."""
    mel = mel_filterbank(params) @ magnitude
    return np.log(np.maximum(mel, params.log_floor)).astype(np.float32)


def log_mel(audio: np.ndarray, params: AudioParams = AUDIO) -> np.ndarray:
    return log_mel_from_magnitude(stft_magnitude(audio, params), params)


LIMIT_KNEE = 0.89  # samples below this pass untouched; above it they bend smoothly towards the ceiling
LIMIT_CEILING = 0.99  # never reached: no sample lands on int16 full scale


def soft_limit(audio: np.ndarray, knee: float = LIMIT_KNEE, ceiling: float = LIMIT_CEILING) -> np.ndarray:
    """Keep peaks below full scale without hard clipping (0.06-0.1 % of the vocoder's samples overshot 1):
    |x| > knee maps to knee + h * tanh((|x| - knee) / h), h = ceiling - knee, continuous with slope 1 at the
    knee and always under the ceiling. Sample by sample, so streamed chunks equal the whole."""
    audio = np.asarray(audio, dtype=np.float32)
    mag = np.abs(audio)
    over = mag > knee
    if not over.any():
        return audio
    out = audio.copy()
    head = ceiling - knee
    out[over] = np.sign(audio[over]) * (knee + head * np.tanh((mag[over] - knee) / head))
    return out
