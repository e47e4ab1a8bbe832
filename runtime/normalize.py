"""Text normalisation: what real Cantonese text contains, turned into Han text, fixed readings and pauses.

Readings chosen (documented in docs/frontend.md):
- numbers, dates, times and money: the rewrite rules of runtime/number_rules.py (105 -> 一百零五, 2個 -> 兩個,
  2024-03-05 -> 二零二四年三月五號, 7:30pm -> 晚上七點半, HK$100 -> 一百港元, 5-6個 -> 五至六個 ...), which run first;
- floors 12/F -> 十二樓, G/F -> 地下, UG/F -> 高層地下, LG/F -> 低層地下, M/F -> 閣樓; an English weekday range
  Mon-Fri -> 星期一至五;
- English words are read as words (runtime/english.py: CMUdict, loanword rules, a letter-to-sound guess);
  acronyms and all-capital tokens of up to 5 letters, single letters and words without a vowel are spelled
  with Hong Kong letter names (OK -> ou1 kei1, IFC -> aai1 e1 fu4 si1), except four or five capitals that
  CMUdict says as a word in fewer syllables than letters (SALE, NASA, WIFI; HSBC stays letters) and COVID; mixed
  tokens split where their case changes (iPhone -> i + Phone, PowerPoint -> Power + Point) unless the dictionary
  knows them whole, and hyphenated ones (Wi-Fi) are one word when the dictionary knows it so, else their parts;
- abbreviations (runtime/abbreviations.py): Mr. Dr. St. No. Ltd. etc. read as their words, U.S.A. and e.g.
  spelled, and their dots a full stop only where a sentence ends there;
- laughter written haha, hehe, hihi is 哈哈, 嘿嘿, 嘻嘻 (haa1, he1, hi1 a pair, at most four); a word stretched in
  chat is read as the word (sooo -> so, goood -> good);
- sentence particles romanised after Han text are the particles (好正ge -> 好正嘅, 係咪ar -> 係咪呀, 唔好ga -> 唔好㗎),
  and an o before a character stands for the character with 口 beside it (o岩 -> 啱, o既 -> 嘅);
- accented Latin letters are read as their base letters (café as cafe, Straße as Strasse); words with an
  apostrophe (don't, McDonald's, I’m) are looked up whole;
- Hong Kong places romanised (runtime/places.py: Tsim Sha Tsui, Mong Kok) are read as their Han names;
- addresses: @ is the word at, the dots of www.google.com are said dot;
- emoji, symbols without a reading and control characters are dropped; punctuation becomes pauses.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass

from .abbreviations import Abbreviation, find_abbreviation
from .dates import WEEKDAY, read_weekday, read_weekday_range
from .inventory import PAUSE_COMMA, PAUSE_EXCLAIM, PAUSE_QUESTION, PAUSE_STOP, PAUSE_STRENGTH
from .marks import END, MARK_KIND, MARKS, PHRASE_SPACE, is_han, marked
from .number_rules import TOP_LEVEL_DOMAINS, UNITS, expand_numbers
from .numbers import DIGITS, read_integer
from .places import place_names
from .rule_gates import LazyPattern

# Hong Kong letter names in Jyutping (the way letters are said in Cantonese speech).
LETTER_READINGS: dict[str, tuple[str, ...]] = {
    "a": ("ei1",), "b": ("bi1",), "c": ("si1",), "d": ("di1",), "e": ("ji1",), "f": ("e1", "fu4"),
    "g": ("zi1",), "h": ("ei1", "cyu4"), "i": ("aai1",), "j": ("zei1",), "k": ("kei1",),
    "l": ("e1", "lou2"), "m": ("e1", "mu4"), "n": ("e1", "nu4"), "o": ("ou1",), "p": ("pi1",),
    "q": ("kiu1",), "r": ("aa1", "lou2"), "s": ("e1", "si2"), "t": ("ti1",), "u": ("ju1",),
    "v": ("wi1",), "w": ("daa1", "bo1", "liu1"), "x": ("ek1", "si2"), "y": ("waai1",), "z": ("zi1",),
}

PUNCTUATION_PAUSES: dict[str, str] = {
    **dict.fromkeys(",、;:，；：…—–-~～", PAUSE_COMMA),
    **dict.fromkeys("⋯―", PAUSE_COMMA),  # the midline ellipsis and the horizontal bar (they were dropped)
    **dict.fromkeys("→⇒←⇐↔⇔", PAUSE_COMMA),  # an arrow between a notice's items (中環→尖沙咀; it was dropped)
    **dict.fromkeys(".。｡", PAUSE_STOP),
    **dict.fromkeys("?？", PAUSE_QUESTION),
    **dict.fromkeys("!！", PAUSE_EXCLAIM),
}
# Brackets and quotes carry no sound; they are dropped without a warning.
# So are the dots between a foreign name's parts (唐納·特朗普, as Chinese writes it; they were a pause).
# So are a list's bullets and the reference mark before a note (•項目, ※注意), which were reported as unreadable.
SILENT_MARKS = set("\"'()[]{}<>「」『』《》〈〉（）【】〔〕“”‘’*_#/\\|·‧・•∙※†‡")
# Symbols said as words (NFKC writes ℃ as °C, so ° is 度)
SYMBOL_READINGS = {"&": "同", "+": "加", "=": "等於", "@": "at", "°": "度", "%": "%", "×": "乘", "÷": "除以"}


@dataclass(frozen=True)
class Segment:
    """One piece of normalised text: Han characters, a fixed reading, or a pause; ``source`` says where its
    reading comes from when normalisation decided it (number, date, particle, english, letter-to-sound, spelled,
    abbreviation, interjection, place, jyutping)."""

    kind: str  # "han" | "reading" | "pause"
    text: str
    jyutping: tuple[str, ...] = ()
    source: str = ""
    word: str = ""  # the word an abbreviation is read as (Dr. -> doctor)


ACRONYM_MAX = 5  # all-capital tokens up to this long are spelled (IFC, MTR, HK, OK) unless CMUdict says four or five
# of them as a word (SALE, NASA); longer ones are words
def spelled(letters: str) -> list[Segment]:
    return [Segment("reading", ch.upper(), LETTER_READINGS[ch.lower()], "spelled") for ch in letters
            if ch.lower() in LETTER_READINGS]  # an apostrophe inside (H'S) is not spelled


# Laughter as chat text writes it (haha, hehe, hihi), said as 哈哈, 嘿嘿, 嘻嘻: a syllable a pair, at most four
_LAUGHTER = re.compile(r"(?:(ha)+h?|(he)+|(hi)+)", re.I)
LAUGHTER_SYLLABLES = {"ha": "haa1", "he": "he1", "hi": "hi1"}


def laughter(token: str) -> list[Segment]:
    """haha as haa1 haa1, not as an English word (letter-to-sound read it he1 he2); [] if it is not laughter."""
    m = _LAUGHTER.fullmatch(token)
    if not m or len(token) < 4:
        return []
    syllable = LAUGHTER_SYLLABLES[token[:2].lower()]
    return [Segment("reading", token, (syllable,) * min(4, len(token) // 2), "interjection")]


# A letter written three times or more stretches a word in chat (sooo, goood, sorryyy, NOOO)
_STRETCH = re.compile(r"([A-Za-z])\1{2,}")


def unstretched(token: str) -> str | None:
    """The word a stretched token stands for (sooo -> so, goood -> good, seeee -> see, cuteee -> cute), where CMUdict
    knows it and not the token itself: each run tried as two letters, then one; but an o at the end as one first
    (sooo is so; CMUdict's soo is a name, and tooo reads the same as to)."""
    from .english import pronunciations

    runs = list(_STRETCH.finditer(token))
    if len(token) < 4 or not runs or len(runs) > 3 or token.lower() in pronunciations():
        return None
    ways = [(1, 2) if run.end() == len(token) and run.group(1) in "oO" else (2, 1) for run in runs]
    for counts in itertools.product(*ways):
        parts, start = [], 0
        for run, count in zip(runs, counts):
            parts += [token[start:run.start()], run.group(1) * count]
            start = run.end()
        word = "".join(parts) + token[start:]
        if len(word) > 1 and re.search("[aeiouyAEIOUY]", word) and word.lower() in pronunciations():
            return word
    return None


def latin_token(token: str) -> list[Segment]:
    """One run of Latin letters (hyphens and apostrophes between letters kept) as English words or spelled
    letters."""
    from .english import pronunciations, read_word

    if found := laughter(token):
        return found
    if word := unstretched(token):
        jyutping, source = read_word(word)
        return [Segment("reading", token, jyutping, source)]

    if "'" in token and token.lower() not in pronunciations():  # a possessive or contraction CMUdict lacks
        return [seg for part in token.split("'") if part for seg in latin_token(part)]  # its parts, as before

    parts = token.split("-")
    if len(parts) > 1:
        joined = "".join(parts)
        if joined.lower() in pronunciations():
            return latin_token(joined)
        return [seg for part in parts if part for seg in latin_token(part)]
    if len(token) == 1 or (token.isupper() and len(token) <= ACRONYM_MAX and not _capitals_word(token)):
        return spelled(token)
    if re.fullmatch("[A-Z][a-z][A-Z]", token):
        return spelled(token.upper())  # an acronym with its small word in lower case: IoT, PoC, QoS
    if not token.islower() and not token.istitle() and not token.isupper():
        # iPhone, PowerPoint: split where the case changes, unless CMUdict knows the word whole; two capitals
        # together are an acronym inside it (iOS, macOS: CMUdict's ios is the Greek island)
        if token.lower() not in pronunciations() or re.search("[A-Z]{2}", token):
            pieces = re.findall(r"[a-z]+|[A-Z][a-z]*", token)
            merged: list[str] = []
            for p in pieces:  # runs of single capitals (the "IF" of IFCentre) stay together
                if merged and len(p) == 1 and p.isupper() and merged[-1].isupper():
                    merged[-1] += p
                elif merged and merged[-1].isupper() and len(p) > 2 and p.lower() not in pronunciations() \
                        and p[1:] in pronunciations():
                    merged[-1] += p[0]  # ... and the run's last capital where a lower-case word follows: HKTVmall
                    merged.append(p[1:])
                else:
                    merged.append(p)
            if len(merged) > 1:
                return [seg for p in merged for seg in latin_token(p)]
    if len(token) >= 4 and token[0].lower() not in "aeiou" and token[1] not in "aeiouy" and token[1:].islower() \
            and token[:2].lower() not in _ONSETS and token.lower() not in pronunciations() \
            and token[1:] in pronunciations():
        return spelled(token[0]) + latin_token(token[1:])  # a letter, then a word: Kpop, vlog, Mbyte
    if len(token) <= 3 and token.islower() and not re.fullmatch("[^aeiou][aeiou][^aeiou]", token) \
            and len(re.findall("[aeiou]", token)) <= 1 and token not in pronunciations():
        return spelled(token.upper())  # an acronym typed in lower case (ifc, hku): short, one vowel not between two
        # consonants (vol, a word's short form, is said), no word
    found = read_word(token)
    if found is None:
        return spelled(token)
    jyutping, source = found
    return [Segment("reading", token, jyutping, source)]


# The two letters a word or a romanised name may begin with: a token that begins with one is not a letter and then
# a word (Chur, Klook, Tsung, Gwing, Grant), nor is one whose word would begin with a vowel (Hosmer, Likey: names) or
# that begins with a vowel itself (Elon, Akina); Kpop, vlog and Mbyte are
_ONSETS = frozenset("bl br ch cl cr dr dw fl fr gh gl gn gr gw kl kn kr kw ph pl pr ps qu rh sc sh sk sl sm sn sp sq "
                    "st sw th tr ts tw wh wr zh".split())


# Capitals said as a word that CMUdict is too old to know (COVID, 2020: read by letter-to-sound, not spelled), and
# TOP, three letters but a ranking's word (TOP 10, TOP3: it was spelled, T O P)
CAPITALS_SAID_AS_WORDS = frozenset({"COVID", "TOP"})


def _capitals_word(token: str) -> bool:
    """Four or five capitals that CMUdict says as a word, in fewer syllables than letters (SALE, FREE, NASA, WIFI,
    IKEA: a sign's or a brand's word); HSBC, RSVP and ASAP, which it spells out, stay letters, as do all of three
    letters or fewer (MTR, HOT, NEW: an acronym as often as a word)."""
    from .english import pronunciations

    if token in CAPITALS_SAID_AS_WORDS:
        return True
    if len(token) < 4:
        return False
    phones = pronunciations().get(token.lower())
    return phones is not None and sum(p[-1].isdigit() for p in phones.split()) < len(token)


# Words of degree before an adjective (好MAN, 咁HOT, 太FIT): three capitals after one are the adjective, as chat
# writes it for emphasis, not an acronym (it spelled M A N)
_DEGREE = frozenset("好幾咁太超勁最更極")  # (not 夠: 唔夠RAM, enough of a thing)


# Acronyms of three capitals that CMUdict also knows as words: spelled even in a phrase of capitals (USA TODAY)
CAPITALS_KEPT_SPELLED = frozenset({"USA", "ICU", "IOU", "ISO", "API", "CEO", "FAQ", "UFO", "EPA", "IRA", "ERA"})


def _in_capital_phrase(text: str, i: int, j: int) -> bool:
    """Whether the capitals ``text[i:j]`` stand in a phrase of capital words a space apart, another of which is said
    as a word (HOT SALE, BUY ONE GET ONE FREE, TAKE TWO, NEW ARRIVAL): a sign's or a slogan's words."""
    start, end = i, j
    while start >= 2 and text[start - 1] == " " and text[start - 2].isupper() and text[start - 2].isascii():
        start -= 1
        while start >= 1 and text[start - 1].isupper() and text[start - 1].isascii():
            start -= 1
    while end + 1 < len(text) and text[end] == " " and text[end + 1].isupper() and text[end + 1].isascii():
        end += 1
        while end < len(text) and text[end].isupper() and text[end].isascii():
            end += 1
    return any(len(word) > ACRONYM_MAX or _capitals_word(word) for word in text[start:end].split(" ")
               if word != text[i:j] and word.isalpha())


# An English word of address after 阿 or 亞, said as Hong Kong says it: 阿Sir, a teacher or a policeman, is aa3
# soe4, where the loanword rules, which read English ER as aa (right for the -er of dinner and server), give saa1.
ADDRESSED_AFTER_A = {"sir": ("soe4",)}
ADDRESS_PREFIXES = frozenset("阿亞")  # 阿Sir, 亞sir


def _latin_run(text: str, i: int, j: int) -> list[Segment]:
    """The letters ``text[i:j]`` as latin_token reads them, but three capitals after a word of degree that CMUdict
    says as a word as that word (好MAN, 好HOT); other capitals stay letters (好MK, 好IT; 好COOL, four letters, is a
    word already); and three in a phrase of capital words (HOT SALE; two, as AX, AM, OT, are acronyms too often);
    and a word of address after 阿 (阿Sir: soe4)."""
    from .english import pronunciations

    token = text[i:j]
    if text[i - 1:i] in ADDRESS_PREFIXES and token.lower() in ADDRESSED_AFTER_A:
        return [Segment("reading", token, ADDRESSED_AFTER_A[token.lower()], "english", "a word of address after 阿")]
    if len(token) == 3 and token.isupper() and re.search("[AEIOU]", token) and token.lower() in pronunciations() \
            and (text[i - 1:i] in _DEGREE or (token not in CAPITALS_KEPT_SPELLED and _in_capital_phrase(text, i, j))):
        return [Segment(s.kind, token, s.jyutping, s.source, s.word) for s in latin_token(token.lower())]
    return latin_token(token)


def abbreviation_segments(abbr: Abbreviation) -> list[Segment]:
    """An abbreviation read as its word (Dr. -> doctor) or its letters spelled (U.S.A.), named as written."""
    if abbr.letters:
        return spelled(abbr.letters)
    return [Segment("reading", abbr.written, seg.jyutping, "abbreviation", abbr.word)
            for seg in latin_token(abbr.word)]


@dataclass(frozen=True)
class Dropped:
    """A character that has no reading and was left out."""

    char: str
    position: int


def _is_ignorable(ch: str) -> bool:
    """Emoji, pictographs, variation selectors and control/format characters: not speech."""
    cat = unicodedata.category(ch)
    return cat in ("Cc", "Cf", "Co", "Cs", "So", "Sk", "Mn", "Me") or 0xFE00 <= ord(ch) <= 0xFE0F


# m² and m³ as English spells them out (NFKC would make them m2 and m3): 100m² -> 100 sq m -> 一百平方米
_POWERS = re.compile(r"(?<=\d)\s?(km|m|cm|ft)([²³])")
# ... after a unit and a slash (μg/m³, kg/m²): m3, as UNITS write it
_PER_POWER = LazyPattern(r"(?<=[A-Za-zμµ]/)(km|m|cm)([²³])", gated=False)
# ... and one alone (每m², $50/m²): 平方米, 立方米
_UNIT_POWER = LazyPattern(r"(?<![A-Za-z])(km|m|cm|ft)([²³])(?![A-Za-z0-9])", gated=False)


# Latin letters that no decomposition turns into ASCII ones
_LATIN_LETTERS = {"ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D",
                  "ł": "l", "Ł": "L", "ı": "i", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D"}
_ACCENTED_LATIN = re.compile("[\u00c0-\u024f\u1e00-\u1eff]")  # Latin-1 Supplement letters to Latin Extended


def fold_latin(text: str) -> str:
    """Accented Latin letters as their base letters (café -> cafe, Straße -> Strasse), so that English words
    written with them are read as words rather than losing the letter; other scripts are left as they are."""
    def base(m: re.Match[str]) -> str:
        ch = m.group()
        if ch in _LATIN_LETTERS:
            return _LATIN_LETTERS[ch]
        parts = unicodedata.normalize("NFD", ch)
        if parts[0].isascii() and parts[0].isalpha() and all(unicodedata.combining(c) for c in parts[1:]):
            return parts[0]
        return ch

    return _ACCENTED_LATIN.sub(base, text)


# A run that is a web or email address: an @ in it, www. at its start, or a common top-level domain at its end; in
# capitals too, as posters print them (WWW.HKO.GOV.HK: its dots were full stops)
_ADDRESS = re.compile(r"[A-Za-z0-9._%+-]*(?:@[A-Za-z0-9.-]+|(?<![A-Za-z0-9])www\.[A-Za-z0-9.-]+"
                      rf"|\.(?:{TOP_LEVEL_DOMAINS})(?![A-Za-z0-9]))", re.IGNORECASE)


def _said_in_addresses(text: str) -> set[int]:
    """Where a dot or a slash of a web or email address is said, "dot" or "slash": a dot between letters or digits
    inside an address (www.google.com, hk.yahoo.com, gmail.com; not the dots of Hon.pro. and e.g.) or in the path
    after its host (www.hko.gov.hk/tc/index.html), and a slash between them in a path after a host
    (www.gov.hk/tc/residents: it was silent, gov dot H K T C residents). Each run of address characters is read
    once, and only up to ADDRESS_MAX characters: checking each dot and slash against its whole run took 20 s on
    20,000 characters of 1/1/1/…, and the address pattern is quadratic in a run's length (a.a.a… took 23 s)."""
    return {found.start() + k for found in _ADDRESS_RUN.finditer(text) if len(found.group()) <= ADDRESS_MAX
            for k in _said_in_run(found.group())}


def _said_in_run(written: str) -> list[int]:
    """The dots and slashes said in one run of address characters, by their place in it."""
    # digits the number rules have already read (john.chan123@: chan, then 一二三 marked) stand as digits here
    run = "".join("0" if ch in _READ_DIGITS else ch for ch in written)
    n = len(run)
    inside = bytearray(n)
    path_from = n  # a dot after a host that a slash ends is in the path
    for m in _ADDRESS.finditer(run):
        inside[m.start():m.end()] = b"\1" * (m.end() - m.start())
        if m.end() < n and run[m.end()] == "/":
            path_from = min(path_from, m.end())
    said = []
    hosts: dict[int, bool] = {}  # where a host starts (after an @) -> whether it is a web address's
    for k, ch in enumerate(run):
        if ch not in "./" or not (0 < k < n - 1 and run[k - 1].isalnum() and run[k + 1].isalnum()):
            continue
        if ch == ".":
            if inside[k] or k > path_from:
                said.append(k)
            continue
        start = run.rfind("@", 0, k) + 1
        if start not in hosts:
            end = run.find("/", start)
            host = run[start:end if end >= 0 else n]
            hosts[start] = "." in host and bool(_ADDRESS.fullmatch(host))
        if hosts[start]:
            said.append(k)
    return said


# A web address's scheme, which readers of an address leave out (http://www.amspt.com: it read http, then a pause)
_URL_SCHEME = re.compile(r"(?<![A-Za-z])(?i:https?|ftp)://(?=[A-Za-z0-9])")


# A number the rules have read, digit by digit, inside an address: its marks and its digits
_READ_DIGITS = frozenset(MARKS["number"] + END + DIGITS)
# ... and a run of the characters an address is written with, those digits among them; one longer than ADDRESS_MAX
# is no address anyone reads out (the longest in CTCPC and Common Voice is 20: insideoutproject.net), so its dots
# and slashes are not said
ADDRESS_MAX = 256
_ADDRESS_RUN = re.compile("[A-Za-z0-9._%+@/\\-" + re.escape("".join(sorted(_READ_DIGITS))) + "]+")


# Numbers enclosed in a circle or brackets, or followed by a dot (①, ⑴, ⒈, ❶, ㉑): list markers, each its own number
# with a pause after it; NFKC ran ①②③ together into 123 (一百二十三) and ⒈⒉ into 1.2, and ❶ had no reading
_ENCLOSED_NUMBER = re.compile("[\u2460-\u24ff\u2776-\u2793\u3251-\u325f\u32b1-\u32bf]")


# ... and a Roman numeral written as one character (第Ⅲ期, Ⅻ) is its number; NFKC made it letters (III), spelled
_ROMAN_NUMERAL = re.compile("[\u2160-\u2188]")


def _marker_pause(m: re.Match[str], marker: bool = True) -> str:
    """A list's pause before a number written as one character after a digit (12① is 12、1, not 121), and before a
    list's marker after words (準備材料②落鑊 ran the item into the next marker's number, 材料二)."""
    if m.string[m.start() - 1:m.start()].isdigit():
        return "、"
    before = m.string[:m.start()].rstrip(" ")[-1:]
    return "、" if marker and before and (before.isdigit() or before.isalpha()) else ""  # (Han is alphabetic too)


def numbers_as_digits(text: str) -> str:
    """Each enclosed number (①, ⑴, ⒈, ❶, 1️⃣) as its digits and a list's pause (①②③ -> 1、2、3、), and each Roman
    numeral character as its digits (第Ⅲ期 -> 第3期)."""
    def number(m: re.Match[str], marker: bool) -> str:
        value = unicodedata.numeric(m.group(), None)
        if value is None:
            return m.group()
        return f"{_marker_pause(m, marker)}{int(value)}{'、' if marker else ''}"

    def roman_marker(m: re.Match[str]) -> bool:
        """A Roman numeral before another or a digit is a list's marker too: ⅰⅱ is 1、2, not 12."""
        return bool(_ROMAN_NUMERAL.match(m.string, m.end())) or m.string[m.end():m.end() + 1].isdigit()

    text = _ENCLOSED_NUMBER.sub(lambda m: number(m, True), text)
    if "\u20e3" in text or "\U0001f51f" in text:  # a keycap (1️⃣ 準備材料, 🔟) is a list's marker too
        text = re.sub("([0-9])\ufe0f?\u20e3|\U0001f51f", lambda m: f"{_marker_pause(m)}{m.group(1) or 10}、", text)
    return _ROMAN_NUMERAL.sub(lambda m: number(m, roman_marker(m)), text)


# The colons NFKC does not write as a colon: Hong Kong's official notices write 電話︰, 地址︰ with the vertical form's
# two dots, which NFKC made "..", a full stop; the ratio sign 1∶1 was dropped. And the signs it leaves alone that were
# dropped too: the minus sign of typeset text (−5度), the root (√2: 根號二), the wave dash (10〜20: a range) and the
# bopomofo ㄧ typed for 一 (由ㄧ啲機構)
_COLONS = str.maketrans({"︰": "：", "∶": ":", "−": "-", "√": "根號", "〜": "～", "ㄧ": "一"})
# Greek letters, as science writes them beside Han text (σ, α粒子, β-胡蘿蔔素, π≈3.14), said by their English names,
# as Hong Kong says them; one inside a word or a unit (μg, kΩ) is left to the number rules. They were dropped.
GREEK_NAMES = dict(zip("αβγδεζηθικλμνξοπρστυφχψω",
                       "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma "
                       "tau upsilon phi chi psi omega".split()))
GREEK_NAMES.update({"Δ": "delta", "Σ": "sigma", "Ω": "omega", "Φ": "phi", "Π": "pi", "Λ": "lambda", "Γ": "gamma",
                    "Θ": "theta", "Ψ": "psi", "ς": "sigma"})
_GREEK_LETTER = LazyPattern(f"(?<![A-Za-z])[{''.join(GREEK_NAMES)}](?![a-z])", gated=False)  # ΔT: delta T
# A power written in superscript after a number or a single letter (10⁸, x²; not a romanisation's tone, Wong²), units'
# squares and cubes apart (m², read first): 十嘅八次方, X 嘅二次方, as it is said; NFKC made 10⁸ one number, 108
_SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_EXPONENT = LazyPattern(f"(?:(?<=[0-9)])|(?<![A-Za-z][A-Za-z])(?<=[A-Za-z]))([{_SUPERSCRIPT_DIGITS}]+)", gated=False)


# ... and one written with a caret (x ^ 2, 10^8, (x + y) ^ n): the same; it was dropped with a warning
_CARET_POWER = LazyPattern(r"(?<=[0-9A-Za-z)])\s?\^\s?(\d{1,3}(?![\d.])|[A-Za-z](?![A-Za-z]))", gated=False)


def _power_said(power: str) -> str:
    """A power after its base: 嘅八次方 for 8, 嘅 n 次方 for a letter (spelled where the segments are made)."""
    return f"嘅{read_integer(int(power)) if power.isdigit() else f' {power} '}次方"


def _exponent(m: re.Match[str]) -> str:
    return _power_said("".join(str(_SUPERSCRIPT_DIGITS.index(c)) for c in m.group(1)))


_APOSTROPHE = re.compile(r"(?<=[A-Za-z])[’‘`´](?=[A-Za-z])")  # typed or smart apostrophes inside a word: don’t


# Sentence particles as chat romanises them after Han text (好正ge, 係咪ar?, 唔好ga): said as the particle, whose
# tone the dictionary knows (嘅 ge3, 㗎 gaa3), not as an English word's high level tone (ge1, gaa1)
PARTICLES = {"ge": "嘅", "ga": "㗎", "gaa": "㗎", "ar": "呀", "ah": "呀", "la": "啦", "lah": "啦", "laa": "啦",
             "lo": "囉", "lor": "囉", "wo": "喎", "wor": "喎", "ma": "嗎", "mah": "嗎", "me": "咩", "meh": "咩",
             "ne": "呢", "ba": "吧", "bor": "啵"}
_PARTICLE = re.compile(r"(?<=[\u3400-\u4dbf\u4e00-\u9fff]) ?(" + "|".join(sorted(PARTICLES, key=len, reverse=True))
                       + r")(?![A-Za-z0-9])(?! *[A-Za-z0-9])")

# An o written before a character for the character with 口 beside it, as Hong Kong typed them before input methods
# had them (o岩 啱, o既 嘅, o個 嗰, o係 喺): the two read as the one character (o岩 read ou1 ngaam4)
O_FOR_MOUTH = {"岩": "啱", "既": "嘅", "個": "嗰", "係": "喺", "甘": "咁", "黎": "嚟", "野": "嘢", "的": "啲",
               "下": "吓", "向": "响", "架": "㗎", "拿": "嗱"}
_O_FOR_MOUTH = re.compile("(?<![A-Za-z0-9])[oO]([" + "".join(O_FOR_MOUTH) + "])")  # (not a formula's: H2O係水)
# ... and a lone d beside Han text is 啲, as chat writes it (快d啦, d人, 好d): it was spelled as the letter D; a
# capital D too after an adjective that takes 啲 (快D啦, 好D, 平D: not 去D座, 3D, D餐), and after a demonstrative or
# 有 and 冇 (呢D, 果D人, 嗰D, 有D人: so 呢 and 果 read "this" and "that", as before 啲)
_D_FOR_DI = re.compile(r"(?<![A-Za-z0-9'])d(?![A-Za-z0-9'])(?:(?=\s?[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff]d))"
                       r"|(?<=[快好多少大細早遲平貴慢靚近遠高矮長短易難輕重鬆緊急凍熱呢果嗰哩依有冇])D(?![A-Za-z0-9'])")

# a range of English weekdays (opening hours: Mon-Fri, Sat - Sun, Monday to Friday): 星期一至五
_WEEKDAY_RANGE = re.compile(rf"(?<![A-Za-z])({WEEKDAY})\s?(?:[-–~至]|\sto\s)\s?({WEEKDAY})(?![A-Za-z])")
# ... and one weekday written short before a time or a date (Fri 5pm, Sat 3/8): 星期五, as the range is said;
# letter-to-sound read Fri fi1 (a full name, Friday, stays the English word)
_WEEKDAY_SHORT = re.compile(r"(?<![A-Za-z])(Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun|MON|TUE|WED|THU|FRI|SAT|SUN)\.?"
                            r"(?=\s\d{1,2}(?!\d))")  # (not a score: SAT 1500分 is the test)


_CLOCK_AFTER = LazyPattern(r"\s\d{1,2}(?::\d\d|點)", gated=False)


def _short_weekday(m: re.Match[str]) -> str:
    """Fri 5pm, Sat 3/8: the weekday as the range is said, and a pause before a clock's time (SAT 10:00 read
    星期六十點, one number)."""
    return read_weekday(m.group(1)) + ("，" if _CLOCK_AFTER.match(m.string, m.end()) else "")


# A hum written in letters (hmm, hmmm, hm, mmm) is 嗯, as Cantonese writes it; English read hmm as hu1 mu2 and mmm as
# three spelled Ms (not after a number: 5 mm is millimetres; nor inside an address: www.mm.com, hmm@abc.com)
_HUM = re.compile(r"(?<![A-Za-z0-9.@/_-])(?<![0-9] )(?:[Hh]m+|m{2,})(?![A-Za-z0-9@/_-]|\.[A-Za-z0-9])")


# ASCII emoticons, dropped as emoji are (:D, =], XD, T_T were read as letters or 等於): eyes, an optional nose and a
# mouth, not inside a word or a number (10:30, Q1:D, a=(b), http://); a letter for a mouth not before Han text either;
# hearts, <3 or <3<3, at a text's end or before a space or an exclamation (x<3 and 溫度<3度 compare: 少於三)
# (地址:D座 is block D)
_EMOTICON = re.compile(r"(?<![A-Za-z0-9])(?:[:;=]-?(?:[)(\]\[|/\\]|[DPpOo](?![\u4e00-\u9fff]))|[xX]D+|T[_.]T|"
                       r"[>^=oO-]_[<^=oO-]|(?:<3+)+(?=\s|$|[!！~～]))(?![A-Za-z0-9])")


# A list's marker in brackets where an item starts, as notices and forms write them ((1) 填妥表格, (ii) 持有, (a) 申請):
# its number or letter and a list's pause, as ⑴ is read (the brackets were silent, so (1) 填妥 ran into the item, and
# ii was read as an English word); a Roman numeral up to xx is its number, (i) included
_LIST_MARKER = re.compile(r"(?:^|(?<=[\s。；;：:，,.!?！？]))(?<!\d\s)\(([1-9]\d?|[ivx]{1,5}|[a-z])\)"
                          r"(?=\s|[\u4e00-\u9fff])")  # (not after a number and a space: 第 2 (1) 條)
_ROMAN_VALUES = {roman: value for value, roman in enumerate(
    "i ii iii iv v vi vii viii ix x xi xii xiii xiv xv xvi xvii xviii xix xx".split(), start=1)}


# ... and a phase, a type or a level written in Roman capitals (形點I期, 海怡半島II期, II型糖尿病): its number
_ROMAN_PHASE = re.compile(r"(?<![A-Za-z])(I{1,3}|IV|VI{0,3}|IX|X)(?=\s?(?:期|型|級))")
# ... and a Roman numeral of two letters or more after a name, as English numbers its kings, wars, sequels and
# stages (World War II, Henry VIII, Final Fantasy VII, Stage IV), or after Han text where it cannot be letters
# (鑽石III, 黃金II; 打IV is an IV drip)
_ROMAN_AFTER_NAME = LazyPattern(r"(?<![A-Za-z])([A-Z][a-z]+ )(II|III|IV|VI|VII|VIII|IX|XI|XII|XIII|XIV|XV|XVI|"
                                r"XVII|XVIII|XIX|XX)(?![A-Za-z])|(?<=[\u4e00-\u9fff])(II|III|VII|VIII)(?![A-Za-z])",
                                gated=False)


def _roman_number(m: re.Match[str]) -> str:
    return (m.group(1) or "") + str(_ROMAN_VALUES[(m.group(2) or m.group(3)).lower()])


def _list_marker(m: re.Match[str]) -> str:
    label = m.group(1)
    if label in _ROMAN_VALUES:
        label = str(_ROMAN_VALUES[label])
    elif not label.isdigit() and len(label) > 1:
        return m.group(0)  # letters that are no Roman numeral ((vx), (xxi) is beyond the list's)
    return f"、{label}、"  # a pause before it too, where text comes first: 橋樑： (1) 聖拉菲大橋 (2) 金門大橋


# A weekday written in Han just before a number (星期一至五18:00, 星期五3點, 12月24日(星期二) 19:00): a pause
# between, or the two run into one number (星期一至五十八點, 星期五三點 heard as the fifty-third, 星期二十九點)
_WEEKDAY_BEFORE_NUMBER = LazyPattern(
    "((?:星期|禮拜|週|周)[一二三四五六日天](?:至[一二三四五六日天])?)(?=[)）]?\\s*[0-9])", gated=False)


# 參 among the numerals of a cheque or a receipt (壹佰參拾圓, 參萬元) is three, 叁 saam1, not "take part" (caam1):
# before a place or a unit, or after a place or a zero, or between two numerals (壹貳參肆); one numeral alone beside
# it is no cheque's (陸 is also land: 大陸參加 was read 叁加)
_FORMAL_THREE = LazyPattern("參(?=[拾佰仟萬億圓元])|(?<=[拾佰仟萬億零])參"
                            "|(?<=[壹貳叁肆伍陸柒捌玖])參(?=[壹貳叁肆伍陸柒捌玖])", gated=False)


# the floors a Hong Kong address writes in letters, as its Chinese version writes them: G/F 地下, UG/F 高層地下 (upper
# ground), LG/F 低層地下 (lower ground), M/F 閣樓 (mezzanine)
FLOORS = {"G": "地下", "UG": "高層地下", "LG": "低層地下", "M": "閣樓"}
# (a dash from it to a numbered floor is a range, G/F-2/F 地下至二樓; the Han word before it made it a minus)
_FLOOR = re.compile(r"(?<![A-Za-z])(UG|LG|G|M)/F(?![A-Za-z])(\s?[-–~～]\s?(?=\d))?")


_MARKED_RUN = LazyPattern(f"[{''.join(MARK_KIND)}][^{END}]*{END}", gated=False)
_ENGLISH_ASIDE = LazyPattern(r"[A-Za-z]{2,} [A-Za-z]", gated=False)  # words, not a code: (Peter Chan), not (vx)
_WEEKDAY_ASIDE = LazyPattern(r"\s*(?:星期|禮拜|週|周)?[一二三四五六日天]\s*", gated=False)


def _bracket_pauses(text: str, i: int) -> bool:
    """Whether the bracket at ``i`` sets an aside off from speech on its side: an aside of two Han characters or
    more that no rule wrote (a weekday's, 2日（星期一）, aside) or of English words ((Peter Chan)), the opening
    bracket after something said, the closing one before something more (not before punctuation, which pauses
    itself, nor at the end), or a date's; a code's, a formula's or a word's brackets stay silent (騰訊(0700), 第(a)段,
    x=(1+2), 蘋果 (Apple))."""
    if text[i] == "(":
        end = text.find(")", i)
        inside, spoken_before, more = text[i + 1:end if end > 0 else len(text)], text[:i].strip(), True
    else:
        start = text.rfind("(", 0, i)
        inside, spoken_before = text[start + 1:i] if start >= 0 else "", True
        rest = text[i + 1:].lstrip()
        more = bool(rest) and rest[0] not in PUNCTUATION_PAUSES and rest[0] not in "()"
    said = _MARKED_RUN.sub("", inside)
    aside = sum(map(is_han, said)) >= 2 and not _WEEKDAY_ASIDE.fullmatch(said) or bool(_ENGLISH_ASIDE.search(said)) \
        or MARKS["date"] in inside  # a date's aside: 大坂直美（1997年10月16日－）, 第17（2018年6月11號）
    # ... or a number's right after a number, which would run on into it (得票450（91.09%）: 四百五十百分之…)
    aside = aside or text[i] == "(" and spoken_before.endswith(END) and inside.lstrip()[:1] in MARK_KIND
    return bool(spoken_before) and more and aside


# Jyutping written in the text for a word with no character (好tei1si2啦, ik1, kwaai4仔, Zip1Zip1聲, as Cantonese
# writing on the web does): syllables each with its tone digit, in lower case or with a capital first, every one a
# Jyutping syllable, read as written. One syllable needs two letters or more and is not a word's short form (a4紙,
# ep1, no1 are a paper, an episode and number one); the rules after would read its digits as numbers, so each is
# set aside behind a private-use character of its own (from U+E010, 96 a text) until the segments are made.
_INLINE_JYUTPING = LazyPattern(r"(?<![A-Za-z0-9])(?:[A-Za-z][a-z]*[1-6])+(?![A-Za-z0-9])", gated=False)
_NOT_JYUTPING = frozenset({"no", "ep"})
_JYUTPING_PLACE, _JYUTPING_PLACES = 0xE010, 96


def _is_reserved(ch: str) -> bool:
    """The private-use characters normalisation writes itself (marks and places for Jyutping): a user's are
    dropped, with a warning, before it writes its own."""
    return ch in MARK_KIND or ch in (END, PHRASE_SPACE) or 0 <= ord(ch) - _JYUTPING_PLACE < _JYUTPING_PLACES


def _set_aside_jyutping(text: str) -> tuple[str, list[tuple[str, tuple[str, ...]]]]:
    """``text`` with each Jyutping word replaced by its place character, and the words with their syllables."""
    from .jyutping import JyutpingError, parse_syllable

    written: list[tuple[str, tuple[str, ...]]] = []
    if not any(ch in "123456" for ch in text):
        return text, written

    def place(m: re.Match[str]) -> str:
        syllables = tuple(re.findall("[a-z]+[1-6]", m.group(0).lower()))  # (a sentence's first may be capital)
        if len(written) >= _JYUTPING_PLACES or len(syllables) == 1 and (
                len(m.group(0)) < 3 or m.group(0)[:-1].lower() in _NOT_JYUTPING):
            return m.group(0)
        try:
            said = tuple(str(parse_syllable(s)) for s in syllables)
        except JyutpingError:
            return m.group(0)
        written.append((m.group(0), said))
        return chr(_JYUTPING_PLACE + len(written) - 1)

    return _INLINE_JYUTPING.sub(place, text), written


def _between_numbers(text: str, i: int) -> bool:
    """Whether the space at ``i`` stands between two numbers the rules left apart (M3 13吋, 第3 4段): said
    together they would be one number."""
    if text[i - 1:i] != END:
        return False
    after = i + 1
    while text[after:after + 1] == " ":
        after += 1
    start = text.rfind(MARKS["number"], 0, i)  # the run that ends at i - 1 is a number's
    return text[after:after + 1] == MARKS["number"] and start >= 0 and END not in text[start:i - 1]


_HAN_SPACE_HAN = LazyPattern(r"(?<=[\u3400-\u9fff]) +(?=[\u3400-\u9fff])", gated=False)


def _phrase_spaces(text: str) -> str:
    """``text`` with each space between Han characters a phrase's pause (PHRASE_SPACE), as subtitles and posts write
    them (佢幫我讀咗好多書 直到今日; they ran together), where the phrases they part average three characters or
    more; text cut into words (佢哋 今日 去咗 街市) as it was. The dictionary still reads across them (a space is no
    word's end: 喺佢監視下 開始 keeps 下 haa6)."""
    parted, spaces = _HAN_SPACE_HAN.subn(PHRASE_SPACE, text)
    return parted if spaces and sum(map(is_han, text)) >= 3 * (spaces + 1) else text


# A full-width full stop set apart by spaces between Han names, as subtitles type the dot of a foreign name (唐娜 ．
# 馬丁, 卡爾 ． 薩根: 29 of the 33 in CTCPC and Common Voice): that dot, silent (NFKC made it a full stop, 唐娜 <.>
# 馬丁); without spaces it stays a stop (一道菜．另一道菜, 畢業．攞埋)
_SPACED_NAME_DOT = LazyPattern(r"(?<=[\u3400-\u9fff]) +． +(?=[\u3400-\u9fff])", gated=False)


def normalize(text: str) -> tuple[list[Segment], list[Dropped]]:
    """Split text into Han runs, fixed readings (letters) and pauses; report what had no reading."""
    text = _POWERS.sub(lambda m: (" sq " if m.group(2) == "²" else " cu ") + m.group(1), text)
    if any(ch in _SUPERSCRIPT_DIGITS for ch in text):  # (the patterns compile for the first text that needs them)
        text = _PER_POWER.sub(lambda m: m.group(1) + ("2" if m.group(2) == "²" else "3"), text)
        text = _UNIT_POWER.sub(lambda m: ("平方" if m.group(2) == "²" else "立方") + UNITS[m.group(1)], text)
        text = _EXPONENT.sub(_exponent, text)
    if "^" in text:
        text = _CARET_POWER.sub(lambda m: _power_said(m.group(1)), text)
    if any("\u00bc" <= ch <= "\u00be" or "\u2150" <= ch <= "\u215e" for ch in text):  # 18¾: NFKC wrote 183⁄4
        text = re.sub("(?<=[0-9])(?=[\u00bc-\u00be\u2150-\u215e])", "又", text)
    if "．" in text:
        text = _SPACED_NAME_DOT.sub("·", text)
    text = _APOSTROPHE.sub("'", fold_latin(unicodedata.normalize("NFKC", numbers_as_digits(text.translate(_COLONS)))))
    dropped: list[Dropped] = [Dropped(ch, i) for i, ch in enumerate(text) if _is_reserved(ch)]
    text = "".join(" " if ch in "\t\n\r\v\f" else ch for ch in text if not _is_reserved(ch))
    text, written = _set_aside_jyutping(text)
    if "://" in text:
        text = _URL_SCHEME.sub("", text)
    if " " in text:  # (before the rules, whose own text may hold a space)
        text = _phrase_spaces(text)
    text = _LIST_MARKER.sub(_list_marker, text)
    text = _ROMAN_PHASE.sub(lambda m: str(_ROMAN_VALUES[m.group(1).lower()]), text)
    if "I" in text or "V" in text or "X" in text:
        text = _ROMAN_AFTER_NAME.sub(_roman_number, text)
    if "參" in text:  # (these patterns compile for the first text that could need them)
        text = _FORMAL_THREE.sub("叁", text)
    if any(ch in "期拜週周" for ch in text) and any(ch.isdigit() for ch in text):
        text = _WEEKDAY_BEFORE_NUMBER.sub("\\1，", text)
    text = _D_FOR_DI.sub("啲", _O_FOR_MOUTH.sub(lambda m: O_FOR_MOUTH[m.group(1)], _EMOTICON.sub(" ", text)))
    text = _HUM.sub("嗯", text)
    text = _PARTICLE.sub(marked("particle", lambda m: PARTICLES[m.group(1)]), text)
    text = place_names(text)
    text = _FLOOR.sub(lambda m: FLOORS[m.group(1)] + ("至" if m.group(2) else ""), text)
    text = _WEEKDAY_RANGE.sub(marked("date", read_weekday_range), text)
    text = expand_numbers(_WEEKDAY_SHORT.sub(marked("date", _short_weekday), text))
    if any(ch in GREEK_NAMES for ch in text):
        text = _GREEK_LETTER.sub(lambda m: f" {GREEK_NAMES[m.group()]} ", text)
    segments: list[Segment] = []
    han: list[str] = []
    source = ""  # inside a rewritten number or date

    def flush() -> None:
        if han:
            segments.append(Segment("han", "".join(han), source=source))
            han.clear()

    def pause(kind: str, source: str = "") -> None:
        flush()
        if segments and segments[-1].kind == "pause":
            prev = segments[-1].text
            if PAUSE_STRENGTH[kind] > PAUSE_STRENGTH[prev]:
                segments[-1] = Segment("pause", kind)
            return
        if segments:  # a pause before any speech is just leading silence
            segments.append(Segment("pause", kind, source=source))

    said_in_addresses = _said_in_addresses(text) if "." in text or "/" in text else set()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in MARK_KIND or ch == END:
            flush()
            source = MARK_KIND.get(ch, "")
        elif ch == PHRASE_SPACE:
            pause(PAUSE_COMMA, source="space")
        elif 0 <= (k := ord(ch) - _JYUTPING_PLACE) < len(written):
            flush()
            segments.append(Segment("reading", written[k][0], written[k][1], "jyutping"))
        elif is_han(ch):
            han.append(ch)
        elif ch.isascii() and ch.isalpha():
            j = i
            while j < len(text) and (text[j].isascii() and text[j].isalpha() or
                                     text[j] in "-'" and j + 1 < len(text) and text[j + 1].isascii()
                                     and text[j + 1].isalpha() and text[j - 1].isalpha()):
                j += 1
            flush()
            abbr = find_abbreviation(text, i, j, MARKS["number"])
            if abbr is None:
                segments.extend(_latin_run(text, i, j))
                i = j
                continue
            segments.extend(abbreviation_segments(abbr))
            if abbr.ends_sentence:
                pause(PAUSE_STOP)
            i = abbr.end
            continue
        elif ch in "./" and i in said_in_addresses:
            flush()
            segments.extend(latin_token("dot" if ch == "." else "slash"))
        elif ch in PUNCTUATION_PAUSES:
            pause(PUNCTUATION_PAUSES[ch])
        elif ch in SYMBOL_READINGS and ch != "%":
            reading = SYMBOL_READINGS[ch]
            if ch == "&" and text[i - 1:i].isupper() and text[i + 1:i + 2].isupper():
                reading = "and"  # between capitals, the English and of S&P, R&D, M&A (同 between words)
            elif ch == "+" and re.search(r"[A-Za-z]\+*$", text[max(0, i - 8):i]) and \
                    not (text[i + 1:i + 2].isascii() and text[i + 1:i + 2].isalnum() or text[i + 1:i + 2] in MARK_KIND):
                reading = "plus"  # a name's or a grade's plus, said in English: Disney+, C++, A+ (A+B is 加)
            if reading.isascii():  # @ is said as the English word (et1), as in an email address
                flush()
                segments.extend(latin_token(reading))
            else:
                han.append(reading)
        elif ch == "/" and 0 < i < len(text) - 1 and is_han(text[i - 1]) and is_han(text[i + 1]):
            pause(PAUSE_COMMA)  # between words, a list's or a choice's (顏色：黑/白/灰, 男/女): it ran them together
        elif ch in "】〕" and text[i + 1:].strip() or ch == "/" and text[i - 1:i] == " " == text[i + 1:i + 2] \
                or ch in "”」』" and text[i + 1:].lstrip()[:1] in ("“", "「", "『"):
            pause(PAUSE_COMMA)  # after a tag (【快訊】港股, 〔警告〕內容), at a slash set apart (Tel: … / Fax: …) and
            # between two quotations (「大部隊入嚟喇」「嚟咗唔少人添。」 ran the two together)
        elif ch == "#" and text[i - 1:i] in ("", " ") and text[i + 1:i + 2].isalpha():  # (Han is alphabetic too)
            pause(PAUSE_COMMA)  # a hashtag's start (#香港 #美食 #打卡: they ran together, 香港美食打卡)
        elif ch in "()" and _bracket_pauses(text, i):
            pause(PAUSE_COMMA)  # an aside: 每堂$350（90分鐘）, 4.8/5（2,345個評價） ran the numbers together
        elif ch == " " and _between_numbers(text, i):
            pause(PAUSE_COMMA)  # M3 13吋: 三, 十三 (it ran them together, 三十三, as thirty-three is said)
        elif ch.isspace() or ch in SILENT_MARKS or _is_ignorable(ch):
            pass
        else:
            dropped.append(Dropped(ch, i))
        i += 1
    flush()
    return segments, dropped
