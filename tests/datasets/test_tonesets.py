"""Six-tone training sets: which syllables, which utterances, rendered as the corpus is."""

import pytest

from cantoedge.datasets.tonesets import (
    MEASURED_SETS,
    TRAINING_CARRIER,
    VALIDATION_SETS,
    common_bases,
    render_tone_sets,
    tone_set_utterances,
)


def test_common_bases_rank_by_frequency_and_leave_out_checked_nasal_and_measured_syllables():
    said = ["hai6"] * 5 + ["si1"] * 9 + ["gam2"] * 3 + ["dak1"] * 7 + ["m4"] * 6 + ["ngo5"] * 3 + ["xyz1"]
    assert common_bases(said, 10) == ["hai", "gam", "ngo"]  # si is measured, dak checked, m a nasal
    assert common_bases(said, 2) == ["hai", "gam"]
    assert common_bases(said, 10, exclude=())[0] == "si"


def test_the_validation_sets_are_never_training_sets_and_never_measured_ones():
    """Held out for choosing between runs: ranked among the common bases only when nothing is excluded."""
    said = ["sai1"] * 9 + ["nam4"] * 8 + ["hai6"] * 5 + ["si1"] * 4
    assert common_bases(said, 10) == ["hai"]
    assert common_bases(said, 10, exclude=()) == ["sai", "nam", "hai", "si"]
    assert not set(VALIDATION_SETS) & set(MEASURED_SETS) and len(set(VALIDATION_SETS)) == 12


def test_each_base_gives_twelve_utterances_alone_and_in_the_training_carrier():
    utts = tone_set_utterances(["hai", "gam"])
    assert len(utts) == 24 and {u.split for u in utts} == {"train"}
    alone = {u.id: u.jyutping for u in utts if u.id.endswith("alone")}
    assert alone["toneset-hai4-alone"] == ["hai4"]
    carried = next(u for u in utts if u.id == "toneset-gam5-carrier")
    assert carried.jyutping == [s or "gam5" for s in TRAINING_CARRIER]
    assert carried.text.endswith("。")
    with pytest.raises(ValueError, match="not a Jyutping syllable"):
        tone_set_utterances(["qqq"])
    assert not set(MEASURED_SETS) & {u.id.split("-")[1][:-1] for u in tone_set_utterances(common_bases(
        ["si1", "fu2", "hai6"], 5))}


@pytest.mark.slow
def test_rendered_tone_sets_are_records_with_absolute_paths(tmp_path):
    from cantoedge.runtime.manifest import load_features

    records = render_tone_sets(tmp_path / "sets", ["hai"], progress=False)
    assert len(records) == 12
    for rec in records:
        feats = load_features(tmp_path / "elsewhere", rec)  # any corpus folder: the paths are absolute
        assert int(feats["durations"].sum()) == feats["mel"].shape[1] == rec.n_frames
    tones = sorted(r.tones[r.phones.index("ai")] for r in records if r.id.endswith("alone"))
    assert tones == [1, 2, 3, 4, 5, 6]


def test_tone_sets_for_a_flutter_free_corpus_are_rendered_flutter_free_too(tmp_path):
    from cantoedge.datasets.corpus import FLUTTER_FREE_SPEAKER

    records = render_tone_sets(tmp_path / "sets", ["hai"], progress=False, flutter=False)
    assert len(records) == 12 and {r.speaker for r in records} == {FLUTTER_FREE_SPEAKER}
