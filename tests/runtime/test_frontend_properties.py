"""Property tests: whatever Unicode text arrives, the frontend either raises its own documented error or
returns valid Jyutping syllables and token ids of the inventory."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cantoedge.runtime.frontend import Frontend, FrontendError
from cantoedge.runtime.inventory import PAUSES, load_inventory
from cantoedge.runtime.jyutping import TONES, parse_syllable

# The characters the normaliser has rules for, so that the draws hit its corners (numbers, dates, money,
# times, ordinals, punctuation runs, letters) and not only random code points.
TRICKY = list("0123456789第次個月日年號.,:-/%$+&=@°℃HKhkOKabcxyz 　，。？！、…「」（）\t\n'’~é") + [
    "你", "好", "詩", "史", "試", "時", "市", "事", "蚊", "港幣", "😀", "\u200b", "\ufe0f", "𠀋", "Ａ", "１",
    "am", "pm", "/F", "G/F", "km", "M", "bn", "st", "www", "com"]

TEXT = st.one_of(st.text(max_size=40), st.lists(st.sampled_from(TRICKY), max_size=30).map("".join))


@pytest.fixture(scope="module")
def frontend():
    return Frontend()


@settings(max_examples=300)
@given(text=TEXT)
def test_any_text_gives_valid_syllables_or_a_frontend_error(frontend, text):
    inventory = load_inventory()
    try:
        result = frontend(text)
    except FrontendError:
        return
    assert result.jyutping  # a result always has something to say
    for syllable in result.jyutping:
        parsed = parse_syllable(syllable)
        assert parsed.tone in TONES and all(p in inventory.phones for p in inventory.syllable_phones(parsed))
    enc = result.encoded
    assert len(enc.tokens) == len(enc.tones) == len(enc.phones) == len(enc.syllable_index)
    assert [inventory.phone(t) for t in enc.tokens] == enc.phones
    assert enc.phones[0] == "<sil>" and enc.phones[-1] in PAUSES
    assert max(enc.syllable_index) + 1 == len(result.jyutping)


@settings(max_examples=100)
@given(text=TEXT)
def test_strict_mode_raises_only_its_own_errors(text):
    try:
        Frontend(lexicon={}, strict=True)(text)
    except FrontendError:
        pass
