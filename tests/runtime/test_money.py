"""Sums of money: the amount and the currency word as Hong Kong says them (the patterns are tested through
normalize in test_normalize.py)."""

import pytest

from cantoedge.runtime.money import currency_word, read_amount
from cantoedge.runtime.numbers import read_count, read_integer, read_scaled


@pytest.mark.parametrize("number, spoken", [("2", "兩"), ("12.50", "十二點五"), ("3,000", "三千"), ("2.0", "兩"),
                                            ("0.05", "零點零五")])
def test_an_amount_is_read_as_said_before_its_currency(number, spoken):
    assert read_amount(number) == spoken


@pytest.mark.parametrize("sign, written, word", [("HK$", None, "港元"), ("hk$", None, "港元"), ("港幣", "元", "港元"),
                                                 ("$", None, "蚊"), ("$", "元", "元"), ("US$", None, "美元"),
                                                 ("RMB", "元", "元人民幣"), ("£", None, "英鎊")])
def test_the_currency_word_follows_the_sign_then_what_is_written(sign, written, word):
    assert currency_word(sign, written) == word


def test_counts_and_multipliers():
    assert read_count(2) == "兩" and read_count(12) == "十二"
    assert read_scaled("1.5", "m") == "一百五十萬" and read_scaled("30", "k") == "三萬"
    assert read_scaled("1,500", "k") == "一百五十萬"  # as written, separators and all
    assert read_scaled("1.23456789", "bn") == read_integer(1_234_567_890)  # every digit kept, no float rounding
