"""Training losses. Acoustic: masked mel L1 + MSE on log(1+duration), voiced-token pitch and token energy.
With a pitch head, + per-frame log-F0 MSE (voiced frames) and voicing cross-entropy.
Vocoder: multi-resolution STFT (spectral convergence + log magnitude) + log-mel L1."""

from __future__ import annotations

import math
from functools import lru_cache

import torch
from torch.nn import functional as F

from cantoedge.runtime.audio import AUDIO, mel_filterbank

from .models.acoustic import frame_token_index
from .models.settings import PITCH_SCALE

STFT_RESOLUTIONS = ((512, 128), (1024, 256), (2048, 512))


def masked_mean(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    mask = mask.to(x.dtype)
    while mask.dim() < x.dim():
        mask = mask.unsqueeze(1)
    mask = mask.expand_as(x)
    return (x * mask).sum() / mask.sum().clamp(min=1.0)


def token_pitch_loss(pitch: torch.Tensor, batch: dict) -> torch.Tensor:
    """MSE of the encoder's per-token pitch (z-scores) on the voiced, unpadded tokens."""
    return masked_mean((pitch - batch["pitch"]) ** 2, batch["voiced"] & ~batch["pad_mask"])


def acoustic_losses(out: dict, batch: dict) -> dict[str, torch.Tensor]:
    token_mask = ~batch["pad_mask"]
    frame = decoder_losses(out["mel"], out.get("frame_pitch"), batch)
    dur = masked_mean((out["log_dur"] - torch.log1p(batch["durations"].float())) ** 2, token_mask)
    pitch = token_pitch_loss(out["pitch"], batch)
    energy = masked_mean((out["energy"] - batch["energy"]) ** 2, token_mask)
    total = frame["mel"] + dur + pitch + energy
    losses = {"mel": frame["mel"], "duration": dur, "pitch": pitch, "energy": energy}
    if "frame_f0" in frame:
        losses.update(frame_f0=frame["frame_f0"], voicing=frame["voicing"])
        total = total + losses["frame_f0"] + losses["voicing"]
    return {"total": total, **losses}


def decoder_losses(mel: torch.Tensor, frame_pitch: torch.Tensor | None, batch: dict,
                   shape: bool = False) -> dict[str, torch.Tensor]:
    """What the decoder alone is scored on, over the frames both it and the target have: masked mel L1 and,
    with a pitch head and frame targets, ``frame_pitch_losses``; with ``shape``, also the within-token shape."""
    t = min(mel.shape[-1], batch["mel"].shape[-1])
    mask = batch["mel_mask"][:, :t]
    losses = {"mel": masked_mean((mel[..., :t] - batch["mel"][..., :t]).abs(), mask)}
    if frame_pitch is not None and "frame_f0" in batch:
        log_f0, voiced = batch["frame_f0"][:, :t], batch["frame_voiced"][:, :t]
        losses.update(frame_pitch_losses(frame_pitch[..., :t], log_f0, voiced, mask))
        if shape:
            losses["shape"] = within_token_shape_loss(frame_pitch[:, 0, :t], log_f0, voiced & mask,
                                                      batch["durations"])
    return losses


def frame_pitch_losses(pred: torch.Tensor, log_f0: torch.Tensor, voiced: torch.Tensor,
                       mask: torch.Tensor) -> dict[str, torch.Tensor]:
    """The decoder's pitch head: MSE of log-F0 in units of the speaker's spread on voiced frames (a tone's
    contour), plus binary cross-entropy of the voicing logit on every frame."""
    f0 = masked_mean(((pred[:, 0] - log_f0) / PITCH_SCALE) ** 2, voiced & mask)
    vuv = masked_mean(F.binary_cross_entropy_with_logits(pred[:, 1], voiced.to(pred.dtype), reduction="none"), mask)
    return {"frame_f0": f0, "voicing": vuv}


SEMITONES_PER_LOG = 12.0 / math.log(2.0)


def within_token_shape_loss(pred: torch.Tensor, target: torch.Tensor, mask: torch.Tensor,
                            durations: torch.Tensor, min_frames: int = 3) -> torch.Tensor:
    """The contour, not the level: MSE in semitones² between predicted and target log-F0 after each token's
    own mean (over its masked frames) is taken away, on tokens with at least ``min_frames`` such frames.
    The plain F0 MSE barely rewards a contour (a flat-per-syllable predictor lost only 0.013 of 0.70 to it)."""
    index = frame_token_index(durations, pred.shape[-1])
    m = mask.to(pred.dtype)
    count = pred.new_zeros(durations.shape).scatter_add(1, index, m)

    def centred(x: torch.Tensor) -> torch.Tensor:
        total = pred.new_zeros(durations.shape).scatter_add(1, index, x * m)
        return x - (total / count.clamp(min=1.0)).gather(1, index)

    keep = m * (count.gather(1, index) >= min_frames).to(pred.dtype)
    err = ((centred(pred) - centred(target)) * SEMITONES_PER_LOG) ** 2
    return (err * keep).sum() / keep.sum().clamp(min=1.0)


@lru_cache(maxsize=1)
def _mel_basis() -> torch.Tensor:
    return torch.from_numpy(mel_filterbank(AUDIO))


def log_mel_torch(audio: torch.Tensor) -> torch.Tensor:
    """The corpus's log-mel analysis in torch (differentiable): (B, samples) -> (B, 80, frames)."""
    spec = torch.stft(audio, AUDIO.n_fft, AUDIO.hop_length, AUDIO.win_length,
                      torch.hann_window(AUDIO.win_length, device=audio.device), center=True,
                      pad_mode="reflect", return_complex=True).abs()
    return torch.log(torch.clamp(_mel_basis().to(audio.device) @ spec, min=AUDIO.log_floor))


def vocoder_losses(pred: torch.Tensor, target: torch.Tensor) -> dict[str, torch.Tensor]:
    n = min(pred.shape[-1], target.shape[-1])
    pred, target = pred[..., :n], target[..., :n]
    sc_total, mag_total = pred.new_zeros(()), pred.new_zeros(())
    for n_fft, hop in STFT_RESOLUTIONS:
        window = torch.hann_window(n_fft, device=pred.device)
        p = torch.stft(pred, n_fft, hop, n_fft, window, return_complex=True).abs().clamp(min=1e-7)
        t = torch.stft(target, n_fft, hop, n_fft, window, return_complex=True).abs().clamp(min=1e-7)
        sc_total = sc_total + torch.linalg.norm(t - p) / torch.linalg.norm(t).clamp(min=1e-7)
        mag_total = mag_total + F.l1_loss(torch.log(p), torch.log(t))
    mel = F.l1_loss(log_mel_torch(pred), log_mel_torch(target))
    sc, mag = sc_total / len(STFT_RESOLUTIONS), mag_total / len(STFT_RESOLUTIONS)
    return {"total": sc + mag + 2.0 * mel, "spectral_convergence": sc, "log_magnitude": mag, "mel": mel}
