"""Sequence-level distillation: the teacher speaks the training texts once (its own durations, pitch,
energy and mel, plus its encoder features), and the student learns to say them the same way.

Student loss = L1(student mel, teacher mel) + MSE(log-durations, log(1 + teacher durations))
             + MSE(pitch, teacher pitch on voiced tokens) + MSE(energy, teacher energy)
             + feature_weight * MSE(W · student encoder features, teacher encoder features),
where W is a linear map trained with the student and dropped at export."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import torch
from torch import nn

from cantoedge.runtime.fileio import atomic_write
from cantoedge.runtime.manifest import Record, load_features, read_manifest, write_manifest

from .checkpoint import load_model
from .data import AcousticDataset, Normaliser, frame_targets, token_targets
from .models.acoustic import AcousticModel


@torch.no_grad()
def teacher_targets(teacher: AcousticModel, feats: dict, norm: Normaliser) -> dict[str, np.ndarray]:
    """What the teacher says for one utterance's tokens, in the corpus's feature layout."""
    out = teacher.speak(torch.as_tensor(feats["tokens"], dtype=torch.long),
                        torch.as_tensor(feats["tones"], dtype=torch.long))
    _, voiced, _ = token_targets(feats, norm)  # which tokens carry pitch (same tokens, ground truth)
    targets = {"tokens": feats["tokens"], "tones": feats["tones"],
               "durations": out["durations"].numpy().astype(np.int32), "mel": out["mel"].numpy().astype(np.float32),
               "pitch": out["pitch"].numpy(), "energy": out["energy"].numpy(), "voiced": voiced,
               "features": out["features"].numpy()}
    if "frame_pitch" in out:  # the teacher's own contour, frame for frame with its mel
        log_f0, logit = out["frame_pitch"].numpy()
        targets["frame_f0"], targets["frame_voiced"] = frame_targets(np.exp(log_f0), logit > 0)
    return targets


def build_distillation_set(teacher_path: Path, corpus_dir: Path, out_dir: Path,
                           progress: bool = True) -> tuple[list[Record], dict]:
    """Teacher outputs for the training split under ``out_dir`` (resumable); returns records and metadata."""
    from tqdm import tqdm

    teacher, meta = load_model(teacher_path)
    if meta["kind"] != "acoustic":
        raise ValueError(f"{teacher_path} is a {meta['kind']} checkpoint, not an acoustic teacher")
    norm = Normaliser(**meta["normaliser"])
    records = [r for r in read_manifest(corpus_dir) if r.split == "train"]
    out: list[Record] = []
    for rec in tqdm(records, desc="teacher targets", unit="utt", disable=not progress):
        rel = f"features/{rec.id}.npz"
        path = out_dir / rel
        if not path.exists():
            arrays = teacher_targets(teacher, load_features(corpus_dir, rec), norm)

            def write(tmp: str, arrays: dict = arrays) -> None:
                with open(tmp, "wb") as fh:
                    np.savez(fh, **arrays)

            atomic_write(path, write)
        with np.load(path, allow_pickle=False) as data:
            n_frames = int(data["durations"].sum())
        out.append(replace(rec, features=rel, wav=str(Path(corpus_dir).resolve() / rec.wav), n_frames=n_frames))
    write_manifest(out, out_dir)
    return out, meta


class DistilDataset(AcousticDataset):
    """Items from the teacher's outputs: its targets are already token-level z-scores."""

    def __getitem__(self, index: int) -> dict:
        f = load_features(self.corpus_dir, self.records[index % len(self.records)])
        return {"tokens": torch.as_tensor(f["tokens"], dtype=torch.long),
                "tones": torch.as_tensor(f["tones"], dtype=torch.long),
                "durations": torch.as_tensor(f["durations"], dtype=torch.long),
                "pitch": torch.from_numpy(f["pitch"]), "voiced": torch.from_numpy(f["voiced"]),
                "energy": torch.from_numpy(f["energy"]), "mel": torch.from_numpy(f["mel"]),
                "features": torch.from_numpy(f["features"]),
                **({"frame_f0": torch.from_numpy(f["frame_f0"]), "frame_voiced": torch.from_numpy(f["frame_voiced"])}
                   if "frame_f0" in f else {})}


class FeatureMatch(nn.Module):
    """The training-only map from the student's encoder width to the teacher's."""

    def __init__(self, student_dim: int, teacher_dim: int):
        super().__init__()
        self.proj = nn.Linear(student_dim, teacher_dim)

    def forward(self, student: torch.Tensor, teacher: torch.Tensor, token_mask: torch.Tensor) -> torch.Tensor:
        err = ((self.proj(student) - teacher) ** 2).mean(dim=-1)
        mask = token_mask.to(err.dtype)
        return (err * mask).sum() / mask.sum().clamp(min=1.0)
