"""The bundled default voice: its install contract, and the committed student and vocoder themselves."""

import json

import numpy as np
import pytest
import torch

from cantoedge.datasets.corpus import FLUTTER_FREE_SPEAKER
from cantoedge.export import bundle
from cantoedge.export.bundle import install_voice, voice_paths
from cantoedge.export.checkpoint import load_model
from cantoedge.runtime.fileio import file_sha256
from cantoedge.runtime.manifest import read_manifest


def test_install_copies_the_checkpoints_and_records_where_they_came_from(student_run, tiny_vocoder, tmp_path):
    out = install_voice(student_run, tiny_vocoder, voice_dir=tmp_path / "voice")
    assert out.acoustic.read_bytes() == student_run.read_bytes()
    assert out.vocoder.read_bytes() == tiny_vocoder.read_bytes()
    info = json.loads(out.info.read_text())
    assert info["student"]["sha256"] == file_sha256(out.acoustic)
    assert info["vocoder"]["sha256"] == file_sha256(out.vocoder)
    assert info["student"]["steps"] == 8 and info["vocoder"]["config"]["layers"] == 2
    assert not list(out.info.parent.glob(".*.tmp"))


def test_install_refuses_a_student_over_an_eighth_of_its_teacher(student_run, tiny_vocoder, teacher_run, tmp_path):
    _, teacher = teacher_run
    with pytest.raises(ValueError, match="of the teacher's parameters"):
        install_voice(student_run, tiny_vocoder, teacher, voice_dir=tmp_path / "voice")
    assert not (tmp_path / "voice").exists()  # nothing half-installed


def test_install_refuses_swapped_kinds_and_an_oversized_voice(student_run, tiny_vocoder, tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="expected a vocoder"):
        install_voice(student_run, student_run, voice_dir=tmp_path / "a")
    monkeypatch.setattr(bundle, "MAX_VOICE_BYTES", 1000)
    with pytest.raises(ValueError, match="may hold at most"):
        install_voice(student_run, tiny_vocoder, voice_dir=tmp_path / "b")


MICRO_STUDENT = """
kind = "acoustic"
[model]
dim = 8
heads = 2
enc_layers = 1
ff_hidden = 16
dec_dim = 8
dec_layers = 1
dec_hidden = 16
predictor_hidden = 8
frame_pitch = true
[train]
seed = 7
batch_size = 4
max_steps = 4
lr = 1e-3
warmup_steps = 2
checkpoint_every = 2
[distil]
feature_weight = 0.1
"""


def test_train_voice_runs_teacher_student_vocoder_then_installs(tiny_corpus, tmp_path):
    """The one reproduction command, with tiny configs: two stages of three runs, the student's contour, level and
    flutter-free stages (the last on the same utterances rendered without flutter, made on the way) and the slim
    vocoder, then an installed voice whose student is the last stage's (of its encoder only the token-pitch predictor
    and projection retrained) and under an eighth of the teacher; a second call resumes (nothing left to train) and
    installs the same files."""
    from trainkit import TINY_TEACHER, TINY_VOCODER

    from cantoedge.export.bundle import train_voice
    from cantoedge.export.config import parse_config

    stage1 = {"teacher": TINY_TEACHER, "student": MICRO_STUDENT, "vocoder": TINY_VOCODER}
    configs = {name: parse_config(text, name) for name, text in stage1.items()}
    for name, text in stage1.items():  # stage 2 starts from stage 1
        configs[f"{name}_pitch"] = parse_config(text.replace("[train]\n", f'[train]\ninit = "{name}"\n'), name)
    contour = MICRO_STUDENT.replace("[train]\n", '[train]\ninit = "student_pitch"\n').replace(
        "[distil]\nfeature_weight = 0.1\n", "[contour]\nshape_weight = 8.0\ntone_set_bases = 1\n")
    configs["student_contour"] = parse_config(contour, "student_contour")
    level = contour.replace('init = "student_pitch"', 'init = "student_contour"').replace(
        "tone_set_bases = 1\n", "tone_set_bases = 1\nf0_weight = 50.0\ntrain_pitch = true\n")
    configs["student_level"] = parse_config(level, "student_level")
    configs["student_noflutter"] = parse_config(level.replace('init = "student_contour"', 'init = "student_level"'),
                                                "student_noflutter")
    configs["student_polish"] = parse_config(level.replace('init = "student_contour"', 'init = "student_noflutter"'),
                                             "student_polish")
    slim = TINY_VOCODER.replace("hidden = 32", "hidden = 16").replace("[train]\n", '[train]\ninit = "vocoder_pitch"\n')
    configs["vocoder_slim"] = parse_config(slim, "vocoder_slim")
    noise = slim.replace("hidden = 16", "hidden = 16\nrandom_unvoiced_phase = true").replace('init = "vocoder_pitch"',
                                                                                         'init = "vocoder_slim"')
    configs["vocoder_noise"] = parse_config(noise, "vocoder_noise")
    glide = noise.replace("random_unvoiced_phase = true", "random_unvoiced_phase = true\nlead_glide = 1.0").replace(
        'init = "vocoder_slim"', 'init = "vocoder_noise"')
    configs["vocoder_glide"] = parse_config(glide, "vocoder_glide")
    free = tmp_path / "corpus-noflutter"
    out = train_voice(tiny_corpus, tmp_path / "runs", tmp_path / "voice", progress=False, configs=configs,
                      flutter_free_dir=free)
    assert {r.id for r in read_manifest(free)} == {r.id for r in read_manifest(tiny_corpus)}
    assert {r.speaker for r in read_manifest(free)} == {FLUTTER_FREE_SPEAKER}
    info = json.loads(out.info.read_text())
    assert info["student"]["share_of_teacher"] <= 1 / 8 and info["teacher"]["steps"] == 24
    assert {p.name for p in (tmp_path / "runs").iterdir()} == {*stage1, *(f"{n}_pitch" for n in stage1),
                                                                "student_contour", "student_level", "student_noflutter",
                                                                "student_polish", "vocoder_slim", "vocoder_noise",
                                                                "vocoder_glide"}
    assert out.acoustic.read_bytes() == (tmp_path / "runs" / "student_polish" / "model.safetensors").read_bytes()
    assert out.acoustic.read_bytes() != (tmp_path / "runs" / "student_noflutter" / "model.safetensors").read_bytes()
    free_sets = read_manifest(tmp_path / "runs" / "student_noflutter" / "tone_sets")
    assert {r.speaker for r in free_sets} == {FLUTTER_FREE_SPEAKER}  # its tone sets are flutter-free too
    assert out.vocoder.read_bytes() == (tmp_path / "runs" / "vocoder_glide" / "model.safetensors").read_bytes()
    assert info["vocoder"]["config"]["hidden"] == 16  # half of stage 2's units, kept by importance
    assert info["vocoder"]["config"]["random_unvoiced_phase"] is True  # no frame-rate buzz
    assert info["vocoder"]["config"]["lead_glide"] == 1.0  # the last stage: the voicing lead glides
    contoured, meta = load_model(tmp_path / "runs" / "student_contour" / "model.safetensors")
    before, _ = load_model(tmp_path / "runs" / "student_pitch" / "model.safetensors")
    assert meta["contour"]["shape_weight"] == 8.0 and meta["distilled"] is True
    tone_sets = tmp_path / "runs" / "student_contour" / "tone_sets" / "manifest.jsonl"
    assert len(tone_sets.read_text().splitlines()) == 12  # one common syllable, six tones, alone and carried
    for (name, a), b in zip(contoured.encoder.state_dict().items(), before.encoder.state_dict().values()):
        assert torch.equal(a, b), name  # the contour stage trains the decoder only
    assert not all(torch.equal(a, b) for a, b in zip(contoured.decoder.state_dict().values(),
                                                     before.decoder.state_dict().values()))
    leveled, meta = load_model(out.acoustic)
    assert meta["contour"]["train_pitch"] is True and meta["contour"]["f0_weight"] == 50.0
    moved = {name.split(".")[0] for (name, a), b in zip(leveled.encoder.state_dict().items(),
                                                        contoured.encoder.state_dict().values())
             if not torch.equal(a, b)}
    assert moved == {"pitch", "pitch_proj"}  # durations and energy as the contour stage left them
    assert json.loads((tmp_path / "runs" / "student_pitch" / "distil.json").read_text())["teacher"].endswith(
        "teacher_pitch/model.safetensors")
    again = train_voice(tiny_corpus, tmp_path / "runs", tmp_path / "voice", progress=False, configs=configs,
                        flutter_free_dir=free)
    assert json.loads(again.info.read_text()) == info


BUNDLED = voice_paths()
needs_voice = pytest.mark.skipif(not BUNDLED.acoustic.exists(), reason="no bundled voice in export/voice/ yet")


@needs_voice
def test_bundled_voice_fits_the_budget_and_matches_its_record():
    info = json.loads(BUNDLED.info.read_text())
    total = BUNDLED.acoustic.stat().st_size + BUNDLED.vocoder.stat().st_size
    assert total <= bundle.MAX_VOICE_BYTES
    assert info["student"]["sha256"] == file_sha256(BUNDLED.acoustic)
    assert info["vocoder"]["sha256"] == file_sha256(BUNDLED.vocoder)
    assert info["student"]["parameters"] <= info["teacher"]["parameters"] / 8
    _, meta = load_model(BUNDLED.acoustic)
    assert meta["distilled"] is True
    _, meta = load_model(BUNDLED.vocoder)
    assert meta["kind"] == "vocoder"


@needs_voice
def test_bundled_voice_speaks_any_sentence_with_an_alignment():
    from cantoedge.export.synth import TorchVoice

    speech = TorchVoice().speak("今日天氣好好，我哋去飲茶啦。")
    assert np.isfinite(speech.audio).all() and np.abs(speech.audio).max() > 0.05
    rows = speech.alignment()
    assert [r.jyutping for r in rows][:4] == ["gam1", "jat6", "tin1", "hei3"]
    assert all(a.end <= b.start + 1e-9 for a, b in zip(rows, rows[1:]))


@needs_voice
def test_bundled_voice_says_the_six_tones_of_si():
    """詩史試時市事 differ only by tone: in a carrier sentence the classifier must hear most of them right
    (the stage-2 student: 3 of 6; the contour stage: 5 of 6, alone too)."""
    from cantoedge.export.evaluate import listen_proxy
    from cantoedge.export.synth import TorchVoice

    proxy = listen_proxy(TorchVoice())
    assert proxy["carrier_accuracy"] >= 5 / 6, proxy


@needs_voice
def test_bundled_voice_exports_with_parity_and_its_fallback_names_its_layers(tmp_path, tiny_corpus):
    from cantoedge.calibrate.int8 import check_fallback
    from cantoedge.export.onnx import export_voice
    from cantoedge.export.parity import PARITY_TOLERANCE, check_parity

    export_voice(BUNDLED.acoustic, BUNDLED.vocoder, tmp_path)
    parity = check_parity(tmp_path, BUNDLED.acoustic, BUNDLED.vocoder, tiny_corpus, split="test")
    assert parity.worst <= PARITY_TOLERANCE and parity.ok, parity
    fallback = BUNDLED.info.parent / "fallback.json"
    check_fallback(tmp_path, json.loads(fallback.read_text()))


def test_train_voice_refuses_a_corpus_without_a_flutter_free_rendering_before_any_training(tiny_corpus, tmp_path):
    """Your own recordings have no espeak-ng rendering to take the flutter out of: refused at once, not after the
    hours of teacher, student and vocoder that come before the student's flutter-free stage."""
    from cantoedge.export.bundle import train_voice

    own = tmp_path / "own"
    own.mkdir()
    first, *rest = (tiny_corpus / "manifest.jsonl").read_text().splitlines()
    record = json.loads(first)
    (own / "manifest.jsonl").write_text("\n".join([first.replace(record["id"], "my-recording-1"), *rest]) + "\n")
    with pytest.raises(ValueError, match="not HKCanCor's"):
        train_voice(own, tmp_path / "runs", tmp_path / "voice", progress=False)
    assert not any((tmp_path / name).exists() for name in ("runs", "voice", "own-noflutter"))
