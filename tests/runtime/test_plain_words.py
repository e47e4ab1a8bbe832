from cantoedge.runtime.datafiles import read_package_text
from cantoedge.runtime.frontend import Frontend
from cantoedge.runtime.jyutping import parse_syllable
from cantoedge.runtime.plain_words import LONGEST, PLAIN_WORDS_FILE, SHORTEST, PlainWords, load_plain_words


def test_a_plain_word_covers_a_character_only_where_the_dictionary_reads_all_of_it_alone():
    words = PlainWords({"天下", "樓下"})
    assert words.covering("君臨天下", 3, lambda j: True) == "天下"
    assert words.covering("君臨天下", 1, lambda j: True) is None
    assert words.covering("君臨天下", 3, lambda j: j != 2) is None  # 天 inside a dictionary word: no plain word
    assert words.covering("佢喺樓下", 2, lambda j: True) == "樓下"


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
    assert Frontend(plain_words=PlainWords(set()))("君臨天下").jyutping[-1] == "haa5"  # without them, as before
