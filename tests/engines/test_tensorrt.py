"""TensorRT: everything the build decides is tested here without TensorRT; the real build and runner run
only where `import tensorrt` works."""

import importlib.util

import numpy as np
import onnx
import pytest

from cantoedge.calibrate.trtcache import CalibrationCache, read_cache
from cantoedge.engines.sources import check_layer_names
from cantoedge.engines.tensorrt import (
    MAX_BATCH,
    cache_header_version,
    calibration_cache_bytes,
    int8_mode,
    plan_trt,
    strongly_typed,
)
from cantoedge.runtime.graphs import GRAPHS, window_frames

HAVE_TRT = importlib.util.find_spec("tensorrt") is not None and importlib.util.find_spec("pycuda") is not None
NO_TRT = "TensorRT and pycuda are not installed here (TensorRT's libraries download from NVIDIA's own index, " \
         "which this machine cannot reach, and there is no NVIDIA GPU); run these on a Jetson"


@pytest.mark.parametrize("version, mode, typed", [
    ("8.5.2.2", "implicit", False), ("8.6.1", "implicit", False), ("9.3.0", "implicit", False),
    ("10.3.0", "explicit", False), ("10.13.0", "explicit", False), ("11.0.0", "explicit", True),
])
def test_the_int8_path_follows_the_installed_version(version, mode, typed):
    assert int8_mode(version) == mode and strongly_typed(version) is typed


def test_tensorrt_older_than_jetpack_5_is_refused():
    with pytest.raises(ValueError, match="older than 8.5"):
        int8_mode("8.4.1")


def test_cache_headers_carry_tensorrts_own_version_number():
    assert cache_header_version("8.5.3") == 8503 and cache_header_version("10.3.0") == 10300


def test_explicit_plan_builds_the_qdq_graphs_with_profiles_from_the_contracts(tiny_int8_graphs):
    plan = plan_trt(tiny_int8_graphs, "int8", "10.3.0")
    assert plan.mode == "explicit" and not plan.strongly_typed
    enc, dec, voc = (plan.graphs[s.name] for s in GRAPHS)
    assert enc.source.name == "encoder.int8.onnx" and enc.calibration_cache is None
    assert enc.profile["tokens"] == ((1, 1), (1, 64), (1, 1024))
    meta = {p.key: p.value for p in onnx.load(str(dec.source)).metadata_props}
    w = window_frames(int(meta["cantoedge.context"]), int(meta["cantoedge.chunk_frames"]))
    assert dec.profile["position"] == ((1, w), (1, w), (MAX_BATCH, w))
    assert voc.profile["mel"][2][0] == MAX_BATCH and voc.profile["mel"][0][1] == 80
    assert "INT8" in dec.flags and "FP16" in dec.flags
    # every layer the ranges keep float is a node of the graph TensorRT parses, and is constrained by name
    for g in plan.graphs.values():
        names = {n.name for n in onnx.load(str(g.source)).graph.node}
        assert g.float_layers and set(g.float_layers) <= names
        assert "OBEY_PRECISION_CONSTRAINTS" in g.flags


def test_implicit_plan_serves_the_projects_cache_with_the_installed_header(tiny_int8_graphs):
    plan = plan_trt(tiny_int8_graphs, "int8", "8.5.2")
    dec = plan.graphs["decoder"]
    assert plan.mode == "implicit" and dec.source.name == "decoder.onnx"
    assert dec.calibration_cache == tiny_int8_graphs / "decoder.calib.cache"
    served = CalibrationCache.from_text(calibration_cache_bytes(dec.calibration_cache, "8.5.2").decode())
    assert served.trt_version == 8502 and served.scales == read_cache(dec.calibration_cache).scales
    command = plan.trtexec("decoder", "decoder.engine", "t.cache")
    assert f"--calib={dec.calibration_cache}" in command and "--layerPrecisions=" in command
    # one scale per tensor: the mel embedding, equalised in the Q/DQ graph only, stays float here
    assert "/embed/Conv" in plan.graphs["vocoder"].float_layers
    assert "/embed/Conv" not in plan_trt(tiny_int8_graphs, "int8", "10.3.0").graphs["vocoder"].float_layers


def test_strongly_typed_plans_leave_precision_to_the_graph(tiny_int8_graphs):
    plan = plan_trt(tiny_int8_graphs, "int8", "11.0.0")
    assert plan.strongly_typed and all(not g.flags for g in plan.graphs.values())
    assert "--stronglyTyped" in plan.trtexec("vocoder", "v.engine", "t.cache")


def test_fp16_and_fp32_plans_use_the_fp32_graphs(tiny_int8_graphs):
    for precision, flags in (("fp16", ("FP16",)), ("fp32", ())):
        plan = plan_trt(tiny_int8_graphs, precision, "10.3.0")
        assert all(g.source.name == f"{g.graph}.onnx" and g.flags == flags for g in plan.graphs.values())


def test_layer_names_that_disappear_fail_the_build_loudly():
    check_layer_names("decoder", ["/a/Conv"], {"/a/Conv", "/b/MatMul"}, "the network")
    with pytest.raises(RuntimeError, match=r"renamed or fused away\): /gone/MatMul"):
        check_layer_names("decoder", ["/a/Conv", "/gone/MatMul"], {"/a/Conv"}, "the network")


def test_the_cli_prints_the_equivalent_commands_without_tensorrt(tiny_int8_graphs, tmp_path, capsys):
    from cantoedge.scripts.cli import main

    assert main(["build", "--target", "trt", "--graphs", str(tiny_int8_graphs), "--out", str(tmp_path / "trt"),
                 "--print-commands", "--trt-version", "8.5.2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "INT8 path implicit" in lines[0]
    assert sum(line.startswith("trtexec --onnx=") for line in lines) == 3
    assert sum(line.startswith("polygraphy convert") for line in lines) == 3
    assert not (tmp_path / "trt").exists()


@pytest.mark.skipif(not HAVE_TRT, reason=NO_TRT)
@pytest.mark.parametrize("precision", ["fp16", "int8"])
def test_engines_build_and_speak_on_this_gpu(tiny_int8_graphs, tmp_path, precision):
    from cantoedge.engines.tensorrt import build_trt
    from cantoedge.runtime.synth import Voice

    build_trt(tiny_int8_graphs, precision, tmp_path / "trt", timing_cache=tmp_path / "timing.cache")
    voice = Voice.load(tmp_path / "trt")
    speech = voice.speak("詩史試時市事。")
    reference = Voice(tiny_int8_graphs, "fp32").speak("詩史試時市事。")
    assert voice.backends["vocoder"] == "trt" and np.isfinite(speech.audio).all()
    np.testing.assert_array_equal(speech.durations, reference.durations)
    assert (tmp_path / "timing.cache").stat().st_size > 0
