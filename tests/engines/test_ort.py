"""`cantoedge build --target ort`: optimised graphs and a manifest that a runner verifies."""

import json
import shutil

import numpy as np
import onnx
import pytest

from cantoedge.runtime.enginefolder import MANIFEST_FILE, EngineManifest
from cantoedge.runtime.fileio import file_sha256
from cantoedge.runtime.graphs import GRAPH_VERSION, GRAPHS
from cantoedge.runtime.synth import Voice


@pytest.mark.parametrize("precision", ["fp32", "int8"])
def test_a_built_folder_speaks_as_the_graphs_it_was_built_from(ort_voice_folders, tiny_int8_graphs, precision):
    built = Voice.load(ort_voice_folders[precision], threads=1)
    source = Voice(tiny_int8_graphs, precision, threads=1)
    assert built.backends == {"encoder": "ort", "decoder": "ort", "vocoder": "ort"} and built.precision == precision
    text = "詩史試時市事，我哋今日去飲茶。"
    ours, theirs = built.speak(text), source.speak(text)
    np.testing.assert_array_equal(ours.durations, theirs.durations)
    np.testing.assert_allclose(ours.audio, theirs.audio, atol=1e-4)


def test_the_manifest_records_inputs_outputs_contracts_and_float_layers(ort_voice_folders, tiny_int8_graphs):
    folder = ort_voice_folders["int8"]
    manifest = EngineManifest.load(folder)
    assert (manifest.target, manifest.precision, manifest.platform) == ("ort", "int8", "any")
    assert manifest.toolkit["name"] == "onnxruntime"
    assert manifest.inputs == {p.name: file_sha256(p) for p in
                               [*(tiny_int8_graphs / s.filename("int8") for s in GRAPHS),
                                tiny_int8_graphs / "ranges.json"]}
    ranges = json.loads((tiny_int8_graphs / "ranges.json").read_text())
    for spec in GRAPHS:
        entry = manifest.graphs[spec.name]
        assert entry.sha256 == file_sha256(folder / entry.file)
        assert [i["name"] for i in entry.inputs] == list(spec.inputs)
        assert [o["name"] for o in entry.outputs] == list(spec.outputs)
        assert entry.info.graph == spec.name and entry.info.graph_version == GRAPH_VERSION
        assert entry.float_layers == ranges["graphs"][spec.name]["fallback"]
        built = {n.name for n in onnx.load(str(folder / entry.file)).graph.node}
        assert set(entry.float_layers) <= built


def test_building_twice_gives_the_same_bytes(ort_voice_folders, tiny_int8_graphs, tmp_path):
    from cantoedge.engines.ort import build_ort

    build_ort(tiny_int8_graphs, "int8", tmp_path / "again")
    for path in ort_voice_folders["int8"].iterdir():
        assert (tmp_path / "again" / path.name).read_bytes() == path.read_bytes(), path.name


def test_an_interrupted_build_leaves_the_previous_folder_and_no_half_written_one(ort_voice_folders,
                                                                                tiny_int8_graphs, tmp_path,
                                                                                monkeypatch):
    from cantoedge.engines import ort as ort_engine

    out = tmp_path / "voice"
    shutil.copytree(ort_voice_folders["fp32"], out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real = ort_engine.optimise

    def killed_at_the_vocoder(source, dest):
        if "vocoder" in dest.name:
            raise KeyboardInterrupt
        real(source, dest)

    monkeypatch.setattr(ort_engine, "optimise", killed_at_the_vocoder)
    with pytest.raises(KeyboardInterrupt):
        ort_engine.build_ort(tiny_int8_graphs, "int8", out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["voice"]


def test_unbuildable_requests_are_refused_before_any_work(tiny_graphs, tmp_path):
    from cantoedge.engines.ort import build_ort

    with pytest.raises(ValueError, match="fp16 is for --target trt or rknn"):
        build_ort(tiny_graphs, "fp16", tmp_path / "x")
    with pytest.raises(FileNotFoundError, match="cantoedge calibrate"):
        build_ort(tiny_graphs, "int8", tmp_path / "x")  # exported, never calibrated
    assert not (tmp_path / "x").exists()
    assert not (tmp_path / "x" / MANIFEST_FILE).exists()
