"""Builds the bundled lexicon from HKCanCor's training split and measures G2P syllable agreement."""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cantoedge.runtime.fileio import atomic_write_text
from cantoedge.runtime.jyutping import JyutpingError, parse_jyutping
from cantoedge.runtime.lexicon import parse_lexicon

from .hkcancor import HKUtterance

HEADER = "# word<TAB>jyutping: HKCanCor's most frequent hand reading per word, training split only.\n" \
         "# Regenerate with: cantoedge corpus lexicon\n"


def build_lexicon(utterances: Iterable[HKUtterance]) -> dict[str, str]:
    """Most frequent hand reading of every word (ties broken by reading, so the file is deterministic)."""
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for utt in utterances:
        for word in utt.words:
            if word.syllables:
                counts[word.text][" ".join(word.syllables)] += 1
    return {w: min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] for w, c in sorted(counts.items())}


def write_lexicon(entries: dict[str, str], path: Path) -> None:
    text = HEADER + "".join(f"{w}\t{r}\n" for w, r in sorted(entries.items()))
    parse_lexicon(text, str(path))  # never write a file the runtime would refuse
    atomic_write_text(path, text)


def han_runs(utt: HKUtterance) -> list[tuple[str, list[str]]]:
    """Maximal runs of Han characters between punctuation, with their hand syllables."""
    runs: list[tuple[str, list[str]]] = []
    text: list[str] = []
    ref: list[str] = []
    for word in [*utt.words, None]:
        if word is not None and word.syllables:
            text.append(word.text)
            ref.extend(word.syllables)
        elif text:
            runs.append(("".join(text), ref))
            text, ref = [], []
    return runs


@dataclass(frozen=True)
class Agreement:
    name: str
    matched: int
    total: int

    @property
    def rate(self) -> float:
        return self.matched / self.total if self.total else 0.0


def syllable_agreement(name: str, predict: Callable[[str], Sequence[str | None]],
                       utterances: Iterable[HKUtterance]) -> Agreement:
    """Share of hand-labelled syllables a predictor reproduces, character by character."""
    matched = total = 0
    for utt in utterances:
        for text, ref in han_runs(utt):
            pred = list(predict(text))
            total += len(ref)
            matched += sum(p == r for p, r in zip(pred, ref))
    return Agreement(name, matched, total)


def pycantonese_predictor() -> Callable[[str], list[str | None]]:
    import pycantonese

    def predict(text: str) -> list[str | None]:
        out: list[str | None] = []
        for word, reading in pycantonese.characters_to_jyutping(text):
            try:
                syls = [str(s) for s in parse_jyutping(reading)] if reading else []
            except JyutpingError:
                syls = []
            out.extend(syls if len(syls) == len(word) else [None] * len(word))
        return out

    return predict


def compile_tojyutping() -> str:
    """ToJyutping's trie as the flat file runtime/dictionary.py reads: every word with a value, and each of its
    characters' readings as ToJyutping itself gives them for that word (so multi-syllable characters and
    words match exactly)."""
    import ToJyutping
    from ToJyutping import Trie

    lines = []
    stack = [("", Trie.root)]
    while stack:
        key, node = stack.pop()
        if node.v and key:
            readings = [r or "" for _, r in ToJyutping.get_jyutping_list(key)]
            lines.append(f"{key}\t{','.join(readings)}")
        stack.extend((key + ch, child) for ch, child in node.items())
    header = (f"# ToJyutping {ToJyutping.__version__} (BSD-2-Clause, (c) its authors) word dictionary, compiled for "
              "fast loading: word<TAB>per-character readings.\n# Regenerate with: cantoedge corpus g2p-dict\n")
    return header + "".join(line + "\n" for line in sorted(lines))
