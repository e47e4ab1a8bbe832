"""The default voice inside the package (runtime/voice/) is what the committed checkpoints give: export, then
calibrate on the committed calibration set with the committed fallback, then `cantoedge build --target ort`.
Exact wherever the arithmetic is the same on every CPU (the export, the Q/DQ graphs from a ranges file,
onnxruntime's offline optimisation); within float noise where onnxruntime's kernels compute (the calibration's
activations, the evaluation bundle's FP32 outputs), as those take other code paths on other CPUs (AVX-512 or
not) and differ in their last bits: measured between two machines of this project, up to 3 units in the last
place on 18 of the vocoder's 44 scales, 1e-4 of the audio's norm."""

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cantoedge.runtime.enginefolder import EngineManifest
from cantoedge.runtime.fileio import file_sha256
from cantoedge.runtime.graphs import GRAPHS
from cantoedge.runtime.voices import bundled_voice_dir

ROOT = Path(__file__).resolve().parents[2]
COMMITTED_RANGES = ROOT / "export" / "voice" / "ranges.json"


def threshold_drift(fresh, committed) -> list[str]:
    """The thresholds of ``fresh`` further than one histogram bin (the bins span at most twice the peak) from
    ``committed``'s; everything else about the two ranges files must be equal."""
    assert (fresh.method, fresh.calibration) == (committed.method, committed.calibration)
    far = []
    for name, graph in committed.graphs.items():
        other = fresh.graphs[name]
        assert (other.sha256, other.fallback, other.inputs) == (graph.sha256, graph.fallback, graph.inputs), name
        assert sorted(other.amax) == sorted(graph.amax), name
        assert sorted(other.channel_peaks) == sorted(graph.channel_peaks), name
        for node, peaks in graph.channel_peaks.items():  # maxima, within float noise like the thresholds
            np.testing.assert_allclose(other.channel_peaks[node], peaks, rtol=1e-4, err_msg=f"{name} {node}")
        for tensor, by_method in graph.amax.items():
            bin_width = 2 * by_method["max"] / committed.calibration["bins"]
            far += [f"{name} {tensor} {method}: {other.amax[tensor][method]} against {value}"
                    for method, value in by_method.items() if abs(other.amax[tensor][method] - value) > bin_width]
    return far


def compared_exactly(key: str, array: np.ndarray) -> bool:
    """Bundle arrays no float arithmetic of onnxruntime's touches: integers, the recordings and frame positions."""
    return array.dtype.kind in "iu" or "/rec_" in key or key.endswith("position")


def bundle_differences(fresh: Path, committed: Path) -> list[str]:
    """What differs between two evaluation bundles beyond float noise: the recordings, tokens, durations and the
    voicing exactly; the FP32 graphs' outputs within 1e-3 of their norm and their F0 within a cent."""
    a, b = np.load(fresh), np.load(committed)
    if sorted(a) != sorted(b):
        return [f"arrays {sorted(set(a) ^ set(b))[:5]}"]
    out = []
    for key in b:
        x, y = a[key], b[key]
        if x.shape != y.shape or x.dtype != y.dtype:
            out.append(f"{key}: {x.dtype}{x.shape} against {y.dtype}{y.shape}")
        elif compared_exactly(key, y):
            if not np.array_equal(x, y):
                out.append(f"{key}: {int(np.sum(x != y))} values differ")
        elif key.endswith("_f0"):
            voiced = y > 0
            if not np.array_equal(x > 0, voiced):
                out.append(f"{key}: voicing differs in {int(np.sum((x > 0) != voiced))} frames")
            elif voiced.any() and np.max(np.abs(1200 * np.log2(x[voiced] / y[voiced]))) > 1.0:
                out.append(f"{key}: F0 more than a cent apart")
        elif np.linalg.norm(x - y) > 1e-3 * np.linalg.norm(y):
            out.append(f"{key}: {np.linalg.norm(x - y) / np.linalg.norm(y):.2e} of its norm apart")
    return out


@pytest.mark.slow
def test_the_bundled_device_voice_is_reproduced_from_the_committed_checkpoints(tmp_path):
    import onnxruntime

    from cantoedge.calibrate.derive import RANGES_FILE, derive
    from cantoedge.calibrate.int8 import calibrate_voice
    from cantoedge.calibrate.ranges import Ranges
    from cantoedge.engines.ort import build_ort
    from cantoedge.export.bundle import voice_paths
    from cantoedge.export.onnx import export_voice
    from cantoedge.regression.evalbundle import BUNDLE_FILE

    voice = voice_paths()
    graphs = tmp_path / "graphs"
    export_voice(Path(voice.acoustic), Path(voice.vocoder), graphs)
    manifest = EngineManifest.load(bundled_voice_dir())
    committed = Ranges.load(COMMITTED_RANGES)
    # the folder was built from the committed ranges file, and that was measured on exactly these FP32 graphs
    assert file_sha256(COMMITTED_RANGES) == manifest.inputs[RANGES_FILE]
    assert {s.name: file_sha256(graphs / s.filename()) for s in GRAPHS} == \
        {name: g.sha256 for name, g in committed.graphs.items()}
    # calibrating again here measures the same thresholds, to within a histogram bin
    fallback = json.loads((ROOT / "export" / "voice" / "fallback.json").read_text())
    calibrate_voice(graphs, tmp_path, tmp_path / "fresh", fallback=fallback,
                    calib_set=ROOT / "export" / "voice" / "calib_set.json")
    assert threshold_drift(Ranges.load(tmp_path / "fresh" / RANGES_FILE), committed) == []
    # the committed ranges give the Q/DQ graphs the folder was built from, byte for byte
    shutil.copy(COMMITTED_RANGES, graphs / RANGES_FILE)
    derive(committed, graphs, graphs)
    assert {s.filename("int8"): file_sha256(graphs / s.filename("int8")) for s in GRAPHS} == \
        {k: v for k, v in manifest.inputs.items() if k != RANGES_FILE}
    if onnxruntime.__version__ != manifest.toolkit["version"]:
        pytest.skip(f"the folder was optimised by onnxruntime {manifest.toolkit['version']}, this is "
                    f"{onnxruntime.__version__}: its sources match, its optimised bytes may not")
    # the evaluation bundle it carries: the held-out utterances rendered afresh, through the fresh FP32 graphs
    from cantoedge.datasets.evalset import bundle_from_corpus, render_eval_corpus

    corpus = render_eval_corpus(tmp_path / "eval-corpus", progress=False)
    bundle_from_corpus(graphs, corpus).save(graphs / BUNDLE_FILE)
    build_ort(graphs, "int8", tmp_path / "voice")
    for path in bundled_voice_dir().iterdir():
        if path.name == BUNDLE_FILE:
            assert bundle_differences(tmp_path / "voice" / path.name, path) == []
        else:
            assert (tmp_path / "voice" / path.name).read_bytes() == path.read_bytes(), path.name


def test_bundle_differences_tell_float_noise_from_a_changed_voice(tmp_path):
    """The comparison above must not pass a bundle that really changed."""
    bundle = bundled_voice_dir() / "eval_bundle.npz"
    arrays = dict(np.load(bundle))
    noisy = {k: v if compared_exactly(k, v) else v * v.dtype.type(1 + 1e-6) for k, v in arrays.items()}
    np.savez(tmp_path / "noisy.npz", **noisy)
    assert bundle_differences(tmp_path / "noisy.npz", bundle) == []
    changed = dict(noisy, **{"0/fp32_mel": arrays["0/fp32_mel"] * np.float32(1.01)})
    np.savez(tmp_path / "changed.npz", **changed)
    assert bundle_differences(tmp_path / "changed.npz", bundle) == ["0/fp32_mel: 1.00e-02 of its norm apart"]
    durations = dict(noisy, **{"0/fp32_own_durations": arrays["0/fp32_own_durations"] + 1})
    np.savez(tmp_path / "durations.npz", **durations)
    assert bundle_differences(tmp_path / "durations.npz", bundle)[0].startswith("0/fp32_own_durations")


@pytest.mark.slow
def test_the_readmes_reproduce_command_calibrates_without_a_corpus(tmp_path):
    """The README's export-and-calibrate line, run as written in a fresh folder that has the repository's
    `export/` and no `data/corpus`: it succeeds and measures the committed thresholds."""
    from cantoedge.calibrate.derive import RANGES_FILE
    from cantoedge.calibrate.ranges import Ranges

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- reproduce-int8 -->\s*```(?:bash)?\n(.+?)\n```", text, re.S)
    assert block, "README.md must mark its export-and-calibrate command"
    (tmp_path / "export").symlink_to(ROOT / "export")
    exe = Path(sys.executable).with_name("cantoedge")
    for part in block.group(1).split("&&"):
        argv = shlex.split(part)
        assert argv[0] == "cantoedge"
        done = subprocess.run([str(exe), *argv[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
    graphs = tmp_path / "build" / "voice"
    assert sorted(p.name for p in graphs.glob("*.int8.onnx")) == sorted(s.filename("int8") for s in GRAPHS)
    assert threshold_drift(Ranges.load(graphs / RANGES_FILE), Ranges.load(COMMITTED_RANGES)) == []
