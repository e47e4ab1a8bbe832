"""Tone classifier training and evaluation over a corpus manifest (reference audio or synthesised)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from cantoedge.runtime.alignment import syllable_spans
from cantoedge.runtime.inventory import syllable_index
from cantoedge.runtime.jyutping import parse_syllable
from cantoedge.runtime.manifest import Record, load_features, read_manifest
from cantoedge.runtime.wavio import read_wav

from .pitch import yin
from .tones import SpeakerStats, ToneClassifier, contour_features, train_classifier

F0Source = Callable[[Path, Record, dict], np.ndarray]


def f0_from_features(corpus_dir: Path, record: Record, features: dict) -> np.ndarray:
    """The F0 stored with the corpus features."""
    return features["f0"]


def f0_from_audio(corpus_dir: Path, record: Record, features: dict) -> np.ndarray:
    """F0 tracked afresh from the utterance's wav: the path synthesised audio takes."""
    audio, _ = read_wav(Path(corpus_dir) / record.wav)
    return yin(audio)[0]


@dataclass
class ToneSet:
    features: np.ndarray
    tones: np.ndarray  # expected, 1..6
    utterances: int
    stats: SpeakerStats


def toneset_from(tracks: Sequence[np.ndarray], durations: Sequence[np.ndarray], phones: Sequence[Sequence[str]],
                 jyutping: Sequence[Sequence[str]], stats: SpeakerStats | None = None) -> ToneSet:
    """Contour features and asked-for tones of every syllable of a set of utterances (one speaker: its
    pitch statistics come from the same tracks unless given)."""
    if not tracks:
        raise ValueError("no utterances to collect tones from")
    stats = stats or SpeakerStats.from_tracks(tracks)
    feats, tones = [], []
    for f0, dur, ph, jp in zip(tracks, durations, phones, jyutping):
        feats.append(contour_features(f0, syllable_spans(dur, syllable_index(list(ph))), stats))
        tones.extend(parse_syllable(s).tone for s in jp)
    return ToneSet(np.concatenate(feats), np.asarray(tones), len(tracks), stats)


def collect(corpus_dir: Path, records: Sequence[Record], f0_source: F0Source = f0_from_features,
            stats: SpeakerStats | None = None) -> ToneSet:
    """``toneset_from`` over corpus records, F0 from the stored features or tracked from the wavs."""
    corpus_dir = Path(corpus_dir)
    if not records:
        raise ValueError("no utterances to collect tones from")
    tracks, durations = [], []
    for rec in records:
        feats = load_features(corpus_dir, rec)
        tracks.append(f0_source(corpus_dir, rec, feats))
        durations.append(feats["durations"])
    return toneset_from(tracks, durations, [r.phones for r in records], [r.jyutping for r in records], stats)


def corpus_speaker_stats(corpus_dir: Path, records: Sequence[Record]) -> SpeakerStats:
    """The recorded speaker's pitch scale, from the F0 stored with the corpus: the scale a voice trained on it
    speaks on, and steady however few utterances a comparison scores (three gave a scale a semitone low)."""
    if not records:
        raise ValueError(f"{corpus_dir}: no utterances to take the speaker's pitch range from")
    return SpeakerStats.from_tracks([load_features(Path(corpus_dir), r, ["f0"])["f0"] for r in records])


@dataclass
class ToneReport:
    accuracy: float
    syllables: int
    unvoiced: int  # syllables with too few voiced frames (counted as wrong)
    per_tone: dict[int, float]
    confusion: list[list[int]] = field(default_factory=list)  # rows: asked tone 1..6; cols: heard 1..6

    def to_json(self) -> dict:
        return {"accuracy": self.accuracy, "syllables": self.syllables, "unvoiced": self.unvoiced,
                "per_tone": {str(k): v for k, v in self.per_tone.items()}, "confusion": self.confusion}


def evaluate(classifier: ToneClassifier, toneset: ToneSet) -> ToneReport:
    pred = classifier.predict(toneset.features)
    exp = toneset.tones
    confusion = [[int(np.sum((exp == t) & (pred == h))) for h in range(1, 7)] for t in range(1, 7)]
    per_tone = {t: float(np.mean(pred[exp == t] == t)) for t in range(1, 7) if np.any(exp == t)}
    return ToneReport(float(np.mean(pred == exp)), int(exp.size), int(np.sum(pred < 0)), per_tone, confusion)


def split_records(corpus_dir: Path, split: str, records: Sequence[Record] | None = None) -> list[Record]:
    chosen = [r for r in (read_manifest(corpus_dir) if records is None else records) if r.split == split]
    if not chosen:
        raise ValueError(f"the corpus in {corpus_dir} has no '{split}' utterances")
    return chosen


def train_on_corpus(corpus_dir: Path, seed: int = 0) -> tuple[ToneClassifier, ToneReport]:
    """Train on the training split's stored F0; report accuracy on the validation split's audio."""
    records = read_manifest(corpus_dir)
    train = collect(corpus_dir, split_records(corpus_dir, "train", records))
    clf = train_classifier(train.features, train.tones, seed=seed)
    val = collect(corpus_dir, split_records(corpus_dir, "val", records), f0_from_audio)
    return clf, evaluate(clf, val)
