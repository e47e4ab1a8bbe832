"""The corpus rendered again without espeak-ng's pitch flutter: same timing, F0 without the wobble."""

import numpy as np
import pytest

from cantoedge.datasets.corpus import render_units, utterance_units
from cantoedge.datasets.espeak import FLUTTER_FREE_VARIANT, Espeak, flutter_free_data
from cantoedge.datasets.features import extract
from cantoedge.datasets.flutterfree import corpus_flutter_free, flutter_free_tracks, with_corpus_flutter
from cantoedge.regression.metrics import f0_rmse_cents, mel_l1
from cantoedge.runtime.audio import AUDIO
from cantoedge.runtime.manifest import Record


def test_the_overlay_keeps_the_system_data_and_adds_only_the_variant(tmp_path):
    data = flutter_free_data(tmp_path) / "espeak-ng-data"
    assert (data / "phontab").resolve().exists() and (data / "yue_dict").is_symlink()
    assert (data / "voices" / "!v" / FLUTTER_FREE_VARIANT).read_text() == f"name {FLUTTER_FREE_VARIANT}\nflutter 0\n"
    again = flutter_free_data(tmp_path) / "espeak-ng-data"  # a second call rebuilds it in place
    assert sorted(p.name for p in again.iterdir()) == sorted(p.name for p in data.iterdir())


def test_flutter_free_renderings_keep_the_timing_and_lose_the_wobble(clean_utterances):
    utts = [u for u in clean_utterances if u.split == "test"][:2]
    tracks = flutter_free_tracks(utts, workers=1)
    assert set(tracks) == {u.id for u in utts}
    espeak = Espeak()
    for utt in utts:
        corpus = render_units(utterance_units(utt), espeak)
        track = tracks[utt.id]
        # flutter changes cycle lengths by a few samples: every token boundary stays within a frame
        assert np.abs(np.cumsum(track.durations) - np.cumsum(corpus.durations)).max() <= 1
        with_flutter = extract(corpus.audio)
        wobble = f0_rmse_cents(with_flutter.f0, track.f0)
        assert 5.0 < wobble < 40.0, wobble  # +-2 Hz at ~89 Hz is up to ~40 cents; its rms ~14
        # the mel a voice without the flutter would vocode: the same frames, nearer the corpus's than the bundled
        # voice's mel comes to its reference (0.23)
        assert track.mel.shape == (AUDIO.n_mels, track.f0.size)
        assert 0.0 < mel_l1(with_flutter.mel, track.mel) < 0.2, mel_l1(with_flutter.mel, track.mel)
    again = flutter_free_tracks(utts).values()
    assert all(np.array_equal(a.f0, b.f0) and np.array_equal(a.mel, b.mel) for a, b in zip(tracks.values(), again))


def test_only_the_rendered_corpus_has_a_flutter_free_reference():
    record = Record(id="my-recording-001", text="你好", jyutping=["nei5", "hou2"], tokens=[], tones=[], phones=[],
                    wav="wavs/x.wav", features="feats/x.npz", n_frames=10, n_samples=2560, sample_rate=22050,
                    split="test")
    with pytest.raises(ValueError, match="not HKCanCor's .*my-recording-001"):
        corpus_flutter_free([record])
    with pytest.raises(ValueError, match="workers must be at least 1"):
        flutter_free_tracks([], workers=0)


def test_a_wrong_espeak_data_path_is_named_before_any_rendering(monkeypatch, tmp_path):
    from cantoedge.datasets.espeak import EspeakNotFoundError

    monkeypatch.setenv("ESPEAK_DATA_PATH", str(tmp_path))
    with pytest.raises(EspeakNotFoundError, match=f"{tmp_path}/espeak-ng-data .*ESPEAK_DATA_PATH.* no phontab"):
        flutter_free_data(tmp_path / "overlay")
    assert not (tmp_path / "overlay").exists()


def test_the_corpus_flutter_turns_the_flutter_free_track_into_the_corpus_track_where_both_voice():
    corpus = np.array([0.0, 90.0, 91.0, 0.0, 88.0, 87.5, 86.0])
    free = np.array([0.0, 89.0, 91.5, 92.0, 0.0, 88.0])  # one frame shorter; voicing differs at frames 3 and 4
    assert np.allclose(with_corpus_flutter(free, corpus, free), [0.0, 90.0, 91.0, 92.0, 0.0, 87.5])
    voice = np.array([80.0, 85.0, 0.0, 86.0, 86.0, 88.0, 84.0], dtype=np.float32)
    out = with_corpus_flutter(voice, corpus, free)
    # scaled only where the corpus and its flutter-free rendering both voice; unvoiced stays unvoiced
    assert out.dtype == np.float32 and out.shape == voice.shape
    assert np.allclose(out, [80.0, 85.0 * 90 / 89, 0.0, 86.0, 86.0, 88.0 * 87.5 / 88, 84.0])
    assert np.array_equal(with_corpus_flutter(voice, corpus, corpus), voice)  # no flutter, nothing changes
