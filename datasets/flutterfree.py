"""The corpus's utterances rendered again without espeak-ng's pitch flutter: the part of the reference's F0 that
text determines, to measure a voice's F0 against (``cantoedge evaluate --flutter-free``).

espeak-ng adds to every voiced sample's pitch a step of a fixed 368-entry table (up to +-2 Hz, about +-40 cents at
this speaker's 89 Hz) that advances only while it generates voiced sound, so its phase depends on how long every
earlier voiced sound lasted, not on the text at that point: no model that reads text can predict it. (Measured over
60 test utterances: through an utterance's first voiced run the flutter is the table from its start, stepped four
times a voiced frame; after the first break in voicing that model no longer fits, as the tracker's voiced frames are
not the time espeak-ng spent generating voiced sound.)"""

from __future__ import annotations

import multiprocessing as mp
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .corpus import render_units, utterance_units
from .espeak import FLUTTER_FREE_VOICE, Espeak, flutter_free_data
from .features import extract
from .hkcancor import HKUtterance, clean_utterances_named

_worker: dict = {}


@dataclass(frozen=True)
class FlutterFreeTrack:
    f0: np.ndarray  # (T,) Hz, 0 where unvoiced: the corpus's tracker on the flutter-free audio
    durations: np.ndarray  # frames per token (equal to the corpus's, or within a frame at some boundaries)
    mel: np.ndarray  # (n_mels, T) log-mel of the flutter-free audio: what a voice without the flutter would vocode


def _init_worker(data_parent: str) -> None:
    _worker["espeak"] = Espeak(FLUTTER_FREE_VOICE, Path(data_parent))


def worker_espeak() -> Espeak:
    """The flutter-free synthesiser of a ``flutter_free_pool`` worker."""
    return _worker["espeak"]


@contextmanager
def flutter_free_pool(workers: int = 1) -> Iterator[ProcessPoolExecutor]:
    """Worker processes that each hold espeak-ng's voice without flutter (``worker_espeak``): libespeak-ng keeps one
    global state per process, and this one may already hold the system's voice."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    with tempfile.TemporaryDirectory(prefix="cantoedge-espeak-") as tmp:
        flutter_free_data(Path(tmp))
        ctx = mp.get_context("spawn")  # a fresh interpreter: no torch threads or espeak state forked along
        with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker, initargs=(tmp,)) as pool:
            yield pool


def _render(utt: HKUtterance) -> tuple[str, FlutterFreeTrack]:
    rendered = render_units(utterance_units(utt), worker_espeak())
    feats = extract(rendered.audio)
    return utt.id, FlutterFreeTrack(feats.f0, rendered.durations, feats.mel)


def flutter_free_tracks(utterances: Sequence[HKUtterance], workers: int = 1,
                        progress: Callable | None = None) -> dict[str, FlutterFreeTrack]:
    """Utterance id -> its flutter-free F0 track, rendered in ``flutter_free_pool``'s workers."""
    out: dict[str, FlutterFreeTrack] = {}
    with flutter_free_pool(workers) as pool:
        results = pool.map(_render, utterances)
        for utt_id, track in (progress(results, total=len(utterances)) if progress else results):
            out[utt_id] = track
    return out


def with_corpus_flutter(f0: np.ndarray, corpus_f0: np.ndarray, free_f0: np.ndarray) -> np.ndarray:
    """``f0`` (Hz, 0 unvoiced) with the corpus's own flutter put in: scaled frame by frame by the corpus's F0 over the
    flutter-free rendering's, where both voice. An oracle, as its phase comes from the reference: what is left of a
    voice's F0 error once the flutter is not part of it (``cantoedge evaluate --flutter-free``)."""
    out = np.array(f0, dtype=np.float64)
    n = min(out.size, corpus_f0.size, free_f0.size)
    both = (corpus_f0[:n] > 0) & (free_f0[:n] > 0)
    out[:n][both] *= corpus_f0[:n][both] / free_f0[:n][both]
    return out.astype(np.float32)


def corpus_flutter_free(records: Sequence, workers: int = 1, progress: Callable | None = None
                        ) -> dict[str, FlutterFreeTrack]:
    """Record id -> its flutter-free rendering's track for corpus records (``Record``s of the HKCanCor corpus this
    project renders); refuses records from elsewhere (your own recordings have no espeak-ng rendering to take the
    flutter from)."""
    utterances = clean_utterances_named([r.id for r in records], "the corpus", "a flutter-free reference exists "
                                        "only for the espeak-ng-rendered corpus (cantoedge corpus build)")
    return flutter_free_tracks(utterances, workers, progress)
