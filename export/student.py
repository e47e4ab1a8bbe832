"""Training a student: the teacher's targets for the training split (distil.py), then the usual training loop
(train.py) on them with the feature-matching term. Kept apart from both so neither imports the other."""

from __future__ import annotations

import json
from pathlib import Path

from .config import RunConfig
from .data import Normaliser
from .distil import build_distillation_set
from .train import train


def train_student(run: RunConfig, teacher_path: Path, corpus_dir: Path, out_dir: Path, progress: bool = True) -> Path:
    out_dir = Path(out_dir)
    distil_dir = out_dir / "teacher_targets"
    records, meta = build_distillation_set(Path(teacher_path), Path(corpus_dir), distil_dir, progress)
    teacher_dim = int(meta["config"]["dim"])
    info = {"teacher": str(teacher_path), "teacher_steps": meta.get("steps"), "utterances": len(records),
            "feature_weight": float(run.distil.get("feature_weight", 0.0))}
    (out_dir / "distil.json").write_text(json.dumps(info, indent=1))
    norm = Normaliser(**meta["normaliser"])
    return train(run, distil_dir, out_dir, progress=progress,
                 distil={"teacher_dim": teacher_dim, "normaliser": norm,
                         "feature_weight": info["feature_weight"]})

