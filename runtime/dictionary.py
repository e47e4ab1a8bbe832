"""ToJyutping's word dictionary compiled to a flat file, read with the same greedy longest match: importing
ToJyutping builds its trie from a packed text at import time (0.9 s measured, most of a `say`'s start-up),
while this file loads as one dict. The HKCanCor lexicon is layered over it as ToJyutping.customize layers it.
`cantoedge corpus g2p-dict` regenerates the file; a test holds it equal to ToJyutping on held-out text."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

DICTIONARY_FILE = "data/tojyutping.tsv"  # key<TAB>reading of each character, comma-separated (one line a word)


class WordDictionary:
    """Word -> per-character readings; ``readings(text)`` segments by greedy longest match, left to right."""

    def __init__(self, entries: dict[str, str], layered_words: frozenset[str] = frozenset()):
        self.entries = entries  # word -> its characters' readings, comma-separated (split only when matched)
        self.layered_words = layered_words  # words a lexicon added or read differently from ToJyutping
        self.max_len = max(map(len, entries), default=1)

    def layered(self, lexicon: dict[str, str]) -> WordDictionary:
        """This dictionary with ``lexicon`` (word -> space-separated syllables, one per character) over it."""
        if not lexicon:
            return self
        over = {w: r.replace(" ", ",") for w, r in lexicon.items()}
        changed = frozenset(w for w, r in over.items() if self.entries.get(w) != r)  # where the lexicon decides
        return WordDictionary({**self.entries, **over}, self.layered_words | changed)

    def readings(self, text: str) -> list[tuple[str, str | None]]:
        """(character, its reading or None) for every character of ``text``."""
        return [(ch, reading) for ch, reading, _ in self.matches(text)]

    def matches(self, text: str) -> list[tuple[str, str | None, str]]:
        """(character, its reading or None, the dictionary word it was read in) for every character."""
        out: list[tuple[str, str | None, str]] = []
        entries, n, i = self.entries, len(text), 0
        while i < n:
            best, stop = None, i + 1
            for j in range(i + 1, min(n, i + self.max_len) + 1):
                found = entries.get(text[i:j])
                if found:
                    best, stop = found, j
            if best is None:
                out.append((text[i], None, ""))
                i += 1
            else:
                word = text[i:stop]
                out.extend((ch, r, word) for ch, r in zip(word, best.split(",")))
                i = stop
        return out


def parse_dictionary(text: str) -> dict[str, str]:
    """The file's lines after its comment header (48,000 words in about 15 ms: one split of the whole text,
    measured twice as fast as splitting line by line, which was a third of the frontend's start-up)."""
    start = 0
    while text.startswith("#", start):
        start = text.index("\n", start) + 1
    parts = text[start:].replace("\t", "\n").split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    if len(parts) % 2:
        raise ValueError("a dictionary line without a tab")
    return dict(zip(parts[0::2], parts[1::2]))


@lru_cache(maxsize=1)
def base_dictionary() -> WordDictionary:
    """ToJyutping's dictionary as compiled into the package (loaded once per process)."""
    text = resources.files("cantoedge.runtime").joinpath(DICTIONARY_FILE).read_text("utf-8")
    return WordDictionary(parse_dictionary(text))
