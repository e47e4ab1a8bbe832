"""Vocos-style vocoder: ConvNeXt blocks at frame rate predict STFT magnitude and phase, and the inverse
STFT is a fixed MatMul basis plus overlap-add by padding and summing, so the whole vocoder is one graph of
ordinary ops (no ConvTranspose, which onnxruntime leaves in float, and no custom op)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import torch
from torch import nn
from torch.nn import functional as F

from .blocks import ConvNeXtBlock
from .settings import from_table

SILENCE_LOG_MEL = math.log(1e-5)  # the log-mel floor: what a silent frame looks like


@dataclass(frozen=True)
class VocoderConfig:
    n_mels: int = 80
    dim: int = 128
    hidden: int = 384
    layers: int = 8
    kernel: int = 7
    n_fft: int = 1024
    hop_length: int = 256

    @classmethod
    def from_dict(cls, data: dict) -> VocoderConfig:
        return from_table(cls, data, "model")

    def to_dict(self) -> dict:
        return asdict(self)


def _istft_basis(n_fft: int) -> tuple[torch.Tensor, torch.Tensor, float]:
    """Inverse real DFT times the synthesis window, as (bins, n_fft) matrices for the real and imaginary
    parts, and the overlap-added squared-window level the output is divided by."""
    bins = n_fft // 2 + 1
    k = torch.arange(bins, dtype=torch.float64)[:, None]
    n = torch.arange(n_fft, dtype=torch.float64)[None, :]
    window = 0.5 - 0.5 * torch.cos(2 * math.pi * torch.arange(n_fft, dtype=torch.float64) / n_fft)
    weight = torch.full((bins, 1), 2.0, dtype=torch.float64)
    weight[0] = weight[-1] = 1.0
    angle = 2 * math.pi * k * n / n_fft
    real = weight * torch.cos(angle) / n_fft * window
    imag = -weight * torch.sin(angle) / n_fft * window
    return real.float(), imag.float(), 1.5  # sum of hann^2 at 75 % overlap


class Vocoder(nn.Module):
    def __init__(self, cfg: VocoderConfig):
        super().__init__()
        if cfg.n_fft != 4 * cfg.hop_length:
            raise ValueError("the overlap-add is written for hop_length = n_fft / 4")
        self.cfg = cfg
        self.embed = nn.Conv1d(cfg.n_mels, cfg.dim, cfg.kernel, padding=cfg.kernel // 2)
        self.norm_in = nn.LayerNorm(cfg.dim)
        self.blocks = nn.ModuleList(ConvNeXtBlock(cfg.dim, cfg.hidden, cfg.kernel) for _ in range(cfg.layers))
        self.norm_out = nn.LayerNorm(cfg.dim)
        self.head = nn.Linear(cfg.dim, cfg.n_fft + 2)
        real, imag, level = _istft_basis(cfg.n_fft)
        self.register_buffer("basis_real", real, persistent=False)
        self.register_buffer("basis_imag", imag, persistent=False)
        self.window_level = level
        # mel-conv receptive field plus the two frames either side that share samples in the overlap-add
        self.context = (cfg.layers + 1) * (cfg.kernel // 2) + 2

    def spectrum(self, mel: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """mel (B, n_mels, T) -> real and imaginary STFT parts (B, T, bins)."""
        x = self.norm_in(self.embed(mel).transpose(1, 2)).transpose(1, 2)
        for block in self.blocks:
            x = block(x)
        out = self.head(self.norm_out(x.transpose(1, 2)))
        bins = self.cfg.n_fft // 2 + 1
        magnitude = torch.exp(torch.clamp(out[..., :bins], max=6.0))
        phase = out[..., bins:]
        return magnitude * torch.cos(phase), magnitude * torch.sin(phase)

    def istft(self, real: torch.Tensor, imag: torch.Tensor) -> torch.Tensor:
        """(B, T, bins) STFT parts -> audio (B, T * hop): sample i*hop is frame i's centre, as in the analysis."""
        frames = torch.matmul(real, self.basis_real) + torch.matmul(imag, self.basis_imag)  # (B, T, n_fft)
        b, t, _ = frames.shape
        hop = self.cfg.hop_length
        parts = frames.reshape(b, t, 4, hop)
        audio = sum(F.pad(parts[:, :, i], (0, 0, i, 3 - i)) for i in range(4)).reshape(b, (t + 3) * hop)
        half = self.cfg.n_fft // 2
        return audio[:, half: half + t * hop] / self.window_level

    def forward_padded(self, mel: torch.Tensor) -> torch.Tensor:
        """mel (B, n_mels, T) -> audio (B, T * hop), with the convolutions' own zero padding at the edges."""
        return self.istft(*self.spectrum(mel))

    def forward(self, mel: torch.Tensor) -> torch.Tensor:
        """Whole utterances: ``context`` silent frames either side, as every chunk at an edge sees them."""
        c = self.context
        audio = self.forward_padded(F.pad(mel, (c, c), value=SILENCE_LOG_MEL))
        hop = self.cfg.hop_length
        return audio[:, c * hop: audio.shape[-1] - c * hop]
