"""Training configs: a contour stage is checked when its TOML is read, not hours into a run."""

import pytest

from cantoedge.export.config import load_config, parse_config

ACOUSTIC = 'kind = "acoustic"\n[model]\nframe_pitch = {pitch}\n[contour]\n{contour}\n'


def test_the_bundled_contour_stage_reads_and_starts_from_the_stage_two_student():
    run = load_config("student_contour")
    assert run.contour is not None and run.contour.shape_weight > 0 and run.train.init == "student_pitch"
    assert run.model.position_powers == 3 and run.distil == {}


@pytest.mark.parametrize("contour, message", [
    ("shape_weight = -1.0", "must be >= 0"),
    ("f0_weight = -50.0", "must be >= 0"),
    ("max_deviation_st = 0.0", "max_deviation_st > 0"),
    ("tone_set_bases = -5", "must be >= 0"),
    ("yin_threshold = 1.5", r"yin_threshold must lie in 0\.\.1"),
    ("yin_threshold = -0.1", r"yin_threshold must lie in 0\.\.1"),
    ("shape_wieght = 1.0", r"unknown \[contour\] settings: \['shape_wieght'\]"),
    ('train_pitch = "yes"', r"train_pitch must be true or false, got 'yes'"),
    ('yin_threshold = 0.3\nyin_mode = "fill"', r"yin_mode must be one of replace, fill_rimes, got 'fill'"),
    ('yin_mode = "fill_rimes"', r"fills from a second track: set contour.yin_threshold or contour.tracker"),
    ('yin_threshold = 0.3\nyin_mode = "fill_rimes"\nyin_fill_onsets = "j-"', r"must be a list of onsets"),
    ('yin_threshold = 0.3\nyin_mode = "fill_rimes"\nyin_fill_onsets = ["zz-"]', r"names \['zz-'\], which the token"),
    ('yin_threshold = 0.3\nyin_fill_onsets = ["j-"]', r"it needs yin_mode = \"fill_rimes\""),
    ('tracker = "crepe"', r"tracker must be one of yin, pyin, got 'crepe'"),
    ('tracker = "pyin"\nyin_threshold = 0.4', r"yin_threshold is YIN's"),
])
def test_bad_contour_settings_are_refused_by_name(contour, message):
    with pytest.raises(ValueError, match=message):
        parse_config(ACOUSTIC.format(pitch="true", contour=contour), "bad")


def test_a_contour_stage_needs_a_pitch_carrying_acoustic_model():
    with pytest.raises(ValueError, match="frame_pitch = true"):
        parse_config(ACOUSTIC.format(pitch="false", contour="shape_weight = 1.0"), "flat")
    with pytest.raises(ValueError, match="frame_pitch = true"):
        parse_config('kind = "vocoder"\n[contour]\nshape_weight = 1.0\n', "voc")


def test_a_missing_config_names_the_bundled_ones(tmp_path, monkeypatch):
    """A mistyped name or a missing file is one clear error listing what exists (not an OSError), and a folder
    named like a bundled config does not shadow it."""
    from cantoedge.export.config import bundled_configs

    assert {"teacher", "vocoder_pitch", "vocoder_slim", "student_contour"} <= set(bundled_configs())
    for wrong in ("vocoder_slimm", str(tmp_path / "nope.toml")):
        with pytest.raises(ValueError, match=r"no config .*vocoder_slim"):
            load_config(wrong)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "teacher").mkdir()
    teacher = load_config("teacher")  # the bundled one, not the folder
    assert teacher.kind == "acoustic" and teacher.train.max_steps == 4000


@pytest.mark.parametrize("text, message", [
    ('kind = "vocoder"\n[model]\nharmonics = true\nrandom_unvoiced_phase = "yes"\n',
     r"\[model\] random_unvoiced_phase must be true or false, got 'yes'"),
    ('kind = "vocoder"\n[model]\nharmonics = 1\n', r"\[model\] harmonics must be true or false, got 1"),
    ('kind = "acoustic"\n[model]\ndim = "64"\n', r"\[model\] dim must be an integer, got '64'"),
    ('kind = "acoustic"\n[train]\nmax_steps = 1.5\n', r"\[train\] max_steps must be an integer, got 1.5"),
    ('kind = "acoustic"\n[train]\nlr = true\n', r"\[train\] lr must be a number, got True"),
    ('kind = "vocoder"\n[model]\nrandom_unvoiced_phase = true\n', "random_unvoiced_phase needs harmonics"),
    ('kind = "vocoder"\n[model]\nlead_glide = 1.0\n', "lead_glide needs harmonics"),
    ('kind = "vocoder"\n[model]\nharmonics = true\nlead_glide = -0.5\n', "lead_glide must be between 0 and 3.0"),
    ('kind = "vocoder"\n[model]\nharmonics = true\nlead_glide = "1"\n', r"\[model\] lead_glide must be a number"),
])
def test_settings_of_the_wrong_type_are_refused_by_name_before_any_work(text, message):
    with pytest.raises(ValueError, match=message):
        parse_config(text, "bad")


def test_numbers_may_be_written_as_integers_where_a_float_is_meant():
    run = parse_config('kind = "acoustic"\n[train]\nlr = 1\n', "ok")
    assert run.train.lr == 1
