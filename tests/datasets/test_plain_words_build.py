import pytest

from cantoedge.datasets.plain_words import holding, plain_words, rime_words, write_plain_words
from cantoedge.runtime.dictionary import SortedWords, base_dictionary, split_header


def test_plain_words_are_rime_words_read_as_their_characters_alone():
    words = holding(plain_words(base_dictionary()), {"下"})
    assert words["天下"] == ("tin1", "haa6") and "樓下" in words
    assert rime_words()["一下"] == ("jat1", "haa5") and "一下" not in words  # 下 alone is haa6: not plain
    assert all("下" in w for w in words)
    assert "人物" in plain_words(base_dictionary())  # every plain word, before they are kept by character


def test_a_character_giving_way_accepts_the_base_dictionarys_reading_too():
    lexicon = base_dictionary().layered({"重": "zung6"})
    assert "體重" not in plain_words(lexicon)  # rime's cung5 is not the lexicon's zung6
    both = plain_words(lexicon, base_dictionary(), frozenset("重"))
    assert both["體重"] == ("tai2", "cung5") and "重有" in both  # ToJyutping's cung5 and the lexicon's zung6


def test_written_words_are_found_in_place(tmp_path):
    path = tmp_path / "plain.tsv"
    write_plain_words({"天下": ("tin1", "haa6"), "一家上下": ("jat1", "gaa1", "soeng6", "haa6")}, path)
    found = SortedWords(split_header(path.read_bytes()))
    assert found.get("天下") == "tin1,haa6" and "一家上下" in found and "上下" not in found
    assert path.read_text("utf-8").startswith("#")


def test_a_missing_rime_dictionary_is_a_clear_error(monkeypatch, tmp_path):
    import pycantonese

    rime_words.cache_clear()
    monkeypatch.setattr(pycantonese, "__file__", str(tmp_path / "pycantonese" / "__init__.py"))
    try:
        with pytest.raises(FileNotFoundError, match="no rime-cantonese data"):
            rime_words()
    finally:
        rime_words.cache_clear()
