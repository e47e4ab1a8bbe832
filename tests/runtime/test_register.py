"""Written Chinese or spoken Cantonese (runtime/register.py): which sentences read as written Chinese, and the
literary readings of 來, 使, 刻, 年, 位, 爭, 剩, 儲, 訂, 核 and 聲 there, through the frontend that applies them."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cantoedge.runtime.frontend import Frontend, FrontendError
from cantoedge.runtime.register import LITERARY, SPOKEN_MARKERS, is_written, written_markers


@pytest.fixture(scope="module")
def frontend():
    return Frontend()


@pytest.mark.parametrize("text, written", [
    ("這是他們的選擇", True), ("他們已經離開了", True), ("很多人在冬天時都會選擇穿厚一點的襪", True),
    ("這樣", True), ("你說出來", True),  # one function word of written Chinese is enough
    ("佢哋已經走咗", False), ("這是他們嘅選擇", False),  # one word of speech (嘅) and it is not written Chinese
    ("但是為了的士", False), ("算了", False), ("是但", False),  # words speech says too
    ("他們來了喇", False),  # a particle of speech
    ("好多人出來", False),  # neither: left as speech
    ("", False),
])
def test_a_sentence_is_written_chinese_with_one_of_its_function_words_and_no_word_of_speech(text, written):
    assert is_written(text) == written


def test_words_speech_shares_with_written_chinese_are_not_counted():
    assert written_markers("但是他是的士司機") == ["他", "是"]


@pytest.mark.parametrize("text, char, reading", [
    ("這是他們的選擇，越來越多人站出來了。", "來", "loi4"),  # the lexicon's 越來越 and 出來: lai4
    ("這些人應立刻無條件獲釋的", "刻", "hak1"),  # the lexicon's 刻 alone: haak1
    ("他說今年的收入很好", "年", "nin4"),  # the lexicon's 今年: gam1 nin2
    ("他是一位博學多才的老師", "位", "wai6"),  # the context rule after 一: wai2
    ("這些方法最終使洋行漸次消退了", "使", "si2"),  # the lexicon's 使 alone: sai2
    ("這樣說來", "來", "loi4"),  # the context rule at a run's end: lai4
    ("網民將藍紅之爭說成是兩會的對立", "爭", "zang1"),  # the lexicon's 爭 alone: zaang1, "to owe"
    ("他們說的方式並訂明盡快發放", "訂", "ding3"),  # the lexicon's 訂 alone: deng6, "to book"
    ("此刻的吵鬧聲", "聲", "sing1"),  # the context rule at a run's end: seng1
])
def test_written_chinese_takes_the_literary_reading(frontend, text, char, reading):
    r = frontend(text)
    i = r.graphemes.index(char)
    assert r.jyutping[i] == reading and r.sources[i] == "context" and "written Chinese" in r.why[i]


@pytest.mark.parametrize("text, char, reading", [
    ("佢哋越來越多人站出來", "來", "lai4"), ("即刻去", "刻", "haak1"), ("佢今年十歲", "年", "nin2"),
    ("嗰位先生", "位", "wai2"), ("唔好意思使你咁多錢", "使", "sai2"), ("佢爭我錢", "爭", "zaang1"),
    ("這是他們的選擇，他們都返來了。", "來", "lai4"),  # ToJyutping's own word 返來 keeps its reading
    ("這是他們的權利，他們行使了。", "使", "sai2"),  # and 行使 hang4 sai2
])
def test_spoken_cantonese_and_tojyutpings_own_words_keep_their_readings(frontend, text, char, reading):
    r = frontend(text)
    i = r.graphemes.index(char)
    assert r.jyutping[i] == reading and "written Chinese" not in r.why[i]


def test_a_text_of_written_chinese_reads_its_short_sentences_as_written_too(frontend):
    """A report's sentence with no function word of its own (近年來越來越多人出來) is written Chinese when the whole
    text is; one word of speech in the text (佢哋) leaves each sentence to itself."""
    written = frontend("這是他們的選擇。近年越來越多人出來。")
    spoken = frontend("這是他們的選擇。佢哋越來越多人出來。")
    assert [written.jyutping[i] for i, g in enumerate(written.graphemes) if g == "來"] == ["loi4", "loi4"]
    assert [spoken.jyutping[i] for i, g in enumerate(spoken.graphemes) if g == "來"] == ["lai4", "lai4"]
    assert frontend("這是他們的選擇。").jyutping == spoken.jyutping[:7]  # the first sentence is written by itself


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from([*"來使刻年位爭剩儲訂核聲出越今一即吉大的是了這們說他很佢嘅係咗返行", "，", "。"]),
                     min_size=1, max_size=16).map("".join))
def test_the_written_register_changes_only_the_literary_characters_and_only_to_their_literary_reading(frontend, text):
    """Read as written Chinese or as speech, a text differs only at 來 使 刻 年 位 …, each then its literary reading;
    with a word of speech in it, a sentence reads as speech."""
    han = text.replace("，", "").replace("。", "")
    if not han:
        return
    as_written = frontend.explain_han(han, written=True)
    as_spoken = frontend.explain_han(han, written=False)
    for (ch, written, _, _), (_, spoken, _, _) in zip(as_written, as_spoken):
        assert written == spoken or (ch in LITERARY and written == LITERARY[ch].literary), (han, ch, written, spoken)
    if SPOKEN_MARKERS.intersection(han):
        assert not is_written(han)
        try:
            r = frontend(han)
        except FrontendError:
            return
        assert not any("written Chinese" in why for why in r.why)
