"""Building blocks written by hand so they export to plain ONNX ops with dynamic lengths."""

from __future__ import annotations

import math

import torch
from torch import nn
from torch.nn import functional as F


class MultiHeadSelfAttention(nn.Module):
    """Scaled dot-product self-attention with a key padding mask (no nn.MultiheadAttention: it does not
    export with dynamic lengths through the legacy exporter)."""

    def __init__(self, dim: int, heads: int, dropout: float = 0.0):
        super().__init__()
        if dim % heads:
            raise ValueError(f"model width {dim} is not divisible by {heads} heads")
        self.heads, self.head_dim = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, pad_mask: torch.Tensor | None = None) -> torch.Tensor:
        """x: (B, T, D); pad_mask: (B, T) True where padded."""
        b, t, d = x.shape
        q, k, v = self.qkv(x).reshape(b, t, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        if pad_mask is not None:
            scores = scores.masked_fill(pad_mask[:, None, None, :], -1e4)
        attn = self.dropout(torch.softmax(scores, dim=-1))
        return self.out(torch.matmul(attn, v).transpose(1, 2).reshape(b, t, d))


class ConvFeedForward(nn.Module):
    """FastSpeech's position-wise feed-forward with a convolution in the first layer."""

    def __init__(self, dim: int, hidden: int, kernel: int, dropout: float = 0.0):
        super().__init__()
        self.conv1 = nn.Conv1d(dim, hidden, kernel, padding=kernel // 2)
        self.conv2 = nn.Conv1d(hidden, dim, 1)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv2(self.dropout(F.relu(self.conv1(x.transpose(1, 2))))).transpose(1, 2)


class FFTBlock(nn.Module):
    """Post-norm transformer block: attention then conv feed-forward, zeroing padded positions."""

    def __init__(self, dim: int, heads: int, ff_hidden: int, ff_kernel: int, dropout: float):
        super().__init__()
        self.attn = MultiHeadSelfAttention(dim, heads, dropout)
        self.norm1 = nn.LayerNorm(dim)
        self.ff = ConvFeedForward(dim, ff_hidden, ff_kernel, dropout)
        self.norm2 = nn.LayerNorm(dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, pad_mask: torch.Tensor | None) -> torch.Tensor:
        keep = 1.0 if pad_mask is None else (~pad_mask).unsqueeze(-1).to(x.dtype)
        x = self.norm1(x + self.dropout(self.attn(x, pad_mask))) * keep
        return self.norm2(x + self.dropout(self.ff(x))) * keep


class ConvNeXtBlock(nn.Module):
    """ConvNeXt 1-D block (depthwise conv, LayerNorm, pointwise MLP, layer scale), channels first.
    Purely convolutional, so a chunk with enough context computes exactly what the whole sequence does."""

    def __init__(self, dim: int, hidden: int, kernel: int = 7, layer_scale: float = 1e-2):
        super().__init__()
        self.dwconv = nn.Conv1d(dim, dim, kernel, padding=kernel // 2, groups=dim)
        self.norm = nn.LayerNorm(dim)
        self.pw1 = nn.Linear(dim, hidden)
        self.pw2 = nn.Linear(hidden, dim)
        self.gamma = nn.Parameter(torch.full((dim,), layer_scale))
        self.kernel = kernel

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x: (B, C, T)."""
        y = self.dwconv(x).transpose(1, 2)
        y = self.pw2(F.gelu(self.pw1(self.norm(y))))
        return x + (self.gamma * y).transpose(1, 2)


def sinusoidal_table(length: int, dim: int) -> torch.Tensor:
    """(length, dim) sinusoidal position table, precomputed so graphs slice it instead of building it. Worked
    out in float64 by the C library, then rounded once: torch's float32 sin and exp take different code paths
    on different CPUs (AVX-512 or not), which put last-bit differences into the exported encoder."""
    freqs = [math.exp(i * (-math.log(10000.0) / dim)) for i in range(0, dim, 2)]
    rows = [[f(pos * freq) for freq in freqs for f in (math.sin, math.cos)][:dim] for pos in range(length)]
    return torch.tensor(rows, dtype=torch.float64).float()


class VariancePredictor(nn.Module):
    """Two conv layers with LayerNorm and ReLU, then one value per token (duration, pitch or energy)."""

    def __init__(self, dim: int, hidden: int, kernel: int, dropout: float):
        super().__init__()
        self.conv1 = nn.Conv1d(dim, hidden, kernel, padding=kernel // 2)
        self.norm1 = nn.LayerNorm(hidden)
        self.conv2 = nn.Conv1d(hidden, hidden, kernel, padding=kernel // 2)
        self.norm2 = nn.LayerNorm(hidden)
        self.proj = nn.Linear(hidden, 1)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, pad_mask: torch.Tensor | None) -> torch.Tensor:
        y = self.dropout(self.norm1(F.relu(self.conv1(x.transpose(1, 2))).transpose(1, 2)))
        if pad_mask is not None:  # the second conv must not read padding into the last tokens
            y = y.masked_fill(pad_mask.unsqueeze(-1), 0.0)
        y = self.dropout(self.norm2(F.relu(self.conv2(y.transpose(1, 2))).transpose(1, 2)))
        out = self.proj(y).squeeze(-1)
        return out if pad_mask is None else out.masked_fill(pad_mask, 0.0)
