"""A user corpus in LJSpeech layout with MFA TextGrids imports to the same manifest and durations."""

import shutil

import numpy as np
import pytest

from cantoedge.datasets.importer import CorpusImportError, import_ljspeech, mfa_dictionary
from cantoedge.runtime.audio import AUDIO
from cantoedge.runtime.frontend import Frontend
from cantoedge.runtime.manifest import load_features, read_manifest


def _write_textgrid(path, phones, durations, n_samples):
    from praatio import textgrid
    from praatio.utilities.constants import Interval

    hop = AUDIO.hop_length / AUDIO.sample_rate
    end_time = n_samples / AUDIO.sample_rate
    entries, t = [], 0.0
    for phone, d in zip(phones, durations):
        if d == 0:
            continue
        end = min(t + d * hop, end_time)
        label = "" if phone.startswith("<") else phone.rstrip("-")
        if end > t:
            entries.append(Interval(t, end, label))
        t = end
    tg = textgrid.Textgrid()
    tg.addTier(textgrid.IntervalTier("phones", [e for e in entries if e.label], 0, end_time))
    tg.save(str(path), format="long_textgrid", includeBlankSpaces=True)


@pytest.fixture()
def ljspeech(tiny_corpus, tmp_path):
    frontend = Frontend()
    records = [r for r in read_manifest(tiny_corpus) if frontend(r.text).encoded.phones == r.phones][:4]
    assert len(records) >= 3
    src, grids = tmp_path / "lj", tmp_path / "grids"
    (src / "wavs").mkdir(parents=True)
    grids.mkdir()
    lines = []
    for rec in records:
        shutil.copy(tiny_corpus / rec.wav, src / "wavs" / f"{rec.id}.wav")
        dur = load_features(tiny_corpus, rec)["durations"]
        _write_textgrid(grids / f"{rec.id}.TextGrid", rec.phones, dur, rec.n_samples)
        lines.append(f"{rec.id}|{rec.text}")
    (src / "metadata.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return src, grids, records


def test_import_reproduces_durations(ljspeech, tiny_corpus, tmp_path):
    src, grids, records = ljspeech
    summary = import_ljspeech(src, grids, tmp_path / "out", speaker="tester")
    assert summary.imported == len(records) and not summary.failed
    imported = {r.id: r for r in read_manifest(tmp_path / "out")}
    for rec in records:
        got = imported[rec.id]
        assert got.tokens == rec.tokens and got.speaker == "tester" and got.n_frames == rec.n_frames
        want = load_features(tiny_corpus, rec)["durations"]
        have = load_features(tmp_path / "out", got)["durations"]
        assert have.sum() == got.n_frames
        assert np.abs(have - want).max() <= 1  # TextGrid times are rounded back to frames


def test_mismatched_textgrid_names_the_utterance(ljspeech, tmp_path):
    src, grids, records = ljspeech
    bad = records[0]
    text = (grids / f"{bad.id}.TextGrid").read_text().replace('"aa"', '"zz"').replace('"i"', '"zz"', 1)
    (grids / f"{bad.id}.TextGrid").write_text(text)
    summary = import_ljspeech(src, grids, tmp_path / "out")
    assert summary.imported == len(records) - 1
    assert summary.failed and summary.failed[0].startswith(bad.id) and "zz" in summary.failed[0]


def test_nothing_importable_is_an_error(tmp_path):
    (tmp_path / "wavs").mkdir()
    (tmp_path / "metadata.csv").write_text("a1|你好\n", encoding="utf-8")
    with pytest.raises(CorpusImportError, match="nothing imported"):
        import_ljspeech(tmp_path, tmp_path, tmp_path / "out")


def test_mfa_dictionary_lists_syllables_in_cantoedge_phones():
    lines = mfa_dictionary().splitlines()
    assert "si1\ts i" in lines and "gwong2\tgw ong" in lines and "m4\tm" in lines
    assert len(lines) == len(set(lines)) > 6000
