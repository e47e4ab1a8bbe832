"""Training targets from the corpus: the cleaned F0 track the contour stage learns."""

import numpy as np

from cantoedge.export.data import AcousticDataset, Normaliser, clean_voicing, rime_frames
from cantoedge.regression.pitch import PitchParams
from cantoedge.runtime.manifest import load_features, read_manifest


def test_clean_voicing_unvoices_octave_errors_and_keeps_the_contour():
    f0 = np.array([0.0, 480.0, 90.0, 95.0, 100.0, 88.0, 45.0, 0.0, 300.0], np.float32)
    voiced = f0 > 0
    kept = clean_voicing(f0, voiced, max_deviation_st=6.0)
    # the median is 92.5 Hz: 480 and 300 Hz are 28 and 20 semitones above it, 45 Hz 12 below
    assert kept.tolist() == [False, False, True, True, True, True, False, False, False]
    assert voiced.tolist()[1] is True  # the input is not changed in place
    assert clean_voicing(f0, np.zeros(9, bool), 6.0).tolist() == [False] * 9


def test_the_contour_stage_can_track_f0_again_from_the_audio(tiny_corpus):
    records = [r for r in read_manifest(tiny_corpus) if r.split == "train"][:4]
    norm = Normaliser.from_corpus(tiny_corpus, records)
    same = AcousticDataset(tiny_corpus, records, norm, yin_threshold=PitchParams().threshold)
    looser = AcousticDataset(tiny_corpus, records, norm, yin_threshold=0.35)
    voiced = {"corpus": 0, "looser": 0}
    for i, record in enumerate(records):
        feats = load_features(tiny_corpus, record)
        f0, v = same._retracked(i, feats["f0"].size)  # the corpus's own tracker and threshold: its own track
        np.testing.assert_array_equal(v, feats["voiced"])
        np.testing.assert_allclose(f0, feats["f0"], rtol=1e-6)
        voiced["corpus"] += int(feats["voiced"].sum())
        voiced["looser"] += int(looser[i]["frame_voiced"].sum())
        assert looser[i]["mel"].shape == same[i]["mel"].shape  # only F0 and voicing change
    assert voiced["looser"] > voiced["corpus"]


def test_rime_fill_voices_only_rime_frames_the_corpus_left_unvoiced(tiny_corpus):
    """"fill_rimes": the second track's F0 goes only where the corpus's track left a rime frame unvoiced; every
    frame the corpus voiced, every onset and every pause keeps the corpus's own F0 and voicing."""
    records = [r for r in read_manifest(tiny_corpus) if r.split == "train"][:4]
    norm = Normaliser.from_corpus(tiny_corpus, records)
    filled = AcousticDataset(tiny_corpus, records, norm, yin_threshold=0.35, yin_mode="fill_rimes")
    added = 0
    for i, record in enumerate(records):
        feats = load_features(tiny_corpus, record)
        relabelled = filled._relabelled(i, feats)
        f0, voiced = relabelled["f0"], relabelled["voiced"]
        rime = rime_frames(feats["tokens"], feats["durations"])
        kept = feats["voiced"].astype(bool) | ~rime
        np.testing.assert_array_equal(voiced[kept], feats["voiced"].astype(bool)[kept])
        np.testing.assert_array_equal(f0[kept], feats["f0"][kept])
        new = voiced & ~feats["voiced"].astype(bool)
        looser, looser_voiced = filled._retracked(i, feats["f0"].size)
        assert rime[new].all() and looser_voiced[new].all()
        np.testing.assert_array_equal(f0[new], looser[new])
        added += int(new.sum())
    assert added > 0


def test_rime_frames_mark_rimes_and_not_onsets_or_pauses():
    from cantoedge.runtime.inventory import PAUSE_STOP, SIL, load_inventory

    inventory = load_inventory()
    tokens = [inventory.id(p) for p in (SIL, "s-", "i", "j-", "au", PAUSE_STOP)]
    assert rime_frames(tokens, [1, 2, 3, 1, 2, 1]).tolist() == [False, False, False, True, True, True,
                                                                 False, True, True, False]
    assert rime_frames(tokens, [1, 2, 3, 1, 2, 1], ("j-",)).tolist() == [False, False, False, True, True, True,
                                                                          True, True, True, False]


def test_the_vocoder_trains_on_the_pitch_its_lead_setting_gives_on_the_device(tiny_corpus):
    """A vocoder with ``lead_glide`` must see gliding lead frames in training, as the device will feed it."""
    from cantoedge.export.data import VocoderDataset
    from cantoedge.runtime.excitation import vocoder_pitch, voiced_f0

    records = read_manifest(tiny_corpus)
    flat, glide = (VocoderDataset(tiny_corpus, records, 32, seed=3, lead_glide=g) for g in (0.0, 1.0))
    moved = 0
    for i in range(len(flat)):
        a, b = flat[i], glide[i]
        assert np.array_equal(a["mel"].numpy(), b["mel"].numpy()) and np.array_equal(a["audio"], b["audio"])
        feats = load_features(tiny_corpus, flat.records[i])
        whole = vocoder_pitch(voiced_f0(feats["f0"], feats["voiced"]), 1.0)[0]
        assert any(np.array_equal(b["f0"].numpy(), whole[s: s + 32]) for s in range(whole.size - 31))
        moved += not np.array_equal(a["f0"].numpy(), b["f0"].numpy())
    assert moved > 0  # some segments hold a lead frame, and it differs
