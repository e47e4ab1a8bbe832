"""Tiny training configs and a subprocess runner for the export tests."""

import subprocess
import sys
from pathlib import Path

TINY_TEACHER = """
kind = "acoustic"
[model]
dim = 32
heads = 2
enc_layers = 2
ff_hidden = 64
dec_dim = 32
dec_layers = 2
dec_hidden = 64
predictor_hidden = 32
frame_pitch = true
[train]
seed = 7
batch_size = 4
max_steps = 24
lr = 1e-3
warmup_steps = 2
checkpoint_every = 4
"""

TINY_STUDENT = TINY_TEACHER.replace("dim = 32", "dim = 16").replace("max_steps = 24", "max_steps = 8") + \
    "[distil]\nfeature_weight = 0.1\n"

TINY_VOCODER = """
kind = "vocoder"
[model]
dim = 16
hidden = 32
layers = 2
harmonics = true
[train]
seed = 7
batch_size = 2
segment_frames = 16
max_steps = 4
lr = 1e-3
warmup_steps = 2
checkpoint_every = 2
"""


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "cantoedge.scripts.cli", *args]


def _train(what: str, config: Path, corpus: Path, out: Path, *extra: str, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen(_cmd("train", what, "--config", str(config), "--corpus", str(corpus), "--out", str(out),
                                 "--quiet", *extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)


def train_to_end(what: str, config_text: str, corpus: Path, root: Path, *extra: str) -> Path:
    """Write ROOT/WHAT.toml, train into ROOT/WHAT in a subprocess, return the model.safetensors path."""
    config = root / f"{what}.toml"
    config.write_text(config_text)
    proc = _train(what, config, corpus, root / what, *extra)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return root / what / "model.safetensors"
