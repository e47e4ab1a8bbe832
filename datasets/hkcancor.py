"""HKCanCor utterances (shipped inside pycantonese) with their hand Jyutping, ids and a fixed split."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from cantoedge.runtime.jyutping import JyutpingError, parse_jyutping
from cantoedge.runtime.marks import is_han
from cantoedge.runtime.normalize import PUNCTUATION_PAUSES, SILENT_MARKS

MIN_CHARS, MAX_CHARS = 5, 40


@dataclass(frozen=True)
class Word:
    """A corpus token: Han characters with one syllable each, or a punctuation mark (no syllables)."""

    text: str
    syllables: tuple[str, ...]


@dataclass(frozen=True)
class HKUtterance:
    id: str
    words: tuple[Word, ...]
    split: str
    conversation: int = -1  # the corpus file it comes from (HKCanCor: 58 conversations and radio programmes)

    @property
    def text(self) -> str:
        return "".join(w.text for w in self.words)

    @property
    def jyutping(self) -> list[str]:
        return [s for w in self.words for s in w.syllables]

    @property
    def n_chars(self) -> int:
        return sum(len(w.syllables) for w in self.words)


def split_of(utt_id: str) -> str:
    """Deterministic 90/5/5 train/val/test split by id hash: stable across corpus sizes and runs."""
    bucket = int(hashlib.sha1(utt_id.encode()).hexdigest()[:8], 16) % 100
    return "train" if bucket < 90 else ("val" if bucket < 95 else "test")


def _clean_words(tokens) -> tuple[Word, ...] | None:
    """Words whose Han characters each have one valid syllable, and punctuation; None when unusable."""
    words = []
    for tok in tokens:
        if tok.jyutping:
            if not all(is_han(ch) for ch in tok.word):
                return None
            try:
                syls = parse_jyutping(tok.jyutping)
            except JyutpingError:
                return None
            if len(syls) != len(tok.word):
                return None
            words.append(Word(tok.word, tuple(str(s) for s in syls)))
        elif tok.word and all(ch in PUNCTUATION_PAUSES or ch in SILENT_MARKS for ch in tok.word):
            words.append(Word(tok.word, ()))
        else:
            return None  # Latin words, symbols, unannotated tokens
    return tuple(words)


def all_utterances() -> Iterator[tuple[str, object, int]]:
    """(id, raw pycantonese utterance, its file's index) for every HKCanCor utterance, in corpus order."""
    import pycantonese

    i = 0
    for file_index, utts in enumerate(pycantonese.hkcancor().utterances(by_file=True)):
        for utt in utts:
            yield f"hkc{i:05d}", utt, file_index
            i += 1


def load_annotated(min_chars: int = 1, max_chars: int = 10**9) -> list[HKUtterance]:
    """Utterances whose every token is hand-annotated Han text or punctuation, within a length range."""
    out = []
    for utt_id, utt, conversation in all_utterances():
        words = _clean_words(utt.tokens)
        if not words:
            continue
        u = HKUtterance(utt_id, words, split_of(utt_id), conversation)
        if min_chars <= u.n_chars <= max_chars:
            out.append(u)
    return out


def load_clean() -> list[HKUtterance]:
    """The clean 5-40 character utterances the corpus is rendered from."""
    return load_annotated(MIN_CHARS, MAX_CHARS)


def clean_utterances_named(ids: Collection[str], where: str, why: str) -> list[HKUtterance]:
    """The clean utterances with these ids, in HKCanCor's order; ids it does not have (your own recordings) are
    refused, saying ``where`` they came from and ``why`` they must be HKCanCor's."""
    wanted = set(ids)
    picked = [u for u in load_clean() if u.id in wanted]
    foreign = sorted(wanted - {u.id for u in picked})
    if foreign:
        raise ValueError(f"{where} holds {len(foreign)} utterances that are not HKCanCor's (first {foreign[0]}): "
                         f"{why}")
    return picked


def load_cantomap() -> list[HKUtterance]:
    """CantoMap (map-task dialogues, hand-annotated with Jyutping by another team; shipped with pycantonese): the
    independent test set for G2P. Nothing is built or tuned on it; its utterances are all split "test"."""
    from pathlib import Path

    import pycantonese

    folder = Path(pycantonese.__file__).parent / "data" / "cantomap" / "extracted"
    if not folder.is_dir():
        raise FileNotFoundError(f"pycantonese {pycantonese.__version__} has no CantoMap data at {folder}")
    reader = pycantonese.read_chat(str(folder))
    # a dialogue's files are named for its two speakers (Subjects-11_12__...): their utterances are one group
    pairs = [Path(p).name.split("__")[0] for p in reader.file_paths]
    pair_ids = {pair: k for k, pair in enumerate(sorted(set(pairs)))}
    out = []
    utterances = ((pair, utt) for pair, utts in zip(pairs, reader.utterances(by_file=True)) for utt in utts)
    for i, (pair, utt) in enumerate(utterances):
        words = _clean_words(utt.tokens)
        if words:
            out.append(HKUtterance(f"cmap{i:05d}", words, "test", pair_ids[pair]))
    return out
