"""The evaluation bundle: held-out utterances with their recordings' features, tone labels and the FP32 voice's
outputs, made once on the build host (`cantoedge corpus eval-bundle`) so a device can score its engines with
numpy and one backend only (no corpus, no torch, no librosa)."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from cantoedge.runtime.audio import log_mel
from cantoedge.runtime.fileio import atomic_write
from cantoedge.runtime.manifest import Record

from .pitch import yin

BUNDLE_FILE = "eval_bundle.npz"
FORMAT = "cantoedge-eval-bundle"
VERSION = 1
GRAPH_UTTERANCES = 4  # utterances that also carry the FP32 encoder frames and audio (each graph scored alone)
_EPOCH = (1980, 1, 1, 0, 0, 0)  # zip entry time: the same inputs give the same bytes


class BundleError(ValueError):
    """A missing, damaged or mismatched evaluation bundle."""


@dataclass
class EvalUtterance:
    """One held-out utterance: what was asked, what the recording did, and what the FP32 voice did with the
    recording's durations (so every frame lines up with the recording)."""

    id: str
    text: str
    jyutping: list[str]
    phones: list[str]
    tokens: np.ndarray  # (N,) int64
    tones: np.ndarray  # (N,) int64
    durations: np.ndarray  # (N,) the recording's frames per token
    rec_mel: np.ndarray  # (n_mels, T) log-mel of the recording
    rec_f0: np.ndarray  # (T,) YIN track of the recording, 0 = unvoiced
    fp32_own_durations: np.ndarray  # (N,) what the FP32 encoder predicts by itself
    fp32_mel: np.ndarray  # (n_mels, T) the FP32 decoder's mel
    fp32_f0: np.ndarray  # (T,) the FP32 decoder's F0
    fp32_audio_mel: np.ndarray  # (n_mels, T) log-mel of the FP32 voice's audio
    fp32_audio_f0: np.ndarray  # (T,) YIN track of the FP32 voice's audio
    graph: dict[str, np.ndarray] = field(default_factory=dict)  # frames, position, audio: first GRAPH_UTTERANCES

    @property
    def n_frames(self) -> int:
        return int(self.durations.sum())


@dataclass
class EvalBundle:
    utterances: list[EvalUtterance]
    checkpoint_sha256: str  # of the acoustic checkpoint the FP32 graphs came from
    vocoder_sha256: str
    source: str  # where the utterances came from (corpus, split)

    def save(self, path: Path) -> Path:
        """One .npz, byte-identical for the same contents, written atomically."""
        meta = {"format": FORMAT, "version": VERSION, "checkpoint_sha256": self.checkpoint_sha256,
                "vocoder_sha256": self.vocoder_sha256, "source": self.source,
                "utterances": [{"id": u.id, "text": u.text, "jyutping": u.jyutping, "phones": u.phones,
                                "graph": sorted(u.graph)} for u in self.utterances]}
        arrays = {"meta": np.frombuffer(json.dumps(meta, ensure_ascii=False, sort_keys=True).encode(), np.uint8)}
        for i, u in enumerate(self.utterances):
            for name in _ARRAYS:
                arrays[f"{i}/{name}"] = getattr(u, name)
            for name, value in sorted(u.graph.items()):
                arrays[f"{i}/graph/{name}"] = value
        atomic_write(Path(path), lambda tmp: _write_npz(tmp, arrays))
        return Path(path)

    @classmethod
    def load(cls, path: Path) -> EvalBundle:
        path = Path(path)
        if path.is_dir():
            path = path / BUNDLE_FILE
        if not path.exists():
            raise BundleError(f"no evaluation bundle at {path}: make one on the build host with `cantoedge corpus "
                              "eval-bundle` (or run `cantoedge pipeline`), or pass --bundle")
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
            meta = json.loads(arrays.pop("meta").tobytes().decode())
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
            raise BundleError(f"{path} is not a readable evaluation bundle ({exc})") from None
        if meta.get("format") != FORMAT or meta.get("version") != VERSION:
            raise BundleError(f"{path}: not a version-{VERSION} evaluation bundle; make it again with this cantoedge")
        utterances = []
        for i, m in enumerate(meta["utterances"]):
            try:
                fields = {name: arrays[f"{i}/{name}"] for name in _ARRAYS}
                graph = {name: arrays[f"{i}/graph/{name}"] for name in m["graph"]}
            except KeyError as exc:
                raise BundleError(f"{path}: utterance {m['id']} lacks {exc}") from None
            utterances.append(EvalUtterance(m["id"], m["text"], m["jyutping"], m["phones"], graph=graph, **fields))
        if not utterances:
            raise BundleError(f"{path} holds no utterances")
        return cls(utterances, meta["checkpoint_sha256"], meta["vocoder_sha256"], meta["source"])


_ARRAYS = ("tokens", "tones", "durations", "rec_mel", "rec_f0", "fp32_own_durations", "fp32_mel", "fp32_f0",
           "fp32_audio_mel", "fp32_audio_f0")


def _write_npz(path: str, arrays: dict[str, np.ndarray]) -> None:
    """np.savez_compressed without the wall-clock time in every zip entry."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, value in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.ascontiguousarray(value), allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, buf.getvalue(), compresslevel=6)


def make_bundle(fp32_voice, records: Sequence[Record], features: Callable[[Record], dict],
                recording: Callable[[Record], np.ndarray], source: str,
                progress: Callable[[Iterable], Iterable] | None = None) -> EvalBundle:
    """The FP32 voice (``runtime.synth.Voice`` on the FP32 graphs) over held-out ``records``: ``features``
    gives a record's tokens, tones and durations, ``recording`` its audio."""
    if not records:
        raise BundleError("no utterances to make an evaluation bundle from")
    utterances = []
    items = progress(list(enumerate(records))) if progress else enumerate(records)
    for i, rec in items:
        f = features(rec)
        tokens, tones = np.asarray(f["tokens"], np.int64), np.asarray(f["tones"], np.int64)
        durations = np.asarray(f["durations"], np.int64)
        audio = recording(rec)
        frames, position, own = fp32_voice.encode_tokens(tokens, tones, durations=durations)
        mel, f0 = fp32_voice.decode(frames, position)
        out = fp32_voice.vocode(mel, f0)
        n = int(durations.sum())
        rec_mel = fit_frames(log_mel(audio), n)
        graph = ({"frames": frames.astype(np.float32), "position": position.astype(np.float32),
                  "audio": out.astype(np.float32)} if i < GRAPH_UTTERANCES else {})
        utterances.append(EvalUtterance(
            rec.id, rec.text, list(rec.jyutping), list(rec.phones), tokens, tones, durations,
            rec_mel.astype(np.float32), fit_frames(yin(audio)[0], n).astype(np.float32), own.astype(np.int64),
            mel.astype(np.float32), f0.astype(np.float32), fit_frames(log_mel(out), n).astype(np.float32),
            fit_frames(yin(out)[0], n).astype(np.float32), graph))
    enc = fp32_voice.encoder.info
    return EvalBundle(utterances, enc.checkpoint_sha256, fp32_voice.vocoder.info.checkpoint_sha256, source)


def fit_frames(x: np.ndarray, n: int) -> np.ndarray:
    """``x`` (…, T') cut or edge-padded to exactly ``n`` frames (tracks of audio can be a frame longer)."""
    if x.shape[-1] >= n:
        return x[..., :n]
    pad = [(0, 0)] * (x.ndim - 1) + [(0, n - x.shape[-1])]
    return np.pad(x, pad, mode="edge")
