"""synth-torch and the evaluation table, on tiny trained models."""

import json
from pathlib import Path

import numpy as np
import pytest

from cantoedge.runtime.audio import AUDIO
from cantoedge.runtime.wavio import read_wav
from cantoedge.scripts.cli import main


def test_synth_torch_writes_audio_and_syllable_alignment(teacher_run, tiny_vocoder, tmp_path, capsys):
    _, teacher = teacher_run
    wav, tsv = tmp_path / "out.wav", tmp_path / "align.tsv"
    assert main(["synth-torch", "詩史試時市事。", "-o", str(wav), "--alignment", str(tsv),
                 "--acoustic", str(teacher), "--vocoder", str(tiny_vocoder)]) == 0
    assert "si1 si2 si3 si4 si5 si6" in capsys.readouterr().out
    audio, rate = read_wav(wav)
    assert rate == AUDIO.sample_rate and audio.size % AUDIO.hop_length == 0 and np.isfinite(audio).all()
    rows = [line.split("\t") for line in tsv.read_text().splitlines()[1:]]
    assert [r[0] for r in rows] == ["si1", "si2", "si3", "si4", "si5", "si6"]
    times = [(float(r[1]), float(r[2])) for r in rows]
    assert all(s <= e for s, e in times) and all(a[1] <= b[0] + 1e-9 for a, b in zip(times, times[1:]))
    assert times[-1][1] <= audio.size / rate + 1e-6


def test_synth_torch_without_a_voice_is_a_clear_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["synth-torch", "你好", "-o", str(tmp_path / "x.wav"), "--acoustic", str(tmp_path / "none.safetensors")])
    assert exit_.value.code == 2
    assert "--acoustic" in (err := capsys.readouterr().err) and "none.safetensors: no such file" in err
    assert not (tmp_path / "x.wav").exists()


def test_evaluation_table_covers_reference_vocoder_and_models(teacher_run, tiny_vocoder, tiny_corpus):
    from cantoedge.export.evaluate import evaluate, markdown_table

    _, teacher = teacher_run
    # the validation split: speaker statistics from three utterances are a small sample, and the first
    # three test utterances happen to sit a semitone below the speaker's median (their reference reads 35 %)
    results = evaluate(tiny_corpus, {"teacher": teacher}, tiny_vocoder, split="val", limit=3)
    assert [r.name for r in results] == ["reference audio", "vocoder on reference mel", "teacher"]
    assert results[0].tone_accuracy > 0.6  # the classifier hears the reference tones
    teacher_row = results[2].to_json()
    assert teacher_row["mel_l1"]["n"] == 3 and teacher_row["mel_l1"]["median"] > 0
    assert results[1].to_json()["mel_l1"]["median"] > 0  # resynthesis is measured from its own audio
    assert results[2].tone_accuracy < results[0].tone_accuracy  # a 24-step teacher is heard worse than espeak
    assert markdown_table(results).count("\n") == 5


def test_evaluation_scores_f0_against_a_flutter_free_reference_when_given_one(teacher_run, tiny_vocoder,
                                                                                tiny_corpus, tmp_path):
    """Given the corpus's own rendering as the "flutter-free" one, the reference row reads 0, every system's extra
    column equals its F0 RMSE, and the row that vocodes the rendering's mel and F0 reads as the resynthesis,
    metric for metric; an utterance without a flutter-free rendering is refused before any scoring, and a damaged
    checkpoint before any rendering."""
    from cantoedge.datasets.flutterfree import FlutterFreeTrack
    from cantoedge.export.evaluate import evaluate, markdown_table
    from cantoedge.runtime.manifest import load_features, read_manifest

    _, teacher = teacher_run
    records = [r for r in read_manifest(tiny_corpus) if r.split == "val"][:2]
    feats = {r.id: load_features(tiny_corpus, r) for r in records}
    own = {k: FlutterFreeTrack(np.where(f["voiced"], f["f0"], 0.0), f["durations"], f["mel"]) for k, f in feats.items()}
    results = evaluate(tiny_corpus, {"teacher": teacher}, tiny_vocoder, split="val", limit=2,
                       flutter_free=lambda recs: own)
    assert [r.name for r in results] == ["reference audio", "vocoder on reference mel",
                                         "vocoder on the flutter-free mel and F0", "teacher",
                                         "teacher with the corpus's own flutter (oracle)"]
    assert results[0].f0_flutter_free_cents == [0.0, 0.0]
    for r in results[1:]:
        assert r.f0_flutter_free_cents == r.f0_cents and len(r.f0_cents) == 2
    resynth, free = results[1].to_json(), results[2].to_json()
    assert free == {**resynth, "name": free["name"]} and resynth["f0_cents"]["median"] > 0
    # no flutter to put in: the oracle row is the teacher's aligned row, and hears no tones (it has no free run)
    teacher_row, oracle = results[3].to_json(), results[4].to_json()
    assert np.isnan(oracle.pop("tone_accuracy")) and teacher_row.pop("tone_accuracy") > 0
    assert oracle == {**teacher_row, "name": oracle["name"]}
    table = markdown_table(results)
    assert "F0 RMSE vs flutter-free (cents)" in table
    assert table.splitlines()[-1].startswith("| teacher with the corpus's own flutter (oracle) |")
    assert table.splitlines()[-1].endswith("| – |")
    with pytest.raises(ValueError, match="no flutter-free rendering for 1 utterances"):
        evaluate(tiny_corpus, {"teacher": teacher}, tiny_vocoder, split="val", limit=3, flutter_free=lambda recs: own)
    damaged = tmp_path / "vocoder.safetensors"
    damaged.write_bytes(Path(tiny_vocoder).read_bytes()[:100])
    rendered = []  # the renderings take seconds an utterance: a damaged checkpoint is refused before them
    with pytest.raises(ValueError, match="not a readable safetensors checkpoint"):
        evaluate(tiny_corpus, {"teacher": teacher}, damaged, split="val", limit=2,
                 flutter_free=lambda recs: rendered.append(recs) or own)
    assert rendered == []


def test_evaluate_writes_a_report_that_strict_json_readers_take(teacher_run, tiny_vocoder, tiny_corpus, tmp_path):
    """The reference row has no F0 error of its own (nothing to compare it with): null in the report, not NaN,
    which is not JSON (JavaScript's JSON.parse refuses it)."""
    _, teacher = teacher_run
    out = tmp_path / "report.json"
    assert main(["evaluate", "--model", f"teacher={teacher}", "--vocoder", str(tiny_vocoder), "--corpus",
                 str(tiny_corpus), "--split", "val", "--limit", "2", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"),
                        parse_constant=lambda name: pytest.fail(f"{name} in the report"))
    reference, teacher_row = report["systems"][0], report["systems"][-1]
    assert reference["name"] == "reference audio" and reference["f0_cents"] == {"n": 0, "median": None, "p95": None}
    assert teacher_row["name"] == "teacher" and teacher_row["f0_cents"]["median"] > 0
    assert set(report["listen_proxy"]) == {"teacher"}


def test_evaluate_needs_name_equals_path(tmp_path, capsys):
    vocoder = tmp_path / "v.safetensors"
    vocoder.write_bytes(b"")
    with pytest.raises(SystemExit) as exit_:
        main(["evaluate", "--model", "teacher", "--vocoder", str(vocoder), "--corpus", str(tmp_path)])
    assert exit_.value.code == 2 and "NAME=PATH" in capsys.readouterr().err


@pytest.mark.parametrize("speed", ["0", "-1", "100", "nan"])
def test_synth_torch_rejects_bad_speed(speed, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["synth-torch", "你好", "-o", str(tmp_path / "x.wav"), "--speed", speed])
    assert exit_.value.code == 2 and "--speed" in capsys.readouterr().err


def test_listen_proxy_reports_six_tones_alone_and_in_a_carrier(teacher_run, tiny_vocoder):
    from cantoedge.datasets.tonesets import MEASURED_SETS
    from cantoedge.export.evaluate import listen_proxy
    from cantoedge.export.synth import TorchVoice

    _, teacher = teacher_run
    voice, said = TorchVoice(teacher, tiny_vocoder), []
    speak = voice.speak
    voice.speak = lambda text: said.append(text) or speak(text)
    proxy = listen_proxy(voice)
    # the speaker's scale from every measured set's carrier sentences, each synthesised once
    assert sorted(said) == sorted([*"詩史試時市事", *(f"我話{c}畀你聽。" for c in "".join(MEASURED_SETS.values()))])
    assert len(proxy["isolated"]) == len(proxy["carrier"]) == 6
    assert all(t in (-1, 1, 2, 3, 4, 5, 6) for t in proxy["isolated"] + proxy["carrier"])
    heard = [int(h == asked) for h, asked in zip(proxy["carrier"], range(1, 7))]
    assert proxy["carrier_accuracy"] == pytest.approx(sum(heard) / 6)
