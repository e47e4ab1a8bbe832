"""calibrate: one ranges file from the FP32 graphs, and the INT8 graphs and TensorRT caches derived from it."""

import json
import shutil

import numpy as np
import onnx
import pytest

from cantoedge.calibrate.derive import RANGES_FILE, derive
from cantoedge.calibrate.int8 import calibrate_voice
from cantoedge.calibrate.qdq import float_fed, quantised_nodes
from cantoedge.calibrate.ranges import Ranges
from cantoedge.calibrate.trtcache import read_cache
from cantoedge.runtime.graphs import GRAPHS
from cantoedge.runtime.synth import Voice


@pytest.fixture(scope="module")
def int8_build(tiny_graphs, calib_corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("int8")
    return calibrate_voice(tiny_graphs, calib_corpus, out), tiny_graphs, out


def test_ranges_file_holds_three_methods_per_activation_and_the_protected_heads(int8_build):
    build, graphs, out = int8_build
    ranges = Ranges.load(out / RANGES_FILE)
    assert ranges.method == "entropy" and ranges.calibration["utterances"] == 4
    assert set(ranges.graphs) == {g.name for g in GRAPHS}
    for g in ranges.graphs.values():
        assert len(g.amax) > 10
        for by_method in g.amax.values():
            assert 0 < by_method["entropy"] <= by_method["max"] + 1e-6
            assert 0 < by_method["percentile"] <= by_method["max"] + 1e-6
    fallback = ranges.graphs["encoder"].fallback
    assert any(n.startswith("/encoder/duration/") for n in fallback)
    assert any(n.startswith("/encoder/pitch/") for n in fallback)
    # the mel embedding's output channels are equalised (calibrate/equalise.py): a peak for each of them
    vocoder = onnx.load(str(graphs / "vocoder.onnx"))
    embed = next(n for n in vocoder.graph.node if n.name == "/embed/Conv")
    weight = next(t for t in vocoder.graph.initializer if t.name == embed.input[1])
    peaks = ranges.graphs["vocoder"].channel_peaks
    assert list(peaks) == ["/embed/Conv"] and len(peaks["/embed/Conv"]) == weight.dims[0]
    assert all(p > 0 for p in peaks["/embed/Conv"])


def test_int8_graphs_are_symmetric_qdq_and_keep_the_fallback_in_float(int8_build):
    build, _, out = int8_build
    for spec in GRAPHS:
        model = onnx.load(str(build.graphs[spec.name]))
        onnx.checker.check_model(model, full_check=True)
        zero_points = [onnx.numpy_helper.to_array(t) for t in model.graph.initializer if "zero_point" in t.name]
        assert zero_points and all(z.dtype in (np.int8, np.int32) and not z.any() for z in zero_points)
        assert build.quantised[spec.name] == len(quantised_nodes(model)) > 0
    encoder = onnx.load(str(build.graphs["encoder"]))
    fallback = Ranges.load(out / RANGES_FILE).graphs["encoder"].fallback
    assert not set(quantised_nodes(encoder)) & set(fallback)
    assert not float_fed(encoder, fallback)  # the float heads read the float trunk, not its Q/DQ copy
    vocoder = onnx.load(str(build.graphs["vocoder"]))
    assert "/embed/Conv" in quantised_nodes(vocoder)
    assert [n.op_type for n in vocoder.graph.node if n.name == "/embed/Conv_equalised_rescale"] == ["Mul"]


def test_tensorrt_caches_carry_the_entropy_thresholds(int8_build):
    build, _, out = int8_build
    ranges = Ranges.load(out / RANGES_FILE)
    for name, path in build.caches.items():
        cache = read_cache(path)
        assert cache.amax() == pytest.approx(ranges.graphs[name].thresholds("entropy"), rel=1e-6)


def test_max_caches_hold_the_largest_activation_the_calibration_set_produces(int8_build, calib_corpus, tmp_path):
    """Checked against the activations themselves (a session of our own exposing them), not against the ranges
    file the cache was written from."""
    import onnxruntime as ort

    from cantoedge.calibrate.collect import graph_inputs
    from cantoedge.calibrate.int8 import calibration_utterances

    _, graphs, out = int8_build
    derive(Ranges.load(out / RANGES_FILE), graphs, tmp_path, method="max")
    feeds = graph_inputs(Voice(graphs, "fp32", threads=1), calibration_utterances(calib_corpus)[0])
    for name, windows in feeds.items():
        cache = read_cache(tmp_path / f"{name}.calib.cache").amax()
        model = onnx.shape_inference.infer_shapes(onnx.load(str(graphs / f"{name}.onnx")))
        typed = {v.name: v for v in model.graph.value_info}
        picked = [t for t in sorted(cache) if t in typed][:4]
        assert len(picked) == 4, name
        model.graph.output.extend(typed[t] for t in picked)
        session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        peaks = np.zeros(len(picked))
        for feed in windows:
            got = session.run(picked, feed)
            peaks = np.maximum(peaks, [float(np.abs(g).max()) for g in got])
        assert [cache[t] for t in picked] == pytest.approx(list(peaks), rel=1e-5), name


def test_int8_voice_speaks(int8_build, tiny_graphs):
    from cantoedge.runtime.synth import Voice

    build, _, out = int8_build
    for name in build.graphs:  # the INT8 directory is self-contained: no FP32 graph needed to speak
        assert (out / f"{name}.int8.onnx").exists() and not (out / f"{name}.onnx").exists()
    speech = Voice(out, "int8").speak("詩史試時市事。")
    assert np.isfinite(speech.audio).all() and speech.audio.size == speech.durations.sum() * 256


def test_ranges_refuse_a_graph_they_were_not_measured_on(int8_build, tmp_path):
    _, graphs, out = int8_build
    changed = tmp_path / "graphs"
    shutil.copytree(graphs, changed)
    model = onnx.load(str(changed / "decoder.onnx"))
    model.doc_string = "edited"
    onnx.save(model, str(changed / "decoder.onnx"))
    with pytest.raises(ValueError, match="not the graph the ranges were measured on"):
        derive(Ranges.load(out / RANGES_FILE), changed, tmp_path / "int8")


def test_ranges_from_before_channel_equalisation_are_refused_until_recalibrated(int8_build, tmp_path):
    _, graphs, out = int8_build
    old = json.loads((out / RANGES_FILE).read_text())
    for g in old["graphs"].values():
        g.pop("channel_peaks")
    (tmp_path / RANGES_FILE).write_text(json.dumps(old))
    ranges = Ranges.load(tmp_path / RANGES_FILE)  # an old file still loads ...
    assert all(not g.channel_peaks for g in ranges.graphs.values())
    with pytest.raises(ValueError, match="no channel peaks for /embed/Conv of the vocoder graph.*cantoedge calibrate"):
        derive(ranges, graphs, tmp_path / "int8")  # ... but the mel embedding is not quantised with one scale
    ranges.graphs["vocoder"].fallback.append("/embed/Conv")
    assert derive(ranges, graphs, tmp_path / "int8").quantised["vocoder"] > 0  # kept float, it needs none


def test_calibrating_without_a_calibration_set_says_how_to_make_one(tiny_graphs, corpus_copy, tmp_path):
    with pytest.raises(FileNotFoundError, match="cantoedge corpus calib-set"):
        calibrate_voice(tiny_graphs, corpus_copy, tmp_path)


def test_a_fallback_chosen_earlier_is_merged_and_checked(int8_build, tiny_graphs):
    from cantoedge.calibrate.int8 import with_fallback

    _, _, out = int8_build
    ranges = Ranges.load(out / RANGES_FILE)
    merged = with_fallback(ranges, tiny_graphs, {"decoder": ["/out/MatMul"]})
    assert "/out/MatMul" in merged.graphs["decoder"].fallback
    assert set(ranges.graphs["encoder"].fallback) == set(merged.graphs["encoder"].fallback)
    with pytest.raises(ValueError, match="not in the decoder graph: /nope/Conv"):
        with_fallback(ranges, tiny_graphs, {"decoder": ["/nope/Conv"]})
    with pytest.raises(ValueError, match="names a graph 'decodr'"):
        with_fallback(ranges, tiny_graphs, {"decodr": []})
    for wrong in ({"vocoder": 5}, ["/embed/Conv"], {"vocoder": [1]}):  # a hand-edited file of the wrong shape
        with pytest.raises(ValueError, match="a fallback is {graph: \\[layer name"):
            with_fallback(ranges, tiny_graphs, wrong)


def test_report_compares_every_ptq_build_with_fp32(int8_build, tiny_graphs, tiny_corpus):
    from cantoedge.calibrate.report import PTQ_VARIANTS, write_report

    _, _, out = int8_build
    report = write_report(tiny_graphs, tiny_corpus, out, utterances=2, threads=(1,), repeats=2)
    data = json.loads((out / "int8_report.json").read_text())
    names = ["fp32", *PTQ_VARIANTS]
    assert [row["name"] for row in data["accuracy"]] == names
    assert all(row["utterances"] == 2 for row in data["accuracy"])
    assert all(row["tone_band_db"]["n"] > 0 for row in data["accuracy"][1:])
    assert len(data["latency"]) == len(GRAPHS) * len(names)
    assert all(t["median_ms"] <= t["p95_ms"] and t["repeats"] == 2 for t in data["latency"])
    window = {(t["build"]): 0.0 for t in data["latency"]}
    for t in data["latency"]:
        window[t["build"]] += t["median_ms"] if t["graph"] in ("decoder", "vocoder") else 0.0
    for name in PTQ_VARIANTS:  # the speed-up is FP32's decoder+vocoder window time over the build's
        assert data["speedup"][name]["1"] == pytest.approx(window["fp32"] / window[name], rel=1e-9)
    assert set(data["speedup"]) == set(PTQ_VARIANTS) and set(data["targets_met"]) == set(PTQ_VARIANTS)
    assert data["sizes"]["ptq-entropy"]["vocoder"] < data["sizes"]["fp32"]["vocoder"]  # int8 weights
    markdown = (out / "int8_report.md").read_text()
    assert markdown == report.markdown() and all(f"| {n} |" in markdown for n in names)


def test_an_int8_graph_copied_over_an_fp32_one_is_refused_not_reported_as_fp32(int8_build, tiny_graphs, tmp_path):
    from cantoedge.runtime.synth import Voice

    build, _, _ = int8_build
    forged = tmp_path / "forged"
    shutil.copytree(tiny_graphs, forged)
    shutil.copy(build.graphs["vocoder"], forged / "vocoder.onnx")
    with pytest.raises(ValueError, match=r"vocoder.onnx holds an INT8 graph .* not FP32"):
        Voice(forged, "fp32")
    shutil.copy(tiny_graphs / "decoder.onnx", forged / "decoder.int8.onnx")
    for name in ("encoder", "vocoder"):
        shutil.copy(build.graphs[name], forged / f"{name}.int8.onnx")
    with pytest.raises(ValueError, match=r"decoder.int8.onnx holds an FP32 graph .* not INT8"):
        Voice(forged, "int8")


def test_ranges_with_zero_or_non_finite_thresholds_are_refused(int8_build, tmp_path):
    _, _, out = int8_build
    ranges = Ranges.load(out / RANGES_FILE)
    tensor = next(iter(ranges.graphs["decoder"].amax))
    for bad in (0.0, float("nan"), float("inf")):
        ranges.graphs["decoder"].amax[tensor]["entropy"] = bad
        with pytest.raises(ValueError, match="zero or not finite"):
            ranges.save(tmp_path / RANGES_FILE)
        assert not (tmp_path / RANGES_FILE).exists()
    text = (out / RANGES_FILE).read_text()
    data = json.loads(text)
    for by_method in data["graphs"]["encoder"]["amax"].values():
        by_method.update(max=0.0, percentile=0.0, entropy=0.0)  # what a calibration on no data wrote
    (tmp_path / RANGES_FILE).write_text(json.dumps(data))
    with pytest.raises(ValueError, match="zero or not finite.*calibrate again"):
        Ranges.load(tmp_path / RANGES_FILE)


def test_a_calibration_set_that_misses_a_tone_or_is_empty_is_refused(calib_corpus, tmp_path):
    from cantoedge.calibrate.int8 import calibration_utterances
    from cantoedge.runtime.manifest import read_manifest

    corpus = tmp_path / "corpus"
    shutil.copytree(calib_corpus, corpus)
    lacking = next(r for r in read_manifest(corpus) if not {1, 2, 3, 4, 5, 6} <= set(r.tones))
    missing = sorted({1, 2, 3, 4, 5, 6} - set(lacking.tones))
    (corpus / "calib_set.json").write_text(json.dumps({"ids": [lacking.id]}))
    with pytest.raises(ValueError, match=f"never says tone {', '.join(map(str, missing))}"):
        calibration_utterances(corpus)
    for limit in (0, -127):
        with pytest.raises(ValueError, match="at least 1"):
            calibration_utterances(calib_corpus, limit)
