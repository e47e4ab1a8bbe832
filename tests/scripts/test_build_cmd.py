"""`cantoedge build` and `cantoedge say --voice`: the commands a person types, and their errors."""

import subprocess
import sys
from pathlib import Path

import pytest
from blocker import BLOCKER

from cantoedge.scripts.cli import main


def run_cli(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_build_ort_then_say_with_the_folder(tiny_int8_graphs, tmp_path, capsys):
    out = tmp_path / "voice-ort"
    code, text, err = run_cli(["build", "--target", "ort", "--precision", "int8", "--graphs", str(tiny_int8_graphs),
                               "--out", str(out)], capsys)
    assert code == 0, err
    assert f"cantoedge say --voice {out}" in text and (out / "manifest.json").is_file()
    code, text, err = run_cli(["say", "詩史試時市事", "--voice", str(out), "-o", str(tmp_path / "a.wav")], capsys)
    assert code == 0, err
    assert "(ort int8," in text and (tmp_path / "a.wav").stat().st_size > 44


def test_say_with_a_built_folder_imports_no_build_side_code(ort_voice_folders, tmp_path):
    wav = tmp_path / "out.wav"
    proc = subprocess.run([sys.executable, "-c", BLOCKER, "say", "你好", "--voice", str(ort_voice_folders["fp32"]),
                           "-o", str(wav), "--threads", "1"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert wav.stat().st_size > 44


@pytest.mark.parametrize("extra, says", [
    (["--graphs", "{graphs}"], "not both"),
    (["--precision", "fp32"], "not both"),
    (["--backend", "rknn"], "--target rknn"),
    (["--backend", "trt"], "--target trt"),
])
def test_say_refuses_conflicting_voice_options(ort_voice_folders, tiny_graphs, tmp_path, capsys, extra, says):
    extra = [e.format(graphs=tiny_graphs) for e in extra]
    code, _, err = run_cli(["say", "你好", "--voice", str(ort_voice_folders["fp32"]), "-o", str(tmp_path / "a.wav"),
                            *extra], capsys)
    assert code == 1 and says in err and not (tmp_path / "a.wav").exists()


def test_build_refuses_what_it_cannot_build_before_any_work(tiny_int8_graphs, tmp_path, capsys):
    code, _, err = run_cli(["build", "--target", "ort", "--precision", "fp16", "--graphs", str(tiny_int8_graphs),
                            "--out", str(tmp_path / "x")], capsys)
    assert code == 1 and "fp16 is for --target trt or rknn" in err
    code, _, err = run_cli(["build", "--target", "ort", "--graphs", str(tiny_int8_graphs), "--out",
                            str(tiny_int8_graphs)], capsys)
    assert code == 1 and "must not be the graph folder" in err
    code, _, err = run_cli(["build", "--target", "tpu", "--out", str(tmp_path / "x")], capsys)
    assert code == 2 and "invalid choice" in err
    code, _, err = run_cli(["build", "--target", "trt", "--graphs", str(tiny_int8_graphs), "--out",
                            str(tmp_path / "x")], capsys)
    if code != 0:  # no TensorRT here: the error names the extra, and nothing is written
        assert "cantoedge[trt]" in err and not (tmp_path / "x").exists()
    assert not list(tmp_path.glob(".x.building-*"))


@pytest.mark.parametrize("extra, says", [
    (["--target", "rknn", "--precision", "fp16", "--rknn-dtype", "w16a16i"], "--rknn-dtype applies to --target rknn"),
    (["--target", "ort", "--rknn-dtype", "w8a8"], "--rknn-dtype applies to --target rknn --precision int8"),
    (["--target", "ort", "--workspace-mb", "512"], "--workspace-mb applies to --target trt"),
    (["--target", "rknn", "--timing-cache", "{tmp}/t.cache"], "--timing-cache applies to --target trt"),
    (["--target", "trt", "--trt-version", "10.3.0"], "--trt-version applies to --target trt --print-commands"),
])
def test_build_refuses_an_option_its_target_would_ignore(tmp_path, capsys, extra, says):
    extra = [e.format(tmp=tmp_path) for e in extra]
    graphs = Path(__file__).resolve().parents[2] / "runtime" / "voice"  # the default voice's graphs
    code, text, err = run_cli(["build", *extra, "--graphs", str(graphs), "--out", str(tmp_path / "x")], capsys)
    assert code == 1 and says in err and "ignored" in err, err
    assert not text and not (tmp_path / "x").exists() and not list(tmp_path.glob(".x.building-*"))
