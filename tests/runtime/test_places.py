"""Hong Kong places written in Cantonese romanisation are read as the Han names they spell."""

import pytest

from runtime.frontend import Frontend
from runtime.normalize import normalize
from runtime.places import PLACES


def han(text: str) -> str:
    segments, _ = normalize(text)
    return "".join(s.text if s.kind != "reading" else f"[{s.text}]" for s in segments)


@pytest.mark.parametrize("text, expected", [
    ("我喺Tsim Sha Tsui等你", "我喺尖沙咀等你"),
    ("去MONG KOK", "去旺角"),                      # capitals, as on a sign
    ("我住Shatin，返工喺Kwun Tong", "我住沙田<,>返工喺觀塘"),
    ("Sai Wan Ho同Sai Wan", "西灣河同西環"),       # the longer name first
    ("Block 3, Tai Koo Shing", "[Block]三<,>太古城"), ("Tai Koo", "太古"), ("Kowloon City", "九龍城"),
    ("Tsim  Sha\tTsui", "尖沙咀"),                 # any spacing between the words
    ("tai po", "[tai][po]"),                       # not written as a name: two words, as chat writes them
    ("Tai Po Market", "大埔[Market]"),
    ("TaiPo", "[Tai][Po]"),                         # not a spelling the table has
    ("Central", "[Central]"), ("Causeway Bay", "[Causeway][Bay]"), ("Kowloon", "[Kowloon]"),  # said in English
])
def test_romanised_places_are_read_as_their_han_names(text, expected):
    assert han(text) == expected


def test_each_place_reads_through_the_frontend_with_its_source():
    frontend = Frontend(strict=True)
    for name, han_name in PLACES.items():
        result = frontend(name)
        assert len(result.jyutping) == len(han_name), name
        assert set(result.sources) == {"place"}, name
    assert frontend("我喺Tsim Sha Tsui").jyutping[2:] == ["zim1", "saa1", "zeoi2"]
