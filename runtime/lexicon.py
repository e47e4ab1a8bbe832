"""The word lexicon derived from HKCanCor's hand annotation, layered over ToJyutping's dictionary."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .datafiles import read_package_text
from .jyutping import JyutpingError, parse_jyutping


class LexiconError(ValueError):
    """A lexicon file with a malformed line."""


def parse_lexicon(text: str, source: str = "lexicon") -> dict[str, str]:
    """``word<TAB>jyutping`` lines (``#`` comments allowed); one syllable per character is enforced."""
    entries: dict[str, str] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, reading = line.partition("\t")
        try:
            syls = parse_jyutping(reading)
        except JyutpingError as exc:
            raise LexiconError(f"{source}:{lineno}: {exc}") from exc
        if len(syls) != len(word):
            raise LexiconError(f"{source}:{lineno}: {word!r} has {len(word)} characters but {len(syls)} syllables")
        entries[word] = " ".join(str(s) for s in syls)
    return entries


def load_lexicon(path: str | Path | None = None) -> dict[str, str]:
    """The bundled lexicon (runtime/data/lexicon.tsv) or a user's file in the same format."""
    if path is None:
        return _bundled()
    return parse_lexicon(Path(path).read_text("utf-8"), str(path))


def _package_entries(name: str) -> dict[str, str]:
    """A package file in the lexicon's format, read without re-validating each line (100 ms of a start-up for the
    lexicon): its writer validates it, and a test validates the bundled file with parse_lexicon."""
    text = read_package_text(name)
    return dict(line.split("\t", 1) for line in text.splitlines() if line and not line.startswith("#"))


@lru_cache(maxsize=1)
def _bundled() -> dict[str, str]:
    """The package's own lexicon (`cantoedge corpus lexicon` writes it)."""
    return _package_entries("data/lexicon.tsv")


STATED_WORDS_FILE = "data/stated_words.tsv"


@lru_cache(maxsize=1)
def load_stated_words() -> dict[str, str]:
    """rime-cantonese's readings of the words chosen by hand (runtime/data/stated_words.tsv: 蛋白質, 排長龍) where
    ToJyutping lacks the word and reads its characters alone otherwise; same format as the lexicon."""
    return _package_entries(STATED_WORDS_FILE)
