"""Words that read as their characters do alone (天下 tin1 haa6, 旗下, 上下): ToJyutping's file lists only the words
whose reading differs from their characters', so the dictionary reads these characters alone and a context rule
learnt from HKCanCor's conversations could re-read one (下 at a run's end -> haa5, the 睇下 of conversation, took
the 下 of 天下). A context rule does not apply inside such a word, as it does not inside a dictionary word, and
the lexicon's reading of a character alone gives way there to ToJyutping's where the word reads it so (體重 cung5,
where HKCanCor's 重 alone is zung6, "still"). The words are rime-cantonese's (CC BY 4.0, via pycantonese) whose
every character it reads as the bundled dictionary, or ToJyutping for such a character, reads it alone, kept where
a character has context rules or an entry of its own; `cantoedge corpus lexicon` writes them with the rules.
Searched in place like the dictionary (device safe, parsed on first need)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from .datafiles import read_package_bytes
from .dictionary import SortedWords, split_header

PLAIN_WORDS_FILE = "data/plain_words.tsv"  # word<TAB>its readings, comma-separated; sorted by UTF-8 bytes
SHORTEST, LONGEST = 2, 6  # the words' lengths in characters


class PlainWords:
    """The plain words with their syllables (the bundled file's, or any mapping of them); ``covering`` finds one
    around a character."""

    def __init__(self, words: Mapping[str, Sequence[str]] | None = None):
        self._words = words

    @property
    def words(self) -> Mapping[str, Sequence[str]] | SortedWords:
        if self._words is None:  # the bundled file, read the first time a rule or the lexicon would re-read a character
            self._words = SortedWords(split_header(read_package_bytes(PLAIN_WORDS_FILE)))
        return self._words

    def covering(self, text: str, i: int, alone: Callable[[int], bool]) -> tuple[str, str] | None:
        """A plain word of ``text`` that holds character ``i`` and whose characters the dictionary all reads
        alone (``alone(j)``), with its reading of character ``i``; or None."""
        n = len(text)
        for start in range(max(0, i - LONGEST + 1), i + 1):
            for end in range(max(i + 1, start + SHORTEST), min(n, start + LONGEST) + 1):
                if not all(alone(j) for j in range(start, end)):
                    break
                syllables = self._get(text[start:end])
                if syllables is not None:
                    return text[start:end], syllables[i - start]
        return None

    def _get(self, word: str) -> Sequence[str] | None:
        words = self.words
        if isinstance(words, SortedWords):  # the bundled file: the words starting with a character, parsed once
            found = words.starting_with(word[0]).get(word)
            return None if found is None else found.split(",")
        return words.get(word)


@lru_cache(maxsize=1)
def load_plain_words() -> PlainWords:
    """The bundled words (runtime/data/plain_words.tsv), read on first use."""
    return PlainWords()
