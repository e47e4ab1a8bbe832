import json

import numpy as np
import pytest

from cantoedge.runtime.audio import AUDIO
from cantoedge.runtime.inventory import load_inventory
from cantoedge.runtime.manifest import load_features, read_manifest
from cantoedge.runtime.wavio import read_wav


def test_manifest_and_files(tiny_corpus):
    records = read_manifest(tiny_corpus)
    assert len(records) >= 22
    inv = load_inventory()
    for rec in records:
        assert set(json.loads(json.dumps(rec.__dict__))) >= {"id", "text", "jyutping", "tokens", "split", "n_frames"}
        feats = load_features(tiny_corpus, rec)
        assert feats["mel"].shape == (80, rec.n_frames)
        assert feats["f0"].shape == feats["voiced"].shape == feats["energy"].shape == (rec.n_frames,)
        assert int(feats["durations"].sum()) == rec.n_frames
        assert list(feats["tokens"]) == rec.tokens and len(rec.tokens) == len(feats["durations"])
        assert [inv.phone(t) for t in rec.tokens] == rec.phones
        audio, rate = read_wav(tiny_corpus / rec.wav)
        assert rate == 22050 and audio.size == rec.n_samples
        assert AUDIO.n_frames(audio.size) == rec.n_frames
        voiced_f0 = feats["f0"][feats["voiced"]]
        assert voiced_f0.size > 0 and 60 < np.median(voiced_f0) < 200  # espeak's Cantonese voice, ~80-100 Hz
    assert {r.split for r in records} == {"train", "val", "test"}


def test_build_resumes_and_is_deterministic(corpus_copy, clean_utterances):
    from cantoedge.datasets.corpus import build_corpus

    records = read_manifest(corpus_copy)
    victim = records[3]
    before = (corpus_copy / victim.features).read_bytes(), (corpus_copy / victim.wav).read_bytes()
    # simulate a build killed before this utterance was finished
    (corpus_copy / "meta" / f"{victim.id}.json").unlink()
    (corpus_copy / victim.features).unlink()
    by_id = {u.id: u for u in clean_utterances}
    summary = build_corpus(corpus_copy, utterances=[by_id[r.id] for r in records], workers=1, progress=False)
    assert summary.rendered == 1 and summary.resumed == len(records) - 1
    after = (corpus_copy / victim.features).read_bytes(), (corpus_copy / victim.wav).read_bytes()
    assert after == before  # re-rendered alone, in another process order: the same bytes
    assert [r.id for r in read_manifest(corpus_copy)] == [r.id for r in records]


def test_missing_espeak_names_the_apt_package_before_any_work(monkeypatch, tmp_path, clean_utterances):
    from cantoedge.datasets import espeak
    from cantoedge.datasets.corpus import build_corpus

    monkeypatch.setattr(espeak, "_LIBRARY_NAMES", ("libdoes-not-exist.so",))
    monkeypatch.setattr(espeak.ctypes.util, "find_library", lambda name: None)
    with pytest.raises(espeak.EspeakNotFoundError, match="apt-get install espeak-ng"):
        espeak.Espeak()
    with pytest.raises(espeak.EspeakNotFoundError):
        build_corpus(tmp_path / "c", utterances=clean_utterances[:2], progress=False)
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize("kwargs", [{"workers": 0}, {"limit": 0}])
def test_bad_build_options_are_refused(tmp_path, kwargs):
    from cantoedge.datasets.corpus import build_corpus

    with pytest.raises(ValueError, match="at least 1"):
        build_corpus(tmp_path, progress=False, **kwargs)


def test_a_smaller_limit_never_cuts_an_existing_manifest(corpus_copy, clean_utterances):
    from cantoedge.datasets.corpus import build_corpus

    records = read_manifest(corpus_copy)
    by_id = {u.id: u for u in clean_utterances}
    utterances = [by_id[r.id] for r in records]
    summary = build_corpus(corpus_copy, utterances=utterances, limit=10, workers=1, progress=False)
    assert summary.rendered == 0
    assert [r.id for r in read_manifest(corpus_copy)] == [r.id for r in records]  # all 24 stay, in order


def test_a_killed_builds_temp_files_are_gone_after_the_resume(corpus_copy, clean_utterances):
    from cantoedge.datasets.corpus import build_corpus

    records = read_manifest(corpus_copy)
    leftovers = [corpus_copy / "wavs" / f".{records[0].id}.wav.k1ll3d.tmp", corpus_copy / ".manifest.jsonl.x.tmp"]
    for path in leftovers:
        path.write_bytes(b"half a file")
    by_id = {u.id: u for u in clean_utterances}
    build_corpus(corpus_copy, utterances=[by_id[r.id] for r in records], workers=1, progress=False)
    assert not any(p.exists() for p in leftovers)
    assert not list(corpus_copy.rglob("*.tmp"))


def test_a_flutter_free_build_says_so_keeps_the_timing_and_never_mixes_with_the_other(tiny_corpus, tmp_path,
                                                                                     clean_utterances):
    """--no-flutter: the same utterances with espeak-ng's pitch flutter off. Its records name the other speaker,
    every token boundary stays within a frame of the corpus's, the F0 differs, and neither kind of build resumes
    into a folder of the other."""
    from cantoedge.datasets.corpus import FLUTTER_FREE_SPEAKER, SPEAKER, build_corpus
    from cantoedge.regression.metrics import f0_rmse_cents

    corpus = {r.id: r for r in read_manifest(tiny_corpus)}
    picked = [u for u in clean_utterances if u.id in corpus][:2]
    build_corpus(tmp_path / "nf", utterances=picked, workers=1, progress=False, flutter=False)
    for rec in read_manifest(tmp_path / "nf"):
        assert rec.speaker == FLUTTER_FREE_SPEAKER and corpus[rec.id].speaker == SPEAKER
        free, usual = load_features(tmp_path / "nf", rec), load_features(tiny_corpus, corpus[rec.id])
        assert np.abs(np.cumsum(free["durations"]) - np.cumsum(usual["durations"])).max() <= 1
        assert 5.0 < f0_rmse_cents(usual["f0"], free["f0"]) < 40.0
    with pytest.raises(ValueError, match="rendered as 'espeak-yue-noflutter', not 'espeak-yue'"):
        build_corpus(tmp_path / "nf", utterances=[u for u in clean_utterances if u.id not in corpus][:1],
                     progress=False)
    with pytest.raises(ValueError, match="rendered as 'espeak-yue', not 'espeak-yue-noflutter'"):
        build_corpus(tiny_corpus, utterances=picked[:1], progress=False, flutter=False)
    assert sorted(p.name for p in (tmp_path / "nf" / "meta").iterdir()) == sorted(f"{u.id}.json" for u in picked)


def test_a_flutter_free_copy_renders_only_what_it_lacks_and_never_shrinks(tiny_corpus, tmp_path, clean_utterances):
    """`train voice`'s flutter-free corpus: a half-built copy is completed (its own utterances kept, the rest
    rendered once), a complete one is left alone, a folder of the other kind and utterances that are not
    HKCanCor's are refused before anything is rendered."""
    from cantoedge.datasets.corpus import build_corpus, flutter_free_copy

    wanted = [r.id for r in read_manifest(tiny_corpus)]
    extra = next(u for u in clean_utterances if u.id not in set(wanted))  # rendered there, not in the corpus
    first = [u for u in clean_utterances if u.id == wanted[0]]
    build_corpus(tmp_path / "nf", utterances=[*first, extra], workers=1, progress=False, flutter=False)
    kept = (tmp_path / "nf" / "meta" / f"{wanted[0]}.json").stat().st_mtime_ns
    flutter_free_copy(tiny_corpus, tmp_path / "nf", progress=False)
    assert {r.id for r in read_manifest(tmp_path / "nf")} == {*wanted, extra.id}
    assert (tmp_path / "nf" / "meta" / f"{wanted[0]}.json").stat().st_mtime_ns == kept  # not rendered again
    manifest = (tmp_path / "nf" / "manifest.jsonl").read_bytes()
    flutter_free_copy(tiny_corpus, tmp_path / "nf", progress=False)
    assert (tmp_path / "nf" / "manifest.jsonl").read_bytes() == manifest
    with pytest.raises(ValueError, match="rendered as 'espeak-yue', not 'espeak-yue-noflutter'"):
        flutter_free_copy(tmp_path / "nf", tiny_corpus, progress=False)
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    lines = (tiny_corpus / "manifest.jsonl").read_text().splitlines()
    (foreign / "manifest.jsonl").write_text("\n".join([lines[0].replace(wanted[0], "my-recording-1"), *lines[1:]])
                                            + "\n")
    with pytest.raises(ValueError, match="1 utterances that are not HKCanCor's \\(first my-recording-1\\)"):
        flutter_free_copy(foreign, tmp_path / "nf2", progress=False)
    assert not (tmp_path / "nf2").exists()
