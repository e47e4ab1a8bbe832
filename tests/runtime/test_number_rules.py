"""The number rules run as one pass before segmentation; their readings are tested through normalize, in
test_normalize.py."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cantoedge.runtime.number_rules import expand_numbers, number_rules


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789０٣-.,:/%$年月日號港幣HK第 人去(（2")), max_size=24))
def test_the_number_rules_are_skipped_only_where_none_could_match(text):
    """Texts without a decimal digit skip the rules (their compile was 2 ms of every start): the same result."""
    expected = text
    for pattern, repl in number_rules():
        expected = pattern.sub(repl, expected)
    assert expand_numbers(text) == expected


# What a number is read as does not depend on the punctuation around it: each of these, wrapped in each of these,
# reads the same inside (a comma or full stop beside a number was taken for more of it; a minus or a tilde after a
# comma or an opening quote was lost)
_READINGS = ["3.14", "CX251", "911事件", "評分4/5", "1990-1999", "4-4-2", "比數3-1", "Rm 1203", "US$100", "-3",
             "-3°C", "~100人", "單號：123456789", "搭101", "962X", "騰訊(0700)", "7:30pm", "5/3開會", "2024年3月5日",
             "$12.50", "50%", "5km", "第2次", "2個", "10÷2", "熱線1823", "驗證碼：482913", "1米75", "住2日",
             "4111 1111 1111 1111", "i7-13700H"]
_WRAPPERS = [("", "，好"), ("好，", ""), ("「", "」"), ("(", ")"), ("好 ", " 好"), ("", "。"), ("，", "."), ("", ",")]


def _said(text: str) -> str:
    from cantoedge.runtime.normalize import normalize

    return "".join(s.text for s in normalize(text)[0] if s.kind != "pause")


@pytest.mark.parametrize("text", _READINGS)
def test_a_number_reads_the_same_whatever_punctuation_surrounds_it(text):
    alone = _said(text)
    for before, after in _WRAPPERS:
        assert alone in _said(before + text + after), (before, text, after)


@pytest.mark.parametrize("text, expected", [
    ("我有2 個蘋果", "我有兩個蘋果"), ("第 2 次", "第二次"), ("2024 年", "二零二四年"), ("80 後", "八零後"),
    ("30 %", "百分之三十"), ("10-20 %", "百分之十至二十"), ("2 月", "二月"), ("I have 2 個", "[I][have]兩個"),
    ("Switch 2 啦", "[Switch]二啦"), ("3:2 啦", "三比二啦"), ("Tower 2 好", "[Tower]二好")])
def test_a_space_typed_between_a_number_and_its_word_changes_nothing(text, expected):
    """Mixed typing puts spaces around numbers (有 2 個): the 2 read 二, 2024 年 a cardinal and 30 % lost its %."""
    from cantoedge.runtime.normalize import normalize

    assert "".join(s.text if s.kind != "reading" else f"[{s.text}]" for s in normalize(text)[0]) == expected


@pytest.mark.parametrize("text, expected", [
    ("10÷2啦", "十除以二啦"), ("雞翼x2啦", "雞翼乘二啦"), ("3-1=2啦", "三減一等於二啦"),
    ("加2個", "加兩個"), ("減2蚊", "減兩蚊"), ("比2個月前", "比兩個月前"), ("$100/2人", "一百蚊兩人"),
    ("好，-3度", "好零下三度"), ("「~100人」", "大約一百人")])
def test_a_term_after_an_operator_is_plain_and_a_sign_after_punctuation_is_kept(text, expected):
    """10÷2啦 read 除以兩: a 2 before Han text was counted; after an operator it is a term (加 and 減 still count).
    好，-3度 lost its 零下 and 「~100人」 its 大約: a comma or a quote before the sign was not a place for one."""
    assert _said(text) == expected
