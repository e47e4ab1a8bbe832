"""Tone shapes against espeak-ng: the slope a syllable's F0 makes over its voiced core."""

import math

import numpy as np
import pytest

from cantoedge.export import contours
from cantoedge.runtime.audio import AUDIO


def test_core_slope_is_the_fitted_change_over_the_middle_of_the_voiced_frames():
    st = np.full(30, np.nan)
    st[5:25] = 70.0 + 0.1 * np.arange(20)  # 20 voiced frames rising 0.1 semitone a frame
    st[12] = np.nan  # a gap is skipped, not counted as zero
    slope, level, n = contours.core_shape(st, (0, 30))
    # 19 voiced frames, 4 cut from each end: the core spans frames 9..20 of the track
    assert n == 19
    assert slope == pytest.approx(0.1 * (20 - 9), rel=1e-9)
    assert level == pytest.approx(np.nanmean(st[9:21]), rel=1e-9)
    assert math.isnan(contours.core_shape(st, (0, 6))[0])  # one voiced frame: no slope


def test_pyin_track_of_a_glide_rises_as_much_as_the_glide():
    t = np.arange(AUDIO.sample_rate) / AUDIO.sample_rate
    f0 = 100.0 * 2 ** (2.0 * t / 12)  # two semitones in one second
    audio = 0.5 * np.sin(2 * np.pi * np.cumsum(f0) / AUDIO.sample_rate)
    st = contours.track_semitones(audio)
    slope, level, n = contours.core_shape(st, (0, st.size))
    assert n > 0.9 * st.size
    assert slope == pytest.approx(2.0 * 0.6, abs=0.15)
    assert level == pytest.approx(12 * math.log2(100.0) + 1.0, abs=0.15)


def test_espeak_reference_rises_on_tones_2_and_5_and_falls_on_tone_4():
    rows = contours.measure(contours.espeak_rendering, bases=["si"], contexts=["alone"])
    slopes = {r.syllable: r.slope for r in rows}
    assert slopes["si2"] > 0.8 and slopes["si5"] > 0.6 and slopes["si4"] < -0.5
    levels = {r.syllable: r.level for r in rows}
    assert levels["si1"] > levels["si3"] > levels["si6"] and levels["si1"] > levels["si4"]


@pytest.mark.slow  # a process of its own, and three renderings of six syllables
def test_without_flutter_espeaks_level_tones_are_level_and_its_contours_remain():
    """The rendering the voice learned: espeak-ng's +-2 Hz flutter tilts its level tones alone by up to a quarter
    semitone (si3, si6 -0.25), and without it they are flat; measured in a process of its own, again and again
    alike, beside this one's espeak-ng with flutter."""
    with_flutter = {r.syllable: r.slope for r in contours.measure(contours.espeak_rendering, ["si"], ["alone"])}
    rows = contours.measure_flutter_free(["si"], ["alone"])
    free = {r.syllable: r.slope for r in rows}
    assert all(abs(free[s]) < 0.1 for s in ("si1", "si3", "si6")), free
    assert free["si2"] > 0.8 and free["si5"] > 0.6 and free["si4"] < -0.5, free
    assert max(abs(free[s] - with_flutter[s]) for s in free) > 0.1, (free, with_flutter)
    assert contours.measure_flutter_free(["si"], ["alone"]) == rows


def test_copy_rendering_is_the_vocoder_on_espeaks_own_mel_and_pitch():
    """The vocoder row of `evaluate --shapes`: espeak-ng's timing, audio of its length, and the bundled vocoder
    keeps si's rise and fall when given espeak-ng's own mel and F0."""
    from cantoedge.export.bundle import voice_paths
    from cantoedge.export.checkpoint import load_model

    vocoder, _ = load_model(voice_paths().vocoder)
    units = contours.six_tone_units("si", "alone")[1]
    audio, durations, encoded = contours.copy_rendering(vocoder, units)
    ref_audio, ref_durations, ref_encoded = contours.espeak_rendering(units)
    np.testing.assert_array_equal(durations, ref_durations)
    assert encoded.tokens == ref_encoded.tokens
    assert abs(audio.size - ref_audio.size) < 2 * AUDIO.hop_length
    slopes = {r.syllable: r.slope for r in contours.measure(lambda u: contours.copy_rendering(vocoder, u),
                                                           bases=["si"], contexts=["alone"])}
    assert slopes["si2"] > 0.5 and slopes["si4"] < -0.5


def test_first_voiced_run_is_the_frames_up_to_the_first_break_in_voicing():
    f0 = np.array([0, 0, 80.0, 81, 82, 0, 90, 91, 0], np.float32)
    assert contours.first_voiced_run(f0).tolist() == [False, False, True, True, True, False, False, False, False]
    assert contours.first_voiced_run(np.array([70.0, 71, 72])).tolist() == [True, True, True]
    assert not contours.first_voiced_run(np.zeros(4)).any()
    assert contours.first_voiced_run(np.array([0.0, 0, 75])).tolist() == [False, False, True]


def test_a_nudge_moves_the_vocoders_pitch_on_the_first_voiced_run_only(monkeypatch):
    """`evaluate --nudges`: the vocoder is given the model's own F0 with the nudge added over the first voiced run
    and nothing else changed; no nudge gives exactly the voice as it speaks."""
    import torch

    from cantoedge.export.bundle import voice_paths
    from cantoedge.export.checkpoint import load_model

    given = []
    monkeypatch.setattr(contours, "vocode_chunked", lambda voc, mel, f0: given.append(f0.clone()) or torch.zeros(8))
    model, _ = load_model(voice_paths().acoustic)
    units = contours.six_tone_units("si", "carrier")[1]
    contours.model_rendering(model, None, units)
    contours.model_rendering(model, None, units, nudge_hz=0.2)
    spoken, nudged = (f.numpy().astype(np.float64) for f in given)
    run = contours.first_voiced_run(spoken)
    assert run.sum() >= 3 and (spoken > 0).sum() > run.sum()  # 我 before a pause; more voiced runs after it
    np.testing.assert_allclose(nudged[run] - spoken[run], 0.2, atol=1e-4)
    np.testing.assert_array_equal(nudged[~run], spoken[~run])


def _rows(slopes):
    return [contours.ToneShape(f"si{i + 1}", "alone", s, 77.0, 10) for i, s in enumerate(slopes)]


def test_nudge_spread_counts_each_nudge_and_how_far_each_slope_moves():
    reference = _rows([0.0, 1.0, 0.0, -0.8])
    spoken = _rows([0.1, 0.7, 0.0, -0.5])  # all four within 0.4
    nudged = [_rows([0.1, 0.5, 0.0, -0.5]),  # si2 0.5 off: three within
              _rows([0.2, 0.7, math.nan, -0.3])]  # si3 unmeasurable, si4 0.5 off: two within
    spread = contours.nudge_spread(spoken, nudged, reference)
    assert (spread.within, spread.lowest, spread.highest, spread.total) == (4, 2, 3, 4)
    moves = [0.1, 0.2, 0.0, 0.2]  # each syllable's slope range over the three renderings
    assert spread.slope_moves == pytest.approx((np.median(moves), np.percentile(moves, 90), 0.2))
    assert set(spread.most_moved[:2]) == {"si2 alone", "si4 alone"} and spread.most_moved[2] == "si1 alone"


UNVOICED_ONSETS = ("si", "fu", "fan")  # only the rime carries pitch: where the old voice lost the contour
VOICED_ONSETS = ("ji", "jau", "maa")  # the onset glides into the rime: espeak-ng lifts every tone of these
MIN_SHARE_WITHIN = 0.90  # of the 72 syllables within SLOPE_TOLERANCE; the bundled voice: 67 (93 %) in FP32 and INT8
# of the 144 syllables of the held-out sets within SLOPE_TOLERANCE of espeak-ng's rendering without flutter, the one
# the voice learned; the bundled voice: 138 (96 %) in FP32 and INT8 (against the rendering with flutter 83 and 85 %)
MIN_SHARE_WITHIN_HELD_OUT = 0.93


@pytest.fixture(scope="module")
def reference_shapes():
    return contours.measure(contours.espeak_rendering)  # every measured set: UNVOICED_ONSETS + VOICED_ONSETS


def _bundled_voice_shapes(device_voice, reference, bases):
    """The bundled voice's shapes in PyTorch (FP32) and on the device (its INT8 graphs, onnxruntime) against
    ``reference``, every one of ``bases`` alone and in the carrier."""
    from cantoedge.export.bundle import voice_paths
    from cantoedge.export.checkpoint import load_model
    from cantoedge.runtime.synth import Voice

    paths = voice_paths()
    model, _ = load_model(paths.acoustic)
    vocoder, _ = load_model(paths.vocoder)
    device = Voice.load(device_voice, threads=1, warmup=False, cache_bytes=0)
    try:
        return {
            "fp32": contours.compare(contours.measure(lambda u: contours.model_rendering(model, vocoder, u), bases),
                                     reference),
            "int8": contours.compare(contours.measure(contours.device_renderer(device), bases), reference),
        }
    finally:
        device.close()


@pytest.fixture(scope="module")
def voice_shapes(reference_shapes, device_voice):
    """The measured sets against espeak-ng's rendering, as issue 10 scores them."""
    from cantoedge.datasets.tonesets import MEASURED_SETS

    return _bundled_voice_shapes(device_voice, reference_shapes, tuple(MEASURED_SETS))


@pytest.fixture(scope="module")
def held_out_shapes(device_voice):
    """The validation sets (never trained on, never measured for issue 10) against espeak-ng's rendering without
    flutter, the one the voice learned."""
    from cantoedge.datasets.tonesets import VALIDATION_SETS

    return _bundled_voice_shapes(device_voice, contours.measure_flutter_free(VALIDATION_SETS), VALIDATION_SETS)


def _by(rows, context):
    return {r["syllable"]: r for r in rows if r["context"] == context}


@pytest.mark.slow
@pytest.mark.parametrize("build", ["fp32", "int8"])
def test_rising_and_falling_tones_keep_their_shape_where_only_the_rime_is_voiced(voice_shapes, build):
    """詩史試時市事, 夫苦富扶婦負, 分粉訓焚憤份 alone: tones 2 and 5 rise, tone 4 falls (the old voice: +0.19,
    +0.20 and +0.01 semitones on si2, si5, si4; espeak-ng +1.17, +0.92, -0.87), and the levels keep
    1 > 3 > 6 and 1 > 4."""
    alone = _by(voice_shapes[build], "alone")
    for base in UNVOICED_ONSETS:
        assert alone[f"{base}2"]["slope"] >= 0.55, alone[f"{base}2"]
        assert alone[f"{base}5"]["slope"] >= 0.55, alone[f"{base}5"]
        assert alone[f"{base}4"]["slope"] <= -0.2, alone[f"{base}4"]
        level = {t: alone[f"{base}{t}"]["level"] for t in range(1, 7)}
        assert level[1] > level[3] > level[6] and level[1] > level[4], (base, level)


@pytest.mark.slow
@pytest.mark.parametrize("build", ["fp32", "int8"])
def test_in_the_carrier_the_median_rise_and_fall_survive(voice_shapes, build):
    """In 「我話X畀你聽。」 the median over the three sets: tones 2 and 5 rise, tone 4 falls."""
    carried = _by(voice_shapes[build], "carrier")
    median = {t: np.median([carried[f"{b}{t}"]["slope"] for b in UNVOICED_ONSETS]) for t in (2, 4, 5)}
    assert median[2] >= 0.5 and median[5] >= 0.5 and median[4] <= -0.3, median


@pytest.mark.slow
@pytest.mark.parametrize("build", ["fp32", "int8"])
def test_after_a_voiced_onset_rising_tones_still_rise_above_the_onsets_glide(voice_shapes, build):
    """醫椅意兒耳二, 優柚幼油有又, 媽嗎嘛麻馬罵 alone: espeak-ng's j- and m- glide lifts even the level tones (ji6
    +0.93), so a rise alone proves nothing; tones 2 and 5 rise by at least a semitone (espeak-ng +1.32 to +1.78)
    and at least 0.4 more than the steepest of tones 1, 3 and 6 (espeak-ng 0.39-0.71; the voice 0.74-0.79), and
    the levels keep 1 > 3 > 6 and 1 > 4 alone and in the carrier."""
    for context in ("alone", "carrier"):
        said = _by(voice_shapes[build], context)
        for base in VOICED_ONSETS:
            level = {t: said[f"{base}{t}"]["level"] for t in range(1, 7)}
            assert level[1] > level[3] > level[6] and level[1] > level[4], (base, context, level)
    alone = _by(voice_shapes[build], "alone")
    for base in VOICED_ONSETS:
        slope = {t: alone[f"{base}{t}"]["slope"] for t in range(1, 7)}
        assert min(slope[2], slope[5]) >= 1.0, (base, slope)
        assert min(slope[2], slope[5]) - max(slope[1], slope[3], slope[6]) >= 0.4, (base, slope)


@pytest.mark.slow
@pytest.mark.parametrize("build", ["fp32", "int8"])
def test_most_slopes_are_within_the_tolerance_of_espeaks(voice_shapes, build):
    """The share the issue's target asks to be all: a retrained or recalibrated voice that bends more shapes than
    the bundled one's five of 72 (FP32 and INT8) fails here before the strict xfail below could notice."""
    errors = np.array([r["slope_error"] for r in voice_shapes[build]])
    assert errors.size == 72 and np.isfinite(errors).all()
    missed = sorted((round(r["slope_error"], 2), r["syllable"], r["context"]) for r in voice_shapes[build]
                    if r["slope_error"] > contours.SLOPE_TOLERANCE)
    assert np.mean(errors <= contours.SLOPE_TOLERANCE) >= MIN_SHARE_WITHIN, missed


@pytest.mark.slow
@pytest.mark.parametrize("build", ["fp32", "int8"])
def test_held_out_slopes_follow_the_rendering_the_voice_learned(held_out_shapes, build):
    """Twelve sets no stage trained on and no run was chosen by: as many slopes within the tolerance of espeak-ng's
    flutter-free rendering as on the measured sets, so 93 % there is not tuned to those six; tones 2 and 5 still
    rise and tone 4 falls (medians, alone and in the carrier)."""
    rows = held_out_shapes[build]
    errors = np.array([r["slope_error"] for r in rows])
    assert errors.size == 144 and np.isfinite(errors).all()
    missed = sorted((round(r["slope_error"], 2), r["syllable"], r["context"]) for r in rows
                    if r["slope_error"] > contours.SLOPE_TOLERANCE)
    assert np.mean(errors <= contours.SLOPE_TOLERANCE) >= MIN_SHARE_WITHIN_HELD_OUT, missed
    for context in ("alone", "carrier"):
        median = {t: np.median([r["slope"] for r in rows if r["context"] == context and r["syllable"].endswith(str(t))])
                  for t in (2, 4, 5)}
        assert median[2] >= 0.8 and median[5] >= 0.8 and median[4] <= -0.4, (context, median)


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="issue 10's target, not met yet: every tone within 0.4 semitone of "
                                       "espeak-ng's slope; the bundled voice reaches 93 % (FP32 and INT8) of "
                                       "72 syllables in six sets, the misses mostly after the voiced onsets j- and "
                                       "m- (89 % before the polish stage, 86 % before the gliding lead, the "
                                       "rime-filled stage 65 %, stage 2 44 %)")
@pytest.mark.parametrize("build", ["fp32", "int8"])
def test_every_slope_is_within_the_tolerance_of_espeaks(voice_shapes, build):
    errors = [r["slope_error"] for r in voice_shapes[build]]
    assert max(errors) <= contours.SLOPE_TOLERANCE, sorted(errors)[-5:]


def test_evaluate_refuses_graphs_without_shapes_before_any_work(tmp_path, capsys, monkeypatch):
    from cantoedge.export import evaluate as evaluation
    from cantoedge.export.bundle import voice_paths
    from cantoedge.scripts.cli import main

    monkeypatch.setattr(evaluation, "evaluate", lambda *a, **k: pytest.fail("evaluation started"))
    (tmp_path / "corpus").mkdir()
    paths = voice_paths()
    assert main(["evaluate", "--model", f"a={paths.acoustic}", "--vocoder", str(paths.vocoder), "--corpus",
                 str(tmp_path / "corpus"), "--graphs", str(tmp_path)]) == 1
    assert "give --shapes too" in capsys.readouterr().err
    assert main(["evaluate", "--model", f"a={paths.acoustic}", "--vocoder", str(paths.vocoder), "--corpus",
                 str(tmp_path / "corpus"), "--shape-sets", "validation"]) == 1
    assert "give --shapes too" in capsys.readouterr().err
    assert main(["evaluate", "--model", f"a={paths.acoustic}", "--vocoder", str(paths.vocoder), "--corpus",
                 str(tmp_path / "corpus"), "--nudges"]) == 1
    assert "give --shapes too" in capsys.readouterr().err


@pytest.mark.slow
def test_nudges_no_one_hears_move_the_bundled_voices_slopes_by_less_than_the_tolerance():
    """The measure's own spread, which `evaluate --nudges` reports: 0.2 Hz up or down on the first voiced run moves
    no slope of 詩史試時市事, alone or in the carrier, by as much as the 0.4-semitone tolerance (the bundled voice:
    0.13 at most over these 12, 0.36 over the 72 syllables of the six sets, 2026-12-07)."""
    from cantoedge.export.bundle import voice_paths
    from cantoedge.export.checkpoint import load_model

    model, _ = load_model(voice_paths().acoustic)
    vocoder, _ = load_model(voice_paths().vocoder)
    spoken, *nudged = (contours.measure(lambda u, hz=hz: contours.model_rendering(model, vocoder, u, nudge_hz=hz),
                                        bases=["si"]) for hz in (0.0, -0.2, 0.2))
    spread = contours.nudge_spread(spoken, nudged, spoken)  # against itself: what the nudges alone move
    assert spread.within == 12 and spread.lowest >= 11
    assert 0.0 < spread.slope_moves[2] < contours.SLOPE_TOLERANCE
