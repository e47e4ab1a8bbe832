"""Jyutping syllables split into onset, rime and tone, the units the model's tokens are made of."""

from __future__ import annotations

import re
from dataclasses import dataclass

ONSETS: tuple[str, ...] = (
    "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "ng", "h", "gw", "kw", "w", "z", "c", "s", "j",
)
RIMES: tuple[str, ...] = (
    "aa", "aai", "aau", "aam", "aan", "aang", "aap", "aat", "aak",
    "a", "ai", "au", "am", "an", "ang", "ap", "at", "ak",
    "e", "ei", "eu", "em", "en", "eng", "ep", "et", "ek",
    "i", "iu", "im", "in", "ing", "ip", "it", "ik",
    "o", "oi", "ou", "on", "ong", "ot", "ok",
    "u", "ui", "un", "ung", "ut", "uk",
    "eo", "eoi", "eon", "eot",
    "oe", "oeng", "oet", "oek",
    "yu", "yun", "yut",
    "m", "ng",
)
SYLLABIC_NASALS = ("m", "ng")
_RIME_SET = frozenset(RIMES)
TONES = (1, 2, 3, 4, 5, 6)  # Cantonese's six lexical tones, as Jyutping numbers them
_SYLLABLE = re.compile(r"([a-z]+)([1-6])")


class JyutpingError(ValueError):
    """A string that is not valid Jyutping."""


@dataclass(frozen=True)
class Syllable:
    onset: str  # "" when the syllable has none
    rime: str
    tone: int  # 1..6

    def __str__(self) -> str:
        return f"{self.onset}{self.rime}{self.tone}"

    @property
    def is_syllabic_nasal(self) -> bool:
        return self.rime in SYLLABIC_NASALS


def parse_syllable(text: str) -> Syllable:
    """Parse one syllable such as ``gwong2`` or ``ng5``; syllabic nasals (m, ng, hm, hng) have no vowel."""
    m = _SYLLABLE.fullmatch(text.strip().lower())
    if not m:
        raise JyutpingError(f"not a Jyutping syllable: {text!r}")
    letters, tone = m.group(1), int(m.group(2))
    if letters in SYLLABIC_NASALS:
        return Syllable("", letters, tone)
    # Longest onset first ("ng" before "n", "gw" before "g"), the rime must be a known final.
    for size in (2, 1, 0):
        onset, rime = letters[:size], letters[size:]
        if (size == 0 or onset in ONSETS) and rime in _RIME_SET:
            if rime in SYLLABIC_NASALS and onset not in ("", "h"):
                continue
            return Syllable(onset, rime, tone)
    raise JyutpingError(f"not a Jyutping syllable: {text!r}")


def parse_jyutping(text: str) -> list[Syllable]:
    """Parse a run of syllables, with or without spaces (``ngo5dei6`` or ``ngo5 dei6``)."""
    compact = re.sub(r"\s+", "", text.lower())
    parts = _SYLLABLE.findall(compact)
    if "".join(letters + tone for letters, tone in parts) != compact or not parts:
        raise JyutpingError(f"not a Jyutping string: {text!r}")
    return [parse_syllable(letters + tone) for letters, tone in parts]
