"""Abbreviations in Hong Kong text (Mr. Chan, Dr. Wong, St. Paul's, No. 1, ABC Co. Ltd., U.S.A., e.g.): read as
the word they stand for, or spelled, and their full stops kept from cutting the sentence.

Without this, the dot of "Mr. Chan" was a sentence end: a full pause in the middle of a name, and a streamed
sentence cut in two. Rules (documented in docs/frontend.md):

- titles (Mr Mrs Ms Dr Prof Mt, and St before a possessive name or a name not after another) are read as the
  word (Dr -> doctor, St -> saint: St. Paul's, 去St. Andrew, but Queen St. Central is a street) and their
  dot never ends a sentence; written without the dot they are read so too when a capitalised word follows (Dr
  Chan), as CMUdict alone would read Dr as "drive";
- No. p. pp. before a number are "number", "page", "pages", Rm (its dot or not) "room", Blk block, Lv level, Vol
  volume, Ch chapter, Ep episode; vs. e.g. i.e. are read within the sentence;
- suffixes (etc Ltd Co Inc Corp Jr Sr Rd Ave Bldg Blk Dept Govt sq ft ext approx max min est ref fig sec art feat
  ver, and St after a name: Queen St.) are read as the word; letters with a dot after each (U.S.A., H.K., e.g.,
  i.e., Ph.D.) are spelled without a pause between them;
- chat shorthand is read as its word (thx thanks, plz please, tmr tomorrow, pcs pieces) or spelled (omg, asap, fyi,
  ig), and vs is versus with its dot or without;
- the dot of a suffix or of spelled letters is a full stop only where the text ends: a capitalised word after it
  is as often an address going on (Queen St. Central) as a new sentence; a title's or an infix's dot never is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# the English word each abbreviation is read as (its reading comes from CMUdict, as any English word's)
TITLES = {"mr": "mister", "mrs": "missus", "ms": "ms", "dr": "doctor", "prof": "professor", "mt": "mount"}
INFIXES = {"vs": "versus"}  # with its dot or without (曼聯 vs 利物浦: letter-to-sound read vs as a word)
# only with their dot, and before a number (No. 5, p. 12, pp. 12-15)
DOTTED_BEFORE_NUMBER = {"no": "number", "p": "page", "pp": "pages"}
# before a number, with its dot or without (Rm 1203, Rm. 1203, Blk 5, Lv.99, Vol. 2; RM and LV are letters)
BEFORE_NUMBER = {"rm": "room", "blk": "block", "lv": "level", "lvl": "level", "vol": "volume", "ch": "chapter",
                 "ep": "episode"}
SUFFIXES = {"etc": "etcetera", "ltd": "limited", "co": "company", "inc": "incorporated", "corp": "corporation",
            "jr": "junior", "sr": "senior", "rd": "road", "ave": "avenue", "bldg": "building", "blk": "block",
            "dept": "department", "govt": "government", "sq": "square", "ft": "feet", "ext": "extension",
            "approx": "approximately", "max": "maximum", "min": "minimum", "est": "established", "ref": "reference",
            "fig": "figure", "sec": "section", "art": "article", "feat": "featuring", "ver": "version"}
# chat shorthand: read as the word it stands for (thx -> thanks), or spelled, as it is said (omg -> O M G; CMUdict
# reads fyi as "for your information", and letter-to-sound would make ig and omg one syllable each)
SHORTHANDS = {"thx": "thanks", "thks": "thanks", "tks": "thanks", "plz": "please", "pls": "please", "msg": "message",
              "ppl": "people", "tmr": "tomorrow", "tmrw": "tomorrow", "bday": "birthday", "ur": "your", "pcs": "pieces",
              "fwd": "forward", "cfm": "confirm", "sth": "something", "abt": "about"}
SPELLED_SHORTHANDS = {"omg", "idk", "lol", "asap", "fyi", "imo", "ig", "btw", "tbh", "ootd", "jk", "gg", "np", "fb",
                      "yt", "dm", "oic", "irl", "otw"}
SAINT, STREET = "saint", "street"  # St. before a name (St. Paul's) and after one (Queen St.)
INFIX_LETTERS = {"eg", "ie", "cf"}  # spelled, and never the end of a sentence
# letters each followed by a dot (U.S.A., e.g.; the last dot may be missing), or Ph.D.; not inside a longer run
# of letters, digits or dots (an address: www.e.g.com)
_DOTTED = re.compile(r"(?<![A-Za-z0-9.@])(?:(?:[A-Za-z]\.)+[A-Za-z]\.?|Ph\.D\.?)(?![A-Za-z0-9@]|\.[A-Za-z0-9])")
_WORD = re.compile(r" *([A-Za-z]+)")
_POSSESSIVE = re.compile(r" *[A-Z][a-z]*'s(?![A-Za-z])")  # a saint's church or school: St. Paul's, St. John's
# the Latin word right before a position, only spaces between (a name before St.: Queen St. Central)
_PREVIOUS_WORD = re.compile(r"(?<![A-Za-z'])([A-Za-z][A-Za-z']*) *$")


@dataclass(frozen=True)
class Abbreviation:
    """An abbreviation found at a run of letters: what was written, how it is read, and where it ends."""

    written: str  # as in the text, its dots included: "Dr.", "U.S.A."
    word: str  # the English word it is read as, or "" when its letters are spelled
    letters: str  # the letters spelled ("USA"), or "" when it is read as a word
    end: int  # index just past it in the text (its last dot included)
    ends_sentence: bool  # its last dot is also a full stop


def _next_word(text: str, i: int) -> str:
    """The run of letters after ``text[i:]``'s spaces ("" if something else comes first)."""
    m = _WORD.match(text, i)
    return m.group(1) if m else ""


def _ends_sentence(text: str, end: int) -> bool:
    """A suffix's dot at ``end - 1`` is a full stop too only where the text ends: a capitalised word after it is
    as often an address going on (Queen St. Central) as a new English sentence, and Cantonese text ends its
    sentences with its own 。"""
    return not text[end:].strip()


def find_abbreviation(text: str, start: int, end: int, number_starts: str = "") -> Abbreviation | None:
    """The abbreviation that starts with the run of Latin letters ``text[start:end]``, or None. A number follows
    where the next character after spaces is a digit or one of ``number_starts`` (normalisation's mark for a
    number it has rewritten)."""
    dotted = _DOTTED.match(text, start)
    if dotted:
        written = dotted.group()
        letters = written.replace(".", "")
        infix = letters.lower() in INFIX_LETTERS
        return Abbreviation(written, "", letters, dotted.end(),
                            not infix and _ends_sentence(text, dotted.end()))
    token = text[start:end]
    key = token.lower()
    if key in SHORTHANDS:
        return Abbreviation(token, SHORTHANDS[key], "", end, False)
    if key in SPELLED_SHORTHANDS:
        return Abbreviation(token, "", token, end, False)
    dot = end < len(text) and text[end] == "."
    following = _next_word(text, end + 1 if dot else end)
    before_name = following[:1].isupper()
    if len(token) == 1 and token.isupper() and dot and before_name:
        return Abbreviation(token + ".", "", token, end + 1, False)  # an initial: C. Ronaldo, J. K. Rowling
    if key == "st" and (dot or before_name):
        # the word just before, spaces between (好，Queen St. Central: Queen, not 好,Queen)
        previous = _PREVIOUS_WORD.search(text, max(0, start - 40), start)
        after_name = previous is not None and previous.group(1)[:1].isupper()
        if _POSSESSIVE.match(text, end + dot) or before_name and not after_name:  # St. Paul's, 去St. Andrew
            return Abbreviation(token + "." * dot, SAINT, "", end + dot, False)
        return _suffix(text, token, STREET, end, dot)  # Queen St. Central, Wing Lok St.
    if key in TITLES and (dot or before_name and key in ("dr", "prof", "mt")):
        return Abbreviation(token + "." * dot, TITLES[key], "", end + dot, False)
    if key in BEFORE_NUMBER and not token.isupper() and _number_follows(text, end + dot, number_starts):
        return Abbreviation(token + "." * dot, BEFORE_NUMBER[key], "", end + dot, False)
    if key in INFIXES:
        return Abbreviation(token + "." * dot, INFIXES[key], "", end + dot, dot and _ends_sentence(text, end + 1))
    if not dot:
        return None
    if key in DOTTED_BEFORE_NUMBER:
        if _number_follows(text, end + 1, number_starts):
            return Abbreviation(token + ".", DOTTED_BEFORE_NUMBER[key], "", end + 1, False)
        return None
    if key in SUFFIXES:
        return _suffix(text, token, SUFFIXES[key], end, dot)
    return None


def _number_follows(text: str, i: int, number_starts: str) -> bool:
    after = text[i:].lstrip(" ")[:1]
    return bool(after) and (after.isdigit() or after in number_starts)


def _suffix(text: str, token: str, word: str, end: int, dot: bool) -> Abbreviation:
    return Abbreviation(token + "." * dot, word, "", end + dot, dot and _ends_sentence(text, end + 1))
