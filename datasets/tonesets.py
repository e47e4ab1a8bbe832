"""Six-tone training sets: common syllables said in all six tones, alone and in a short carrier phrase,
rendered by espeak-ng exactly as the corpus is. HKCanCor is running speech: only 13 syllables occur there in
all six tones and single syllables spoken alone hardly at all, so the contour of a rare tone/syllable pair
is learned from other syllables' contexts. The six sets the voice is measured on, and the twelve held out for
choosing between runs, are never rendered here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from cantoedge.runtime.jyutping import TONES, JyutpingError, parse_syllable
from cantoedge.runtime.manifest import Record, read_manifest

from .hkcancor import HKUtterance, Word

# The sets tone shapes are measured on (export/contours.py): unvoiced onsets si, fu, fan; voiced ji, jau, maa.
MEASURED_SETS: dict[str, str] = {
    "si": "詩史試時市事", "fu": "夫苦富扶婦負", "fan": "分粉訓焚憤份",
    "ji": "醫椅意兒耳二", "jau": "優柚幼油有又", "maa": "媽嗎嘛麻馬罵",
}
# Held out for choosing between runs, so that a choice never tunes on MEASURED_SETS: the 61st to 72nd most common
# bases of the flutter-free corpus's training split (after the 60 the bundled stages train on), never rendered for
# training either (`cantoedge evaluate --shapes --shape-sets validation`)
VALIDATION_SETS = ("sai", "siu", "jyun", "hau", "sin", "ging", "sing", "hei", "gung", "bun", "mai", "nam")
MEASURED_CARRIER = ("ngo5", "waa6", None, "bei2", "nei5", "teng1")  # 我話X畀你聽。: X is the third syllable
MEASURED_CARRIER_TEXT = "我話{}畀你聽。"  # the same phrase as text, for the listen-proxy (export/evaluate.py)
# 佢讀X呢個字。"he reads the character X": another frame than the measured one
TRAINING_CARRIER = ("keoi5", "duk6", None, "ni1", "go3", "zi6")
STOP_CODAS = ("p", "t", "k")  # checked syllables carry only tones 1, 3 and 6


def common_bases(jyutping: Iterable[str], count: int,
                 exclude: Sequence[str] = (*MEASURED_SETS, *VALIDATION_SETS)) -> list[str]:
    """The ``count`` most frequent toneless syllables that can carry all six tones (no stop coda, not a
    syllabic nasal), most frequent first, ties by name; ``exclude`` never appears."""
    seen: Counter[str] = Counter()
    for text in jyutping:
        try:
            syl = parse_syllable(text)
        except JyutpingError:
            continue
        if syl.is_syllabic_nasal or syl.rime.endswith(STOP_CODAS):
            continue
        seen[f"{syl.onset}{syl.rime}"] += 1
    ranked = sorted((b for b in seen if b not in set(exclude)), key=lambda b: (-seen[b], b))
    return ranked[:count]


def six_tones(base: str, carrier: Sequence[str | None]) -> list[tuple[str, list[str], list[str]]]:
    """Tones 1..6 of ``base``: each syllable, said alone and said in the gap (None) of ``carrier``."""
    out = []
    for tone in TONES:
        syl = f"{base}{tone}"
        parse_syllable(syl)  # refuses what is not Jyutping
        out.append((syl, [syl], [s or syl for s in carrier]))
    return out


def _utterance(uid: str, syllables: Sequence[str]) -> HKUtterance:
    words = tuple(Word(s, (s,)) for s in syllables) + (Word("。", ()),)
    return HKUtterance(uid, words, "train")


def tone_set_utterances(bases: Sequence[str]) -> list[HKUtterance]:
    """Every base in tones 1..6, alone and in the training carrier: 12 utterances a base."""
    out = []
    for base in bases:
        for syl, alone, carried in six_tones(base, TRAINING_CARRIER):
            out.append(_utterance(f"toneset-{syl}-alone", alone))
            out.append(_utterance(f"toneset-{syl}-carrier", carried))
    return out


def render_tone_sets(out_dir: Path, bases: Sequence[str], progress: bool = True, flutter: bool = True
                     ) -> list[Record]:
    """Render the bases' tone sets into ``out_dir`` (a corpus folder, resumable; ``flutter`` as the corpus they
    train beside was rendered) and return their records with absolute paths, to train beside its records."""
    from .corpus import build_corpus

    out_dir = Path(out_dir)
    summary = build_corpus(out_dir, utterances=tone_set_utterances(bases), workers=2, progress=progress,
                           flutter=flutter)
    if summary.skipped:
        raise ValueError(f"{summary.skipped} tone-set utterances could not be aligned; see the log")
    root = out_dir.resolve()
    return [replace(r, wav=str(root / r.wav), features=str(root / r.features)) for r in read_manifest(out_dir)]
