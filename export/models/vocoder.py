"""Vocos-style vocoder: ConvNeXt blocks at frame rate predict STFT magnitude and phase, and the inverse
STFT is a fixed MatMul basis plus overlap-add by padding and summing, so the whole vocoder is one graph of
ordinary ops (no ConvTranspose, which onnxruntime leaves in float, and no custom op).

With ``harmonics`` (the device's vocoder) the source carries the pitch explicitly, as in a source-filter
synthesiser: the STFT of a unit-amplitude harmonic series at the given F0 and phase is written down in closed
form per frame (each harmonic is the analysis window's kernel centred on it, with its phase at the frame
centre), and the network predicts, besides the magnitude envelope, what share of each bin is harmonic rather
than noise. Magnitude losses alone cannot teach a network coherent phase (the first vocoder voiced 10-17 %
of frames against the reference's 44-55 %); the harmonic source is periodic by construction, at exactly the
F0 the acoustic model asked for."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import torch
from torch import nn
from torch.nn import functional as F

from cantoedge.runtime.audio import AUDIO

from .blocks import ConvNeXtBlock
from .settings import PITCH_CENTRE, PITCH_SCALE, from_table

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
    harmonics: bool = False  # the pitch-driven harmonic branch (inputs f0 and phase); False: mel only

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


def _hann_kernel(d: torch.Tensor) -> torch.Tensor:
    """The periodic Hann window's spectrum (peak 1/2) at ``d`` bins from a sinusoid's frequency:
    sin(πd) / (2πd(1 - d²)), with its removable singularities at d = 0 and ±1 filled in."""
    den = 2 * math.pi * d * (1 - d * d)
    small = den.abs() < 1e-6
    limit = torch.where(d.abs() < 0.5, torch.full_like(d, 0.5), torch.full_like(d, 0.25))
    return torch.where(small, limit, torch.sin(math.pi * d) / torch.where(small, torch.ones_like(den), den))


def harmonic_spectrum(f0: torch.Tensor, phase: torch.Tensor, n_fft: int, sample_rate: int
                      ) -> tuple[torch.Tensor, torch.Tensor]:
    """f0 (B, T) in Hz (0: unvoiced), phase (B, T) of the fundamental at each frame centre -> real and
    imaginary parts (B, T, bins) of the centred, Hann-windowed STFT of sum_k cos(k·phase) below Nyquist.
    Each bin takes its two nearest harmonics (the window's main lobe is 4 bins wide, harmonics of 50 Hz
    and up are at least 2.3 bins apart); the phase of harmonic k is k·phase - π·bin (frame starts n_fft/2
    before its centre). Exact for steady pitch; overlap-add blends frames where the pitch moves."""
    bins = torch.arange(n_fft // 2 + 1, dtype=f0.dtype, device=f0.device)
    sign = 1.0 - 2.0 * torch.remainder(bins, 2.0)  # (-1)^bin
    voiced = f0 > 0
    spacing = torch.where(voiced, f0 * (n_fft / sample_rate), torch.ones_like(f0)).unsqueeze(-1)  # bins
    lower = torch.floor(bins / spacing)
    real = torch.zeros_like(lower)
    imag = torch.zeros_like(lower)
    nyquist = (n_fft // 2) / spacing
    for k in (lower, lower + 1):
        gain = _hann_kernel(bins - k * spacing) * ((k >= 1) & (k < nyquist)).to(f0.dtype)
        angle = k * phase.unsqueeze(-1)
        real = real + gain * torch.cos(angle)
        imag = imag + gain * torch.sin(angle)
    scale = (n_fft / 2) * sign * voiced.to(f0.dtype).unsqueeze(-1)
    return real * scale, imag * scale


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
        self.sample_rate = AUDIO.sample_rate
        # mel-conv receptive field plus the two frames either side that share samples in the overlap-add
        self.context = (cfg.layers + 1) * (cfg.kernel // 2) + 2
        if cfg.harmonics:  # created last, so a run without them draws the same initial weights as before
            self.pitch_embed = nn.Conv1d(2, cfg.dim, cfg.kernel, padding=cfg.kernel // 2)
            nn.init.zeros_(self.pitch_embed.weight)  # a vocoder trained without pitch starts out unchanged
            nn.init.zeros_(self.pitch_embed.bias)
            self.harmonic_head = nn.Linear(cfg.dim, cfg.n_fft // 2 + 1)
            with torch.no_grad():  # voiced frames start almost wholly harmonic
                self.harmonic_head.weight.mul_(0.1)
                self.harmonic_head.bias.fill_(3.0)

    def spectrum(self, mel: torch.Tensor, f0: torch.Tensor | None = None, phase: torch.Tensor | None = None
                 ) -> tuple[torch.Tensor, torch.Tensor]:
        """mel (B, n_mels, T) [, f0 and phase (B, T)] -> real and imaginary STFT parts (B, T, bins)."""
        x = self.embed(mel)
        voiced = None
        if self.cfg.harmonics:
            if f0 is None or phase is None:
                raise ValueError("this vocoder has a harmonic branch: give it f0 and phase with the mel")
            voiced = (f0 > 0).to(mel.dtype)
            log_f0 = (torch.log(torch.clamp(f0, min=1.0)) - PITCH_CENTRE) / PITCH_SCALE * voiced
            x = x + self.pitch_embed(torch.stack([log_f0, voiced], dim=1))
        x = self.norm_in(x.transpose(1, 2)).transpose(1, 2)
        for block in self.blocks:
            x = block(x)
        h = self.norm_out(x.transpose(1, 2))
        out = self.head(h)
        bins = self.cfg.n_fft // 2 + 1
        magnitude = torch.exp(torch.clamp(out[..., :bins], max=6.0))
        phase_n = out[..., bins:]
        real, imag = torch.cos(phase_n), torch.sin(phase_n)
        if voiced is not None:  # the source: a harmonic share of each bin, the rest noise
            share = torch.sigmoid(self.harmonic_head(h)) * voiced.unsqueeze(-1)
            h_real, h_imag = harmonic_spectrum(f0, phase, self.cfg.n_fft, self.sample_rate)
            peak = self.cfg.n_fft / 4  # a harmonic's own bin: the window kernel's peak, 1/2, times n_fft/2
            real = share * h_real / peak + (1 - share) * real
            imag = share * h_imag / peak + (1 - share) * imag
        return magnitude * real, magnitude * imag

    def istft(self, real: torch.Tensor, imag: torch.Tensor) -> torch.Tensor:
        """(B, T, bins) STFT parts -> audio (B, T * hop): sample i*hop is frame i's centre, as in the analysis."""
        frames = torch.matmul(real, self.basis_real) + torch.matmul(imag, self.basis_imag)  # (B, T, n_fft)
        b, t, _ = frames.shape
        hop = self.cfg.hop_length
        parts = frames.reshape(b, t, 4, hop)
        audio = sum(F.pad(parts[:, :, i], (0, 0, i, 3 - i)) for i in range(4)).reshape(b, (t + 3) * hop)
        half = self.cfg.n_fft // 2
        return audio[:, half: half + t * hop] / self.window_level

    def forward_padded(self, mel: torch.Tensor, f0: torch.Tensor | None = None,
                       phase: torch.Tensor | None = None) -> torch.Tensor:
        """mel (B, n_mels, T) [, f0, phase (B, T)] -> audio (B, T * hop), with the convolutions' own zero
        padding at the edges."""
        return self.istft(*self.spectrum(mel, f0, phase))

    def forward(self, mel: torch.Tensor, f0: torch.Tensor | None = None, phase: torch.Tensor | None = None
                ) -> torch.Tensor:
        """Whole utterances: ``context`` silent, unvoiced frames either side, as every chunk at an edge
        sees them."""
        c = self.context
        if f0 is not None and phase is not None:
            f0, phase = F.pad(f0, (c, c)), F.pad(phase, (c, c))
        audio = self.forward_padded(F.pad(mel, (c, c), value=SILENCE_LOG_MEL), f0, phase)
        hop = self.cfg.hop_length
        return audio[:, c * hop: audio.shape[-1] - c * hop]
