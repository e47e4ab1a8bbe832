"""g2p-eval's intervals: a bootstrap over whole conversations of one G2P's gain over another."""

import pytest

from cantoedge.datasets.gain_interval import gain_interval
from cantoedge.datasets.hkcancor import HKUtterance, Word
from cantoedge.datasets.lexicon import grouped_agreement, syllable_agreement


def utterance(text: str, reading: str, conversation: int) -> HKUtterance:
    return HKUtterance(f"u{conversation}{text}", (Word(text, tuple(reading.split())),), "test", conversation)


def test_agreement_is_kept_per_conversation_and_sums_to_the_whole():
    utts = [utterance("我哋", "ngo5 dei6", 3), utterance("你好", "nei5 hou2", 1), utterance("好", "hou2", 3)]
    wrong_first = syllable_agreement("g2p", lambda t: ["x"] + ["ngo5", "dei6", "hou2"][1:len(t)], utts)
    assert wrong_first.groups == ((1, 0, 2), (3, 1, 3))  # conversation 1: 0 of 2 right; conversation 3: 1 of 3
    assert (wrong_first.matched, wrong_first.total) == (1, 5)


def test_a_gain_alike_in_every_conversation_has_no_spread_and_none_has_none():
    base = grouped_agreement("base", {g: (50, 100) for g in range(10)})
    ours = grouped_agreement("ours", {g: (60, 100) for g in range(10)})
    same = gain_interval(ours, base)
    assert (same.gain, same.low, same.high, same.groups) == pytest.approx((10.0, 10.0, 10.0, 10))
    nothing = gain_interval(base, base)
    assert (nothing.gain, nothing.low, nothing.high) == (0.0, 0.0, 0.0)


def test_an_uneven_gain_gets_an_interval_around_it_that_narrows_with_more_conversations():
    base = {g: (50, 100) for g in range(40)}
    uneven = {g: (50 + (8 if g % 2 else 0), 100) for g in range(40)}  # half the conversations gain 8 points
    few = gain_interval(grouped_agreement("o", dict(list(uneven.items())[:8])),
                        grouped_agreement("b", dict(list(base.items())[:8])))
    many = gain_interval(grouped_agreement("o", uneven), grouped_agreement("b", base))
    assert few.low < 4.0 < few.high and many.low < 4.0 < many.high
    assert many.high - many.low < few.high - few.low
    assert gain_interval(grouped_agreement("o", uneven), grouped_agreement("b", base), seed=0) == many  # seeded


def test_agreements_counted_on_other_syllables_are_refused():
    a = grouped_agreement("a", {1: (5, 10), 2: (5, 10)})
    with pytest.raises(ValueError, match="same groups"):
        gain_interval(a, grouped_agreement("b", {1: (5, 10), 3: (5, 10)}))
    with pytest.raises(ValueError, match="no groups"):
        gain_interval(grouped_agreement("a", {}), grouped_agreement("b", {}))
