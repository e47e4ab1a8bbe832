"""English words inside Cantonese text, read as words the way Hong Kong speakers adapt loanwords, so the voice
can say them with its own syllables: the CMU Pronouncing Dictionary (compiled into runtime/data, see
`cantoedge corpus english-dict`), a small letter-to-sound fallback, and rules from ARPAbet to Jyutping:

- syllables follow the English vowels; a consonant between vowels starts the next syllable, the first of a
  cluster closes the previous one when Cantonese allows it as a coda (p t k m n ng);
- consonants Cantonese cannot end a syllable with, and the first consonants of an onset cluster, become
  syllables of their own (smart -> si1 maat1, email -> ji1 mei1 lou2), but k and g before w are Cantonese's own
  kw and gw (quiz -> kwi1 si2); r after a vowel is silent, elsewhere l;
  y, r and l after an onset consonant are dropped, except a y before u, said iu (cute -> kiu1, computer -> kam1
  piu1 taa2, YouTube -> ju1 tiu1); a stop after the final coda is dropped (send -> sen1,
  project -> po1 zek2); a final unstressed -el/-al is -ou (cancel -> ken1 sou2);
- a single consonant after a stressed short vowel closes that syllable and starts the next (dinner ->
  din1 naa2, happy -> hep1 pi2);
- CMUdict's AA is read o where the spelling has an o and no a (copy -> ko1 pi2, boss -> bo1 si2), as Hong Kong's
  British English says it, but not before p, b or m, which Jyutping's o cannot take (shop -> saap1);
- tones: syllables up to the stress and every stressed one are high level (1); after it the last syllable
  rises (2), vowel syllables between are low falling (4) and consonant syllables high (1).

Acronyms and short all-capital tokens are spelled with the Hong Kong letter names (normalize.py). This is an
approximation of a real adaptation process, which also varies by speaker and word; docs/frontend.md lists its limits."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .datafiles import read_package_bytes
from .dictionary import SortedWords
from .jyutping import JyutpingError, parse_syllable

DATA_FILE = "english.tsv.gz"
_VOWELS = {"AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"}
ONSET = {"P": "p", "B": "b", "T": "t", "D": "d", "K": "k", "G": "g", "F": "f", "V": "w", "TH": "f", "DH": "d",
         "S": "s", "Z": "s", "SH": "s", "ZH": "s", "HH": "h", "CH": "c", "JH": "z", "M": "m", "N": "n", "NG": "ng",
         "L": "l", "R": "l", "W": "w", "Y": "j", "KW": "kw", "GW": "gw"}
NUCLEUS = {"AA": "aa", "AE": "e", "AH": "a", "AO": "o", "AW": "aau", "AY": "aai", "EH": "e", "ER": "aa",
           "EY": "ei", "IH": "i", "IY": "i", "OW": "ou", "OY": "oi", "UH": "u", "UW": "u"}
CODA = {"P": "p", "B": "p", "T": "t", "D": "t", "K": "k", "G": "k", "M": "m", "N": "n", "NG": "ng"}
# a consonant that cannot close a syllable, said as a syllable of its own
OWN_SYLLABLE = {"S": "si", "Z": "si", "SH": "syu", "ZH": "syu", "CH": "cyu", "JH": "zyu", "F": "fu", "V": "fu",
                "TH": "fu", "DH": "di", "L": "lou", "P": "pu", "B": "bu", "T": "tu", "D": "di", "K": "ku", "G": "gu",
                "M": "mu", "N": "nu", "HH": "hu", "W": "wu", "Y": "ji", "NG": "ng"}
NASALS = {"M", "N", "NG"}
STOPS = {"P", "B", "T", "D", "K", "G"}
LAX = {"IH", "EH", "AE", "AH", "UH"}  # short vowels: a single consonant after a stressed one is heard twice


@dataclass(frozen=True)
class _Syllable:
    onset: str  # ARPAbet consonant or ""
    vowel: str  # ARPAbet vowel without stress, or "" for a consonant said on its own
    stress: int  # 1 primary, 2 secondary, 0 none
    coda: str = ""
    own: str = ""  # a consonant said on its own: its Jyutping without tone
    yod: bool = False  # a y between the onset and a u (cute, computer, YouTube): said iu, kiu, piu, tiu


def syllabify(phones: list[str]) -> list[_Syllable]:
    """ARPAbet phones (with stress digits) to Cantonese-shaped syllables."""
    nuclei = [i for i, p in enumerate(phones) if p.rstrip("012") in _VOWELS]
    if not nuclei:
        return [_Syllable("", "", 0, own=OWN_SYLLABLE.get(p, "")) for p in phones if OWN_SYLLABLE.get(p)]
    out: list[_Syllable] = []
    start, shared = 0, False
    for k, n in enumerate(nuclei):
        onset = phones[start:n]
        onset = [p for j, p in enumerate(onset) if p != "R" or j == len(onset) - 1]  # r before a vowel is l
        vowel = phones[n].rstrip("012")
        yod = len(onset) > 1 and onset[-1] == "Y" and vowel in ("UW", "UH")
        # the first consonants of a cluster are said on their own (smart -> si maat); a y, r or l after one is
        # dropped (present -> pe san), as Hong Kong speech simplifies them, but a y before u is kept as iu (yod)
        if len(onset) > 1 and onset[-1] in ("Y", "R", "L"):
            onset = onset[:-1]
        if len(onset) > 1 and onset[-1] == "W" and onset[-2] in ("K", "G"):  # Cantonese's own kw, gw: quiz -> kwi si
            onset = onset[:-2] + [onset[-2] + "W"]
        for c in onset[:-1]:
            if c in OWN_SYLLABLE:
                out.append(_Syllable("", "", 0, own=OWN_SYLLABLE[c]))
        stress = int(phones[n][-1]) if phones[n][-1].isdigit() else 0
        nxt = nuclei[k + 1] if k + 1 < len(nuclei) else len(phones)
        between = [p for p in phones[n + 1: nxt] if p != "R"]  # r after a vowel is silent
        last = k + 1 == len(nuclei)
        coda, trailing = "", []
        if last:
            if between and between[0] in CODA:
                coda, trailing = between[0], between[1:]
                # a stop right after the coda is not heard: send -> sen, camp -> kem, project -> pro zek
                drop = CODA if coda in NASALS else STOPS
                while trailing and trailing[0] in drop:
                    trailing = trailing[1:]
            else:
                trailing = between
            # a final stop after s is not heard either: post -> pou si, list -> lit si
            trailing = [c for j, c in enumerate(trailing)
                        if not (c in STOPS and j == len(trailing) - 1 and j and trailing[j - 1] in ("S", "Z"))]
            if vowel == "AH" and stress == 0 and trailing[:1] == ["L"]:  # -el, -al: cancel -> ken sou
                vowel, trailing = "OW", trailing[1:]
        elif len(between) > 1 and between[0] in CODA and not _yod_follows(between, phones, nxt):
            coda = between[0]
        elif len(between) == 1 and between[0] in CODA and stress == 1 and vowel in LAX:
            coda, shared = between[0], True  # dinner -> din naa, happy -> hep pi: closes this one, starts the next
        ons = onset[-1] if onset else ""
        out.append(_Syllable(ons, vowel, stress, coda, yod=yod))
        out += [_Syllable("", "", 0, own=OWN_SYLLABLE[c]) for c in trailing if c in OWN_SYLLABLE]
        start = n + 1
        if coda and not last and not shared:  # the next onset begins after this coda (an r before it is silent)
            start = next(j for j in range(n + 1, nxt) if phones[j] == coda) + 1
        shared = False
    return out


def _yod_follows(between: list[str], phones: list[str], nxt: int) -> bool:
    """A consonant, then y and u (YouTube's T Y UW): the consonant starts the next syllable, tiu, rather than
    closing this one (jut ju)."""
    return between[1:] == ["Y"] and nxt < len(phones) and phones[nxt].rstrip("012") in ("UW", "UH")


def _rime(vowel: str, coda: str) -> list[str]:
    """Candidate rimes, best first: the vowel with its coda, then without its glide (phone -> fon), then open;
    /ai/ keeps its glide and loses the coda instead (line -> laai), and so does /au/ before a stop, as Hong Kong
    says out, about and checkout (aau1, aa1 baau1, cek1 kaau1), while before a nasal it loses the glide (down ->
    daan1, as down機)."""
    base = NUCLEUS[vowel]
    if vowel == "AH" and not coda:
        base = "aa"  # an open schwa: sofa -> sou faa
    tail = CODA.get(coda, "")
    if not tail:
        return [base]
    if vowel == "AY" or (vowel == "AW" and coda in STOPS):
        return [base, base + tail]
    return [base + tail, base.rstrip("iu") + tail, base]


def to_jyutping(phones: list[str]) -> tuple[str, ...]:
    """One English pronunciation (ARPAbet) as Jyutping syllables with loanword tones."""
    sylls = syllabify(phones)
    stressed = next((i for i, s in enumerate(sylls) if s.stress == 1), None)
    if stressed is None:
        stressed = next((i for i, s in enumerate(sylls) if s.vowel), 0)
    out = []
    for i, s in enumerate(sylls):
        if i <= stressed or s.stress:
            tone = 1  # up to the stress, and any stressed syllable: high level
        elif i == len(sylls) - 1:
            tone = 2  # the last unstressed syllable rises
        else:
            tone = 1 if s.own else 4
        if s.own:
            candidates = [s.own]
        else:
            onset = ONSET.get(s.onset, "")
            rimes = (["iu"] if s.yod else []) + _rime(s.vowel, s.coda)
            if not onset and rimes[0][0] in "iu":  # a vowel-initial i or u takes its glide: email -> ji mei lou
                onset = "j" if rimes[0][0] == "i" else "w"
            candidates = [onset + r for r in rimes]
        out.append(_first_valid(candidates, tone))
    return tuple(out)


def _first_valid(candidates: list[str], tone: int) -> str:
    for c in candidates:
        try:
            parse_syllable(f"{c}{tone}")
            return f"{c}{tone}"
        except JyutpingError:
            continue
    return f"aa{tone}"  # never reached with the tables above; a syllable the voice can say


# --- a small letter-to-sound fallback for words the dictionary lacks -------------------------------------------

_GRAPHEMES = [("tch", ["CH"]), ("sch", ["S", "K"]), ("ch", ["CH"]), ("sh", ["SH"]), ("ph", ["F"]), ("th", ["TH"]),
              ("ng", ["NG"]), ("ck", ["K"]), ("qu", ["K", "W"]), ("wh", ["W"]), ("ee", ["IY1"]), ("ea", ["IY1"]),
              ("oo", ["UW1"]), ("ou", ["AW1"]), ("ow", ["OW1"]), ("ai", ["EY1"]), ("ay", ["EY1"]), ("oi", ["OY1"]),
              ("oy", ["OY1"]), ("au", ["AO1"]), ("aw", ["AO1"]), ("a", ["AE1"]), ("e", ["EH1"]), ("i", ["IH1"]),
              ("o", ["AA1"]), ("u", ["AH1"]), ("b", ["B"]), ("c", ["K"]), ("d", ["D"]), ("f", ["F"]), ("g", ["G"]),
              ("h", ["HH"]), ("j", ["JH"]), ("k", ["K"]), ("l", ["L"]), ("m", ["M"]), ("n", ["N"]), ("p", ["P"]),
              ("r", ["R"]), ("s", ["S"]), ("t", ["T"]), ("v", ["V"]), ("w", ["W"]), ("x", ["K", "S"]),
              ("z", ["Z"])]


def letter_to_sound(word: str) -> list[str] | None:
    """A rough ARPAbet guess (first vowel stressed, the rest not); None when the word has no vowel letter
    (xyz, www, hk: spelled instead)."""
    w = word.lower()
    if not re.search(r"[aeiou]", w):
        return None
    if len(w) > 3 and w.endswith("e") and w[-2] not in "aeiou":
        w = w[:-1]  # a silent final e
    phones: list[str] = []
    i = 0
    while i < len(w):
        if w[i] == "y":
            phones.append("Y" if i == 0 else "IY1")
            i += 1
            continue
        if w[i] == "c" and i + 1 < len(w) and w[i + 1] in "eiy":
            phones.append("S")
            i += 1
            continue
        for g, ph in _GRAPHEMES:
            if w.startswith(g, i):
                if not phones or phones[-1] != ph[-1] or ph[-1][-1].isdigit():  # doubled letters: one sound
                    phones += ph
                i += len(g)
                break
        else:
            i += 1
    seen = False
    for k, p in enumerate(phones):
        if p[-1].isdigit():
            phones[k] = p[:-1] + ("1" if not seen else "0")
            seen = True
    return phones


@lru_cache(maxsize=1)
def pronunciations() -> SortedWords:
    """The compiled dictionary, word -> ARPAbet of its first pronunciation (space-separated), decompressed on the
    first English word and searched in place: parsed into a dict of 117,000 words it took 40 MB and 0.1 s of a
    `say` (peak RSS 137 MB for 佢send咗email俾我, against 89 MB without English)."""
    import gzip  # here: a sentence without English never needs it

    return SortedWords(gzip.decompress(read_package_bytes("data/" + DATA_FILE)))


def british_o(word: str, phones: list[str]) -> list[str]:
    """CMUdict is American: its AA is also the short o of copy, boss and doctor, which Hong Kong, taught British
    English, says o (ko1 pi2, bo1 si2). Where the spelling has an o and no a, AA is that o, except before p, b or
    m: Jyutping has no rime op or om, and aa keeps the consonant (shop saap1, job zaap1, .com kaam1)."""
    w = word.lower()
    if "o" not in w or "a" in w:
        return phones

    def closed_by_pbm(i: int) -> bool:  # a p, b or m after it that no vowel follows: the syllable's coda
        after = [q.rstrip("012") for q in phones[i + 1:i + 3]]
        return bool(after) and after[0] in ("P", "B", "M") and (len(after) == 1 or after[1] not in _VOWELS)

    return ["AO" + p[2:] if p.rstrip("012") == "AA" and not closed_by_pbm(i) else p for i, p in enumerate(phones)]


# RP's BATH words (Wells, Accents of English, 1982), said with the open back vowel of father where American English
# says the TRAP vowel of cat, as CMUdict writes them (AE): Hong Kong, taught British English, says aa there (pass
# paa1 si2, sample saam1 pou2, dance daan1 si2) and e in the TRAP words beside them (band ben1, cancel ken1 sou2,
# fans fen1 si2, plan pen1). The set is a list of words, not a rule: which words before f, th, s or a nasal and a
# consonant take it is a matter of each word (ask and class do; gas, mass, classic, passage and fantastic do not).
BATH_WORDS = frozenset("""
    after afternoon afterwards aftermath craft draft draught graft raft shaft staff half calf laugh laughter giraffe
    bath path rather
    pass past passport password class glass grass brass mask task ask basket casket flask fast last vast cast castle
    nasty master plaster disaster broadcast forecast podcast contrast blast grasp clasp ghastly pastor aghast mast
    outcast overcast steadfast
    chance dance france lance advance enhance glance trance answer command demand commando branch example sample
    plant grant chant slant aunt advantage disadvantage can't shan't banana chancellor
    """.split())
_BATH_ENDINGS = ("s", "es", "ed", "ing", "er", "ers", "ly")  # passes, asked, dancing (dance), lastly, masters


def is_bath_word(word: str) -> bool:
    """Whether ``word`` is one of BATH_WORDS or one of them with an ending (passes, asked, dancing, planted)."""
    w = word.lower().replace("’", "'")
    return w in BATH_WORDS or any(w.endswith(end) and (w[:-len(end)] in BATH_WORDS or w[:-len(end)] + "e" in BATH_WORDS)
                                  for end in _BATH_ENDINGS)


def british_a(word: str, phones: list[str]) -> list[str]:
    """A BATH word's stressed AE read AA, as Hong Kong's British English says it (pass paa1 si2, not pe1 si2)."""
    if not is_bath_word(word):
        return phones
    return ["AA" + p[2:] if p in ("AE1", "AE2") else p for p in phones]


def british(word: str, phones: list[str]) -> list[str]:
    """CMUdict's American vowels as Hong Kong's British English says them: the short o, then the BATH vowel."""
    return british_a(word, british_o(word, phones))


def compound(word: str) -> tuple[str, str] | None:
    """Two words CMUdict knows that a word it lacks is written as (Foodpanda, carpark, staycation: food panda, car
    park), each of three letters or more and one of four (CMUdict's short words are often obscure: Bemail is no bem
    ail); the most even cut, then the longer second part; None when there is none (letter-to-sound)."""
    w = word.lower()
    words = pronunciations()
    cuts = [cut for cut in range(3, len(w) - 2) if max(cut, len(w) - cut) >= 4
            and w[:cut] in words and w[cut:] in words]
    if not cuts:
        return None
    best = max(cuts, key=lambda cut: (min(cut, len(w) - cut), -cut))
    return w[:best], w[best:]


def read_word(word: str) -> tuple[tuple[str, ...], str] | None:
    """Jyutping for an English word and where it came from ("english" dictionary or "letter-to-sound"); None
    when neither can say it (no vowel letter: spell it)."""
    phones = pronunciations().get(word.lower())
    if phones:
        return to_jyutping(british(word, phones.split())), "english"
    if len(word) > 3 and word.lower().endswith("s") and re.search("[aeiouy]", word.lower()[:-1]) \
            and (stem := pronunciations().get(word.lower()[:-1])):
        return to_jyutping(british(word, stem.split() + ["S"])), "english"  # a plural it lacks: Maths, not https
    if parts := compound(word):
        return tuple(s for part in parts for s in read_word(part)[0]), "english"  # each part as CMUdict says it
    guess = letter_to_sound(word)
    return (to_jyutping(british(word, guess)), "letter-to-sound") if guess else None
