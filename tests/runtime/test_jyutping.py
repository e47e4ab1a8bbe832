import pytest

from cantoedge.runtime.jyutping import JyutpingError, Syllable, parse_jyutping, parse_syllable


@pytest.mark.parametrize(
    "text, onset, rime, tone",
    [("gwong2", "gw", "ong", 2), ("ngo5", "ng", "o", 5), ("ng5", "", "ng", 5), ("m4", "", "m", 4),
     ("hng1", "h", "ng", 1), ("jyut6", "j", "yut", 6), ("aa3", "", "aa", 3), ("kwaa1", "kw", "aa", 1),
     ("syut3", "s", "yut", 3), ("eoi1", "", "eoi", 1)],
)
def test_syllables_split_into_onset_rime_tone(text, onset, rime, tone):
    assert parse_syllable(text) == Syllable(onset, rime, tone)
    assert str(parse_syllable(text)) == text


def test_runs_parse_with_or_without_spaces():
    assert [str(s) for s in parse_jyutping("ngo5dei6")] == ["ngo5", "dei6"]
    assert [str(s) for s in parse_jyutping("nei5 hou2")] == ["nei5", "hou2"]


@pytest.mark.parametrize("bad", ["", "si", "si7", "xyz1", "si1x", "bng1", "hello"])
def test_invalid_jyutping_is_rejected(bad):
    with pytest.raises(JyutpingError):
        parse_jyutping(bad)
