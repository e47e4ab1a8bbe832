"""Import a user's recordings: LJSpeech layout (metadata.csv + wavs/) with Montreal-Forced-Aligner
TextGrids whose phones tier uses cantoedge's onset/rime phones (dictionary from ``corpus mfa-dict``)."""

from __future__ import annotations

import csv
import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cantoedge.runtime.audio import AUDIO
from cantoedge.runtime.frontend import Encoded, Frontend, FrontendError
from cantoedge.runtime.inventory import PAUSES, load_inventory
from cantoedge.runtime.jyutping import ONSETS, RIMES
from cantoedge.runtime.manifest import Record, write_manifest
from cantoedge.runtime.wavio import read_wav, write_wav

from .align import durations_in_frames
from .corpus import save_features
from .features import extract
from .hkcancor import split_of

log = logging.getLogger("cantoedge.import")
SILENCE_LABELS = {"", "sil", "sp", "spn", "<eps>", "silence", "pau"}


class CorpusImportError(ValueError):
    """An utterance whose text, audio or alignment cannot be imported; the message names it."""


@dataclass(frozen=True)
class Interval:
    start: float
    end: float
    label: str


@dataclass(frozen=True)
class ImportSummary:
    imported: int
    failed: list[str]
    audio_hours: float


def read_metadata(path: Path) -> list[tuple[str, str]]:
    """(id, text) from an LJSpeech ``metadata.csv`` (``id|text`` or ``id|text|normalised text``)."""
    rows = []
    with open(path, encoding="utf-8", newline="") as fh:
        for lineno, row in enumerate(csv.reader(fh, delimiter="|", quoting=csv.QUOTE_NONE), 1):
            if not row or not row[0].strip():
                continue
            if len(row) < 2:
                raise CorpusImportError(f"{path}:{lineno}: expected 'id|text', got {'|'.join(row)!r}")
            rows.append((row[0].strip(), (row[2] if len(row) > 2 and row[2].strip() else row[1]).strip()))
    return rows


def read_phone_tier(path: Path, tier: str = "phones") -> list[Interval]:
    """Intervals of a TextGrid tier, gaps included as empty labels."""
    from praatio import textgrid

    tg = textgrid.openTextgrid(str(path), includeEmptyIntervals=True)
    if tier not in tg.tierNames:
        raise CorpusImportError(f"{path}: no '{tier}' tier (tiers: {', '.join(tg.tierNames)})")
    return [Interval(float(s), float(e), str(lab)) for s, e, lab in tg.getTier(tier).entries]


def _expected_label(phone: str) -> str:
    return phone[:-1] if phone.endswith("-") else phone


def token_starts_from_intervals(encoded: Encoded, intervals: list[Interval], sample_rate: int,
                                utt_id: str = "") -> list[int]:
    """Start sample of each token: speech intervals must match the onset/rime tokens in order (tone
    digits on labels are ignored); a silence fills the pause token due next, else lengthens the token
    before it."""
    starts: list[int | None] = [None] * len(encoded.phones)
    starts[0] = 0
    ti = 1
    now = 0
    for iv in intervals:
        label = "".join(ch for ch in iv.label.strip().lower() if not ch.isdigit())
        t = int(round(iv.start * sample_rate))
        if label in SILENCE_LABELS:
            if ti < len(starts) and encoded.phones[ti] in PAUSES:
                starts[ti] = max(t, now)
                ti += 1
            continue
        while ti < len(starts) and encoded.phones[ti] in PAUSES:
            starts[ti] = max(t, now)  # a pause the aligner heard no silence for: zero length
            ti += 1
        if ti >= len(starts):
            raise CorpusImportError(f"{utt_id}: TextGrid has more phones than the text ({iv.label!r} at {iv.start}s)")
        want = _expected_label(encoded.phones[ti])
        if label != want:
            raise CorpusImportError(f"{utt_id}: phone {ti} is {iv.label!r} at {iv.start:.3f}s in the TextGrid, "
                               f"the text says {want!r}")
        starts[ti] = now = max(t, now)
        ti += 1
    for k in range(ti, len(starts)):
        if encoded.phones[k] not in PAUSES:
            raise CorpusImportError(f"{utt_id}: the TextGrid ends before phone {k} ({encoded.phones[k]!r})")
        starts[k] = now if starts[k] is None else starts[k]
    return [int(s) for s in starts]  # type: ignore[arg-type]


def _resample(audio: np.ndarray, rate: int) -> np.ndarray:
    if rate == AUDIO.sample_rate:
        return audio
    try:
        import librosa
    except ImportError as exc:
        raise CorpusImportError(f"audio at {rate} Hz needs resampling to {AUDIO.sample_rate} Hz: "
                           "install the build extra (librosa)") from exc
    return librosa.resample(audio, orig_sr=rate, target_sr=AUDIO.sample_rate).astype(np.float32)


def import_ljspeech(src: Path, textgrids: Path, out_dir: Path, speaker: str = "user",
                    frontend: Frontend | None = None, tier: str = "phones") -> ImportSummary:
    """Import every utterance that has a wav and a TextGrid; failures are reported, not fatal."""
    src, textgrids, out_dir = Path(src), Path(textgrids), Path(out_dir)
    frontend = frontend or Frontend()
    records: list[Record] = []
    failed: list[str] = []
    for utt_id, text in read_metadata(src / "metadata.csv"):
        try:
            records.append(_import_one(utt_id, text, src, textgrids, out_dir, speaker, frontend, tier))
        except (CorpusImportError, FrontendError, OSError, ValueError) as exc:
            log.warning("not imported: %s: %s", utt_id, exc)
            failed.append(f"{utt_id}: {exc}")
    if not records:
        raise CorpusImportError(f"nothing imported from {src} ({len(failed)} failures; first: "
                           f"{failed[0] if failed else 'metadata.csv is empty'})")
    write_manifest(records, out_dir)
    hours = sum(r.n_samples for r in records) / AUDIO.sample_rate / 3600
    return ImportSummary(len(records), failed, hours)


def _import_one(utt_id: str, text: str, src: Path, textgrids: Path, out_dir: Path, speaker: str,
                frontend: Frontend, tier: str) -> Record:
    g2p = frontend(text)
    audio, rate = read_wav(src / "wavs" / f"{utt_id}.wav")
    audio = _resample(audio, rate)
    intervals = read_phone_tier(textgrids / f"{utt_id}.TextGrid", tier)
    starts = token_starts_from_intervals(g2p.encoded, intervals, AUDIO.sample_rate, utt_id)
    durations = durations_in_frames(starts, audio.size)
    feats = extract(audio)
    wav_rel, feat_rel = f"wavs/{utt_id}.wav", f"features/{utt_id}.npz"
    write_wav(out_dir / wav_rel, audio, AUDIO.sample_rate)
    save_features(out_dir / feat_rel, feats, durations, g2p.encoded)
    return Record(id=utt_id, text=text, jyutping=g2p.jyutping, tokens=g2p.tokens, tones=g2p.tones,
                  phones=g2p.encoded.phones, wav=wav_rel, features=feat_rel, n_frames=feats.n_frames,
                  n_samples=int(audio.size), sample_rate=AUDIO.sample_rate, split=split_of(utt_id),
                  speaker=speaker)


def mfa_dictionary() -> str:
    """An MFA pronunciation dictionary over every Jyutping syllable: ``si1<TAB>s i``; transcripts (.lab)
    are the Jyutping from ``cantoedge g2p``, so the phones tier comes back in cantoedge's phones."""
    load_inventory()  # the phones below are the inventory's, minus the onset marker
    lines = []
    for onset in ("", *ONSETS):
        for rime in RIMES:
            if rime in ("m", "ng") and onset not in ("", "h"):
                continue
            for tone in range(1, 7):
                lines.append(f"{onset}{rime}{tone}\t{(onset + ' ' + rime).strip()}")
    return "\n".join(lines) + "\n"
