"""pYIN tracks kept beside the corpus: computed once on worker processes, read back by every run, and never
trusted when they do not fit the utterance."""

import numpy as np
import pytest

from cantoedge.export.contours import track_semitones
from cantoedge.export.data import AcousticDataset, Normaliser, rime_frames
from cantoedge.export.tracks import TRACKS_DIR, prepare_tracks, read_track, track_path
from cantoedge.runtime.manifest import load_features, read_manifest
from cantoedge.runtime.wavio import read_wav


def test_tracks_are_computed_once_beside_the_corpus_and_read_back(corpus_copy):
    records = [r for r in read_manifest(corpus_copy) if r.split == "train"][:3]
    assert prepare_tracks(corpus_copy, records, workers=2, progress=False) == 3
    assert prepare_tracks(corpus_copy, records, workers=2, progress=False) == 0  # resumed: nothing to do
    for record in records:
        path = track_path(corpus_copy, record)
        assert path.parent == corpus_copy / TRACKS_DIR and path.exists()
        audio, _ = read_wav(corpus_copy / record.wav)
        expected = track_semitones(audio)
        n = load_features(corpus_copy, record)["f0"].size
        f0, voiced = read_track(corpus_copy, record, n)
        np.testing.assert_array_equal(voiced, np.isfinite(expected))
        np.testing.assert_allclose(12 * np.log2(f0[voiced]), expected[voiced], atol=1e-4)
        assert (f0[~voiced] == 0).all() and voiced.any()
    assert not list((corpus_copy / "tracks").rglob("*.tmp"))


def test_a_corrupt_or_stale_track_is_computed_again(corpus_copy):
    record = [r for r in read_manifest(corpus_copy) if r.split == "train"][0]
    n = load_features(corpus_copy, record)["f0"].size
    path = track_path(corpus_copy, record)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a track")
    good = read_track(corpus_copy, record, n)
    np.save(path, np.zeros(n + 3, np.float32))  # a corpus rendered again since: another length
    again = read_track(corpus_copy, record, n)
    np.testing.assert_array_equal(again[0], good[0])
    assert np.load(path).shape == (n,)
    with pytest.raises(ValueError, match="pYIN gives"):
        read_track(corpus_copy, record, n + 1)


def test_pyin_fills_rimes_and_sonorant_onsets_the_corpus_left_unvoiced(corpus_copy):
    records = [r for r in read_manifest(corpus_copy) if r.split == "train"][:4]
    norm = Normaliser.from_corpus(corpus_copy, records)
    onsets = ("j-", "m-", "n-", "l-", "ng-", "w-")
    filled = AcousticDataset(corpus_copy, records, norm, yin_mode="fill_rimes", fill_onsets=onsets, tracker="pyin")
    added = 0
    for i, record in enumerate(records):
        feats = load_features(corpus_copy, record)
        relabelled = filled._relabelled(i, feats)
        pyin_f0, pyin_voiced = read_track(corpus_copy, record, feats["f0"].size)
        new = relabelled["voiced"] & ~feats["voiced"].astype(bool)
        assert rime_frames(feats["tokens"], feats["durations"], onsets)[new].all() and pyin_voiced[new].all()
        np.testing.assert_array_equal(relabelled["f0"][new], pyin_f0[new])
        np.testing.assert_array_equal(relabelled["f0"][~new], feats["f0"][~new])
        added += int(new.sum())
    assert added > 0


def test_a_contour_stage_with_pyin_keeps_the_tracks_and_trains(student_run, corpus_copy):
    """`train student` with ``tracker = "pyin"``: the corpus's tracks are computed first (on worker processes) and
    the stage trains on them."""
    from trainkit import TINY_TEACHER, _train

    root = student_run.parent.parent  # the stage starts from the "student" run beside it
    config = root / "pyin_stage.toml"
    config.write_text(TINY_TEACHER.replace("dim = 32", "dim = 16").replace("max_steps = 24", "max_steps = 2")
                      + 'init = "student"\n[contour]\nshape_weight = 8.0\ntracker = "pyin"\nyin_mode = "fill_rimes"\n'
                      'yin_fill_onsets = ["j-"]\n')
    proc = _train("student", config, corpus_copy, root / "pyin_stage")
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    assert (root / "pyin_stage" / "model.safetensors").exists()
    records = [r for r in read_manifest(corpus_copy) if r.split == "train"]
    assert all(track_path(corpus_copy, r).exists() for r in records)
