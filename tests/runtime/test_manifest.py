"""The corpus manifest: a damaged one is named, line and all, not a bare JSON error."""

import json

import pytest

from cantoedge.runtime.manifest import Record, read_manifest, write_manifest

RECORD = Record(id="hkc00001", text="你好", jyutping=["nei5", "hou2"], tokens=[1, 2], tones=[5, 2], phones=["n-", "ei"],
                wav="wavs/hkc00001.wav", features="feats/hkc00001.npz", n_frames=10, n_samples=2560,
                sample_rate=22050, split="train")


def test_a_manifest_reads_back_what_was_written(tmp_path):
    write_manifest([RECORD], tmp_path)
    assert read_manifest(tmp_path) == [RECORD]


@pytest.mark.parametrize("bad", ["{not json", "[1, 2]", json.dumps({"id": "x", "colour": "red"})])
def test_a_damaged_line_is_named_with_its_file_and_number(tmp_path, bad):
    write_manifest([RECORD], tmp_path)
    with (tmp_path / "manifest.jsonl").open("a", encoding="utf-8") as fh:
        fh.write("\n" + bad + "\n")
    with pytest.raises(ValueError, match=r"manifest\.jsonl, line 3: not a corpus record"):
        read_manifest(tmp_path)


def test_features_load_whole_or_by_name(tmp_path):
    """The speaker's pitch scale reads only each utterance's F0 (0.26 -> 0.08 s over 462 utterances): by name."""
    import numpy as np

    from cantoedge.runtime.manifest import load_features

    (tmp_path / "feats").mkdir()
    np.savez_compressed(tmp_path / RECORD.features, f0=np.arange(3.0), mel=np.ones((3, 4)))
    assert sorted(load_features(tmp_path, RECORD)) == ["f0", "mel"]
    only = load_features(tmp_path, RECORD, ["f0"])
    assert list(only) == ["f0"] and only["f0"].tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(KeyError):
        load_features(tmp_path, RECORD, ["pitch"])
