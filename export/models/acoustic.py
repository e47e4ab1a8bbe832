"""FastSpeech2-style acoustic model split at the length regulator into the two graphs the device runs:
``Encoder`` (tokens and tones -> hidden, log-durations, pitch, energy per token) and ``Decoder``
(expanded hidden frames and each frame's position inside its token -> 80-bin log-mel and, with
``frame_pitch``, each frame's log-F0 and voicing: the contour the vocoder's harmonic branch sings)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn
from torch.nn import functional as F

from .blocks import ConvNeXtBlock, FFTBlock, VariancePredictor, sinusoidal_table
from .settings import PITCH_CENTRE, PITCH_SCALE, from_table


@dataclass(frozen=True)
class AcousticConfig:
    n_phones: int = 86
    n_tones: int = 7
    dim: int = 192
    heads: int = 2
    enc_layers: int = 4
    ff_hidden: int = 768
    ff_kernel: int = 3
    dec_dim: int = 192
    dec_layers: int = 6
    dec_hidden: int = 576
    dec_kernel: int = 7
    predictor_hidden: int = 192
    predictor_kernel: int = 3
    dropout: float = 0.1
    n_mels: int = 80
    max_tokens: int = 1024
    frame_pitch: bool = False  # the decoder also predicts per-frame log-F0 and voicing (the device contract)
    position_powers: int = 1  # the decoder sees position, position², …: a late rise or fall is one weight away

    def __post_init__(self) -> None:
        if self.dim % 2 or self.dim % self.heads:
            raise ValueError(f"dim {self.dim} must be even and divisible by heads {self.heads}")

    @classmethod
    def from_dict(cls, data: dict) -> AcousticConfig:
        return from_table(cls, data, "model")

    def to_dict(self) -> dict:
        return asdict(self)


class Encoder(nn.Module):
    def __init__(self, cfg: AcousticConfig):
        super().__init__()
        self.phone_emb = nn.Embedding(cfg.n_phones, cfg.dim, padding_idx=0)
        self.tone_emb = nn.Embedding(cfg.n_tones, cfg.dim)
        self.register_buffer("positions", sinusoidal_table(cfg.max_tokens, cfg.dim), persistent=False)
        self.blocks = nn.ModuleList(
            FFTBlock(cfg.dim, cfg.heads, cfg.ff_hidden, cfg.ff_kernel, cfg.dropout) for _ in range(cfg.enc_layers)
        )
        args = (cfg.dim, cfg.predictor_hidden, cfg.predictor_kernel, cfg.dropout)
        self.duration = VariancePredictor(*args)
        self.pitch = VariancePredictor(*args)
        self.energy = VariancePredictor(*args)
        self.pitch_proj = nn.Conv1d(1, cfg.dim, 3, padding=1)
        self.energy_proj = nn.Conv1d(1, cfg.dim, 3, padding=1)

    def features(self, tokens: torch.Tensor, tones: torch.Tensor, pad_mask: torch.Tensor | None) -> torch.Tensor:
        """The encoder stack's output before the variance adaptor (the hidden features a student can match)."""
        x = self.phone_emb(tokens) + self.tone_emb(tones) + self.positions[: tokens.shape[1]]
        for block in self.blocks:
            x = block(x, pad_mask)
        return x

    def forward(self, tokens: torch.Tensor, tones: torch.Tensor, pad_mask: torch.Tensor | None = None,
                pitch_target: torch.Tensor | None = None, energy_target: torch.Tensor | None = None):
        """-> hidden (B, N, D), log_durations (B, N), pitch (B, N), energy (B, N), features (B, N, D).
        Targets, when given (training), condition the hidden state instead of the predictions."""
        x = self.features(tokens, tones, pad_mask)
        log_dur = self.duration(x, pad_mask)
        pitch = self.pitch(x, pad_mask)
        energy = self.energy(x, pad_mask)
        p = pitch if pitch_target is None else pitch_target
        e = energy if energy_target is None else energy_target
        hidden = x + self.pitch_proj(p.unsqueeze(1)).transpose(1, 2) + self.energy_proj(e.unsqueeze(1)).transpose(1, 2)
        if pad_mask is not None:
            hidden = hidden.masked_fill(pad_mask.unsqueeze(-1), 0.0)
        return hidden, log_dur, pitch, energy, x


class Decoder(nn.Module):
    """Convolution only: a chunk with ``context`` frames either side computes exactly what the whole
    utterance does, which is what lets the device decode fixed 128-frame chunks."""

    def __init__(self, cfg: AcousticConfig):
        super().__init__()
        self.in_proj = nn.Conv1d(cfg.dim + cfg.position_powers, cfg.dec_dim, 1)
        self.position_powers = cfg.position_powers
        self.blocks = nn.ModuleList(ConvNeXtBlock(cfg.dec_dim, cfg.dec_hidden, cfg.dec_kernel)
                                    for _ in range(cfg.dec_layers))
        self.norm = nn.LayerNorm(cfg.dec_dim)
        self.out = nn.Linear(cfg.dec_dim, cfg.n_mels)
        self.context = cfg.dec_layers * (cfg.dec_kernel // 2)
        if cfg.frame_pitch:  # created last, so a model without it draws the same initial weights as before
            self.pitch_out = nn.Linear(cfg.dec_dim, 2)
            with torch.no_grad():
                self.pitch_out.weight.mul_(0.1)
                self.pitch_out.bias.copy_(torch.tensor([0.0, 1.0]))

    def forward_padded(self, frames: torch.Tensor, position: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        """frames (B, T, D), position (B, T) -> mel (B, n_mels, T) and, with frame_pitch, pitch (B, 2, T):
        log-F0 in Hz and the voicing logit per frame; plain zero padding at the edges."""
        p = position.unsqueeze(-1)
        powers = [p]
        for _ in range(1, self.position_powers):
            powers.append(powers[-1] * p)  # products, not Pow: plain Mul on every backend
        x = self.in_proj(torch.cat([frames, *powers], dim=-1).transpose(1, 2))
        for block in self.blocks:
            x = block(x)
        h = self.norm(x.transpose(1, 2))
        mel = self.out(h).transpose(1, 2)
        if not hasattr(self, "pitch_out"):
            return mel, None
        raw = self.pitch_out(h).transpose(1, 2)
        return mel, torch.cat([raw[:, :1] * PITCH_SCALE + PITCH_CENTRE, raw[:, 1:]], dim=1)

    def forward(self, frames: torch.Tensor, position: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Whole sequences: ``context`` zero frames either side, as every chunk at an edge sees them."""
        c = self.context
        mel, pitch = self.forward_padded(F.pad(frames, (0, 0, c, c)), F.pad(position, (c, c)))
        keep = slice(c, mel.shape[-1] - c)
        return mel[:, :, keep], None if pitch is None else pitch[:, :, keep]


def frame_f0(pitch: torch.Tensor) -> torch.Tensor:
    """Decoder pitch (..., 2, T) -> F0 in Hz per frame, 0 where the voicing logit says unvoiced."""
    return torch.exp(pitch[..., 0, :]) * (pitch[..., 1, :] > 0).to(pitch.dtype)


def frame_token_index(durations: torch.Tensor, n_frames: int) -> torch.Tensor:
    """(B, N) frames per token -> (B, T) index of the token each frame belongs to (0 past the end)."""
    b, n = durations.shape
    index = torch.zeros(b, n_frames, dtype=torch.long, device=durations.device)
    for i in range(b):
        owner = torch.repeat_interleave(torch.arange(n, device=durations.device), durations[i].clamp(min=0))
        owner = owner[:n_frames]
        index[i, : owner.numel()] = owner
    return index


def length_regulate(hidden: torch.Tensor, durations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Repeat each token's hidden state for its frames (gather, no searchsorted). -> frames (B, T, D),
    position (B, T): where each frame lies inside its token, 0 at the start to <1 at the end, and
    frame counts (B,). Padding frames are zero."""
    durations = durations.clamp(min=0).long()
    totals = durations.sum(dim=1)
    t_max = int(totals.max().item()) if totals.numel() else 0
    b, _, d = hidden.shape
    frames = hidden.new_zeros(b, max(t_max, 1), d)
    position = hidden.new_zeros(b, max(t_max, 1))
    owners = frame_token_index(durations, t_max)
    for i in range(b):
        idx = owners[i, : int(totals[i])]
        if idx.numel() == 0:
            continue
        frames[i, : idx.numel()] = hidden[i, idx]
        starts = torch.cumsum(durations[i], 0) - durations[i]
        within = torch.arange(idx.numel()) - starts[idx]
        position[i, : idx.numel()] = within.float() / durations[i][idx].float()
    return frames, position, totals


class AcousticModel(nn.Module):
    def __init__(self, cfg: AcousticConfig):
        super().__init__()
        self.cfg = cfg
        self.encoder = Encoder(cfg)
        self.decoder = Decoder(cfg)

    def forward(self, tokens, tones, pad_mask, durations, pitch_target=None, energy_target=None):
        """Teacher-forced training pass: ground-truth durations expand the hidden states."""
        hidden, log_dur, pitch, energy, feats = self.encoder(tokens, tones, pad_mask, pitch_target, energy_target)
        frames, position, n_frames = length_regulate(hidden, durations)
        mel, frame_pitch = self.decoder(frames, position)
        return {"mel": mel, "log_dur": log_dur, "pitch": pitch, "energy": energy, "features": feats,
                "n_frames": n_frames, "frame_pitch": frame_pitch}

    @torch.no_grad()
    def speak(self, tokens: torch.Tensor, tones: torch.Tensor, durations: torch.Tensor | None = None,
              speed: float = 1.0) -> dict[str, torch.Tensor]:
        """One utterance (unbatched tokens): its own durations unless given. -> mel (n_mels, T), durations,
        pitch, energy (N,), encoder features (N, dim) and, with frame_pitch, frame_pitch (2, T) and f0 (T,)."""
        hidden, log_dur, pitch, energy, feats = self.encoder(tokens[None], tones[None])
        if durations is None:
            durations = predicted_durations(log_dur[0], speed)
        frames, position, _ = length_regulate(hidden, durations.long()[None])
        mel, frame_pitch = self.decoder(frames, position)
        out = {"mel": mel[0], "durations": durations, "pitch": pitch[0], "energy": energy[0], "features": feats[0]}
        if frame_pitch is not None:
            out["frame_pitch"], out["f0"] = frame_pitch[0], frame_f0(frame_pitch[0])
        return out


def predicted_durations(log_dur: torch.Tensor, speed: float = 1.0) -> torch.Tensor:
    """Frames per token from the predicted log(1 + frames); at least one frame in all."""
    durations = torch.clamp(torch.round(torch.expm1(log_dur) / speed), min=0).long()
    if int(durations.sum()) == 0:
        durations[durations.argmax()] = 1
    return durations


def count_parameters(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters())
