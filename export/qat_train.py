"""``cantoedge train qat``: fine-tune the distilled student with fake quantisation, scales from the ranges
file, on the same teacher targets it was distilled from."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .checkpoint import load_model
from .config import load_config
from .data import Normaliser
from .models.acoustic import AcousticConfig
from .qat import quantisable_layers


def train_qat(student: Path, ranges_path: Path, targets_dir: Path, out_dir: Path, config: str | Path = "qat",
              progress: bool = True) -> Path:
    """-> OUT/model.safetensors: the student's weights after QAT, with its fake-quant scales."""
    from cantoedge.calibrate.ranges import Ranges

    from .train import train

    model, meta = load_model(student)
    if meta["kind"] != "acoustic" or not meta.get("distilled"):
        raise ValueError(f"{student} is not a distilled student checkpoint")
    if not (Path(targets_dir) / "manifest.jsonl").exists():
        raise FileNotFoundError(f"no teacher targets in {targets_dir}: QAT trains on the targets the student "
                                "was distilled from (its run's teacher_targets/)")
    ranges = Ranges.load(ranges_path)
    layers = quantisable_layers(model, ranges.graphs, ranges.method)
    if not layers:
        raise ValueError(f"{ranges_path} has no ranges for this model's layers: calibrate its exported graphs")
    base = load_config(config)
    run = replace(base, name="qat", model=AcousticConfig.from_dict(meta["config"]))
    norm = Normaliser(**meta["normaliser"])
    return train(run, Path(targets_dir), Path(out_dir), progress,
                 distil={"teacher_dim": 0, "normaliser": norm, "feature_weight": 0.0},
                 init=Path(student), qat_layers=layers)
