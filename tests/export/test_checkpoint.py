"""Checkpoints: safetensors with their config, byte-identical for the same weights."""

import subprocess
import sys

import pytest
import torch

from cantoedge.export.checkpoint import canonical_safetensors, load_model, save_model
from cantoedge.export.models.vocoder import Vocoder, VocoderConfig

SAVE = """
import sys, torch
from cantoedge.export.checkpoint import save_model
from cantoedge.export.models.vocoder import Vocoder, VocoderConfig
torch.manual_seed(0)
cfg = VocoderConfig(dim=8, hidden=16, layers=1)
save_model(Vocoder(cfg), sys.argv[1], "vocoder", cfg.to_dict(), {"steps": 3, "run": "v", "note": "x"})
"""


@pytest.mark.slow  # two subprocesses that import torch
def test_the_same_weights_saved_by_separate_processes_are_byte_identical(tmp_path):
    """safetensors orders its metadata differently in every process; ours is sorted."""
    paths = [tmp_path / f"{i}.safetensors" for i in range(3)]
    for path in paths:
        subprocess.run([sys.executable, "-c", SAVE, str(path)], check=True, timeout=120)
    assert len({p.read_bytes() for p in paths}) == 1
    model, meta = load_model(paths[0])
    assert meta["steps"] == 3 and meta["note"] == "x" and isinstance(model, Vocoder)


def test_canonical_file_keeps_tensors_and_alignment(tmp_path):
    from safetensors.torch import load, save

    tensors = {"b": torch.arange(3, dtype=torch.int64), "a": torch.ones(2, 5)}
    data = canonical_safetensors(save(tensors, metadata={"z": "1", "a": "2"}))
    assert int.from_bytes(data[:8], "little") % 8 == 0
    back = load(data)
    assert all(torch.equal(back[k], v) for k, v in tensors.items())
    cfg = VocoderConfig(dim=8, hidden=16, layers=1)
    save_model(Vocoder(cfg), tmp_path / "v.safetensors", "vocoder", cfg.to_dict())
    assert load_model(tmp_path / "v.safetensors")[1]["kind"] == "vocoder"
