"""Hong Kong place names written in their Cantonese romanisation (Tsim Sha Tsui, Mong Kok, Sha Tin), read as the
Han names they spell: they are Cantonese, not English, and letter-to-sound made Tsim Sha Tsui tu1 sim1 saa1 tu1
su1 ji2. Names that Hong Kong says in English (Central, Admiralty, Causeway Bay, Kowloon, Hong Kong) stay English
words; only Title Case or capitals are taken (tai po in chat is left alone)."""

from __future__ import annotations

import re
from functools import cache

from .marks import marked

# Districts, towns and MTR stations whose English name is their Cantonese name romanised (the Government's
# spelling; a few one-word spellings in common use as well)
PLACES = {
    "Tsim Sha Tsui": "尖沙咀", "Tsimshatsui": "尖沙咀", "Mong Kok": "旺角", "Mongkok": "旺角",
    "Yau Ma Tei": "油麻地", "Sham Shui Po": "深水埗", "Cheung Sha Wan": "長沙灣", "Lai Chi Kok": "荔枝角",
    "Mei Foo": "美孚", "Shek Kip Mei": "石硤尾", "Ho Man Tin": "何文田", "Hung Hom": "紅磡", "To Kwa Wan": "土瓜灣",
    "Kai Tak": "啟德", "Sung Wong Toi": "宋皇臺", "Kowloon Tong": "九龍塘", "Lok Fu": "樂富",
    "Wong Tai Sin": "黃大仙", "Tsz Wan Shan": "慈雲山", "San Po Kong": "新蒲崗", "Choi Hung": "彩虹",
    "Kowloon City": "九龍城", "Sau Mau Ping": "秀茂坪", "Shun Lee": "順利", "Whampoa": "黃埔", "Ma Wan": "馬灣",
    "Ngau Tau Kok": "牛頭角", "Kwun Tong": "觀塘", "Lam Tin": "藍田", "Yau Tong": "油塘", "Tiu Keng Leng": "調景嶺",
    "Tseung Kwan O": "將軍澳", "Hang Hau": "坑口", "Po Lam": "寶琳", "Sai Kung": "西貢",
    "Wan Chai": "灣仔", "Wanchai": "灣仔", "Sheung Wan": "上環", "Sai Ying Pun": "西營盤", "Sai Wan": "西環",
    "Tin Hau": "天后", "Tai Koo Shing": "太古城", "Tai Koo": "太古", "Tai Hang": "大坑", "Sai Wan Ho": "西灣河",
    "Shau Kei Wan": "筲箕灣", "Heng Fa Chuen": "杏花邨",
    "Chai Wan": "柴灣", "Siu Sai Wan": "小西灣", "Ap Lei Chau": "鴨脷洲", "Wong Chuk Hang": "黃竹坑",
    "Lei Tung": "利東", "Shek O": "石澳", "Pok Fu Lam": "薄扶林",
    "Kwai Chung": "葵涌", "Kwai Fong": "葵芳", "Kwai Hing": "葵興", "Kwai Tsing": "葵青", "Tai Wo Hau": "大窩口",
    "Tsuen Wan": "荃灣", "Lai King": "荔景", "Tsing Yi": "青衣", "Tung Chung": "東涌", "Chek Lap Kok": "赤鱲角",
    "Mui Wo": "梅窩", "Cheung Chau": "長洲", "Tai O": "大澳", "Ngong Ping": "昂坪",
    "Tai Wai": "大圍", "Sha Tin": "沙田", "Shatin": "沙田", "Fo Tan": "火炭", "Ma On Shan": "馬鞍山",
    "Wu Kai Sha": "烏溪沙", "Tai Shui Hang": "大水坑", "Heng On": "恆安", "Shek Mun": "石門", "Tai Po": "大埔",
    "Tai Wo": "太和", "Fanling": "粉嶺", "Sheung Shui": "上水", "Lo Wu": "羅湖", "Lok Ma Chau": "落馬洲",
    "Tuen Mun": "屯門", "Yuen Long": "元朗", "Tin Shui Wai": "天水圍", "Kam Tin": "錦田",
}


@cache
def _place_pattern() -> re.Pattern[str]:
    """One alternation, longest names first (Sai Wan Ho before Sai Wan), any case; the case is checked after."""
    names = sorted(PLACES, key=len, reverse=True)
    alternatives = "|".join(r"\s+".join(map(re.escape, name.split())) for name in names)
    return re.compile(rf"(?<![A-Za-z])(?:{alternatives})(?![A-Za-z])", re.IGNORECASE)


_KEYS = {name.casefold(): han for name, han in PLACES.items()}


def _written_as_a_name(text: str) -> bool:
    """Each word capitalised (Tsim Sha Tsui) or the whole in capitals (TSIM SHA TSUI), as a name is written."""
    return all(word[0].isupper() and (word[1:].islower() or word.isupper()) for word in text.split())


def _han_name(m: re.Match[str]) -> str:
    """The Han name a match spells, or the match as written where it is not written as a name (tai po)."""
    if not _written_as_a_name(m.group(0)):
        return m.group(0)
    return _KEYS[" ".join(m.group(0).split()).casefold()]


def place_names(text: str) -> str:
    """``text`` with each romanised place name replaced by its Han name, marked as a place (so its segments say
    where their reading came from)."""
    if not any(ch.isascii() and ch.isupper() for ch in text):
        return text
    return _place_pattern().sub(marked("place", _han_name), text)
