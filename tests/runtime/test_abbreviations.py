"""Abbreviations in Hong Kong text: read as their words or spelled, and their dots never a pause inside a name."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cantoedge.runtime.abbreviations import TITLES, find_abbreviation
from cantoedge.runtime.frontend import Frontend
from cantoedge.runtime.inventory import PAUSE_STOP
from cantoedge.runtime.normalize import normalize


@pytest.fixture(scope="module")
def frontend():
    return Frontend()


def said(text: str) -> list[tuple[str, str]]:
    """(what was written, how it is read) per segment: the word, the spelled letters, or the pause."""
    segments, _ = normalize(text)
    return [(s.text, s.word or s.source if s.kind == "reading" else s.kind if s.kind == "han" else s.text)
            for s in segments]


@pytest.mark.parametrize("text, expected", [
    ("Mr. Chan話", [("Mr.", "mister"), ("Chan", "english"), ("話", "han")]),
    ("Dr. Wong", [("Dr.", "doctor"), ("Wong", "english")]),
    ("Dr Wong", [("Dr", "doctor"), ("Wong", "english")]),  # without its dot too (CMUdict alone: "drive")
    ("Mrs. Lee同Ms. Ho", [("Mrs.", "missus"), ("Lee", "english"), ("同", "han"), ("Ms.", "ms"), ("Ho", "english")]),
    ("St. Paul's書院", [("St.", "saint"), ("Paul's", "english"), ("書院", "han")]),
    ("Queen St.有間舖", [("Queen", "english"), ("St.", "street"), ("有間舖", "han")]),
    ("Visit St. John's", [("Visit", "english"), ("St.", "saint"), ("John's", "english")]),  # a possessive: a saint
    ("Queen St. Central", [("Queen", "english"), ("St.", "street"), ("Central", "english")]),
    # the name right before it, whatever comes before the name (it read saint after 好， or 去)
    ("好，Queen St. Central", [("好", "han"), ("<,>", "<,>"), ("Queen", "english"), ("St.", "street"),
                              ("Central", "english")]),
    ("去Queen St. Central", [("去", "han"), ("Queen", "english"), ("St.", "street"), ("Central", "english")]),
    ("No. 1", [("No.", "number"), ("一", "han")]),
    ("No.1", [("No.", "number"), ("一", "han")]),
    ("Rm 1203", [("Rm", "room"), ("一二零三", "han")]),  # a room number, digit by digit
    ("Lv.99", [("Lv.", "level"), ("九十九", "han")]),  # a level, a volume: no pause at their dot
    ("Blk 5", [("Blk", "block"), ("五", "han")]),
    ("p. 12", [("p.", "page"), ("十二", "han")]), ("Fig. 2", [("Fig.", "figure"), ("二", "han")]),
    ("approx. 3小時", [("approx.", "approximately"), ("三", "han"), ("小時", "han")]),
    ("max. 10人", [("max.", "maximum"), ("十", "han"), ("人", "han")]), ("3 pcs", [("三", "han"), ("pcs", "pieces")]),
    ("Ref. No. 12345", [("Ref.", "reference"), ("No.", "number"), ("一二三四五", "han")]),
    ("Eason feat. Jay", [("Eason", "english"), ("feat.", "featuring"), ("Jay", "english")]),
    ("曼聯 vs 利物浦", [("曼聯", "han"), ("vs", "versus"), ("利物浦", "han")]),
    ("Vol. 2", [("Vol.", "volume"), ("二", "han")]),
    ("LV 3", [("L", "spelled"), ("V", "spelled"), ("三", "han")]),  # capitals are letters
    ("thx!", [("thx", "thanks"), ("<!>", "<!>")]),  # chat shorthand: its word; its punctuation still a pause
    ("plz等我", [("plz", "please"), ("等我", "han")]),
    ("我fwd咗", [("我", "han"), ("fwd", "forward"), ("咗", "han")]),  # shorthand Hong Kong chat writes: spelled before
    ("等我cfm先", [("等我", "han"), ("cfm", "confirm"), ("先", "han")]),
    ("C. Ronaldo入波", [("C", "spelled"), ("Ronaldo", "english"), ("入波", "han")]),  # an initial: no full stop
    ("我揀B. 你呢", [("我揀", "han"), ("B", "spelled"), ("<.>", "<.>"), ("你呢", "han")]),
    ("omg", [("O", "spelled"), ("M", "spelled"), ("G", "spelled")]),  # letter-to-sound made it one syllable
    ("ig story", [("I", "spelled"), ("G", "spelled"), ("story", "english")]),
    ("oic", [("O", "spelled"), ("I", "spelled"), ("C", "spelled")]),  # "oh I see"; letter-to-sound read ok1
    ("我otw", [("我", "han"), ("O", "spelled"), ("T", "spelled"), ("W", "spelled")]),
    ("Rm. 1203室", [("Rm.", "room"), ("一二零三", "han"), ("室", "han")]),
    ("RM100", [("R", "spelled"), ("M", "spelled"), ("一零零", "han")]),  # capitals are letters (the ringgit)
    ("呢個vs.嗰個", [("呢個", "han"), ("vs.", "versus"), ("嗰個", "han")]),
    ("ABC Co. Ltd.請人", [("A", "spelled"), ("B", "spelled"), ("C", "spelled"), ("Co.", "company"),
                        ("Ltd.", "limited"), ("請人", "han")]),
    ("Nathan Rd. 7號", [("Nathan", "english"), ("Rd.", "road"), ("七", "han"), ("號", "han")]),
])
def test_abbreviations_are_read_as_their_words_without_a_pause(text, expected):
    assert said(text) == expected


@pytest.mark.parametrize("text, letters", [("佢喺U.S.A.讀書", "USA"), ("佢喺U.S.A讀書", "USA"), ("i.e.即係", "IE"),
                                           ("e.g. apple", "EG"), ("Ph.D.畢業", "PHD")])
def test_letters_with_dots_are_spelled_without_pauses(text, letters):
    segments, _ = normalize(text)
    assert "".join(s.text for s in segments if s.source == "spelled") == letters
    assert all(s.kind != "pause" for s in segments)


@pytest.mark.parametrize("text, stops", [
    ("水果etc.都有", 0),  # a suffix inside a sentence
    ("水果、餅乾etc.", 0),  # at the end: the text ends anyway (a final pause is dropped)
    ("Queen St. Central", 0),  # a capitalised word after a suffix: here an address going on
    ("ABC Co. Ltd.", 0),
    ("Mr. Chan. Dr. Wong.", 1),  # the full stop after a name still ends its sentence
    ("say no. OK", 1),  # No. is "number" only before one: here it is the word and a full stop
])
def test_a_dot_ends_a_sentence_only_where_one_ends(text, stops):
    segments, _ = normalize(text)
    inner = [s for s in segments[:-1] if s.kind == "pause" and s.text == PAUSE_STOP]
    assert len(inner) == stops, segments


def test_addresses_and_times_keep_their_own_rules():
    assert [s.text for s in normalize("x.y@gmail.com")[0]][:4] == ["X", "dot", "Y", "at"]
    assert normalize("www.e.g.com")[0][-2].text == "dot"  # letters with dots inside an address are not spelled
    assert [s.source for s in normalize("8a.m.開會")[0]] == ["number", ""]  # the time rule reads a.m. first


def test_a_run_of_letters_that_is_no_abbreviation_is_left_alone():
    assert find_abbreviation("hello. World", 0, 5) is None
    assert find_abbreviation("Mr Chan", 0, 2) is None  # CMUdict reads Mr as mister already
    assert find_abbreviation("so no. one", 3, 5) is None  # No. is "number" only before a number
    assert find_abbreviation("so no. 1", 3, 5).word == "number"


def test_g2p_names_the_abbreviation_and_its_word(frontend):
    r = frontend("Dr. Wong話")
    assert r.jyutping[:2] == ["dok1", "taa2"] and r.sources[:2] == ["abbreviation"] * 2
    assert r.why[0] == "abbreviation 'Dr.' read as 'doctor'"
    assert PAUSE_STOP not in r.encoded.phones  # the dot no longer cuts the sentence


@given(title=st.sampled_from(sorted(TITLES)), name=st.from_regex(r"[A-Z][a-z]{1,8}", fullmatch=True),
       han=st.sampled_from(["", "話", "今日嚟咗"]))
@settings(max_examples=200, deadline=None)
def test_a_title_before_any_name_is_one_sentence(title, name, han):
    text = f"{title.capitalize()}. {name}{han}"
    segments, _ = normalize(text)
    assert all(s.kind != "pause" for s in segments), segments
    assert segments[0].word == TITLES[title]
