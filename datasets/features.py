"""Per-utterance acoustic features: log-mel, F0 and voicing, energy, all on the same frame grid."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cantoedge.regression.pitch import yin
from cantoedge.runtime.audio import AUDIO, AudioParams, log_mel_from_magnitude, stft_magnitude


@dataclass(frozen=True)
class Features:
    mel: np.ndarray  # (n_mels, T) float32, natural log of mel magnitude
    f0: np.ndarray  # (T,) float32 Hz, 0 where unvoiced
    voiced: np.ndarray  # (T,) bool
    energy: np.ndarray  # (T,) float32, L2 norm of the STFT magnitude per frame

    @property
    def n_frames(self) -> int:
        return int(self.mel.shape[1])


def extract(audio: np.ndarray, params: AudioParams = AUDIO) -> Features:
    """Features of float audio in [-1, 1] at params.sample_rate."""
    audio = np.asarray(audio, dtype=np.float32)
    mag = stft_magnitude(audio, params)
    mel = log_mel_from_magnitude(mag, params)
    f0, voiced = yin(audio, params)
    energy = np.linalg.norm(mag, axis=0).astype(np.float32)
    return Features(mel, f0, voiced, energy)

