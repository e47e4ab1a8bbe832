"""The frontend's start-up measure (regression/startup.py): real fresh processes, bytecode told apart, clear
refusals. Wall-clock figures are printed, never asserted."""

import json
import py_compile
import subprocess
import sys

import pytest

from cantoedge.regression import startup
from cantoedge.regression.startup import BUDGET_MS, StartTimes, measure_start, stale_bytecode, start_markdown


def test_measure_times_each_part_in_fresh_processes_taking_turns_with_tojyutping():
    times = measure_start(3)
    ours = times[0]
    assert ours.name == "cantoedge frontend" and ours.runs == 3
    assert ours.import_ms > 0 and ours.construct_ms > 0 and ours.first_ms > 0
    assert ours.total_q1_ms <= ours.total_ms <= ours.total_q3_ms
    assert ours.total_ms >= ours.import_ms  # the sum of a process's parts, not one part
    if startup.tojyutping_installed():
        assert times[1].name.startswith("ToJyutping ") and times[1].name.endswith(" alone")
        assert times[1].runs == 3 and times[1].import_ms > 0 and times[1].construct_ms == 0
    assert len(measure_start(3, reference=False)) == 1


@pytest.mark.parametrize("repeats, text, message", [(2, "你好", "at least 3"), (True, "你好", "at least 3"),
                                                    (3, "  ", "empty"), (3, "好" * 20_001, "the limit is 20,000")])
def test_bad_settings_are_refused_before_any_process_starts(repeats, text, message, monkeypatch):
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("a process was started"))
    with pytest.raises(ValueError, match=message):
        measure_start(repeats, text)


def test_a_failing_timed_process_says_why():
    with pytest.raises(RuntimeError, match="boom"):
        startup.one_start("raise SystemExit('boom')", "你好")


def test_stale_bytecode_names_modules_without_current_bytecode(tmp_path):
    for name in ("fresh", "missing", "edited", "hashed"):
        (tmp_path / f"{name}.py").write_text("X = 1\n")
    py_compile.compile(str(tmp_path / "fresh.py"))
    py_compile.compile(str(tmp_path / "edited.py"))
    py_compile.compile(str(tmp_path / "hashed.py"), invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    assert stale_bytecode(tmp_path) == ["missing.py"]
    (tmp_path / "edited.py").write_text("X = 12\n")  # a new size: Python would recompile it
    assert stale_bytecode(tmp_path) == ["edited.py", "missing.py"]


def _times(name: str, total: float) -> StartTimes:
    return StartTimes(name, 5, total * 0.8, total * 0.1, total * 0.1, total, total - 1, total + 1)


def test_table_gives_the_verdict_the_ratio_and_the_bytecode_warning():
    within = start_markdown([_times("cantoedge frontend", 60.0), _times("ToJyutping 3.2.0 alone", 540.0)], [])
    assert "**60.0** (59.0–61.0)" in within and "9.0× faster than ToJyutping" in within
    assert f"within the {BUDGET_MS:.0f} ms budget" in within and "bytecode" not in within
    over = start_markdown([_times("cantoedge frontend", 100.0)], ["a.py", "b.py"])
    assert "OVER the 100 ms budget" in over and "2 runtime modules have no up-to-date bytecode (a.py, b.py)" in over


def test_cli_writes_the_table_and_its_json(tmp_path):
    out = tmp_path / "start.md"
    proc = subprocess.run([sys.executable, "-m", "cantoedge.scripts.cli", "regress", "--quiet", "frontend-start",
                           "--repeats", "3", "--no-reference", "--text", "你好", "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "import + first call" in out.read_text() and "'你好'" in out.read_text()
    data = json.loads(out.with_suffix(".json").read_text())
    assert data["text"] == "你好" and [t["name"] for t in data["times"]] == ["cantoedge frontend"]
    assert data["times"][0]["runs"] == 3 and isinstance(data["stale_bytecode"], list)


@pytest.mark.parametrize("argv, code, message", [(["--repeats", "2"], 2, "3..500"),
                                                 (["--text", ""], 1, "empty")])
def test_cli_refuses_bad_settings(argv, code, message, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "cantoedge.scripts.cli", "regress", "frontend-start", *argv,
                           "--out", str(tmp_path / "x.md")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == code and message in proc.stderr
    assert not (tmp_path / "x.md").exists()
