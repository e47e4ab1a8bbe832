"""Fixed-size chunk windows over a frame sequence: the static shapes TensorRT and RKNN need, and
streaming for free. Each window is ``chunk + 2 * context`` frames (the last one shorter where the graphs
take any length); frames outside the utterance are padding (zeros for the decoder, silence for the
vocoder), exactly what the whole-utterance graphs see."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

CHUNK_FRAMES = 128
# A request's first window where the graphs take any length: 0.37 s of audio, about half the work of a whole
# window (the graphs' context dominates), so the first audio comes sooner; the next whole window is made while
# it plays.
FIRST_WINDOW_FRAMES = 32
# Where the graphs take any length and one thread vocodes, a piece's whole windows keep up to this many frames
# instead of the graph's chunk: a window's context frames (12 either side for the decoder, 29 for the vocoder) cost
# as much as its kept ones, and every window pays the same per-call overheads, so fewer, longer windows make the
# same samples for less work (measured in one process, one thread, 128 -> 256: RTF 0.0049 -> 0.0042 on three long
# sentences, 0.0050 -> 0.0040 on four short phrases). With two windows at once the longer windows cost 5 MB more
# peak RSS than that target's margin allowed, so there every window stays at the chunk (docs/int8.md, "Longer windows").
LONGEST_WINDOW_FRAMES = 256


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


def planned_chunk(n_frames: int, chunk: int, longest: int = LONGEST_WINDOW_FRAMES) -> int:
    """Kept frames per whole window over ``n_frames`` where the graphs take any length: as few windows as
    ``longest`` allows (all but the last as long as each other), never shorter than the graph's ``chunk``."""
    if n_frames <= 0 or chunk <= 0 or longest <= 0:
        raise ValueError(f"bad planning: n_frames={n_frames}, chunk={chunk}, longest={longest}")
    return max(chunk, -(-n_frames // -(-n_frames // longest)))


def windows(n_frames: int, context: int, chunk: int = CHUNK_FRAMES, short_last: bool = False,
            first: int | None = None) -> Iterator[Window]:
    """Windows covering frames [0, n_frames) in order; their kept outputs concatenate to the whole. With
    ``short_last`` (graphs whose frame axis is dynamic) the last window ends ``context`` frames after the
    utterance instead of being padded to a whole chunk, and ``first`` (if given) is the first window's kept
    frames, the rest whole chunks from there: the same kept outputs, the first sooner or the last for less work."""
    if n_frames <= 0:
        raise ValueError("nothing to chunk: zero frames")
    if chunk <= 0 or context < 0 or (first is not None and first <= 0):
        raise ValueError(f"bad chunking: chunk={chunk}, context={context}, first={first}")
    begin, size = 0, (first if short_last and first else chunk)
    while begin < n_frames:
        keep = min(size, n_frames - begin)
        lo, hi = begin - context, begin + (keep if short_last else size) + context
        start, stop = max(lo, 0), min(hi, n_frames)
        yield Window(start, stop, start - lo, hi - stop, keep)
        begin, size = begin + keep, chunk
