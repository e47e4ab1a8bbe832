"""Exported graphs against PyTorch on held-out utterances: the largest absolute difference per graph."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from cantoedge.runtime.manifest import load_features, split_records
from cantoedge.runtime.synth import Voice, length_regulate

from .checkpoint import load_model
from .chunked import decode_chunked, vocode_chunked

PARITY_TOLERANCE = 1e-4
F0_TOLERANCE_HZ = 1e-2  # F0 leaves the graph as exp(log-F0): 1e-4 relative at ~100 Hz


@dataclass
class Parity:
    utterances: int
    encoder: float  # max |ONNX - PyTorch| over hidden, log-durations, pitch, energy
    decoder: float  # over every mel frame
    f0_hz: float  # over every frame's F0, voicing decisions included
    vocoder: float  # over every sample

    @property
    def worst(self) -> float:
        return max(self.encoder, self.decoder, self.vocoder)

    @property
    def ok(self) -> bool:
        return self.worst <= PARITY_TOLERANCE and self.f0_hz <= F0_TOLERANCE_HZ


@torch.no_grad()
def check_parity(graph_dir: Path, acoustic: Path, vocoder: Path, corpus_dir: Path, split: str = "test",
                 limit: int | None = None, precision: str = "fp32") -> Parity:
    """Same inputs through both: reference durations expand the hidden states, so frame counts agree."""
    model, _ = load_model(acoustic)
    voc, _ = load_model(vocoder)
    voice = Voice(graph_dir, precision)
    records = split_records(Path(corpus_dir), split, limit)
    if not records:
        raise ValueError(f"{corpus_dir} has no '{split}' utterances")
    worst = {"encoder": 0.0, "decoder": 0.0, "f0_hz": 0.0, "vocoder": 0.0}
    for rec in records:
        feats = load_features(Path(corpus_dir), rec)
        tokens, tones = feats["tokens"].astype(np.int64)[None], feats["tones"].astype(np.int64)[None]
        ours = voice.encoder(tokens=tokens, tones=tones)
        theirs = model.encoder(torch.from_numpy(tokens), torch.from_numpy(tones))[:4]
        worst["encoder"] = max(worst["encoder"], *(float(np.abs(a - b.numpy()).max()) for a, b in zip(ours, theirs)))
        frames, position = length_regulate(ours[0][0], feats["durations"].astype(np.int64))
        mel, f0 = voice.decode(frames, position)
        ref_mel, ref_f0 = decode_chunked(model.decoder, torch.from_numpy(frames), torch.from_numpy(position))
        worst["decoder"] = max(worst["decoder"], float(np.abs(mel - ref_mel.numpy()).max()))
        worst["f0_hz"] = max(worst["f0_hz"], float(np.abs(f0 - ref_f0.numpy()).max()))
        audio = np.concatenate(list(voice.audio_chunks(frames, position)))
        ref_audio = vocode_chunked(voc, torch.from_numpy(mel), torch.from_numpy(f0)).numpy()
        worst["vocoder"] = max(worst["vocoder"], float(np.abs(audio - ref_audio).max()))
    return Parity(len(records), **worst)
