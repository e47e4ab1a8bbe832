"""Chunked decoding and vocoding in PyTorch, window by window as the device runs the exported graphs."""

from __future__ import annotations

import torch
from torch.nn import functional as F

from cantoedge.runtime.chunks import CHUNK_FRAMES, windows
from cantoedge.runtime.excitation import vocoder_pitch

from .models.acoustic import Decoder, frame_f0
from .models.vocoder import SILENCE_LOG_MEL, Vocoder


@torch.no_grad()
def decode_chunked(decoder: Decoder, frames: torch.Tensor, position: torch.Tensor,
                   chunk: int = CHUNK_FRAMES) -> tuple[torch.Tensor, torch.Tensor]:
    """frames (T, D), position (T,) -> mel (n_mels, T) and F0 (T,) in Hz, 0 where unvoiced."""
    c, mels, f0s = decoder.context, [], []
    for w in windows(frames.shape[0], c, chunk):
        f = F.pad(frames[w.start: w.stop], (0, 0, w.pad_left, w.pad_right))
        p = F.pad(position[w.start: w.stop], (w.pad_left, w.pad_right))
        mel, pitch = decoder.forward_padded(f[None], p[None])
        mels.append(mel[0, :, c: c + w.keep])
        f0s.append(frame_f0(pitch[0, :, c: c + w.keep]))
    return torch.cat(mels, dim=1), torch.cat(f0s)


@torch.no_grad()
def vocode_chunked(vocoder: Vocoder, mel: torch.Tensor, f0: torch.Tensor, chunk: int = CHUNK_FRAMES) -> torch.Tensor:
    """mel (n_mels, T), the decoder's F0 (T,) in Hz -> audio (T * hop,); the vocoder's pitch and phase as
    the device computes them."""
    c, hop, out = vocoder.context, vocoder.cfg.hop_length, []
    f0, phase = (torch.from_numpy(x) for x in vocoder_pitch(f0.numpy(), vocoder.cfg.lead_glide))
    for w in windows(mel.shape[1], c, chunk):
        pad = (w.pad_left, w.pad_right)
        m = F.pad(mel[:, w.start: w.stop], pad, value=SILENCE_LOG_MEL)
        f, p = F.pad(f0[w.start: w.stop], pad), F.pad(phase[w.start: w.stop], pad)
        first = w.start - w.pad_left  # the window's first frame in the utterance
        out.append(vocoder.forward_padded(m[None], f[None], p[None], first)[0, c * hop: (c + w.keep) * hop])
    return torch.cat(out)
