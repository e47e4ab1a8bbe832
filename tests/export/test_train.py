"""Training runs: tiny configs, seconds each. A killed run resumes to the same weights as an unbroken one."""

import json
import os
import signal
import subprocess
from pathlib import Path

import numpy as np
import pytest
import torch
from trainkit import _cmd, _train

from cantoedge.export.checkpoint import load_model
from cantoedge.runtime.excitation import excitation_phase


def _weights(path: Path) -> dict[str, torch.Tensor]:
    model, _ = load_model(path)
    return model.state_dict()


def test_killed_training_resumes_to_the_same_weights(teacher_run, tiny_corpus, tmp_path):
    config, whole = teacher_run
    out = tmp_path / "killed"
    from cantoedge.export.train import KILL_AFTER_STEP_ENV  # lightning: seconds to import, so not at collection

    proc = _train("teacher", config, tiny_corpus, out, env={**os.environ, KILL_AFTER_STEP_ENV: "4"})
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == -signal.SIGKILL, err  # killed right after the step-4 snapshot, not before or later
    assert (out / "last.ckpt").exists() and not (out / "model.safetensors").exists()
    resumed = _train("teacher", config, tiny_corpus, out)
    _, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    assert "resuming" in err and "at step 4" in err
    a, b = _weights(whole), _weights(out / "model.safetensors")
    assert a.keys() == b.keys()
    for key in a:
        torch.testing.assert_close(a[key], b[key], rtol=0, atol=1e-6, msg=lambda m, key=key: f"{key}: {m}")


def test_teacher_checkpoint_is_safetensors_with_config(teacher_run):
    _, path = teacher_run
    model, meta = load_model(path)
    assert meta["kind"] == "acoustic" and meta["steps"] == 24 and meta["config"]["dim"] == 32
    assert json.loads((path.parent / "run.json").read_text())["train_seconds"] > 0
    assert set(meta["normaliser"]) == {"pitch_mean", "pitch_std", "energy_mean", "energy_std"}
    tokens = torch.tensor([1, 20, 35, 22, 52, 3])
    out = model.speak(tokens, torch.tensor([0, 3, 3, 4, 4, 0]))
    assert out["mel"].shape == (80, int(out["durations"].sum())) and torch.isfinite(out["mel"]).all()
    assert out["f0"].shape == (out["mel"].shape[1],)


def test_student_distils_from_the_teacher(student_run):
    model, meta = load_model(student_run)
    assert meta["distilled"] is True and meta["config"]["dim"] == 16
    assert "feature_match" not in "".join(model.state_dict())  # the training-only projection is not kept
    targets = sorted((student_run.parent / "teacher_targets" / "features").glob("*.npz"))
    assert len(targets) == 16
    with np.load(targets[0], allow_pickle=False) as t:
        assert t["mel"].shape[1] == t["durations"].sum() and t["features"].shape == (t["tokens"].size, 32)
        assert t["frame_f0"].shape == t["frame_voiced"].shape == (t["mel"].shape[1],)  # the teacher's contour


def test_vocoder_trains_and_loads(tiny_vocoder):
    model, meta = load_model(tiny_vocoder)
    assert meta["kind"] == "vocoder"
    f0 = torch.full((1, 20), 100.0)
    audio = model(torch.full((1, 80, 20), -5.0), f0, torch.from_numpy(excitation_phase(f0[0].numpy()))[None])
    assert audio.shape == (1, 20 * 256) and torch.isfinite(audio).all()


def test_student_without_teacher_and_damaged_checkpoint_are_clear_errors(tiny_corpus, tmp_path):
    proc = subprocess.run(_cmd("train", "student", "--corpus", str(tiny_corpus), "--out", str(tmp_path / "s")),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "--teacher" in proc.stderr
    proc = subprocess.run(_cmd("train", "student", "--config", "student_noflutter", "--corpus", str(tiny_corpus),
                               "--flutter-free-corpus", str(tmp_path / "nf"), "--out", str(tmp_path / "s")),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "--flutter-free-corpus is for train voice" in proc.stderr
    assert not (tmp_path / "nf").exists() and not (tmp_path / "s").exists()  # refused before any work
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(b"\x00" * 64)
    with pytest.raises(ValueError, match="not a readable safetensors"):
        load_model(bad)


def test_a_stage_from_a_checkpoint_of_other_widths_is_one_clear_line(tiny_vocoder, tiny_corpus, tmp_path):
    """A later stage may keep fewer of a block's hidden units (the slim vocoder) but not change the model's width:
    that is refused in one line before any training, not torch's list of every mismatched tensor."""
    from trainkit import TINY_VOCODER

    (tmp_path / "vocoder_pitch").mkdir()
    (tmp_path / "vocoder_pitch" / "model.safetensors").write_bytes(tiny_vocoder.read_bytes())
    config = tmp_path / "wide.toml"
    wider = TINY_VOCODER.replace("dim = 16", "dim = 24")
    config.write_text(wider.replace("[train]\n", '[train]\ninit = "vocoder_pitch"\n'))
    proc = subprocess.run(_cmd("train", "vocoder", "--config", str(config), "--corpus", str(tiny_corpus),
                               "--out", str(tmp_path / "wide"), "--quiet"), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1
    assert "other shapes than this model (embed.weight: 16x80x7 there, 24x80x7 here" in proc.stderr
    assert not (tmp_path / "wide" / "model.safetensors").exists()


def test_resuming_with_another_config_is_refused(teacher_run, tiny_corpus, tmp_path):
    config, _ = teacher_run
    out = tmp_path / "run"
    first = _train("teacher", config, tiny_corpus, out, "--max-steps", "4")
    assert first.wait(timeout=600) == 0
    other = tmp_path / "other.toml"
    other.write_text(config.read_text().replace("seed = 7", "seed = 8"))
    proc = subprocess.run(_cmd("train", "teacher", "--config", str(other), "--corpus", str(tiny_corpus),
                               "--out", str(out), "--quiet"), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1 and "different config" in proc.stderr


@pytest.mark.filterwarnings("ignore:You are trying to `self.log")  # one step by hand, without a Trainer
@pytest.mark.parametrize("train_pitch", [False, True])
def test_a_contour_stage_trains_the_decoder_and_with_train_pitch_the_token_levels_too(train_pitch):
    """The contour stage's gradients reach the decoder only; with ``train_pitch`` also the encoder's token-pitch
    predictor and its projection (scored against the corpus's token levels), never the durations or energy."""
    from cantoedge.export.config import parse_config
    from cantoedge.export.data import Normaliser, collate_acoustic
    from cantoedge.export.train import ContourTask

    run = parse_config('kind = "acoustic"\n[model]\ndim = 16\nheads = 2\nenc_layers = 1\ndec_dim = 16\n'
                       'dec_layers = 1\npredictor_hidden = 16\nframe_pitch = true\n[contour]\nshape_weight = 8.0\n'
                       f'train_pitch = {str(train_pitch).lower()}\n', "contour")
    task = ContourTask(run, Normaliser(4.5, 0.2, 0.0, 1.0))
    g = torch.Generator().manual_seed(0)
    durations = torch.tensor([3, 5, 4, 6])
    item = {"tokens": torch.tensor([5, 9, 7, 11]), "tones": torch.tensor([0, 1, 0, 2]), "durations": durations,
            "pitch": torch.randn(4, generator=g), "voiced": torch.tensor([False, True, True, True]),
            "energy": torch.randn(4, generator=g), "mel": torch.randn(80, 18, generator=g),
            "frame_f0": 4.6 + 0.1 * torch.randn(18, generator=g), "frame_voiced": torch.rand(18, generator=g) > 0.3}
    loss = task.training_step(collate_acoustic([item]), 0)
    loss.backward()
    trained = {name.split(".")[0] for name, p in task.model.named_parameters() if p.grad is not None}
    assert trained == ({"decoder", "encoder"} if train_pitch else {"decoder"})
    encoder = {name for name, p in task.model.encoder.named_parameters() if p.grad is not None}
    assert encoder == ({n for n, _ in task.model.encoder.named_parameters() if n.startswith(("pitch.", "pitch_proj."))}
                       if train_pitch else set())
