"""The words read as stated (runtime/data/stated_words.tsv): rime-cantonese's readings of words ToJyutping lacks,
chosen by hand; they must stay rime's, stay words ToJyutping reads otherwise, and reach the frontend's output."""

import pytest

from cantoedge.datasets.plain_words import rime_words
from cantoedge.runtime.datafiles import read_package_text
from cantoedge.runtime.dictionary import base_dictionary
from cantoedge.runtime.frontend import SOURCES, Frontend
from cantoedge.runtime.lexicon import STATED_WORDS_FILE, load_stated_words, parse_lexicon
from cantoedge.runtime.senses import SHOP, SHOP_WRITTEN


def test_the_stated_words_file_is_valid_sorted_and_read_as_written():
    text = read_package_text(STATED_WORDS_FILE)
    assert parse_lexicon(text, STATED_WORDS_FILE) == load_stated_words()  # one syllable per character, Jyutping
    words = list(load_stated_words())
    assert len(words) >= 100 and words == sorted(words, key=str.encode)


def test_every_stated_word_is_rime_cantonese_s_own_reading_of_a_word_tojyutping_reads_otherwise():
    """Each entry is rime's reading, a word of three characters or more that ToJyutping has no entry for and whose
    characters it reads alone some other way (otherwise the entry would change nothing, or change rime's word), or
    one of the few words of two that ToJyutping lists in another sense (表面, a watch's face for it) or writes with
    舖 where text writes 鋪 for it (鋪頭: rime's 舖頭)."""
    rime, base = rime_words(), base_dictionary()
    for word, reading in load_stated_words().items():
        assert (len(word) >= 3 and base.get(word) is None) or word in RESENSED or word in SHOP_WORDS, word
        assert rime.get(word, rime.get(word.replace(SHOP, SHOP_WRITTEN))) == tuple(reading.split()), word
        assert [r for _, r, _ in base.matches(word)] != reading.split(), word


RESENSED = {"表面"}  # ToJyutping's 表面 is biu1 min2, 錶面; rime, CC-Canto and CC-CEDICT read the surface biu2 min6
SHOP_WORDS = {"鋪頭", "鋪位", "鋪面", "當鋪"}  # ToJyutping and rime write them 舖頭 …; ToJyutping reads 鋪 "to spread"


@pytest.mark.parametrize("text, word, reading", [
    ("佢哋日日都排長龍", "排長龍", ["paai4", "coeng4", "lung4"]),  # 長 zoeng2, "to grow", alone
    ("花粉有好多蛋白質", "蛋白質", ["daan6", "baak6", "zat1"]),  # 蛋白 daan2 baak2, egg white
    ("下晝去我寫字樓簽合約", "寫字樓", ["se2", "zi6", "lau4"]),
    ("佢表面上係生意佬", "表面上", ["biu2", "min6", "soeng6"]),  # 表 biu1, a watch
    ("地球表面有七成係海", "表面", ["biu2", "min6"]),  # ToJyutping's own 表面 is a watch's face, biu1 min2
    ("香港係一個國際大都會", "國際大都會", ["gwok3", "zai3", "daai6", "dou1", "wui6"]),
    ("今日鋪頭好忙", "鋪頭", ["pou3", "tau2"]),  # 鋪 written for 舖, "a shop": ToJyutping's 舖頭 and rime's
    ("由政府改建舊當鋪", "當鋪", ["dong3", "pou2"]),
    ("佢一見到生暴人就思思縮縮", "生暴人", ["saang1", "bou2", "jan4"]),  # 暴 bou6 alone: "violent"
    ("慢慢食因住鯁親", "因住鯁親", ["jan1", "zyu6", "kang2", "can1"]),  # 鯁 gang2 alone: 骨鯁, "a fishbone"
    ("我功課冚巴唥做完晒", "冚巴唥", ["ham6", "baa6", "laang6"]),  # 冚 kam2 alone: "to cover"
])
def test_the_frontend_reads_a_stated_word_as_stated_and_says_so(text, word, reading):
    r = Frontend()(text)
    start = text.index(word)
    assert r.jyutping[start:start + len(word)] == reading
    assert set(r.sources[start:start + len(word)]) == {"rime"} and "rime" in SOURCES
    assert f"rime-cantonese word {word.replace(SHOP, SHOP_WRITTEN)}" in r.why[start]


def test_the_stated_words_are_no_part_of_plain_tojyutping_nor_of_a_modal_will():
    """``stated=False`` (g2p-eval's ToJyutping rows) reads without them; 大家大都會同意 ("most will agree") is no
    metropolis: only 國際大都會 is stated, not 大都會."""
    assert Frontend(lexicon={}, stated=False)("排長龍").jyutping[1] == "zoeng2"
    assert Frontend()("大家大都會同意").jyutping[4] == "wui5"
