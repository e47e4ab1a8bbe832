"""Fixed-size chunk windows over a frame sequence: the static shapes TensorRT and RKNN need, and
streaming for free. Each window is ``chunk + 2 * context`` frames (the last one shorter where the graphs
take any length); frames outside the utterance are padding (zeros for the decoder, silence for the
vocoder), exactly what the whole-utterance graphs see."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

CHUNK_FRAMES = 128


@dataclass(frozen=True)
class Window:
    start: int  # first real frame copied into the window
    stop: int  # one past the last real frame copied
    pad_left: int  # padding frames before them
    pad_right: int  # padding frames after them
    keep: int  # real output frames this window contributes (from offset ``context``)

    @property
    def size(self) -> int:
        return self.pad_left + (self.stop - self.start) + self.pad_right


def windows(n_frames: int, context: int, chunk: int = CHUNK_FRAMES, short_last: bool = False) -> Iterator[Window]:
    """Windows covering frames [0, n_frames) in order; their kept outputs concatenate to the whole. With
    ``short_last`` (graphs whose frame axis is dynamic) the last window ends ``context`` frames after the
    utterance instead of being padded to a whole chunk: the same kept outputs for less work."""
    if n_frames <= 0:
        raise ValueError("nothing to chunk: zero frames")
    if chunk <= 0 or context < 0:
        raise ValueError(f"bad chunking: chunk={chunk}, context={context}")
    for first in range(0, n_frames, chunk):
        keep = min(chunk, n_frames - first)
        lo, hi = first - context, first + (keep if short_last else chunk) + context
        start, stop = max(lo, 0), min(hi, n_frames)
        yield Window(start, stop, start - lo, hi - stop, keep)
