"""Sums of money as Hong Kong says them: $12.50 -> 十二蚊五毫, HK$100 -> 一百港元, $500萬 -> 五百萬蚊, US$100 ->
一百美元, $2-3萬 -> 兩至三萬蚊. Each reader takes the match of one of normalisation's number rules (number_rules.py
holds the patterns and their order) and returns Han text."""

from __future__ import annotations

import re

from .numbers import read_count, read_decimal, read_integer, read_scaled

# Other currencies, said after the amount as Hong Kong news says them (US$100 -> 一百美元, RMB100 -> 一百元人民幣):
# a sign or code before the amount, or a code after it. HK$ and $ are read by read_dollars (蚊, 毫, 仙). ¥ is read
# as yen, though Hong Kong writes it for renminbi too (a price in Japan is the commoner), except after 人民幣 or
# before 元 (人民幣¥300, ¥300元: 三百元).
CURRENCIES = {"US$": "美元", "USD": "美元", "NT$": "新台幣", "TWD": "新台幣",
              "A$": "澳元", "AU$": "澳元", "AUD": "澳元", "C$": "加元", "CA$": "加元", "CAD": "加元",
              "S$": "新加坡元", "SGD": "新加坡元", "NZ$": "紐元", "NZD": "紐元", "MOP$": "澳門元", "MOP": "澳門元",
              "£": "英鎊", "GBP": "英鎊", "€": "歐元", "EUR": "歐元", "RMB": "元人民幣", "CNY": "元人民幣",
              "JPY": "日圓", "¥": "日圓", "HKD": "港元", "₩": "韓圜", "KRW": "韓圜", "฿": "泰銖", "THB": "泰銖",
              "₱": "披索", "₹": "盧比", "₽": "盧布", "₫": "越南盾"}
HAN_MULTIPLIERS = "十萬|百萬|千萬|萬億|萬|億|千|百"  # written after a sum: $500萬


def is_hk_dollars(prefix: str) -> bool:
    return prefix.upper().startswith("HK") or prefix == "港幣"


def currency_word(sign: str, written: str | None = None) -> str:
    """The currency word said after an amount: 港元 for HK$ and 港幣, the other currencies' words, else the word
    written after the amount or 蚊."""
    if is_hk_dollars(sign):
        return "港元"
    return CURRENCIES.get(sign) or written or "蚊"


def read_amount(number: str) -> str:
    """An amount before its multiplier or currency word: 2 is 兩, a fraction is read without its trailing zeros
    (12.50 -> 十二點五), thousands separators dropped."""
    number = number.replace(",", "")
    if "." in number:
        number = number.rstrip("0").rstrip(".")
    return read_decimal(number) if "." in number else read_count(int(number))


def read_dollars(m: re.Match[str]) -> str:
    """$12.50 -> 十二蚊五毫 (蚊, 毫, 仙), HK$12.5 -> 十二點五港元, $0.375 -> 零點三七五蚊 (finer than a cent); a unit
    written after the sign's amount is said once ($100蚊 -> 一百蚊, $100元 -> 一百元, HK$1,000元 -> 一千港元,
    $100,000美元 -> 十萬美元)."""
    prefix, whole, frac, unit = m.group(1), m.group(2).replace(",", ""), (m.group(3) or "")[1:], m.group(4)
    if is_hk_dollars(prefix) or unit not in (None, "蚊"):  # an amount, like every other currency: 兩港元, 十萬美元
        return read_amount(whole + "." + frac if frac else whole) + currency_word(prefix, unit)
    if len(frac) > 2:  # finer than a cent (a penny stock's $0.375): the decimal, then the unit
        return read_amount(whole + "." + frac) + "蚊"
    text = (read_count(int(whole)) + "蚊") if int(whole) or not frac else ""
    frac = (frac + "00")[:2]
    if frac[0] != "0":
        text += read_count(int(frac[0])) + "毫"
    if frac[1] != "0":
        text += read_count(int(frac[1])) + "仙"
    return text or "零蚊"


def read_multiplied(m: re.Match[str]) -> str:
    """A sum written with a Han multiplier after it ($500萬, $2萬5): the number and the multiplier (and the next
    place's digit, 兩萬五), then the currency word."""
    following = read_integer(int(m.group("next")[0])) + m.group("next")[1:] if m.group("next") else ""
    return read_amount(m.group("num")) + m.group("han") + following + currency_word(m.group("cur"), m.group("unit"))


def read_range(m: re.Match[str]) -> str:
    """A range of sums with one currency ($2-3萬, $3,000-$5,000, US$1-2億, $20-30K): both amounts, the multiplier
    and the currency word once, at the end, as it is said: 兩至三萬蚊."""
    low, high, latin = m.group("a"), m.group("b"), m.group("lat")
    if latin:
        text = read_scaled(low, latin.lower()) + "至" + read_scaled(high, latin.lower())
    else:
        text = read_amount(low) + "至" + read_amount(high) + (m.group("han") or "")
    return text + currency_word(m.group("cur"), m.group("unit"))


def read_foreign(m: re.Match[str]) -> str:
    """An amount in another currency: the number (times K, M, B or bn; a Han multiplier kept), then the currency."""
    latin = m.group("lat")
    text = read_scaled(m.group("num"), latin.lower()) if latin else read_amount(m.group("num"))
    if m.group("cur") == "¥" and (m.string.endswith("人民幣", 0, m.start()) or m.string.startswith("元", m.end())):
        return text + (m.group("han") or "") + ("" if m.string.startswith("元", m.end()) else "元")  # renminbi
    return text + (m.group("han") or "") + currency_word(m.group("cur"))


def read_scaled_sum(m: re.Match[str]) -> str:
    """$1.5M -> 一百五十萬蚊, 30K -> 三萬: the number times its multiplier, then the currency if written."""
    prefix, number, scale = m.group(1) or "", m.group(2), m.group(3).lower()
    if scale in ("m", "b", "mn") and not prefix and "." not in number:
        return m.group(0)  # a brand or a flat (3M, Flat 3B): M, B and mn need a currency or a fraction, K and bn do not
    if m.group(3) == "K" and not prefix and "." not in number and len(number) >= 4:
        return m.group(0)  # a model's number (13700K): thousands of thousands are written 13.7M, not 13700K
    return read_scaled(number, scale) + (currency_word(prefix) if prefix else "")
