"""pYIN F0 tracks of corpus utterances, kept beside their corpus: a contour stage's second track (issue 10). pYIN
takes 0.3 s an utterance on this CPU (YIN 16 ms), so the tracks are computed once, on worker processes, and read
back by every run that trains on the same utterances."""

from __future__ import annotations

import logging
import multiprocessing as mp
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from cantoedge.runtime.fileio import atomic_write, remove_stale_temps
from cantoedge.runtime.manifest import Record
from cantoedge.runtime.wavio import read_wav

log = logging.getLogger(__name__)

# Under the folder that holds the utterance's wavs/ (the corpus, or a run's tone sets); named for the tracker's
# settings (export/contours.track_semitones: 50-400 Hz, 1024-sample frames), so that other settings never read
# these tracks.
TRACKS_DIR = "tracks/pyin-50-400hz-1024"


def retracks(yin_threshold: float, tracker: str) -> bool:
    """Whether a contour stage tracks the corpus's F0 again: YIN with a threshold of its own, or pYIN."""
    return yin_threshold > 0 or tracker == "pyin"


def track_path(corpus_dir: Path, record: Record) -> Path:
    """Where ``record``'s pYIN track lives: ``<its corpus>/TRACKS_DIR/<wav name>.npy`` (tone-set records carry
    absolute wav paths into their own folder, so their tracks go there)."""
    wav = Path(corpus_dir) / record.wav
    return wav.parent.parent / TRACKS_DIR / f"{wav.stem}.npy"


def pyin_semitones(audio: np.ndarray) -> np.ndarray:
    """pYIN F0 per mel frame in semitones re 1 Hz, NaN unvoiced: the tracker ``export.contours`` measures with."""
    from cantoedge.export.contours import track_semitones

    return track_semitones(audio).astype(np.float32)


def _compute(corpus_dir: Path, record: Record) -> np.ndarray:
    path = track_path(corpus_dir, record)
    audio, _ = read_wav(Path(corpus_dir) / record.wav)
    semitones = pyin_semitones(audio)

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:  # a file object, since np.save would add ".npy" to the temp's name
            np.save(f, semitones)

    atomic_write(path, write)
    return semitones


def _work(job: tuple[str, Record]) -> str:
    _compute(Path(job[0]), job[1])
    return job[1].id


def read_track(corpus_dir: Path, record: Record, n_frames: int) -> tuple[np.ndarray, np.ndarray]:
    """``record``'s pYIN (F0 in Hz with 0 unvoiced, voicing), computed now if it was never kept or does not
    fit the utterance's ``n_frames`` (a corpus re-rendered since)."""
    path = track_path(corpus_dir, record)
    semitones = None
    if path.exists():
        try:
            semitones = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as exc:
            log.warning("%s is unreadable (%s): tracking again", path, exc)
    if semitones is not None and semitones.shape != (n_frames,):
        log.warning("%s holds %s frames, the utterance %d: tracking again", path, semitones.shape, n_frames)
        semitones = None
    if semitones is None:
        semitones = _compute(corpus_dir, record)
        if semitones.shape != (n_frames,):
            raise ValueError(f"{record.wav}: pYIN gives {semitones.size} frames, its features have {n_frames}")
    from cantoedge.export.contours import semitones_to_f0

    return semitones_to_f0(semitones)


def prepare_tracks(corpus_dir: Path, records: Sequence[Record], workers: int = 2, progress: bool = True) -> int:
    """Compute the pYIN tracks ``records`` lack, ``workers`` at a time (resumable: a killed run leaves only whole
    files). Returns how many were computed."""
    from tqdm import tqdm

    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    folders = {track_path(corpus_dir, r).parent for r in records}
    for folder in folders:
        if folder.is_dir():
            remove_stale_temps(folder)
    todo = [(str(corpus_dir), r) for r in records if not track_path(corpus_dir, r).exists()]
    if not todo:
        return 0
    with tqdm(total=len(todo), desc="pYIN tracks", unit="utt", disable=not progress) as bar:
        if workers == 1:
            for job in todo:
                _work(job)
                bar.update()
        else:
            with mp.get_context("spawn").Pool(workers) as pool:
                for _ in pool.imap_unordered(_work, todo, chunksize=8):
                    bar.update()
    return len(todo)
