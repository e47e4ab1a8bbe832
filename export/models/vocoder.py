"""Vocos-style vocoder: ConvNeXt blocks at frame rate predict STFT log-magnitude and phase. In training the
inverse STFT is a fixed MatMul basis plus overlap-add by padding and summing; on the device the graph is the
network alone (``trunk`` and ``heads``, no ConvTranspose, no custom op) and the inverse STFT is an inverse
real FFT in numpy between graphs (runtime/istft.py).

With ``harmonics`` (the device's vocoder) the source carries the pitch explicitly, as in a source-filter
synthesiser: the STFT of a unit-amplitude harmonic series at the given F0 and phase is written down in closed
form per frame (runtime/excitation.harmonic_source, numpy, shared with the device), and the network predicts,
besides the magnitude envelope, what share of each bin is harmonic rather than noise (mixed by
runtime/excitation.mix_source, one formula for torch and numpy). Magnitude losses alone cannot teach a
network coherent phase (the first vocoder voiced 10-17 % of frames against the reference's 44-55 %); the
harmonic source is periodic by construction, at exactly the F0 the acoustic model asked for."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from cantoedge.runtime.audio import AUDIO, periodic_hann
from cantoedge.runtime.excitation import harmonic_source, mix_source, unvoiced_noise_phase
from cantoedge.runtime.istft import WINDOW_LEVEL

from .blocks import ConvNeXtBlock
from .settings import PITCH_CENTRE, PITCH_SCALE, from_table

SILENCE_LOG_MEL = math.log(1e-5)  # the log-mel floor: what a silent frame looks like
MAX_LEAD_GLIDE = 3.0  # semitones a frame, the most lead_glide accepts: a steeper lead would be a jump, not a glide


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
    # noise phase random on unvoiced frames (fresh in training, runtime/excitation's fixed table otherwise), so
    # that steady unvoiced sounds do not repeat every hop (the 86 Hz frame-rate buzz); needs ``harmonics``
    random_unvoiced_phase: bool = False
    # the harmonic source's lead frames before each voiced run, but the one next to it, continue the run's first
    # step, at most this many semitones a frame (runtime/excitation.lead_voicing); 0: all hold its first value.
    # Trained and spoken alike
    lead_glide: float = 0.0

    def __post_init__(self) -> None:
        if self.random_unvoiced_phase and not self.harmonics:
            raise ValueError("random_unvoiced_phase needs harmonics: without the harmonic branch every frame is noise")
        if self.lead_glide and not self.harmonics:
            raise ValueError("lead_glide needs harmonics: it shapes the harmonic source's pitch")
        if not 0 <= self.lead_glide <= MAX_LEAD_GLIDE:
            raise ValueError(f"lead_glide must be between 0 and {MAX_LEAD_GLIDE} semitones a frame, "
                             f"got {self.lead_glide}")

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
    window = torch.from_numpy(periodic_hann(n_fft))
    weight = torch.full((bins, 1), 2.0, dtype=torch.float64)
    weight[0] = weight[-1] = 1.0
    angle = 2 * math.pi * k * n / n_fft
    real = weight * torch.cos(angle) / n_fft * window
    imag = -weight * torch.sin(angle) / n_fft * window
    return real.float(), imag.float(), WINDOW_LEVEL


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

    def trunk(self, mel: torch.Tensor, f0: torch.Tensor | None = None) -> torch.Tensor:
        """mel (B, n_mels, T) [, f0 (B, T) in Hz, 0 where unvoiced] -> the features (B, T, dim) the heads read."""
        x = self.embed(mel)
        if self.cfg.harmonics:
            if f0 is None:
                raise ValueError("this vocoder has a harmonic branch: give it f0 and phase with the mel")
            voiced = (f0 > 0).to(mel.dtype)
            log_f0 = (torch.log(torch.clamp(f0, min=1.0)) - PITCH_CENTRE) / PITCH_SCALE * voiced
            x = x + self.pitch_embed(torch.stack([log_f0, voiced], dim=1))
        x = self.norm_in(x.transpose(1, 2)).transpose(1, 2)
        for block in self.blocks:
            x = block(x)
        return self.norm_out(x.transpose(1, 2))

    def heads(self, h: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Features (B, T, dim) -> log-magnitude, noise phase and harmonic share (B, T, bins): what the device's
        vocoder graph returns (bounded but for the log-magnitude, so all of it quantises)."""
        out = self.head(h)
        bins = self.cfg.n_fft // 2 + 1
        if not self.cfg.harmonics:
            return out[..., :bins], out[..., bins:], torch.zeros_like(out[..., :bins])
        return out[..., :bins], out[..., bins:], torch.sigmoid(self.harmonic_head(h))

    def source(self, f0: torch.Tensor, phase: torch.Tensor | None) -> tuple[torch.Tensor, torch.Tensor]:
        """The harmonic source for f0 and phase (B, T): the device's own numpy computation (not differentiable,
        and it need not be: f0 and phase are inputs)."""
        if phase is None:
            raise ValueError("this vocoder has a harmonic branch: give it f0 and phase with the mel")
        real, imag = harmonic_source(f0.detach().cpu().numpy(), phase.detach().cpu().numpy(),
                                     self.cfg.n_fft, self.sample_rate)
        return torch.from_numpy(real).to(f0.device), torch.from_numpy(imag).to(f0.device)

    def spectrum(self, mel: torch.Tensor, f0: torch.Tensor | None = None, phase: torch.Tensor | None = None,
                 first_frame: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
        """mel (B, n_mels, T) [, f0 and phase (B, T)] -> real and imaginary STFT parts (B, T, bins), mixed as
        the device mixes them (runtime/excitation.mix_source); ``first_frame``: the first frame's index in the
        utterance (where the fixed unvoiced noise phase is read)."""
        log_magnitude, noise_phase, share = self.heads(self.trunk(mel, f0))
        if not self.cfg.harmonics:
            zero = torch.zeros_like(share)
            return mix_source(log_magnitude, noise_phase, share, zero[..., 0], zero, zero, xp=torch)
        voiced = (f0 > 0).to(mel.dtype)
        return mix_source(log_magnitude, noise_phase, share, voiced, *self.source(f0, phase), xp=torch,
                          noise_offset=self.noise_offset(voiced, first_frame, share.shape[-1]))

    def noise_offset(self, voiced: torch.Tensor, first_frame: int, bins: int) -> torch.Tensor | None:
        """The phase added to the noise part of unvoiced frames (B, T, bins), or None for a learned phase."""
        if not self.cfg.random_unvoiced_phase:
            return None
        if self.training:
            return torch.rand(*voiced.shape, bins, device=voiced.device) * (2 * math.pi) * (1 - voiced)[..., None]
        frames = np.arange(first_frame, first_frame + voiced.shape[-1])
        rows = [unvoiced_noise_phase(frames, v > 0, bins) for v in voiced.detach().cpu().numpy()]
        return torch.from_numpy(np.stack(rows)).to(voiced.device)

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
                       phase: torch.Tensor | None = None, first_frame: int = 0) -> torch.Tensor:
        """mel (B, n_mels, T) [, f0, phase (B, T)] -> audio (B, T * hop), with the convolutions' own zero
        padding at the edges; ``first_frame`` as for ``spectrum``."""
        return self.istft(*self.spectrum(mel, f0, phase, first_frame))

    def forward(self, mel: torch.Tensor, f0: torch.Tensor | None = None, phase: torch.Tensor | None = None
                ) -> torch.Tensor:
        """Whole utterances: ``context`` silent, unvoiced frames either side, as every chunk at an edge
        sees them."""
        c = self.context
        if f0 is not None and phase is not None:
            f0, phase = F.pad(f0, (c, c)), F.pad(phase, (c, c))
        audio = self.forward_padded(F.pad(mel, (c, c), value=SILENCE_LOG_MEL), f0, phase, -c)
        hop = self.cfg.hop_length
        return audio[:, c * hop: audio.shape[-1] - c * hop]
