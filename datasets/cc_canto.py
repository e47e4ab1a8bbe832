"""CC-Canto's dictionary entries (Pleco Software's annotators, CC BY-SA 3.0) as G2P test items: a third team's
Jyutping, beside HKCanCor's and CantoMap's, that nothing in the repository is built or tuned on. The file is not
bundled; `cantoedge corpus g2p-eval --cc-canto FILE` reads the one the user has."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from cantoedge.runtime.jyutping import JyutpingError, parse_jyutping
from cantoedge.runtime.marks import is_han

from .hkcancor import HKUtterance, Word

# CC-CEDICT's line with CC-Canto's Jyutping in braces: TRADITIONAL SIMPLIFIED [pinyin] {jyutping} /gloss/.../
_ENTRY = re.compile(r"^(\S+) \S+ \[[^\]]*\] \{([^}]*)\} /")


class CCCantoError(ValueError):
    """The file holds no CC-Canto entry this evaluation can use."""


def read_entries(path: str | Path) -> dict[str, set[tuple[str, ...]]]:
    """Every all-Han headword with a valid syllable per character -> the readings the file gives it."""
    readings: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as e:
        raise CCCantoError(f"{path}: not UTF-8 text (byte {e.start}): not a CC-Canto file") from e
    for line in lines:
        match = _ENTRY.match(line)
        if match is None:
            continue  # comments, the boilerplate line, a malformed entry
        word, jyutping = match.groups()
        if not all(is_han(ch) for ch in word):
            continue  # punctuation, Latin letters, digits inside the headword
        try:
            syllables = tuple(str(s) for s in parse_jyutping(jyutping))
        except JyutpingError:
            continue
        if len(syllables) == len(word):
            readings[word].add(syllables)
    return readings


def load_cc_canto(path: str | Path) -> list[HKUtterance]:
    """The entries read one way, one utterance each in the file's order (split "test"); a headword the file reads
    two ways (嗰排 go2 paai4 and paai2) is left out, since no reading of it could agree with both."""
    entries = read_entries(path)
    items = [HKUtterance(f"cccanto{i:05d}", tuple(Word(ch, (s,)) for ch, s in zip(word, next(iter(readings)))), "test",
                         i)  # each entry its own group: the file's words were annotated one by one
             for i, (word, readings) in enumerate(entries.items()) if len(readings) == 1]
    if not items:
        raise CCCantoError(f"{path}: no CC-Canto entry found; expected lines such as "
                           "'一世人 一世人 [yi1 shi4 ren2] {jat1 sai3 jan4} /the whole life/' (cccanto-webdist.txt)")
    return items
