"""Chunked decoding and vocoding in PyTorch, window by window as the device runs the exported graphs."""

from __future__ import annotations

import torch
from torch.nn import functional as F

from cantoedge.runtime.chunks import CHUNK_FRAMES, windows

from .models.acoustic import Decoder
from .models.vocoder import SILENCE_LOG_MEL, Vocoder


@torch.no_grad()
def decode_chunked(decoder: Decoder, frames: torch.Tensor, position: torch.Tensor,
                   chunk: int = CHUNK_FRAMES) -> torch.Tensor:
    """frames (T, D), position (T,) -> mel (n_mels, T)."""
    c, out = decoder.context, []
    for w in windows(frames.shape[0], c, chunk):
        f = F.pad(frames[w.start: w.stop], (0, 0, w.pad_left, w.pad_right))
        p = F.pad(position[w.start: w.stop], (w.pad_left, w.pad_right))
        out.append(decoder.forward_padded(f[None], p[None])[0, :, c: c + w.keep])
    return torch.cat(out, dim=1)


@torch.no_grad()
def vocode_chunked(vocoder: Vocoder, mel: torch.Tensor, chunk: int = CHUNK_FRAMES) -> torch.Tensor:
    """mel (n_mels, T) -> audio (T * hop,)."""
    c, hop, out = vocoder.context, vocoder.cfg.hop_length, []
    for w in windows(mel.shape[1], c, chunk):
        m = F.pad(mel[:, w.start: w.stop], (w.pad_left, w.pad_right), value=SILENCE_LOG_MEL)
        out.append(vocoder.forward_padded(m[None])[0, c * hop: (c + w.keep) * hop])
    return torch.cat(out)
