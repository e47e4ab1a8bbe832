"""Builds the bundled lexicon and context rules from HKCanCor's training split and measures G2P syllable
agreement."""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cantoedge.runtime.context import CONTEXTS, ContextRule, ContextRules, context_keys, format_rules, parse_rules
from cantoedge.runtime.dictionary import WordDictionary, base_dictionary
from cantoedge.runtime.fileio import atomic_write_text
from cantoedge.runtime.frontend import Frontend
from cantoedge.runtime.jyutping import JyutpingError, parse_jyutping
from cantoedge.runtime.lexicon import parse_lexicon
from cantoedge.runtime.plain_words import PlainWords
from cantoedge.runtime.senses import SAID_ALONE

from .hkcancor import HKUtterance
from .plain_words import holding, plain_words, rime_words

MIN_OCCURRENCES = 3  # HKCanCor overrides ToJyutping only on evidence from at least this many places ...
MIN_AGREEMENT = 0.9  # ... that read it one way at least this often: both readings accepted -> ToJyutping stays
SPELLED_APART = {"㗎": "𡃉", "呀": "啊", "喇": "嚹"}  # particle -> the character HKCanCor writes its other reading with

HEADER = ("# word<TAB>jyutping: words HKCanCor's training split reads one way in at least 90 % of at least 3\n"
          "# occurrences, where ToJyutping reads them otherwise. Regenerate with: cantoedge corpus lexicon\n")
CONTEXT_HEADER = ("# char<TAB>context<TAB>neighbours<TAB>reading<TAB>agreeing<TAB>occurrences: HKCanCor's\n"
                  "# training split read char this way in `agreeing` of its `occurrences` with these neighbours\n"
                  "# (^ and $: the edges). Regenerate with: cantoedge corpus lexicon\n")


def reading_counts(utterances: Iterable[HKUtterance]) -> dict[str, collections.Counter[str]]:
    """How often HKCanCor's hand annotation reads each word each way."""
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for utt in utterances:
        for word in utt.words:
            if word.syllables:
                counts[word.text][" ".join(word.syllables)] += 1
    return counts


def settled(counts: collections.Counter[str]) -> str | None:
    """The reading that at least MIN_AGREEMENT of at least MIN_OCCURRENCES places agree on, else None."""
    total = sum(counts.values())
    if total < MIN_OCCURRENCES:
        return None
    reading, n = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))  # ties broken by reading: deterministic
    return reading if n >= MIN_AGREEMENT * total else None


def spelled_apart(utterances: Iterable[HKUtterance], base: WordDictionary) -> frozenset[str]:
    """The particles of SPELLED_APART whose ToJyutping reading HKCanCor writes with their partner (gaa3 𡃉, aa3
    啊, laa3 嚹), settled: there its places of the particle (㗎 gaa4) show its spelling, not their context, while
    the text people type writes both readings with the particle (係㗎 gaa3), so ToJyutping's reading stays."""
    partners = set(SPELLED_APART.values())
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for utt in utterances:
        for text, ref in han_runs(utt):
            for ch, reading in zip(text, ref):
                if ch in partners:
                    counts[ch][reading] += 1
    return frozenset(p for p, q in SPELLED_APART.items() if settled(counts[q]) == base.readings(p)[0][1])


def build_lexicon(utterances: Iterable[HKUtterance], base: WordDictionary | None = None,
                  apart: frozenset[str] | None = None) -> dict[str, str]:
    """Words whose HKCanCor reading is settled and differs from ToJyutping's: where HKCanCor reads a word two
    ways, or rarely, ToJyutping (built from other sources) keeps it. The evidence for an entry is where it would
    apply: the places ToJyutping's own segmentation reads that word (a character alone included), and, for
    HKCanCor's words that ToJyutping lacks, HKCanCor's own tokens of them. No entry for a particle HKCanCor
    spells apart (``apart``, else spelled_apart over ``utterances``)."""
    base = base or base_dictionary()
    utterances = list(utterances)
    evidence = applied_readings(utterances, base)
    for particle in spelled_apart(utterances, base) if apart is None else apart:
        evidence.pop(particle, None)
    for word, counts in reading_counts(utterances).items():
        if base.get(word) is None:
            evidence[word] = counts
    entries = {}
    for word, counts in sorted(evidence.items()):
        reading = settled(counts)
        if reading is not None and reading != " ".join(r or "?" for _, r in base.readings(word)):
            entries[word] = reading
    return one_word_entries(entries, utterances, base)


def one_word_entries(entries: dict[str, str], utterances: Sequence[HKUtterance],
                     base: WordDictionary) -> dict[str, str]:
    """``entries`` with each one-character entry whose every place has the same neighbour on one side made that
    two-character word: HKCanCor's 霖 lam1 is only ever the 霖把 ("number") of its conversations, so it says
    nothing of 霖 in 張智霖 (lam4, as ToJyutping reads it); evidence from one word is evidence for that word, and
    where rime-cantonese reads that word as ToJyutping does (炒燶 nung1), two dictionaries agree and no entry is
    made."""
    singles = {w for w in entries if len(w) == 1}
    pairs: dict[str, collections.Counter[tuple[str, str]]] = collections.defaultdict(collections.Counter)
    places: collections.Counter[str] = collections.Counter()
    for utt in utterances:
        for text, ref in han_runs(utt):
            matches = base.matches(text)
            for i, (ch, _, word) in enumerate(matches):
                if ch not in singles or len(word) != 1:
                    continue
                places[ch] += 1
                if i > 0:
                    pairs[ch][(text[i - 1:i + 1], " ".join(ref[i - 1:i + 1]))] += 1
                if i + 1 < len(text):
                    pairs[ch][(text[i:i + 2], " ".join(ref[i:i + 2]))] += 1
    out = dict(entries)
    for ch in sorted(singles):
        words: collections.Counter[str] = collections.Counter()
        for (word, _), n in pairs[ch].items():
            words[word] += n
        whole = sorted(w for w, n in words.items() if n == places[ch])
        if not whole:
            continue
        reading = settled(collections.Counter({r: n for (w, r), n in pairs[ch].items() if w == whole[0]}))
        del out[ch]
        plain = " ".join(r or "?" for _, r in base.readings(whole[0]))
        if reading is not None and reading != plain and " ".join(rime_words().get(whole[0], ())) != plain:
            out[whole[0]] = reading  # but where rime-cantonese reads the word as ToJyutping does, ToJyutping stays
    return out


def applied_readings(utterances: Iterable[HKUtterance], base: WordDictionary) -> dict[str, collections.Counter[str]]:
    """How HKCanCor reads each unit of ToJyutping's greedy segmentation, where that segmentation makes it: a
    character HKCanCor tokenises only inside longer words (哋 in 我哋) is counted where ToJyutping reads it
    alone, not where HKCanCor's tokeniser left it alone (怪怪哋, dei2)."""
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for utt in utterances:
        for text, ref in han_runs(utt):
            matches, i = base.matches(text), 0
            while i < len(matches):
                unit = matches[i][2] or matches[i][0]
                counts[unit][" ".join(ref[i:i + len(unit)])] += 1
                i += len(unit)
    return counts


def build_context_rules(utterances: Iterable[HKUtterance], frontend: Frontend,
                        apart: frozenset[str] | None = None) -> list[ContextRule]:
    """Settled readings per character and neighbour context, for the characters ``frontend`` (ToJyutping and
    the lexicon) misreads in at least MIN_OCCURRENCES training places; sorted, so the file is deterministic.
    The evidence is where a rule applies: places where the dictionary reads the character alone, not inside a
    longer word nor a plain word (天下), whose reading the frontend keeps. None for a particle HKCanCor spells
    apart (``apart``, else spelled_apart over ``utterances``): its every context would restate the spelling."""
    utterances = list(utterances)
    if apart is None:
        apart = spelled_apart(utterances, base_dictionary())
    counts: dict[tuple[str, str, str], collections.Counter[str]] = collections.defaultdict(collections.Counter)
    misread: collections.Counter[str] = collections.Counter()
    for utt in utterances:
        for text, ref in han_runs(utt):
            places = frontend.rule_places(text)
            for i, ((ch, got), want) in enumerate(zip(frontend.read_han(text), ref)):
                misread[ch] += got != want
                if not places[i] or ch in apart:
                    continue
                for context, neighbours in zip(CONTEXTS, context_keys(text, i)):
                    counts[(ch, context, neighbours)][want] += 1
    rules = []
    for (ch, context, neighbours), c in sorted(counts.items()):
        reading = settled(c)
        if reading is not None and misread[ch] >= MIN_OCCURRENCES:
            rules.append(ContextRule(ch, context, neighbours, reading, c[reading], sum(c.values())))
    return rules


def write_lexicon(entries: dict[str, str], path: Path) -> None:
    text = HEADER + "".join(f"{w}\t{r}\n" for w, r in sorted(entries.items()))
    parse_lexicon(text, str(path))  # never write a file the runtime would refuse
    atomic_write_text(path, text)


def write_context_rules(rules: list[ContextRule], path: Path) -> None:
    text = CONTEXT_HEADER + format_rules(rules)
    parse_rules(text, str(path))
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
    # (group, matched, total) per conversation the utterances came from, sorted: what a confidence interval
    # resamples, since a conversation's syllables share its words and are not independent of each other
    groups: tuple[tuple[int, int, int], ...] = ()

    @property
    def rate(self) -> float:
        return self.matched / self.total if self.total else 0.0


def grouped_agreement(name: str, counts: dict[int, tuple[int, int]]) -> Agreement:
    """An Agreement from (matched, total) per group."""
    groups = tuple((g, m, t) for g, (m, t) in sorted(counts.items()))
    return Agreement(name, sum(m for _, m, _ in groups), sum(t for _, _, t in groups), groups)


def syllable_agreement(name: str, predict: Callable[[str], Sequence[str | None]],
                       utterances: Iterable[HKUtterance]) -> Agreement:
    """Share of hand-labelled syllables a predictor reproduces, character by character, kept per conversation."""
    counts: dict[int, tuple[int, int]] = {}
    for utt in utterances:
        for text, ref in han_runs(utt):
            pred = list(predict(text))
            matched, total = counts.get(utt.conversation, (0, 0))
            counts[utt.conversation] = (matched + sum(p == r for p, r in zip(pred, ref)), total + len(ref))
    return grouped_agreement(name, counts)


def own_entries(entries: dict[str, str], utterances: Iterable[HKUtterance]) -> frozenset[str]:
    """The lexicon's characters alone (重 zung6, 爭 zaang1) but the particles, those HKCanCor's training split
    mostly sets at a run's end (嘞 laak3, 嗎 maa3): rime-cantonese's words that hold one (走嘞, 忙嗎) are phrases whose
    particle reads as rime reads it anywhere, so they say nothing of the word and the lexicon's reading stands."""
    chars = {w for w in entries if len(w) == 1}
    last: collections.Counter[str] = collections.Counter()
    seen: collections.Counter[str] = collections.Counter()
    for utt in utterances:
        for text, _ in han_runs(utt):
            for i, ch in enumerate(text):
                if ch in chars:
                    seen[ch] += 1
                    last[ch] += i == len(text) - 1
    return frozenset(ch for ch in chars if 2 * last[ch] < seen[ch])


def build_g2p_data(train: Sequence[HKUtterance]) -> tuple[dict[str, str], list[ContextRule],
                                                          dict[str, tuple[str, ...]]]:
    """The lexicon, then the context rules for what ToJyutping and that lexicon still misread, learnt outside the
    plain words, and the plain words of the characters that have rules, an entry of their own or a stated reading
    alone (坐 co5, which gives way to ToJyutping's zo6 in 坐落): the three files `cantoedge corpus lexicon` writes."""
    apart = spelled_apart(train, base_dictionary())  # walked once for both builders
    entries = build_lexicon(train, apart=apart)
    own = own_entries(entries, train)
    plain = plain_words(base_dictionary().layered(entries), base_dictionary(), own)
    rules = build_context_rules(train, Frontend(lexicon=entries, context=ContextRules([]),
                                                plain_words=PlainWords(plain)), apart)
    return entries, rules, holding(plain, {r.char for r in rules} | own | SAID_ALONE.keys())


def built_frontends(train: Sequence[HKUtterance]) -> dict[str, Frontend]:
    """The frontend with a lexicon and context rules built from ``train``, and with the lexicon alone."""
    entries, rules, plain = build_g2p_data(train)
    return {"lexicon": Frontend(lexicon=entries, context=ContextRules([]), plain_words=PlainWords(plain), stated=False),
            "lexicon + context rules": Frontend(lexicon=entries, context=ContextRules(rules),
                                                plain_words=PlainWords(plain))}


def cross_conversation_agreement(utterances: Sequence[HKUtterance], folds: int = 5) -> dict[str, Agreement]:
    """Agreement on conversations never seen in building: HKCanCor's files in ``folds`` groups (file index mod
    folds), each scored with a lexicon and context rules built from the others (a stricter split than the
    utterance hash, whose held-out lines share their conversations' words with the training split)."""
    counts: dict[str, dict[int, tuple[int, int]]] = collections.defaultdict(dict)
    for fold in range(folds):
        train = [u for u in utterances if u.conversation % folds != fold]
        test = [u for u in utterances if u.conversation % folds == fold]
        for name, frontend in built_frontends(train).items():
            a = syllable_agreement(name, lambda t, f=frontend: [s for _, s in f.read_han(t)], test)
            counts[name].update({g: (m, t) for g, m, t in a.groups})  # each conversation is tested in one fold
    return {name: grouped_agreement(name, by_group) for name, by_group in counts.items()}


def canto_hk_g2p_predictor() -> Callable[[str], list[str | None]]:
    """canto-hk-g2p (Apache-2.0; not a dependency: `pip install canto-hk-g2p==2.6.1`), the G2P the issue compared
    against: its syllables for a Han run, or None for each character where it gives another count."""
    try:
        from canto_hk_g2p import Pipeline
    except ImportError as e:
        raise RuntimeError("--canto-hk-g2p needs the package: pip install canto-hk-g2p==2.6.1") from e
    pipeline = Pipeline()

    def predict(text: str) -> list[str | None]:
        syllables = pipeline.convert(text).split()
        return list(syllables) if len(syllables) == len(text) else [None] * len(text)

    return predict


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
