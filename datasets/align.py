"""Token durations from espeak-ng's phoneme events: which samples each onset, rime and pause covers."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cantoedge.runtime.audio import AUDIO, AudioParams
from cantoedge.runtime.frontend import Encoded
from cantoedge.runtime.inventory import PAUSE_COMMA, PAUSE_EXCLAIM, PAUSE_QUESTION, PAUSE_STOP
from cantoedge.runtime.jyutping import Syllable

from .espeak import Event

# espeak's Cantonese voice drops the tone of Latin syllabic nasals; a character with that reading keeps it
# (espeak reads 唔 and 吳 as ng4, 五 as ng5, 誤 as ng6, 嗯 as ng2, 哼 as hng1).
NASAL_SUBSTITUTES = {
    "m4": "唔", "ng4": "吳", "m5": "五", "ng5": "五", "m6": "誤", "ng6": "誤", "m2": "嗯", "ng2": "嗯",
    "hng1": "哼", "hm1": "哼",
}
PAUSE_MARKS = {PAUSE_COMMA: ",", PAUSE_STOP: ".", PAUSE_QUESTION: "?", PAUSE_EXCLAIM: "!"}
_VOWEL_STARTS = tuple("aeiouy")


class AlignmentError(ValueError):
    """espeak's events do not line up with the tokens; the utterance cannot be used."""


def espeak_word(syl: Syllable) -> str:
    """How one syllable is written for espeak: its Jyutping, or a character for toneless nasals."""
    text = str(syl)
    if syl.is_syllabic_nasal:
        if text not in NASAL_SUBSTITUTES:
            raise AlignmentError(f"espeak cannot voice {text} with its tone and no substitute is known")
        return NASAL_SUBSTITUTES[text]
    return text


def espeak_text(encoded: Encoded, syllables: Sequence[Syllable]) -> str:
    """One space-separated word per syllable, with the pauses' punctuation, so WORD events map 1:1."""
    words: list[str] = []
    last = -1
    for phone, idx in zip(encoded.phones, encoded.syllable_index):
        if idx >= 0 and idx != last:
            words.append(espeak_word(syllables[idx]))
            last = idx
        elif phone in PAUSE_MARKS and words:
            words[-1] += PAUSE_MARKS[phone]
    return " ".join(words)


def _group_by_word(events: Sequence[Event]) -> list[list[Event]]:
    groups: list[list[Event]] = []
    for ev in events:
        if ev.kind == "word":
            groups.append([])
        elif groups:
            groups[-1].append(ev)
    return groups


def token_starts(encoded: Encoded, syllables: Sequence[Syllable], events: Sequence[Event]) -> list[int]:
    """Start sample of every token. Gaps before an onset belong to the onset; pauses start where the
    previous syllable ends; the first <sil> starts at 0."""
    groups = _group_by_word(events)
    if len(groups) != len(syllables):
        raise AlignmentError(f"espeak spoke {len(groups)} words for {len(syllables)} syllables")
    spans = []  # (first phone, rime start, end) per syllable
    for k, (syl, group) in enumerate(zip(syllables, groups)):
        speech = [e for e in group if not e.name.startswith("_")]
        if not speech:
            raise AlignmentError(f"espeak produced no phones for syllable {k} ({syl})")
        rime = speech[0]
        if syl.onset:
            rime = next((e for e in speech if e.name.startswith(_VOWEL_STARTS)), speech[-1])
        ends = [e.sample for e in group if e.name == "_|" and e.sample >= rime.sample]
        spans.append((speech[0].sample, rime.sample, ends[0] if ends else None))
    starts: list[int] = []
    prev_end = 0
    prev_was_syllable = False
    for k, (phone, idx) in enumerate(zip(encoded.phones, encoded.syllable_index)):
        if idx < 0:
            starts.append(prev_end if k else 0)
            prev_was_syllable = False
            continue
        first, rime_start, end = spans[idx]
        is_onset = phone.endswith("-")
        if is_onset:
            starts.append(prev_end if prev_was_syllable else first)
        else:
            if not (k and encoded.syllable_index[k - 1] == idx):  # a rime-only syllable
                rime_start = prev_end if prev_was_syllable else first
            starts.append(rime_start)
            nxt = spans[idx + 1][0] if idx + 1 < len(spans) else rime_start
            prev_end = end if end is not None else max(nxt, rime_start)
        prev_was_syllable = True
    return list(np.maximum.accumulate(starts))


def durations_in_frames(starts: Sequence[int], n_samples: int, params: AudioParams = AUDIO) -> np.ndarray:
    """Per-token frame counts that sum exactly to the mel length of ``n_samples`` of audio."""
    n_frames = params.n_frames(n_samples)
    bounds = np.clip(np.rint(np.asarray(starts, dtype=np.float64) / params.hop_length), 0, n_frames)
    bounds = np.maximum.accumulate(bounds.astype(np.int64))
    bounds[0] = 0
    return np.diff(np.append(bounds, n_frames)).astype(np.int32)
