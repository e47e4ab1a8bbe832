"""Cutting long token streams into pieces the encoder takes whole."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cantoedge.runtime.inventory import PAUSES, syllable_index
from cantoedge.runtime.pieces import piece_spans


def stream(pattern: str) -> list[str]:
    """'s-i s-i , s-i .' -> phones with <sil> first: onsets end in '-', ',' and '.' are pauses."""
    names = {",": "<,>", ".": "<.>", "?": "<?>", "!": "<!>"}
    return ["<sil>"] + [names.get(p, p) for p in pattern.split()]


def test_short_streams_are_one_piece():
    phones = stream("s- i s- i .")
    assert piece_spans(phones, PAUSES, syllable_index(phones), 1024) == [(0, len(phones))]


def test_cuts_fall_after_pauses_and_pieces_after_the_first_leave_room_for_their_sil():
    phones = stream("s- i s- i , s- i s- i , s- i .")
    spans = piece_spans(phones, PAUSES, syllable_index(phones), 8)
    assert spans == [(0, 6), (6, 11), (11, 14)]
    assert all(phones[stop - 1] in PAUSES for _, stop in spans)


def test_a_clause_longer_than_the_limit_is_cut_between_syllables_never_inside_one():
    phones = stream("s- i " * 10 + ".")
    index = syllable_index(phones)
    for _, stop in piece_spans(phones, PAUSES, index, 7)[:-1]:
        assert not phones[stop - 1].endswith("-")  # an onset never ends a piece without its rime


@given(st.lists(st.sampled_from(["s-", "i", "aa", "<,>", "<.>"]), min_size=1, max_size=300),
       st.integers(min_value=4, max_value=50))
def test_pieces_cover_the_stream_in_order_within_the_limit(body, limit):
    phones = ["<sil>", *body]
    spans = piece_spans(phones, PAUSES, syllable_index(phones), limit)
    assert spans[0][0] == 0 and spans[-1][1] == len(phones)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    assert all(stop > start for start, stop in spans)
    assert all(stop - start + (1 if start else 0) <= limit for start, stop in spans)


def test_a_limit_too_small_for_a_syllable_is_refused():
    with pytest.raises(ValueError, match="cannot hold"):
        piece_spans(stream("s- i ."), PAUSES, [0, 0, 0, -1], 3)


def test_sentence_ends_always_cut_when_asked_and_pieces_still_fit():
    phones = stream("s- i , s- i . s- i ? s- i s- i s- i s- i !")
    spans = piece_spans(phones, PAUSES, syllable_index(phones), 8, always_after=("<.>", "<?>", "<!>"))
    # each sentence its own piece (the first fits whole, comma and all); the last, 9 tokens with its <sil>
    # in front, is cut between syllables
    assert spans == [(0, 7), (7, 10), (10, 16), (16, 19)]
    assert piece_spans(phones, PAUSES, syllable_index(phones), 100) == [(0, 19)]  # no cuts unless asked


@given(st.lists(st.sampled_from(["s-", "i", "aa", "<,>", "<.>", "<?>"]), min_size=1, max_size=200),
       st.integers(min_value=4, max_value=30))
def test_sentence_cut_pieces_cover_the_stream_within_the_limit(body, limit):
    phones = ["<sil>", *body]
    spans = piece_spans(phones, PAUSES, syllable_index(phones), limit, always_after=("<.>", "<?>"))
    assert spans[0][0] == 0 and spans[-1][1] == len(phones)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:])) and all(e > s for s, e in spans)
    assert all(e - s + (1 if s else 0) <= limit for s, e in spans)
    assert all(phones[i] not in ("<.>", "<?>") or any(e == i + 1 for _, e in spans) for i in range(len(phones) - 1))
