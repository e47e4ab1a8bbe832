"""The default voice inside the package (runtime/voice/) is what the committed checkpoints give: export, then
calibrate on the committed calibration set with the committed fallback, then `cantoedge build --target ort`."""

import json
from pathlib import Path

import pytest

from cantoedge.runtime.enginefolder import EngineManifest
from cantoedge.runtime.fileio import file_sha256
from cantoedge.runtime.graphs import GRAPHS
from cantoedge.runtime.voices import bundled_voice_dir

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_bundled_device_voice_is_reproduced_from_the_committed_checkpoints(tmp_path):
    import onnxruntime

    from cantoedge.calibrate.int8 import calibrate_voice
    from cantoedge.engines.ort import build_ort
    from cantoedge.export.bundle import voice_paths
    from cantoedge.export.onnx import export_voice

    voice = voice_paths()
    graphs = tmp_path / "graphs"
    export_voice(Path(voice.acoustic), Path(voice.vocoder), graphs)
    fallback = json.loads((ROOT / "export" / "voice" / "fallback.json").read_text())
    calibrate_voice(graphs, tmp_path, graphs, fallback=fallback, calib_set=ROOT / "export" / "voice" / "calib_set.json")
    manifest = EngineManifest.load(bundled_voice_dir())
    # what the bundled folder was built from: the Q/DQ graphs and the ranges file, byte for byte
    fresh = {spec.filename("int8"): file_sha256(graphs / spec.filename("int8")) for spec in GRAPHS}
    fresh["ranges.json"] = file_sha256(graphs / "ranges.json")
    assert fresh == manifest.inputs
    if onnxruntime.__version__ != manifest.toolkit["version"]:
        pytest.skip(f"the folder was optimised by onnxruntime {manifest.toolkit['version']}, this is "
                    f"{onnxruntime.__version__}: its sources match, its optimised bytes may not")
    # the evaluation bundle it carries: the held-out utterances rendered afresh, through the fresh FP32 graphs
    from cantoedge.datasets.evalset import bundle_from_corpus, render_eval_corpus
    from cantoedge.regression.evalbundle import BUNDLE_FILE

    corpus = render_eval_corpus(tmp_path / "eval-corpus", progress=False)
    bundle_from_corpus(graphs, corpus).save(graphs / BUNDLE_FILE)
    build_ort(graphs, "int8", tmp_path / "voice")
    for path in bundled_voice_dir().iterdir():
        assert (tmp_path / "voice" / path.name).read_bytes() == path.read_bytes(), path.name
