"""Cantonese text to model tokens: normalise, look up Jyutping, split into onset/rime/tone tokens."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .context import ContextRules, load_context_rules, reads_as_tojyutping, reads_under, stated_place
from .dictionary import base_dictionary, tojyutping_dictionary
from .inventory import PAUSE_STRENGTH, PAUSES, SIL, Inventory, load_inventory, syllable_index
from .jyutping import JyutpingError, Syllable, parse_syllable
from .lexicon import load_lexicon
from .normalize import Segment, normalize
from .numbers import NUMERAL_READINGS
from .plain_words import PlainWords, load_plain_words


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


# A character read by its use after a verb when it follows an English word, which the context rules (learnt on
# Han neighbours) cannot see: check下 and google下 are "check a bit", haa5, as 睇下 is (HKCanCor has two such
# places: relax下, haa5 both). Before a time or a direction it keeps its dictionary reading: HKCanCor reads 下
# before 年 and 次 always haa6, so book下個月 and scroll下去 stay haa6. Before 個 it is a time only where one
# follows: HKCanCor reads 下個 haa6 in 12 places, 11 with a time word after (下個月, 下個禮拜; the twelfth is cut
# off), and haa5 in 3, each a verb before and a thing after (睇下個價), so check下個email is haa5, book下個月 haa6.
AFTER_ENGLISH_VERB = {"下": "haa5"}
_TIMES = set("年星禮晝午週周季期屆月")  # 下年, 下星期, 下個月: "next"
KEEPS_ITS_READING_BEFORE = _TIMES | set("次一半") | set("面邊便去嚟落來")  # and the directions: 下面, 下去
TIME_WORDS = _TIMES | set("拜學階鐘世")  # 下個 before these is "next" (下個禮拜, 下個學期, 下個鐘)


def _after_english_verb(text: str, before_word: bool) -> bool:
    """Whether a run's first character, right after an English word, is read as after a verb (check下個email);
    ``before_word``: Latin letters (a word, an acronym) follow the run, so one that ends on 個 has a thing after it."""
    if text[0] not in AFTER_ENGLISH_VERB or text[1:2] in KEEPS_ITS_READING_BEFORE:
        return False
    if text[1:2] != "個":
        return True
    return text[2:3] not in TIME_WORDS if text[2:3] else before_word


# 呢 as "this" before a measure word: ToJyutping joins 呢 to many (呢個, 呢本, 呢條: ni1) but not to these, so 呢首歌,
# 呢單嘢, 呢位, 呢類, 呢區 read ne1, the particle (573 places in CTCPC and Common Voice, "this" wherever read);
# HKCanCor writes the demonstrative 哩 and 呢 only as the particle (2,183 places, one before a character of
# these: 注意力呢集中唔到), so no context rule could learn it. The particle stays before the verbs and adverbs these
# characters begin (我呢首先, 佢呢單係, 注意力呢集中) and where the dictionary joins the measure word to what follows.
DEMONSTRATIVE = {"呢": "ni1"}
MEASURE_WORDS_AFTER_THIS = frozenset("首位屆期盒包樽雙課封頁餐晚朝刻味單宗款類代區世組頓站集章局盤轉輛名匹季科")
OPEN_A_CLAUSE = ("首先", "單係", "單只", "單單", "集中", "轉頭")


def _this_before_measure_word(text: str, matches: list[tuple[str, str | None, str]], i: int) -> bool:
    """Whether ``matches[i]``, 呢 read alone, is "this" before a measure word the dictionary reads alone (呢首歌)."""
    ch, _, word = matches[i]
    if ch not in DEMONSTRATIVE or len(word) != 1 or i + 1 >= len(matches) or text.startswith(OPEN_A_CLAUSE, i + 1):
        return False
    following, reading, following_word = matches[i + 1]
    return following in MEASURE_WORDS_AFTER_THIS and len(following_word) == 1 and reading is not None


@dataclass(frozen=True)
class ReadAfter:
    """A character read in one sense right after one of ``after`` (a stated reading, not learnt from counts)."""
    after: str  # the characters that, right before it, give it this sense
    role: str  # what they are, for --explain
    reading: str
    sense: str
    not_before: str = ""  # characters after it that give it its other sense again
    word_start: bool = False  # it applies where the character starts a dictionary word too (邊間中學: 間中)


# A noun after the measure word that counts it, read in that sense: 相 after 張 or 幅 is "a photo", soeng2 (一張相,
# 呢幅相), where ToJyutping reads 相 alone soeng1 ("mutual"); HKCanCor reads 幅相 soeng2 twice and has no 張相, and
# its rules read 啲相 so (69 places of CTCPC and Common Voice read soeng1). 友 after 條 or 班 is "a guy", jau2, as
# ToJyutping's own 條友 and HKCanCor's five places say, where 呢條 or 你班 took the measure word (呢條友, 你班友: jau5).
# 為 after a verb of naming, choosing or becoming, or a count, is "as" or "is", wai4 (當選為, 轉為, 翻譯為, 升格為,
# 命名為, 設置為, 人數為), as ToJyutping's own 成為, 作為, 認為 read it, where it reads 為 alone wai6, "for" (為咗,
# 因為): formal text writes these daily and HKCanCor's conversations hold none of them. Not after characters that
# end words 為 also follows as "for" (計劃為社區, 拼命為, 確實為自己, 紐約為, 早期為), nor before 咗, 了, 乜, 何, 甚,
# 什, 住, 着, 著 or 到, which make it "for" or "why" (普選為咗, 問題為咗). 間 after a number or a demonstrative is
# the measure word, gaan1, also where a dictionary word starts with it (邊間中學, 一間中學, 二十幾間開: ToJyutping's
# 間中 "now and then" and 間開 "to partition" read gaan3). 量 after what it counts is "an amount", loeng6 (排放量,
# 載客量, 下載量, 工作量, 生命力量), where ToJyutping reads it alone loeng4, "to measure" (測量, 商量, 量血壓): not
# before 度, 一, 緊, 咗, 過, 住 or 地, which make it the verb (量度, 量一量, 量緊, 量地).
READ_AFTER = {
    "相": ReadAfter("張幅", "a measure word", "soeng2", "a photo"),
    "友": ReadAfter("條班", "a measure word", "jau2", "a guy"),
    "間": ReadAfter("邊呢嗰一兩幾每三四五六七八九十百千某哪那這該第", "a number or a demonstrative", "gaan1",
                   "the measure word", word_start=True),
    "量": ReadAfter("放水雨客電儲總售載覽行求程戶問訊汇彙納鉛識給留肪取風礦膠物作詞血微力流產容熱能質數份含存銷交用",
                   "what it counts", "loeng6", "an amount", "度一緊咗過住地"),
    "為": ReadAfter("選轉譯封升變建呼義任格名設置改評譽視稱化奉尊推立展題數均互", "a verb of naming or becoming, or a "
                   "count", "wai4", "as", "咗了乜何甚什住着著到"),
}


def _read_after(text: str, matches: list[tuple[str, str | None, str]], i: int) -> ReadAfter | None:
    """The stated sense of ``matches[i]``, read alone (or starting a word, where so stated: 邊間中學), after the
    character before it (張相, 當選為; and 呢張相 where the dictionary has 呢張), or None."""
    ch, _, word = matches[i]
    stated = READ_AFTER.get(ch)
    if stated is None or i == 0 or matches[i - 1][0] not in stated.after:
        return None
    if len(word) != 1 and not (stated.word_start and text.startswith(word, i)):
        return None
    return None if text[i + 1:i + 2] and text[i + 1] in stated.not_before else stated


# 覺 near 瞓 or 睡 is "a sleep", gaau3 (瞓著覺, 瞓唔着覺, 瞓緊覺, 瞓咗覺, 瞓個靚覺, 睡午覺, 冇覺好瞓, 一覺瞓醒), as
# ToJyutping's own 瞓覺, 睡覺 and 晏覺 read it, where it reads 覺 alone gok3, "to feel": a sleeping word within three
# characters either side, and neither 覺得, 覺悟, 覺察, 覺知 nor a word that ends in the feeling (感覺, 直覺, 視覺,
# 發覺): HKCanCor's conversations hold too few such places for a rule.
SLEEP = "覺"
SLEEP_NEAR, SLEEP_SPAN = "瞓睡", 3
FEELING_AFTER, FEELING_BEFORE = "得悟察知", "感視直觸錯幻知自警聽發察味嗅先後"


def _a_sleep(text: str, matches: list[tuple[str, str | None, str]], i: int) -> bool:
    """Whether ``matches[i]``, a 覺 read alone, is "a sleep" (瞓著覺, 冇覺好瞓) rather than "to feel"."""
    ch, _, word = matches[i]
    if ch != SLEEP or len(word) != 1 or text[i + 1:i + 2] in tuple(FEELING_AFTER) or \
            (i > 0 and text[i - 1] in FEELING_BEFORE):
        return False
    return any(c in SLEEP_NEAR for c in text[max(0, i - SLEEP_SPAN):i] + text[i + 1:i + 1 + SLEEP_SPAN])


# 咁 closing a phrase is "like that", gam2 (好似迷你裙咁。就係咁。因為咁，哭成咁), which ToJyutping and the
# lexicon's 係咁 read gam3, "so", the degree word that needs a word after it (咁好, 唔係咁平, 咁cute). HKCanCor
# writes the phrase's end 噉, so its 咁 at a run's end is speech cut short (冇咁-, 幾咁…), read gam3: not after 冇
# or 幾.
LIKE_THAT, LIKE_THAT_SAID, SO_CUT_SHORT_AFTER = "咁", "gam2", "冇幾"


def _like_that(text: str, i: int, before_word: bool) -> bool:
    """Whether ``text[i]`` is a 咁 closing a phrase (nothing Han nor Latin after it), "like that"."""
    return text[i] == LIKE_THAT and i == len(text) - 1 and not before_word and \
        (i == 0 or text[i - 1] not in SO_CUT_SHORT_AFTER)


# Characters that informal Hong Kong writing puts for the particle or the suffix it says: 哂 for 晒, "all" (搞掂哂,
# 冇哂, 走哂: saai3; ToJyutping reads 哂 alone can2, the literary "smile" of 哂笑, 微哂, 一哂), and 既 for 嘅, the
# possessive (你既威力, 咁既話, 食既: ge3; ToJyutping reads 既 alone gei3, "since" or "both", as in 既然, 既往, 既定,
# 既得, 既不, 既…又). HKCanCor writes 晒 and 嘅 (its one 既 is 既然), so these are stated readings.
WRITTEN_FOR = {"哂": ("晒", "saai3", "all", "笑", "微一冷"),
               "既": ("嘅", "ge3", "the possessive", "然往定得不也是而有出", "言")}
SECOND_CLAUSE = "又也亦"  # 既 … 又 is "both … and": where one follows 既 in its run or the next few, 既 keeps gei3
AHEAD_RUNS = 3  # how many runs after 既's own are read for that 又 (既寬敞，又實用)


def _written_for(text: str, matches: list[tuple[str, str | None, str]], i: int,
                 ahead: str = "") -> tuple[str, str, str] | None:
    """(what ``matches[i]`` stands for, its reading, its sense) where informal writing puts it for another word (搞掂哂
    for 搞掂晒, 你既 for 你嘅), or None; ``ahead``: the Han text of the runs after this one, for 既 … 又."""
    ch, _, word = matches[i]
    stated = WRITTEN_FOR.get(ch)
    if stated is None or len(word) != 1:
        return None
    meant, reading, sense, not_before, not_after = stated
    if text[i + 1:i + 2] and text[i + 1] in not_before or i > 0 and text[i - 1] in not_after:
        return None
    if ch == "既" and (i == 0 or any(c in SECOND_CLAUSE for c in text[i + 1:] + ahead)):
        return None
    return meant, reading, sense


def _ahead(runs: list[Segment | list[Segment]], k: int) -> str:
    """The Han text of the AHEAD_RUNS runs after ``runs[k]``, where it holds a 既 (else nothing: it is not needed)."""
    if not any("既" in part.text for part in runs[k]):
        return ""
    return "".join(part.text for later in runs[k + 1:k + 1 + AHEAD_RUNS] if isinstance(later, list)
                   for part in later if part.kind == "han")


REASON_TEXT = 40  # how much of a rewritten segment --explain shows as the reason for each of its syllables
SOURCES = ("lexicon", "ToJyutping", "context", "number", "date", "particle", "english", "letter-to-sound",
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
        and the words the greedy match keeps together, 下午 and 奇怪)."""
        self.inventory = inventory or load_inventory()
        self.strict = strict
        entries = load_lexicon() if lexicon is None else lexicon
        base = base_dictionary() if stated else tojyutping_dictionary()  # (the words kept together are stated too)
        self._dictionary = base.layered(entries)  # ToJyutping's words, the lexicon over them
        self._context = load_context_rules() if context is None else context  # then neighbours, per character
        self._plain = load_plain_words() if plain_words is None else plain_words
        self._stated = stated

    def rule_places(self, text: str) -> list[bool]:
        """For each character of a Han run, whether a context rule may re-read it: the dictionary reads it alone,
        no plain word (天下) holds it, and it is no 下 closing a written 在…下 clause nor one after 情況 or 環境, nor a
        重 after 好 or 咁 ("heavy"), nor a 核 in 核心 or 審核.
        The rules are learnt on these places and applied on them only."""
        alone = _read_alone(self._dictionary.matches(text))
        return [alone[i] and not stated_place(text, i) and self._plain.covering(text, i, alone.__getitem__) is None
                for i in range(len(text))]

    def words(self, text: str) -> list[str]:
        """For each character of a Han run, the dictionary word it is read in (the character itself where it is a
        word alone; "" where the dictionary has no reading)."""
        return [word for _, _, word in self._dictionary.matches(text)]

    def read_han(self, text: str) -> list[tuple[str, str | None]]:
        """(character, syllable or None) for each character of a Han run, words matched in context."""
        return [(ch, reading) for ch, reading, _, _ in self.explain_han(text)]

    def explain_han(self, text: str, after_word: bool = False, before_word: bool = False,
                    rewritten: frozenset[int] = frozenset(), after_letters: bool = False,
                    ahead: str = "") -> list[tuple[str, str | None, str, str]]:
        """(character, syllable or None, source, why) for each character of a Han run: the dictionary's
        reading, unless a context rule for the character's neighbours reads it otherwise; ``after_word``: the
        run follows an English word (check下); ``before_word``: Latin letters follow it (check下個email);
        ``rewritten``: the places a number or a date rule wrote, other than numerals, which keep the dictionary's
        reading (a rule wrote 年度 after a year: 度 dou6, where HKCanCor's 一年度, "about a year", taught 度 after 年
        dou2); ``after_letters``: any word in Latin letters or Jyutping comes right before it (喺IFC度), so its start
        is no phrase's start to the context rules; ``ahead``: the Han text of the next few runs (既 … ，又)."""
        out = []
        matches = self._dictionary.matches(text)
        alone = _read_alone(matches)
        for i, (ch, reading, word) in enumerate(matches):
            if reading is None or len(reading.split()) != 1:
                out.append((ch, None, "", "no reading"))
                continue
            if self._stated and i == 0 and after_word and _after_english_verb(text, before_word):
                out.append((ch, AFTER_ENGLISH_VERB[ch], "context", f"{ch} right after an English word, a verb "
                            f"(check{ch}, google{ch}) → {AFTER_ENGLISH_VERB[ch]}, as after 睇 or 試"))
                continue
            if self._stated and _this_before_measure_word(text, matches, i):
                out.append((ch, DEMONSTRATIVE[ch], "context", f"{ch} before the measure word {text[i + 1]} → "
                            f"{DEMONSTRATIVE[ch]}, \"this\", as ToJyutping reads {ch}個 and {ch}本"))
                continue
            if self._stated and (written := _written_for(text, matches, i, ahead)):
                meant, said, sense = written
                out.append((ch, said, "context", f"{ch} written for {meant} → {said}, \"{sense}\", as informal text "
                            "writes it"))
                continue
            if self._stated and _like_that(text, i, before_word):
                out.append((ch, LIKE_THAT_SAID, "context", f"{ch} closing a phrase → {LIKE_THAT_SAID}, \"like that\" "
                            "(好似…咁, 係咁), not \"so\", which needs a word after it"))
                continue
            if self._stated and _a_sleep(text, matches, i):
                out.append((ch, "gaau3", "context", f"{ch} near {', '.join(sorted(set(SLEEP_NEAR) & set(text)))} → "
                            "gaau3, \"a sleep\", as in 瞓覺"))
                continue
            if self._stated and (stated := _read_after(text, matches, i)):
                out.append((ch, stated.reading, "context", f"{ch} after {text[i - 1]}, {stated.role} → "
                            f"{stated.reading}, \"{stated.sense}\""))
                continue
            if self._stated and len(word) == 1 and i not in rewritten and (sense := reads_as_tojyutping(text, i)):
                said = self._dictionary.words.starting_with(ch).get(ch) or reading  # ToJyutping's own reading
                out.append((ch, said, "ToJyutping", f"ToJyutping character: {sense}, where neither the lexicon's "
                            f"{ch} alone nor a context rule applies"))
                continue
            # a context rule is learnt where the dictionary reads its character alone, and applies there only: inside
            # a longer word the word's reading stands (重新 cung4, 會計 wui6, 機會 wui6 were read zung6, wui5, wui5 by
            # rules learnt where 重 and 會 stand alone)
            rule = self._context.decide(text, i, after_letters) \
                if len(word) == 1 and i not in rewritten else None
            source = "lexicon" if word in self._dictionary.layered_words else "ToJyutping"
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
            if len(word) == 1 and (under := reads_under(text, i)):
                why += f": {under}, where no context rule applies"
            out.append((ch, reading, source, why))
        return out

    def explain_run(self, run: list[Segment], after_word: bool = False, before_word: bool = False,
                    after_letters: bool = False, ahead: str = "") -> list[tuple[str, str | None, str, str]]:
        """Adjacent Han segments read as one text, so that a number and the word after it match together (3樓 as
        三樓, saam1 lau2, as written in Han); a number's or date's characters keep that as their source. A phrase's
        pause among them is read across, and comes back in its place as (pause, None, "pause", "")."""
        han = [seg for seg in run if seg.kind == "han"]
        starts = [0]
        for seg in han:
            starts.append(starts[-1] + len(seg.text))
        text = "".join(seg.text for seg in han)
        rewritten = frozenset(i for seg, start, end in zip(han, starts, starts[1:]) if seg.source
                              for i in range(start, end) if text[i] not in NUMERAL_READINGS)  # 兩千零 leng4 stays
        pairs = self.explain_han(text, after_word and not han[0].source, before_word, rewritten, after_letters, ahead)
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
        for k, seg in enumerate(runs):
            after_word = previous is not None and previous.source in ("english", "letter-to-sound")
            after_letters = previous is not None and previous.kind == "reading"
            previous = seg if isinstance(seg, Segment) else seg[-1]
            if isinstance(seg, list):
                following = runs[k + 1] if k + 1 < len(runs) else None
                before_word = isinstance(following, Segment) and following.kind == "reading"
                pairs = self.explain_run(seg, after_word, before_word, after_letters, _ahead(runs, k))
            elif seg.kind == "pause":
                units.append(seg.text)
                continue
            else:
                rule = {"english": f"English word {seg.text!r} (CMUdict, loanword rules)",
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
                    syl = parse_syllable(reading) if reading else None
                except JyutpingError:
                    syl = None
                if syl is None:
                    unknown.append(grapheme)
                    continue
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
