"""Speech from text with the PyTorch checkpoints (a build-side check of the voice before export)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from cantoedge.runtime.alignment import SyllableTime, syllable_times
from cantoedge.runtime.audio import soft_limit
from cantoedge.runtime.frontend import Frontend, G2PResult
from cantoedge.runtime.limits import check_speed, check_text

from .bundle import voice_paths
from .checkpoint import load_model
from .chunked import vocode_chunked
from .models.acoustic import AcousticModel
from .models.vocoder import Vocoder


@dataclass(frozen=True)
class Speech:
    audio: np.ndarray  # float32 at AUDIO.sample_rate
    mel: np.ndarray
    durations: np.ndarray  # frames per token
    g2p: G2PResult

    def alignment(self) -> list[SyllableTime]:
        """Each spoken syllable's start and end in seconds, from the predicted durations."""
        return syllable_times(self.g2p.jyutping, self.durations, self.g2p.encoded.syllable_index)


class TorchVoice:
    def __init__(self, acoustic: Path | None = None, vocoder: Path | None = None, frontend: Frontend | None = None):
        bundled = voice_paths()
        acoustic, vocoder = Path(acoustic or bundled.acoustic), Path(vocoder or bundled.vocoder)
        for path, what in ((acoustic, "acoustic model"), (vocoder, "vocoder")):
            if not path.exists():
                raise FileNotFoundError(f"no {what} at {path}: train one (cantoedge train ...) or pass its path")
        model, meta = load_model(acoustic)
        voc, voc_meta = load_model(vocoder)
        if not isinstance(model, AcousticModel) or not isinstance(voc, Vocoder):
            raise ValueError(f"expected an acoustic model and a vocoder, got {meta['kind']} and {voc_meta['kind']}")
        if not model.cfg.frame_pitch or not voc.cfg.harmonics:
            raise ValueError(f"{acoustic} and {vocoder} must be the pitch-carrying pair (acoustic frame_pitch, "
                             "vocoder harmonics): the vocoder sings the F0 the acoustic model predicts")
        self.model, self.vocoder = model, voc
        self.frontend = frontend or Frontend()

    @torch.no_grad()
    def speak(self, text: str, speed: float = 1.0) -> Speech:
        check_speed(speed)
        g2p = self.frontend(check_text(text))
        if len(g2p.tokens) > self.model.cfg.max_tokens:
            raise ValueError(f"{len(g2p.tokens)} tokens; the PyTorch check speaks at most {self.model.cfg.max_tokens} "
                             "at once (the device voice, `cantoedge say`, cuts longer text at pauses)")
        out = self.model.speak(torch.tensor(g2p.tokens), torch.tensor(g2p.tones), speed=speed)
        audio = vocode_chunked(self.vocoder, out["mel"], out["f0"])
        return Speech(soft_limit(audio.numpy()), out["mel"].numpy(), out["durations"].numpy(), g2p)
