"""Cantonese text to model tokens: normalise, look up Jyutping, split into onset/rime/tone tokens."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .context import ContextRules, load_context_rules, reads_as_tojyutping, reads_under, stated_place
from .dictionary import base_dictionary, tojyutping_dictionary
from .inventory import PAUSE_QUESTION, PAUSE_STRENGTH, PAUSES, SIL, Inventory, load_inventory, syllable_index
from .jyutping import JyutpingError, Syllable, parse_syllable
from .lexicon import load_lexicon, load_stated_words
from .normalize import Segment, normalize
from .numbers import NUMERAL_READINGS
from .plain_words import PlainWords, load_plain_words
from .register import LITERARY, SENTENCE_ENDS, is_written, literary_reading
from .senses import (
    SHOP,
    SHOP_WRITTEN,
    a_fraction,
    ahead_of,
    asks_with_a_word,
    said_alone,
    spells_second_syllable,
    stated_sense,
)


def _warn(message: str, *args: object) -> None:
    """A warning on the frontend's logger; logging is imported here, as a text without unreadable characters (most)
    never needs its 20 ms of imports at the start."""
    import logging

    logging.getLogger("cantoedge.frontend").warning(message, *args)


Unit = Syllable | str  # a syllable, or a pause token name such as "<,>"


class FrontendError(ValueError):
    """Text the frontend cannot turn into speech."""


class UnknownCharacterError(FrontendError):
    """Characters without a reading, raised in strict mode."""

    def __init__(self, chars: Sequence[str]):
        self.chars = list(dict.fromkeys(chars))
        super().__init__("no reading for: " + " ".join(f"{c!r} (U+{ord(c):04X})" for c in self.chars))


@dataclass(frozen=True)
class Encoded:
    """The model's input: phone ids with a parallel tone stream, and which syllable each token belongs to."""

    phones: list[str]
    tokens: list[int]
    tones: list[int]
    syllable_index: list[int]  # -1 for pause tokens


REASON_TEXT = 40  # how much of a rewritten segment --explain shows as the reason for each of its syllables
SOURCES = ("lexicon", "rime", "ToJyutping", "context", "number", "date", "particle", "english", "letter-to-sound",
           "spelled", "abbreviation", "interjection", "place", "jyutping")


@dataclass(frozen=True)
class G2PResult:
    text: str
    graphemes: list[str]  # the character (or letter) each syllable was read from
    jyutping: list[str]  # one entry per spoken syllable
    encoded: Encoded
    unknown: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # per syllable, one of SOURCES
    why: list[str] = field(default_factory=list)  # per syllable: the word or rule that gave its reading

    @property
    def tokens(self) -> list[int]:
        return self.encoded.tokens

    @property
    def tones(self) -> list[int]:
        return self.encoded.tones

    def to_json(self) -> dict:
        return {
            "text": self.text,
            "jyutping": self.jyutping,
            "tokens": self.encoded.tokens,
            "tones": self.encoded.tones,
            "phones": self.encoded.phones,
            "unknown": self.unknown,
            "sources": self.sources,
        }


def encode_units(units: Sequence[Unit], inventory: Inventory | None = None) -> Encoded:
    """Syllables and pauses to tokens: <sil> first, pauses merged, a final pause or <sil> last."""
    inv = inventory or load_inventory()
    phones, tones = [SIL], [0]
    for unit in units:
        if isinstance(unit, Syllable):
            for phone in inv.syllable_phones(unit):
                phones.append(phone)
                tones.append(unit.tone)
        elif unit in PAUSES:
            last = phones[-1]
            if last in PAUSES:
                if len(phones) > 1 and PAUSE_STRENGTH[unit] > PAUSE_STRENGTH[last]:
                    phones[-1] = unit  # "?!" keeps the question; nothing pauses before speech starts
                continue
            phones.append(unit)
            tones.append(0)
        else:
            raise FrontendError(f"unknown unit {unit!r}")
    if phones[-1] not in PAUSES or len(phones) == 1:
        phones.append(SIL)
        tones.append(0)
    return Encoded(phones, [inv.id(p) for p in phones], tones, syllable_index(phones))


def gather_han(segments: list[Segment]) -> list[Segment | list[Segment]]:
    """The segments with each stretch of adjacent Han segments (a number, a date and the text around them,
    nothing between but spaces, a phrase's pause included) gathered into one list."""
    out: list[Segment | list[Segment]] = []
    for k, seg in enumerate(segments):
        following = segments[k + 1] if k + 1 < len(segments) else None
        phrase_pause = seg.kind == "pause" and seg.source == "space" and following is not None \
            and following.kind == "han"
        if seg.kind != "han" and not phrase_pause:
            out.append(seg)
        elif out and isinstance(out[-1], list):
            out[-1].append(seg)
        else:
            out.append([seg])
    return out


@dataclass(frozen=True)
class Sentence:
    """One sentence of a text's runs, up to a full stop, a question or an exclamation: what the readings that look
    past their own run need."""

    han: str  # its Han text
    spans: int  # how many runs it spans, its closing pause included
    letters: bool  # Latin letters or another fixed reading stand in it
    question: bool  # a question mark closes it


def split_sentences(runs: list[Segment | list[Segment]]) -> list[Sentence]:
    """The runs' sentences, in order, each walked once."""
    out: list[Sentence] = []
    han: list[str] = []
    letters, start = False, 0
    for k, run in enumerate(runs):
        if isinstance(run, list):
            han.extend(seg.text for seg in run if seg.kind == "han")
            letters = letters or any(seg.kind == "reading" for seg in run)
        elif run.kind == "reading":
            letters = True
        ends = isinstance(run, Segment) and run.kind == "pause" and run.text in SENTENCE_ENDS
        if ends or k + 1 == len(runs):
            out.append(Sentence("".join(han), k + 1 - start, letters, ends and run.text == PAUSE_QUESTION))
            han, letters, start = [], False, k + 1
    return out


def closes_yes_or_no(sentences: list[Sentence]) -> list[bool]:
    """For each run, whether it closes a question (the question mark right after it) that no word of its sentence
    asks (senses.asks_with_a_word), with no Latin letters in that sentence, whose English may ask."""
    flags: list[bool] = []
    for sentence in sentences:
        closes = sentence.question and not sentence.letters and not asks_with_a_word(sentence.han)
        flags.extend([False] * (sentence.spans - 2) + [closes, False] if sentence.spans >= 2 else [False])
    return flags


def written_sentences(sentences: list[Sentence]) -> list[bool]:
    """For each run, whether the sentence it stands in reads as written Chinese, or the whole text does (a
    report's short sentences: 近年來越來越多人使用。). Only the characters with a literary reading care, so a text
    without any of them is not looked at."""
    text = "".join(sentence.han for sentence in sentences)
    spans = sum(sentence.spans for sentence in sentences)
    if LITERARY.keys().isdisjoint(text):
        return [False] * spans
    if is_written(text):
        return [True] * spans
    return [flag for sentence in sentences for flag in [is_written(sentence.han)] * sentence.spans]


def _read_alone(matches: list[tuple[str, str | None, str]]) -> list[bool]:
    """Per character of a run's dictionary matches: whether the dictionary reads it alone, as a word of its own."""
    return [len(word) == 1 and reading is not None for _, reading, word in matches]


class Frontend:
    """Text to syllables and tokens, with numpy-free pure-Python lookups (device safe)."""

    def __init__(self, lexicon: dict[str, str] | None = None, inventory: Inventory | None = None,
                 strict: bool = False, context: ContextRules | None = None, plain_words: PlainWords | None = None,
                 stated: bool = True):
        """``lexicon={}``, ``context=ContextRules([])`` and ``stated=False`` read as plain ToJyutping; None: the
        bundled ones (``plain_words``: the words inside which no context rule applies, nor the lexicon's reading of
        a character alone where the word reads it as ToJyutping does; ``stated``: the readings stated, not learnt:
        呢 "this" before a measure word, 相 "a photo" after one, 重 "heavy", 核 a nucleus, 下 after an English verb,
        the words the greedy match keeps together, 下午 and 奇怪, and rime-cantonese's 蛋白質 and 排長龍)."""
        self.inventory = inventory or load_inventory()
        self.strict = strict
        entries = load_lexicon() if lexicon is None else lexicon
        base = base_dictionary() if stated else tojyutping_dictionary()  # (the words kept together are stated too)
        stated_words = load_stated_words() if stated else {}  # rime-cantonese's 蛋白質, chosen by hand
        self._dictionary = base.layered({**stated_words, **entries})  # ToJyutping's words, the lexicon over them
        # the stated words the lexicon does not read otherwise: their source is rime
        self._rime_words = frozenset(w for w, r in stated_words.items() if entries.get(w, r) == r)
        self._resensed = frozenset(w for w in self._rime_words if base.get(w) is not None)  # 表面: another sense
        self._context = load_context_rules() if context is None else context  # then neighbours, per character
        self._plain = load_plain_words() if plain_words is None else plain_words
        self._stated = stated

    def rule_places(self, text: str) -> list[bool]:
        """For each character of a Han run, whether a context rule may re-read it: the dictionary reads it alone,
        no plain word (天下) holds it, and it is no 下 closing a written 在…下 clause nor one after 情況 or 環境, nor a
        重 after 好 or 咁 ("heavy"), nor a 核 in 核心 or 審核, nor a 坐 "to sit" (stated: co5) or a 焫 "to scald".
        The rules are learnt on these places and applied on them only."""
        alone = _read_alone(self._dictionary.matches(text))
        return [alone[i] and not stated_place(text, i) and not (self._stated and said_alone(text, i)) and
                self._plain.covering(text, i, alone.__getitem__) is None for i in range(len(text))]

    def words(self, text: str) -> list[str]:
        """For each character of a Han run, the dictionary word it is read in (the character itself where it is a
        word alone; "" where the dictionary has no reading)."""
        return [word for _, _, word in self._dictionary.matches(text)]

    def read_han(self, text: str) -> list[tuple[str, str | None]]:
        """(character, syllable or None) for each character of a Han run, words matched in context."""
        return [(ch, reading) for ch, reading, _, _ in self.explain_han(text)]

    def explain_han(self, text: str, after_word: bool = False, before_word: bool = False,
                    rewritten: frozenset[int] = frozenset(), after_letters: bool = False, ahead: str = "",
                    after_pause: frozenset[int] = frozenset(), written: bool = False, asks: bool = False
                    ) -> list[tuple[str, str | None, str, str]]:
        """(character, syllable or None, source, why) for each character of a Han run: the dictionary's
        reading, unless a context rule for the character's neighbours reads it otherwise; ``after_word``: the
        run follows an English word (check下); ``before_word``: Latin letters follow it (check下個email);
        ``rewritten``: the places a number or a date rule wrote, other than numerals, which keep the dictionary's
        reading (a rule wrote 年度 after a year: 度 dou6, where HKCanCor's 一年度, "about a year", taught 度 after 年
        dou2); ``after_letters``: any word in Latin letters or Jyutping comes right before it (喺IFC度), so its start
        is no phrase's start to the context rules; ``ahead``: the Han text of the next few runs (既 … ，又);
        ``after_pause``: the places right after a pause read across; these and the start, unless ``after_letters``,
        open a phrase; ``written``: the sentence is written Chinese (``register.is_written``), where HKCanCor's
        spoken readings of 來, 使 … give way to the literary ones; ``asks``: it closes a question that no word of
        its sentence asks (``closes_yes_or_no``)."""
        opens = after_pause if after_letters else after_pause | {0}
        out = []
        matches = self._dictionary.matches(text, frozenset(after_pause))
        alone = _read_alone(matches)
        for i, (ch, reading, word) in enumerate(matches):
            syllables = reading.split() if reading else []
            if not syllables:
                out.append((ch, None, "", "no reading"))
                continue
            if len(syllables) > 1:  # ToJyutping's 卅 saa1 aa6 ("thirty"), 粁 cin1 mai5 ("kilometre")
                if self._stated and spells_second_syllable(text, i):
                    out.append((ch, syllables[0], "context", f"{ch} before {text[i + 1]}, its second syllable "
                                f"written out → {syllables[0]}"))
                else:
                    out.append((ch, reading, "ToJyutping", f"ToJyutping character, said in {len(syllables)} "
                                "syllables"))
                continue
            if self._stated and (i not in rewritten or a_fraction(text, matches, i)) and \
                    (sense := stated_sense(text, matches, i, after_word, before_word, ahead, opens, asks)):
                out.append((ch, sense[0], "context", sense[1]))
                continue
            if self._stated and len(word) == 1 and i not in rewritten and (sense := reads_as_tojyutping(text, i)):
                said = self._dictionary.words.starting_with(ch).get(ch) or reading  # ToJyutping's own reading
                out.append((ch, said, "ToJyutping", f"ToJyutping character: {sense}, where neither the lexicon's "
                            f"{ch} alone nor a context rule applies"))
                continue
            if self._stated and len(word) == 1 and i not in rewritten and (spoken := said_alone(text, i)):
                plain = self._plain.covering(text, i, alone.__getitem__)
                out.append((ch, spoken.reading, "context", f"{ch} read alone → {spoken.reading}, \"{spoken.sense}\", "
                            f"as rime-cantonese reads it; ToJyutping's {reading} is the literary reading "
                            f"({spoken.literary})") if plain is None else
                           (ch, reading, "ToJyutping", f"ToJyutping character, inside the plain word {plain[0]} "
                            f"(rime-cantonese), where {ch} alone → {spoken.reading} does not apply"))
                continue
            # a context rule is learnt where the dictionary reads its character alone, and applies there only: inside
            # a longer word the word's reading stands (重新 cung4, 會計 wui6, 機會 wui6 were read zung6, wui5, wui5 by
            # rules learnt where 重 and 會 stand alone)
            rule = self._context.decide(text, i, after_letters) \
                if len(word) == 1 and i not in rewritten else None
            source = "rime" if word in self._rime_words \
                else "lexicon" if word in self._dictionary.layered_words else "ToJyutping"
            # in written Chinese, what HKCanCor's rule or lexicon would say gives way to the literary reading
            if self._stated and written and (source == "lexicon" or rule is not None) and i not in rewritten and \
                    (literary := literary_reading(ch, rule.reading if rule is not None else reading)) and \
                    (len(word) > 1 or self._plain.covering(text, i, alone.__getitem__) is None):  # 使用: its word
                out.append((ch, literary.literary, "context", f"{ch} in a sentence of written Chinese → "
                            f"{literary.literary}, the literary reading, as ToJyutping gives it; {literary.spoken}, "
                            f"as HKCanCor reads it, is spoken Cantonese's {literary.sense}"))
                continue
            # ... nor inside a word that reads as its characters (天下), though the dictionary has no entry for it; and
            # there the lexicon's reading of a character alone gives way to ToJyutping's where rime-cantonese's word
            # reads it so (體重 cung5: HKCanCor's 重 alone is zung6, "still")
            rereads = rule is not None and rule.reading != reading
            if rereads or (source == "lexicon" and len(word) == 1 and i not in rewritten):
                plain = self._plain.covering(text, i, alone.__getitem__)
                if plain is None and rereads:
                    out.append((ch, rule.reading, "context", rule.describe()))
                    continue
                if plain is not None and plain[1] != reading:
                    out.append((ch, plain[1], "ToJyutping", f"ToJyutping character, inside the plain word {plain[0]} "
                                f"(rime-cantonese), where the lexicon's {ch} → {reading} does not apply"))
                    continue
                if plain is not None and rereads:
                    out.append((ch, reading, source, f"{source} character, inside the plain word {plain[0]} "
                                f"(rime-cantonese), where the context rule {ch} {rule.where()} → {rule.reading} "
                                "does not apply"))
                    continue
            why = f"{source} word {word}" if len(word) > 1 else f"{source} character"
            if source == "rime":
                how = "ToJyutping's own is a sense text rarely means" if word in self._resensed else \
                    "ToJyutping lacks it and reads its characters otherwise"
                why = f"rime-cantonese word {word}, stated: {how}"
                if SHOP in word:  # 鋪頭: rime-cantonese and ToJyutping write the shop's words with 舖
                    why = (f"rime-cantonese word {word.replace(SHOP, SHOP_WRITTEN)}, written {word}, stated: "
                           f"{SHOP} written for {SHOP_WRITTEN}, \"a shop\"; ToJyutping reads {SHOP} \"to spread\"")
            if len(word) == 1 and (under := reads_under(text, i)):
                why += f": {under}, where no context rule applies"
            out.append((ch, reading, source, why))
        return out

    def explain_run(self, run: list[Segment], after_word: bool = False, before_word: bool = False,
                    after_letters: bool = False, ahead: str = "", written: bool = False, asks: bool = False
                    ) -> list[tuple[str, str | None, str, str]]:
        """Adjacent Han segments read as one text, so that a number and the word after it match together (3樓 as
        三樓, saam1 lau2, as written in Han); a number's or date's characters keep that as their source. A phrase's
        pause among them is read across, and comes back in its place as (pause, None, "pause", "")."""
        han = [seg for seg in run if seg.kind == "han"]
        starts = [0]
        after_pause = set()
        for seg, before in zip(run, [None, *run]):
            if seg.kind == "han":
                if before is not None and before.kind == "pause":
                    after_pause.add(starts[-1])
                starts.append(starts[-1] + len(seg.text))
        text = "".join(seg.text for seg in han)
        rewritten = frozenset(i for seg, start, end in zip(han, starts, starts[1:]) if seg.source
                              for i in range(start, end) if text[i] not in NUMERAL_READINGS)  # 兩千零 leng4 stays
        pairs = self.explain_han(text, after_word and not han[0].source, before_word, rewritten, after_letters, ahead,
                                 frozenset(after_pause), written, asks)
        out, start = [], 0
        for seg in run:
            if seg.kind == "pause":
                out.append((seg.text, None, "pause", ""))
                continue
            # one reason for all of a segment's characters, its text cut short: built per character, a 20,000-digit
            # segment cost 20,000 copies of itself (5 s)
            shown = seg.text if len(seg.text) <= REASON_TEXT else seg.text[:REASON_TEXT] + "…"
            said_as = f"{seg.source} read as {shown}"
            for grapheme, reading, source, reason in pairs[start:start + len(seg.text)]:
                if not seg.source:
                    out.append((grapheme, reading, source, reason))
                    continue
                said = NUMERAL_READINGS.get(grapheme)
                if said and reading not in said:  # a numeral is said as in any number (2026: 六 luk6)
                    reading = said[0]
                out.append((grapheme, reading, seg.source, said_as))
            start += len(seg.text)
        return out

    def __call__(self, text: str) -> G2PResult:
        if not text or not text.strip():
            raise FrontendError("empty text: nothing to say")
        segments, dropped = normalize(text)
        units: list[Unit] = []
        graphemes: list[str] = []
        sources: list[str] = []
        why: list[str] = []
        unknown = [d.char for d in dropped]
        previous = None
        runs = gather_han(segments)
        sentences = split_sentences(runs)
        written, asks = written_sentences(sentences), closes_yes_or_no(sentences)
        for k, seg in enumerate(runs):
            after_word = previous is not None and previous.source in ("english", "letter-to-sound")
            after_letters = previous is not None and previous.kind == "reading"
            previous = seg if isinstance(seg, Segment) else seg[-1]
            if isinstance(seg, list):
                following = runs[k + 1] if k + 1 < len(runs) else None
                before_word = isinstance(following, Segment) and following.kind == "reading"
                pairs = self.explain_run(seg, after_word, before_word, after_letters, ahead_of(runs, k), written[k],
                                         asks[k])
            elif seg.kind == "pause":
                units.append(seg.text)
                continue
            else:
                rule = {"english": f"English word {seg.text!r} ({seg.word or 'CMUdict, loanword rules'})",
                        "letter-to-sound": f"English word {seg.text!r} (not in CMUdict: letter-to-sound guess)",
                        "spelled": f"letter {seg.text} spelled",
                        "abbreviation": f"abbreviation {seg.text!r} read as {seg.word!r}",
                        "interjection": f"laughter {seg.text!r}",
                        "jyutping": f"Jyutping {seg.text!r} written in the text"}.get(seg.source, seg.source)
                pairs = [(seg.text, j, seg.source, rule) for j in seg.jyutping]
            for grapheme, reading, source, reason in pairs:
                if source == "pause":
                    units.append(grapheme)
                    continue
                try:
                    syllables = [parse_syllable(r) for r in reading.split()] if reading else []
                except JyutpingError:
                    syllables = []
                if not syllables:
                    unknown.append(grapheme)
                    continue
                for syl in syllables:  # one character may be said in two (卅 saa1 aa6), as an English word is
                    units.append(syl)
                    graphemes.append(grapheme)
                    sources.append(source)
                    why.append(reason)
        if unknown:
            if self.strict:
                raise UnknownCharacterError(unknown)
            _warn("skipped characters without a reading: %s", " ".join(dict.fromkeys(unknown)))
        if not graphemes:
            raise FrontendError(f"no speakable text in {text[:40]!r}")
        return G2PResult(text, graphemes, [str(u) for u in units if isinstance(u, Syllable)],
                         encode_units(units, self.inventory), unknown, sources, why)
