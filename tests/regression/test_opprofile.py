"""`cantoedge regress profile`: onnxruntime's profiler over real decoder and vocoder windows, and the vocoder's
numpy stages, reported as shares and medians (no wall-clock assertions)."""

import json
import shutil
import subprocess
import sys

import pytest

from cantoedge.regression.opprofile import profile_markdown, profile_voice
from cantoedge.runtime.graphs import GRAPHS


@pytest.mark.slow
def test_both_precisions_of_both_window_graphs_are_profiled(tiny_int8_graphs):
    profiles, dsp = profile_voice(tiny_int8_graphs, threads=1, repeats=3)
    assert [(p.graph, p.precision) for p in profiles] == [("decoder", "fp32"), ("vocoder", "fp32"),
                                                           ("decoder", "int8"), ("vocoder", "int8")]
    for p in profiles:
        assert p.run_ms > 0 and sum(p.shares.values()) == pytest.approx(1.0)
    fp32_vocoder, int8_vocoder = profiles[1], profiles[3]
    assert "MatMul" in fp32_vocoder.shares and not {"Sin", "Cos", "Floor"} & set(fp32_vocoder.shares)
    # the Q/DQ pairs fuse with the runtime's session settings: a MatMul's quantised inputs and float output
    # become one MatMulIntegerToFloat
    assert "MatMulIntegerToFloat" in int8_vocoder.shares and "QLinearMatMul" not in int8_vocoder.shares
    assert set(dsp) == {"harmonic source", "mixing", "inverse STFT"} and all(ms > 0 for ms in dsp.values())
    table = profile_markdown(profiles, dsp)
    assert table.count("\n| vocoder |") == 2 and "harmonic source" in table


@pytest.mark.slow
def test_the_command_writes_its_table_and_refuses_a_missing_folder(tiny_int8_graphs, tmp_path):
    out = tmp_path / "profile.md"
    cmd = [sys.executable, "-m", "cantoedge.scripts.cli", "regress", "profile", "--repeats", "3"]
    proc = subprocess.run([*cmd, "--graphs", str(tiny_int8_graphs), "--out", str(out)], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "| vocoder | int8 |" in out.read_text()
    assert {g["graph"] for g in json.loads(out.with_suffix(".json").read_text())["graphs"]} == {"decoder", "vocoder"}
    proc = subprocess.run([*cmd, "--graphs", str(tmp_path / "nowhere")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "nowhere" in proc.stderr and "Traceback" not in proc.stderr
    built = tmp_path / "built"  # a device folder: INT8 graphs under FP32's names, and a manifest
    built.mkdir()
    for spec in GRAPHS:
        shutil.copyfile(tiny_int8_graphs / spec.filename("int8"), built / spec.filename())
    (built / "manifest.json").write_text("{}")
    proc = subprocess.run([*cmd, "--graphs", str(built)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "built device folder" in proc.stderr and "build/voice" in proc.stderr
