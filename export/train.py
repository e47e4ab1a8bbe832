"""Training with PyTorch Lightning: teacher and student acoustic models, and the vocoder.

Runs are resumable and exact: an epoch is ``checkpoint_every`` steps, a snapshot of the weights, optimizer
and schedule lands on every epoch end (``DIR/last.ckpt``, tensors only, loaded with ``weights_only=True``),
the data order is seeded by (seed, epoch) and dropout by (seed, step). Lightning's own ckpt_path resume did
not reproduce an unbroken run here (its restored loop ran an extra step), so resuming is done here: restore
the snapshot, then fit the epochs that are left. The weights are written as ``DIR/model.safetensors``."""

from __future__ import annotations

import json
import logging
import math
import os
import signal
import time
import warnings
from pathlib import Path

import lightning as L
import torch
from torch.utils.data import DataLoader

from cantoedge.runtime.fileio import atomic_write
from cantoedge.runtime.manifest import read_manifest

from .checkpoint import load_model, save_model
from .config import RunConfig
from .data import AcousticDataset, EpochSampler, Normaliser, VocoderDataset, collate_acoustic
from .distil import DistilDataset, FeatureMatch
from .losses import acoustic_losses, decoder_losses, token_pitch_loss, vocoder_losses
from .models.acoustic import AcousticModel, length_regulate
from .models.vocoder import Vocoder
from .qat import prepare

log = logging.getLogger("cantoedge.train")


def _warmup_then_decay(warmup: int, total: int):
    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        progress = (step - warmup) / max(total - warmup, 1)
        return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0)))

    return factor


class _Task(L.LightningModule):
    def __init__(self, run: RunConfig):
        super().__init__()
        self.run = run
        self.start_epoch = 0  # epochs done before this process (resumed runs)
        self.resume_state: dict | None = None
        self.seconds_before: float | None = 0.0  # wall time spent by earlier processes of this run, if known
        self.started = time.perf_counter()

    @property
    def epoch(self) -> int:
        return self.start_epoch + self.current_epoch

    def configure_optimizers(self):
        t = self.run.train
        params = [p for p in self.parameters() if p.requires_grad]  # a contour stage freezes the encoder
        opt = torch.optim.AdamW(params, lr=t.lr, betas=(0.9, 0.98), weight_decay=0.01)
        sched = torch.optim.lr_scheduler.LambdaLR(opt, _warmup_then_decay(t.warmup_steps, t.max_steps))
        if self.resume_state is not None:
            opt.load_state_dict(self.resume_state["optimizer"])
            sched.load_state_dict(self.resume_state["scheduler"])
        return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step"}}

    def on_train_batch_start(self, batch, batch_idx: int) -> None:
        # dropout depends only on (seed, step): resumed runs replay it exactly, whatever else drew random
        # numbers in between (a DataLoader draws one each time it starts an epoch)
        step = self.epoch * self.run.train.checkpoint_every + batch_idx
        torch.manual_seed(self.run.train.seed * 1_000_003 + step)


class AcousticTask(_Task):
    def __init__(self, run: RunConfig, norm: Normaliser, teacher_dim: int = 0, feature_weight: float = 0.0):
        super().__init__(run)
        self.model = AcousticModel(run.model)  # type: ignore[arg-type]
        self.norm = norm
        self.feature_weight = feature_weight
        # distillation only: maps student encoder features to the teacher's width; not exported
        self.feature_match = FeatureMatch(run.model.dim, teacher_dim) if teacher_dim and feature_weight else None

    def training_step(self, batch: dict, _idx: int) -> torch.Tensor:
        out = self.model(batch["tokens"], batch["tones"], batch["pad_mask"], batch["durations"],
                         batch["pitch"], batch["energy"])
        losses = acoustic_losses(out, batch)
        if self.feature_match is not None:
            losses["features"] = self.feature_match(out["features"], batch["features"], ~batch["pad_mask"])
            losses["total"] = losses["total"] + self.feature_weight * losses["features"]
        for name, value in losses.items():
            self.log(f"loss/{name}", value, prog_bar=name == "total", batch_size=batch["tokens"].shape[0])
        return losses["total"]


class ContourTask(_Task):
    """A contour stage: the decoder alone learns the corpus's cleaned F0 (level and within-token shape) and
    mel, fed the frozen encoder's own predictions (token pitch and energy, not the targets) with the
    reference durations, so it learns from the inputs it gets on the device."""

    def __init__(self, run: RunConfig, norm: Normaliser):
        super().__init__(run)
        self.model = AcousticModel(run.model)  # type: ignore[arg-type]
        self.norm = norm
        self.model.encoder.requires_grad_(False)
        if run.contour.train_pitch:  # type: ignore[union-attr]
            self.model.encoder.pitch.requires_grad_(True)
            self.model.encoder.pitch_proj.requires_grad_(True)

    def training_step(self, batch: dict, _idx: int) -> torch.Tensor:
        contour = self.run.contour
        self.model.encoder.eval()  # no dropout in the frozen part
        with torch.set_grad_enabled(contour.train_pitch):
            hidden, _, token_pitch, *_ = self.model.encoder(batch["tokens"], batch["tones"], batch["pad_mask"])
        frames, position, _ = length_regulate(hidden, batch["durations"])
        mel, pitch = self.model.decoder(frames, position)
        losses = decoder_losses(mel, pitch, batch, shape=True)
        losses["total"] = (losses["mel"] + contour.f0_weight * losses["frame_f0"] + losses["voicing"]
                           + contour.shape_weight * losses["shape"])
        if contour.train_pitch:  # each token's level, scored as stage 1 scores it, on the cleaned corpus F0
            losses["pitch"] = token_pitch_loss(token_pitch, batch)
            losses["total"] = losses["total"] + losses["pitch"]
        for name, value in losses.items():
            self.log(f"loss/{name}", value, prog_bar=name == "total", batch_size=batch["tokens"].shape[0])
        return losses["total"]


class VocoderTask(_Task):
    def __init__(self, run: RunConfig):
        super().__init__(run)
        self.model = Vocoder(run.model)  # type: ignore[arg-type]

    def training_step(self, batch: dict, _idx: int) -> torch.Tensor:
        audio = self.model(batch["mel"], batch["f0"], batch["phase"])
        losses = vocoder_losses(audio, batch["audio"])
        for name, value in losses.items():
            self.log(f"loss/{name}", value, prog_bar=name == "total", batch_size=audio.shape[0])
        return losses["total"]


def _widened(old: dict[str, torch.Tensor], new: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """An earlier stage's weights for a model whose layers take more input channels (the decoder's extra
    position powers): old columns first, the new ones zero, so the wider model starts as the same function."""
    out = dict(old)
    for name, w in old.items():
        target = new.get(name)
        if (target is not None and w.dim() >= 2 and target.dim() == w.dim() and target.shape[0] == w.shape[0]
                and target.shape[2:] == w.shape[2:] and target.shape[1] > w.shape[1]):
            wide = torch.zeros_like(target)
            wide[:, : w.shape[1]] = w
            out[name] = wide
    return out


def _narrowed(old: dict[str, torch.Tensor], new: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """An earlier stage's weights for a model whose ConvNeXt blocks have fewer hidden units (a slimmer vocoder):
    each block keeps its most important units, |pw1 row| · |pw2 column| (structured pruning; ties by index, so
    the same checkpoint always gives the same start), in their original order; fine-tuning recovers the rest."""
    out = dict(old)
    for name, w in old.items():
        if not name.endswith(".pw1.weight"):
            continue
        prefix = name[: -len("pw1.weight")]
        target = new.get(name)
        if target is None or target.shape[1] != w.shape[1] or target.shape[0] >= w.shape[0]:
            continue
        outgoing = old[prefix + "pw2.weight"]
        importance = w.norm(dim=1) * outgoing.norm(dim=0)
        keep = torch.sort(torch.argsort(importance, descending=True, stable=True)[: target.shape[0]]).values
        out[name] = w[keep].clone()
        out[prefix + "pw1.bias"] = old[prefix + "pw1.bias"][keep].clone()
        out[prefix + "pw2.weight"] = outgoing[:, keep].clone()
    return out


def _identity(run: RunConfig) -> str:
    """What a snapshot must share with the run resuming it: everything but the step budget."""
    train = {k: v for k, v in run.train.__dict__.items() if k != "max_steps"}
    identity = {"kind": run.kind, "model": run.model.to_dict(), "train": train, "distil": run.distil}
    if run.contour is not None:
        identity["contour"] = dict(run.contour.__dict__)
    return json.dumps(identity, sort_keys=True)


class _Snapshot(L.Callback):
    """Writes ``last.ckpt`` (tensors only) when an epoch ends."""

    def __init__(self, path: Path):
        self.path = path

    def on_train_epoch_end(self, trainer: L.Trainer, task: _Task) -> None:
        state = {"task": task.state_dict(), "optimizer": trainer.optimizers[0].state_dict(),
                 "scheduler": trainer.lr_scheduler_configs[0].scheduler.state_dict(),
                 "epoch": torch.tensor(task.epoch + 1), "run": _identity(task.run),
                 "seconds": torch.tensor((task.seconds_before or 0.0) + time.perf_counter() - task.started,
                                         dtype=torch.float64)}
        atomic_write(self.path, lambda tmp: torch.save(state, tmp))
        _die_here_if_asked(int(state["epoch"]) * task.run.train.checkpoint_every)


KILL_AFTER_STEP_ENV = "CANTOEDGE_KILL_AFTER_STEP"  # fault injection for the resume test


def _die_here_if_asked(step: int) -> None:
    """SIGKILL this process right after the snapshot at ``$CANTOEDGE_KILL_AFTER_STEP``: an interruption at
    a known step, so the resume test does not race the trainer (polling and killing from outside did)."""
    wanted = os.environ.get(KILL_AFTER_STEP_ENV)
    if wanted is not None and step == int(wanted):
        os.kill(os.getpid(), signal.SIGKILL)


def train(run: RunConfig, corpus_dir: Path, out_dir: Path, progress: bool = True, distil: dict | None = None,
          init: Path | None = None, qat_layers: dict[str, float] | None = None) -> Path:
    """Train (or resume) a run into ``out_dir``; returns the safetensors path. With ``distil`` (from
    ``distil.train_student``) the corpus is the teacher's outputs and the normaliser is the teacher's;
    ``init`` (else the config's ``train.init`` run beside ``out_dir``) starts from a checkpoint's weights, new
    layers fresh; ``qat_layers`` fake-quantises those layers (QAT)."""
    corpus_dir, out_dir = Path(corpus_dir), Path(out_dir)
    records = [r for r in read_manifest(corpus_dir) if r.split == "train"]
    if not records:
        raise ValueError(f"{corpus_dir} has no training utterances")
    t = run.train
    if init is None and t.init:
        init = out_dir.parent / t.init / "model.safetensors"
        if not init.exists():
            raise FileNotFoundError(f"{run.name} starts from the {t.init!r} run, but {init} does not exist: "
                                    f"train {t.init} first (into {init.parent})")
    L.seed_everything(t.seed, workers=True, verbose=False)
    start = None
    if run.contour is not None:
        if init is None:
            raise ValueError(f"{run.name}: a [contour] stage fine-tunes a trained acoustic model; name it in "
                             "train.init")
        start, init_meta = load_model(init)  # loaded before the task is made, as the bundled voice was trained
        norm = Normaliser(**init_meta["normaliser"])  # the encoder's scale: it is frozen
        if run.contour.tone_set_bases:
            from cantoedge.datasets.corpus import FLUTTER_FREE_SPEAKER
            from cantoedge.datasets.tonesets import common_bases, render_tone_sets

            bases = common_bases((s for r in records for s in r.jyutping), run.contour.tone_set_bases)
            flutter = not any(r.speaker == FLUTTER_FREE_SPEAKER for r in records)  # rendered as the corpus was
            records = records + render_tone_sets(out_dir / "tone_sets", bases, progress, flutter)
        task = ContourTask(run, norm)
        if run.contour.tracker == "pyin":
            from cantoedge.export.tracks import prepare_tracks

            prepare_tracks(corpus_dir, records, progress=progress)
        dataset = AcousticDataset(corpus_dir, records, norm, run.contour.max_deviation_st, run.contour.yin_threshold,
                                  run.contour.yin_mode, run.contour.yin_fill_onsets, run.contour.tracker)
        collate = collate_acoustic
        extra = {"normaliser": norm.to_dict(), "distilled": bool(init_meta.get("distilled", False)),
                 "contour": dict(run.contour.__dict__)}
    elif run.kind == "acoustic" and distil:
        norm = distil["normaliser"]
        task: _Task = AcousticTask(run, norm, distil["teacher_dim"], distil["feature_weight"])
        dataset = DistilDataset(corpus_dir, records, norm)
        collate = collate_acoustic
        extra = {"normaliser": norm.to_dict(), "distilled": True}
    elif run.kind == "acoustic":
        norm = Normaliser.from_corpus(corpus_dir, records)
        task = AcousticTask(run, norm)
        dataset = AcousticDataset(corpus_dir, records, norm)
        collate = collate_acoustic
        extra = {"normaliser": norm.to_dict()}
    else:
        task = VocoderTask(run)
        dataset = VocoderDataset(corpus_dir, records, t.segment_frames, seed=t.seed,
                                 lead_glide=run.model.lead_glide)
        collate = None
        extra = {}
    if init is not None:
        if start is None:
            start, _ = load_model(init)
        target = task.model.state_dict()
        adapted = _narrowed(_widened(start.state_dict(), target), target)
        other = [f"{k}: {'x'.join(map(str, w.shape))} there, {'x'.join(map(str, target[k].shape))} here"
                 for k, w in adapted.items() if k in target and w.shape != target[k].shape]
        if other:
            raise ValueError(f"{init} has weights of other shapes than this model ({other[0]}; {len(other)} in all): "
                             "a later stage may only add input columns or keep fewer of a block's hidden units; "
                             "start from a checkpoint of the same widths")
        missing, unexpected = task.model.load_state_dict(adapted, strict=False)
        if unexpected:
            raise ValueError(f"{init} has weights this model does not ({', '.join(unexpected[:5])}...): "
                             "it is a different architecture")
        if missing:  # a later stage adds layers (the vocoder's harmonic branch, the decoder's pitch head)
            log.warning("starting from %s; new layers start fresh: %s", init, ", ".join(missing))
    if qat_layers:
        prepare(task.model, qat_layers)
        extra["qat_layers"] = qat_layers
    epochs = math.ceil(t.max_steps / t.checkpoint_every)
    last = out_dir / "last.ckpt"
    if last.exists():
        state = torch.load(last, map_location="cpu", weights_only=True)
        if "run" in state and state["run"] != _identity(run):
            raise ValueError(f"{last} was written by a different config ({state.get('run')}); "
                             "use another --out or delete that directory to start afresh")
        task.load_state_dict(state["task"])
        task.resume_state = state
        task.start_epoch = int(state["epoch"])
        task.seconds_before = float(state["seconds"]) if "seconds" in state else None  # older snapshots lack it
        log.warning("resuming %s from %s at step %d", run.name, last, task.start_epoch * t.checkpoint_every)
    left = epochs - task.start_epoch
    # Lightning's start-up chatter (accelerator probes, cloud-logging tips) drowns the progress bar
    logging.getLogger("lightning.pytorch").setLevel(logging.WARNING)
    warnings.filterwarnings("ignore", message=r".*LeafSpec.*")
    warnings.filterwarnings("ignore", message=r".*Checkpoint directory.*exists and is not empty.*")
    if left > 0:
        sampler = EpochSampler(len(dataset), t.batch_size, t.checkpoint_every, t.seed, task.start_epoch)
        loader = DataLoader(dataset, batch_size=t.batch_size, sampler=sampler, collate_fn=collate, num_workers=0)
        out_dir.mkdir(parents=True, exist_ok=True)
        trainer = L.Trainer(max_epochs=left, max_steps=left * t.checkpoint_every, accelerator="cpu",
                            deterministic=True, callbacks=[_Snapshot(last)], enable_checkpointing=False,
                            enable_progress_bar=progress, enable_model_summary=False,
                            logger=L.pytorch.loggers.CSVLogger(out_dir, name="logs"),
                            log_every_n_steps=max(1, min(50, t.checkpoint_every)), default_root_dir=out_dir)
        trainer.fit(task, loader)
    steps = epochs * t.checkpoint_every
    seconds = task.seconds_before
    if left > 0 and seconds is not None:
        seconds += time.perf_counter() - task.started
    out = out_dir / "model.safetensors"
    config = run.model.to_dict()
    save_model(task.model, out, run.kind, config, {**extra, "steps": steps, "run": run.name})
    took = None if seconds is None else round(seconds, 1)
    (out_dir / "run.json").write_text(json.dumps({"run": run.name, "steps": steps, "train_seconds": took,
                                                  "config": config, **extra}, indent=1))
    return out

