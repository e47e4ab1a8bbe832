"""Cantonese readings of numbers, written as Han numerals so the G2P reads them like any other text."""

from __future__ import annotations

import re

DIGITS = "零一二三四五六七八九"
# How a numeral is said inside a number (零 leng4 too, as 兩千零二十六 is said); ToJyutping's words 二六 and 四六
# read 六 luk1, which made the year 2026 ji6 ling4 ji6 luk1
NUMERAL_READINGS = {"零": ("ling4", "leng4"), "一": ("jat1",), "二": ("ji6",), "三": ("saam1",), "四": ("sei3",),
                    "五": ("ng5",), "六": ("luk6",), "七": ("cat1",), "八": ("baat3",), "九": ("gau2",),
                    "十": ("sap6",), "兩": ("loeng5",)}
_UNITS = ("", "十", "百", "千")
_GROUPS = ("", "萬", "億", "兆")


def read_digits(digits: str) -> str:
    """Digit by digit, as phone numbers, years and decimals are read (2024 -> 二零二四)."""
    return "".join(DIGITS[int(d)] for d in digits if d.isdigit())


def _read_group(n: int) -> str:
    """0 < n < 10000, without leading zeros; 零 marks a gap between non-zero digits."""
    out, pending_zero = [], False
    for pos in range(3, -1, -1):
        d = n // 10**pos % 10
        if d == 0:
            pending_zero = bool(out)
            continue
        if pending_zero:
            out.append("零")
            pending_zero = False
        out.append(DIGITS[d] + _UNITS[pos])
    return "".join(out)


def read_integer(n: int) -> str:
    """Spoken cardinal: 10 -> 十, 105 -> 一百零五, 200 -> 兩百, 20000 -> 兩萬, -3 -> 負三."""
    if n < 0:
        return "負" + read_integer(-n)
    if n == 0:
        return "零"
    if n >= 10**16:
        return read_digits(str(n))
    groups = []
    while n:
        groups.append(n % 10000)
        n //= 10000
    out, need_zero = [], False
    for idx in range(len(groups) - 1, -1, -1):
        g = groups[idx]
        if g == 0:
            need_zero = bool(out)
            continue
        if out and (need_zero or g < 1000):
            out.append("零")
        need_zero = False
        out.append(_read_group(g) + _GROUPS[idx])
    text = "".join(out)
    if text.startswith("一十"):
        text = text[1:]  # 10..19 read 十X, as in speech
    for unit in ("百", "千", "萬", "億"):
        if text.startswith("二" + unit):
            text = "兩" + text[1:]  # 兩百, 兩千, 兩萬: the counting form
    return text


def read_separated(text: str) -> str:
    """Digit groups read as cardinals, the separators between them as short pauses (5/3 -> 五，三)."""
    return "，".join(read_integer(int(g)) for g in re.findall(r"\d+", text))


def read_decimal(text: str) -> str:
    """``3.14`` -> 三點一四; the integer part as a cardinal, the fraction digit by digit."""
    whole, _, frac = text.partition(".")
    head = read_integer(int(whole.replace(",", "") or "0"))
    return head + ("點" + read_digits(frac) if frac else "")


def read_count(n: int) -> str:
    """A cardinal used before a measure word: 2 becomes 兩."""
    return "兩" if n == 2 else read_integer(n)


# Multipliers written after a number in Hong Kong text ($30K a month, $1.5M, HK$2B): K or k a thousand, bn a billion,
# and M a million and B a billion after a currency or a fraction (3M is a brand, Flat 3B a flat, 5m five metres);
# and the English words (2 billion, US$3 million, HK$5mn)
SCALES = {"k": 10**3, "m": 10**6, "b": 10**9, "bn": 10**9, "mn": 10**6,
          "thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}


def read_scaled(number: str, scale: str) -> str:
    """A number as written (thousands separators allowed) times a multiplier (k, m, b, bn), read exactly:
    1.5 m -> 一百五十萬."""
    from decimal import Decimal, localcontext

    number = number.replace(",", "")
    with localcontext() as exact:
        exact.prec = len(number) + 10  # every digit kept, however long the number (the default keeps 28)
        value = Decimal(number) * SCALES[scale]
    if value == value.to_integral_value():
        return read_integer(int(value))
    return read_decimal(format(value.normalize(), "f"))
