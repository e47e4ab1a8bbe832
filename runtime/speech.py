"""The Python API's records, in the style of Piper's: how to speak (SynthesisConfig), what comes out as it is
made (AudioChunk: int16 PCM with its syllables' timings), and a cache of recent phrases bounded in bytes."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .alignment import SyllableTime
from .limits import check_speed, finite_within

PITCH_SHIFT_RANGE = (-12.0, 12.0)  # semitones
VOLUME_RANGE = (0.0, 4.0)  # linear gain before the soft limiter


@dataclass(frozen=True)
class SynthesisConfig:
    """``speed`` divides durations; ``pitch_shift`` (semitones) scales the F0 the vocoder sings, keeping every
    tone's shape; ``volume`` is a linear gain (peaks still bend under full scale)."""

    speed: float = 1.0
    pitch_shift: float = 0.0
    volume: float = 1.0

    def __post_init__(self) -> None:
        check_speed(self.speed)
        for name, (lo, hi) in (("pitch_shift", PITCH_SHIFT_RANGE), ("volume", VOLUME_RANGE)):
            value = getattr(self, name)
            if not finite_within(value, lo, hi):
                raise ValueError(f"{name} must be within {lo:g}..{hi:g}, got {value!r}")

    @property
    def pitch_ratio(self) -> float:
        return float(2.0 ** (self.pitch_shift / 12.0))


@dataclass(frozen=True)
class AudioChunk:
    """A piece of the speech as soon as it exists: mono int16 PCM, where it starts in the whole, and the
    syllables that start inside it (times from the start of the text)."""

    audio: np.ndarray  # int16
    sample_rate: int
    start: float  # seconds
    syllables: tuple[SyllableTime, ...]

    @property
    def duration(self) -> float:
        return self.audio.size / self.sample_rate

    @property
    def nbytes(self) -> int:
        return int(self.audio.nbytes)


class PhraseCache:
    """Least-recently-used phrases and their chunks, at most ``max_bytes`` of audio in all (a phrase larger than
    that is not kept)."""

    def __init__(self, max_bytes: int = 32 << 20):
        self.max_bytes = max_bytes
        self._items: OrderedDict[tuple, tuple[AudioChunk, ...]] = OrderedDict()
        self._lock = threading.Lock()  # a server's requests share one voice and its cache
        self.bytes = 0

    def get(self, key: tuple) -> tuple[AudioChunk, ...] | None:
        with self._lock:
            chunks = self._items.get(key)
            if chunks is not None:
                self._items.move_to_end(key)
            return chunks

    def put(self, key: tuple, chunks: tuple[AudioChunk, ...]) -> None:
        size = sum(c.nbytes for c in chunks)
        with self._lock:
            if size > self.max_bytes or key in self._items:
                return
            self._items[key] = chunks
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, dropped = self._items.popitem(last=False)
                self.bytes -= sum(c.nbytes for c in dropped)

    def __len__(self) -> int:
        return len(self._items)
