"""The corpus manifest: one JSON record per utterance, the contract between the corpus and training."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from .fileio import atomic_write_text

MANIFEST = "manifest.jsonl"
SPLITS = ("train", "val", "test")  # every corpus splits its utterances 90/5/5 into these


@dataclass(frozen=True)
class Record:
    id: str
    text: str
    jyutping: list[str]
    tokens: list[int]
    tones: list[int]
    phones: list[str]
    wav: str  # relative to the corpus directory
    features: str  # .npz with mel, f0, voiced, energy, durations
    n_frames: int
    n_samples: int
    sample_rate: int
    split: str
    speaker: str = "espeak-yue"
    extra: dict = field(default_factory=dict)

    @property
    def duration_s(self) -> float:
        return self.n_samples / self.sample_rate


def write_manifest(records: Iterable[Record], corpus_dir: Path) -> Path:
    path = Path(corpus_dir) / MANIFEST
    lines = [json.dumps(asdict(r), ensure_ascii=False) for r in records]
    atomic_write_text(path, "".join(line + "\n" for line in lines))
    return path


def read_manifest(corpus_dir: Path) -> list[Record]:
    path = Path(corpus_dir) / MANIFEST
    if not path.exists():
        raise FileNotFoundError(f"no {MANIFEST} in {corpus_dir}: build the corpus first (cantoedge corpus build)")
    records = []
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                records.append(Record(**json.loads(line)))
            except (ValueError, TypeError) as exc:  # not JSON, not an object, or not a record's fields
                raise ValueError(f"{path}, line {number}: not a corpus record ({exc}); rebuild the corpus "
                                 "(cantoedge corpus build resumes from its meta/ files)") from exc
    return records


def split_records(corpus_dir: Path, split: str, limit: int | None = None) -> list[Record]:
    """The first ``limit`` utterances of one split, in manifest order: what every evaluation scores."""
    return [r for r in read_manifest(corpus_dir) if r.split == split][:limit]


def load_features(corpus_dir: Path, record: Record, names: Sequence[str] | None = None) -> dict[str, np.ndarray]:
    """The arrays of one utterance, or only ``names`` of them (each is stored compressed apart, so the F0 alone
    reads without the mel); np.load without pickles."""
    with np.load(Path(corpus_dir) / record.features, allow_pickle=False) as data:
        return {k: data[k] for k in (data.files if names is None else names)}
