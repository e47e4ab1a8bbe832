"""Builds the plain words (runtime/plain_words.py) from rime-cantonese's dictionary, which pycantonese ships:
words of 2 to 6 Han characters whose every character it reads as the frontend's dictionary (or, for a character
whose lexicon entry gives way in them, ToJyutping) reads it alone."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from cantoedge.runtime.dictionary import SortedWords, WordDictionary, split_header
from cantoedge.runtime.fileio import atomic_write_text
from cantoedge.runtime.marks import is_han
from cantoedge.runtime.plain_words import LONGEST, SHORTEST

HEADER = ("# word<TAB>jyutping, comma-separated: rime-cantonese's words (CC BY 4.0, via pycantonese) that read as\n"
          "# their characters alone, for characters with context rules or a lexicon entry; sorted by UTF-8 bytes.\n"
          "# Regenerate with: cantoedge corpus lexicon\n")


@lru_cache(maxsize=1)
def rime_words() -> dict[str, tuple[str, ...]]:
    """rime-cantonese's words of SHORTEST to LONGEST Han characters, one syllable each, with their readings (its
    first where it has several)."""
    import pycantonese

    path = Path(pycantonese.__file__).parent / "data" / "rime_cantonese" / "chars_to_jyutping.json"
    if not path.is_file():
        raise FileNotFoundError(f"pycantonese {pycantonese.__version__} has no rime-cantonese data at {path}")
    words = {}
    for word, reading in json.loads(path.read_text("utf-8")).items():
        syllables = tuple(reading.split())
        if SHORTEST <= len(word) <= LONGEST and all(map(is_han, word)) and len(syllables) == len(word):
            words[word] = syllables
    return words


def plain_words(dictionary: WordDictionary, base: WordDictionary | None = None,
                giving_way: frozenset[str] = frozenset()) -> dict[str, tuple[str, ...]]:
    """The rime-cantonese words whose every character rime reads as ``dictionary`` (the lexicon over ToJyutping)
    reads it alone, or, for the characters ``giving_way``, as ``base`` (ToJyutping) does: 體重 tai2 cung5, where
    the lexicon's 重 alone is zung6, "still"."""
    alone: dict[str, set[str | None]] = {}

    def readings(ch: str) -> set[str | None]:
        if ch not in alone:
            alone[ch] = {dictionary.matches(ch)[0][1]}
            if base is not None and ch in giving_way:
                alone[ch].add(base.matches(ch)[0][1])
        return alone[ch]

    return {word: syllables for word, syllables in rime_words().items()
            if all(s in readings(ch) for ch, s in zip(word, syllables))}


def holding(words: dict[str, tuple[str, ...]], chars: set[str]) -> dict[str, tuple[str, ...]]:
    """The words that hold one of ``chars`` (the characters with context rules or a lexicon entry of their own:
    only there can a word matter)."""
    return {word: syllables for word, syllables in words.items() if any(ch in chars for ch in word)}


def write_plain_words(words: dict[str, tuple[str, ...]], path: Path) -> None:
    lines = sorted(f"{w}\t{','.join(s)}\n".encode() for w, s in words.items())
    body = b"".join(lines)
    found = SortedWords(split_header(HEADER.encode() + body))  # never write a file the runtime misreads
    if any(found.get(w) != ",".join(s) for w, s in list(words.items())[:100]):
        raise ValueError("plain words: the written file does not find its own words")
    atomic_write_text(path, HEADER + body.decode("utf-8"))
