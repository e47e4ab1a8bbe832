from cantoedge.runtime.datafiles import read_package_text
from cantoedge.runtime.frontend import Frontend
from cantoedge.runtime.jyutping import parse_syllable
from cantoedge.runtime.plain_words import LONGEST, PLAIN_WORDS_FILE, SHORTEST, PlainWords, load_plain_words


def test_a_plain_word_covers_a_character_only_where_the_dictionary_reads_all_of_it_alone():
    words = PlainWords({"天下": ("tin1", "haa6"), "樓下": ("lau4", "haa6")})
    assert words.covering("君臨天下", 3, lambda j: True) == ("天下", "haa6")
    assert words.covering("君臨天下", 2, lambda j: True) == ("天下", "tin1")
    assert words.covering("君臨天下", 1, lambda j: True) is None
    assert words.covering("君臨天下", 3, lambda j: j != 2) is None  # 天 inside a dictionary word: no plain word
    assert words.covering("佢喺樓下", 2, lambda j: True) == ("樓下", "lau4")
    assert load_plain_words().covering("君臨天下", 3, lambda j: True) == ("天下", "haa6")  # the bundled file too


def test_the_bundled_file_is_sorted_valid_and_found_in_place():
    lines = [line for line in read_package_text(PLAIN_WORDS_FILE).splitlines() if not line.startswith("#")]
    assert len(lines) > 5000
    assert lines == sorted(lines, key=lambda line: line.encode())
    for line in lines[::97]:
        word, readings = line.split("\t")
        assert SHORTEST <= len(word) <= LONGEST and len(readings.split(",")) == len(word)
        for reading in readings.split(","):
            parse_syllable(reading)
        assert word in load_plain_words().words


def test_no_context_rule_reads_a_character_inside_a_plain_word():
    """HKCanCor's 下 at a run's end -> haa5 (睇下) took 天下 and 每況愈下; 度 after 年 -> dou2 (一年度, about a
    year) took 本年度. A word rime-cantonese reads as the dictionary does keeps that reading."""
    f = Frontend()
    assert f("君臨天下").jyutping[-1] == "haa6"
    assert f("每況愈下").jyutping[-1] == "haa6"
    assert f("本年度").jyutping[-1] == "dou6"
    r = f("天下")
    assert "inside the plain word 天下" in r.why[-1] and r.sources[-1] == "ToJyutping"
    assert f("你睇下先").jyutping[2] == "haa5"  # 睇下 is no plain word: the rule reads it
    assert Frontend(plain_words=PlainWords({}))("君臨天下").jyutping[-1] == "haa5"  # without them, as before


def test_the_lexicons_reading_of_a_character_alone_gives_way_inside_a_plain_word():
    """HKCanCor's conversations read 重 alone zung6 ("still"), 爭 zaang1, 咪 mai6 ("then"): a word that rime-cantonese
    reads as ToJyutping reads its characters (體重 cung5, 戰爭 zang1, 咪郁 mai5 "don't move") keeps that reading."""
    f = Frontend()
    assert f("我嘅體重仍然增加").jyutping[3] == "cung5"
    assert f("鴉片戰爭爆發").jyutping[3] == "zang1"
    assert f("你咪郁").jyutping[1] == "mai5"
    assert f("紐約").jyutping[0] == "nau2"
    r = f("侵蝕")
    assert r.jyutping == ["cam1", "sik6"] and r.sources[1] == "ToJyutping"
    assert "inside the plain word 侵蝕" in r.why[1] and "the lexicon's 蝕 → sit6 does not apply" in r.why[1]
    # outside such a word the lexicon reads as before
    assert f("佢重未返").jyutping[1] == "zung6"
    assert f("爭啲").jyutping[0] == "zaang1"
    # a particle's entry stands: rime's phrases with one (忙嗎 maa1, as ToJyutping) say nothing of a word
    assert f("你而家忙嗎").jyutping[-1] == "maa3"
    assert Frontend(plain_words=PlainWords({}))("我嘅體重").jyutping[-1] == "zung6"  # without them, as before
