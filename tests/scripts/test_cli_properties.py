"""Property tests: whatever values a careless user gives the options, the CLI exits 0, 1 or 2 and never
prints a traceback."""

import contextlib
import io
import json
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cantoedge.scripts.cli import main

VALUES = st.one_of(
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["0", "1", "2", "-1", "0.25", "4", "1e309", "-0", "0x10", "１", "", " ", "nan", "None"]),
    st.text(max_size=6),
)


def run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    return code, err.getvalue()


def check(code: int, err: str) -> None:
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err, err
    if code:
        assert err.strip(), "a failure must say why"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory, tiny_graphs, tiny_corpus):
    root = tmp_path_factory.mktemp("props")
    shutil.copytree(tiny_corpus, root / "corpus")
    return root


@settings(max_examples=40)
@given(option=st.sampled_from(["--speed", "--threads", "--pitch-shift", "--volume"]), value=VALUES)
def test_say_options(workdir, tiny_graphs, option, value):
    argv = ["say", "你好", "-o", str(workdir / "say.wav"), "--graphs", str(tiny_graphs), option, value]
    check(*run(argv))


@settings(max_examples=40)
@given(text=st.text(max_size=12), speed=st.floats(min_value=0.25, max_value=4.0))
def test_say_texts_and_valid_speeds(workdir, tiny_graphs, text, speed):
    if text.startswith("-"):
        text = " " + text  # an argument, not an option
    check(*run(["say", text, "-o", str(workdir / "say.wav"), "--graphs", str(tiny_graphs), "--speed", repr(speed),
                "--threads", "1"]))


@settings(max_examples=40)
@given(option=st.sampled_from(["--limit", "--sensitivity", "--report"]), value=VALUES)
def test_calibrate_options(workdir, option, value):
    # an empty graph folder: a valid value passes the parser and stops at the missing graphs, in milliseconds
    empty = workdir / "no-graphs"
    empty.mkdir(exist_ok=True)
    check(*run(["calibrate", "--onnx", str(empty), "--corpus", str(workdir / "corpus"), "--quiet", option, value]))


@settings(max_examples=30)
@given(size=VALUES, split=st.sampled_from(["train", "val", "test", "dev", ""]))
def test_calib_set_options(workdir, size, split):
    out = workdir / "calib.json"
    code, err = run(["corpus", "calib-set", "--corpus", str(workdir / "corpus"), "--size", size, "--split", split,
                     "--out", str(out)])
    check(code, err)
    if code == 0:
        assert 1 <= len(json.loads(out.read_text())["ids"]) <= int(size)


@settings(max_examples=30)
@given(option=st.sampled_from(["--limit", "--workers"]), value=VALUES)
def test_corpus_build_options_are_checked_before_any_rendering(workdir, option, value):
    code, err = run(["corpus", "build", "--out", "/proc/cantoedge-corpus", option, value])
    assert code == 2 and "Traceback" not in err  # the output folder cannot be written: refused up front
