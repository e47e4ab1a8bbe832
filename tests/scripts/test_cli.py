"""The command line: the g2p JSON contract, errors, and device subcommands that never load torch."""

import json
import subprocess
import sys

import numpy as np
import pytest
from blocker import BLOCKER

from cantoedge.scripts.cli import main


def test_g2p_json_file_contract(tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_text("你好。\n\n我有2個蘋果\n§\n", encoding="utf-8")
    assert main(["g2p", "--file", str(src), "--json"]) == 1  # one line had nothing to say
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["text"] == "你好。" and lines[0]["jyutping"] == ["nei5", "hou2"]
    assert lines[1]["jyutping"] == ["ngo5", "jau5", "loeng5", "go3", "ping4", "gwo2"]
    assert all(isinstance(t, int) for t in lines[1]["tokens"])
    assert "error" in lines[2]


def test_g2p_file_lines_keep_the_text_limit_one_by_one(tmp_path, capsys):
    """A line longer than the limit is refused with its line number; the lines around it are still read."""
    from cantoedge.runtime.limits import MAX_TEXT_CHARS

    src = tmp_path / "in.txt"
    src.write_text("你好\n" + "好" * (MAX_TEXT_CHARS + 1) + "\n我哋\n", encoding="utf-8")
    assert main(["g2p", "--file", str(src)]) == 1
    out, err = capsys.readouterr()
    assert f"{src}:2: text is 20,001 characters; the limit is 20,000" in err
    assert out.splitlines()[0] == "nei5 hou2" and "ngo5 dei6" in out.splitlines()


def test_g2p_text_and_errors(capsys):
    assert main(["g2p", "詩史試時市事"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "si1 si2 si3 si4 si5 si6"
    assert main(["g2p", "你好§", "--strict"]) == 1
    assert "U+00A7" in capsys.readouterr().err
    assert main(["g2p"]) == 1
    assert "no text" in capsys.readouterr().err


def test_g2p_reads_standard_input_as_say_does_and_keeps_its_limit(monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("我有2個蘋果\n".encode())))
    assert main(["g2p", "-"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "ngo5 jau5 loeng5 go3 ping4 gwo2"
    with pytest.raises(SystemExit):  # refused by argparse before the frontend loads, as say's text is
        main(["g2p", "好" * 20_001])
    assert "the limit is 20,000" in capsys.readouterr().err


def test_a_quick_exit_delivers_every_byte_and_log_line_and_the_exit_code():
    """say and g2p end without Python's teardown; what they wrote must still all arrive."""
    code = ("import logging, sys\n"
            "from cantoedge.scripts.cli import exit_without_teardown\n"
            "logging.basicConfig(stream=sys.stderr, format='%(message)s')\n"
            "sys.stdout.write('x' * 200000)\n"
            "sys.stdout.buffer.write(b'y' * 100)\n"
            "logging.getLogger('t').warning('last words')\n"
            "exit_without_teardown(3)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert proc.returncode == 3
    assert proc.stdout == b"x" * 200000 + b"y" * 100 and proc.stderr.strip() == b"last words"


def test_the_console_script_is_the_entry_that_exits_say_and_g2p_quickly():
    import tomllib
    from pathlib import Path

    import cantoedge.scripts.cli as cli

    project = tomllib.loads((Path(cli.__file__).parents[1] / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["cantoedge"] == "cantoedge.scripts.cli:entry"
    assert cli.QUICK_EXIT == {"say", "g2p"} and cli.command_of(["--debug", "say", "-o", "-"]) == "say"
    proc = subprocess.run([sys.executable, "-m", "cantoedge.scripts.cli", "g2p", "詩史試時市事"], capture_output=True,
                          timeout=60)
    assert proc.returncode == 0 and proc.stdout.decode().splitlines()[0] == "si1 si2 si3 si4 si5 si6"
    proc = subprocess.run([sys.executable, "-m", "cantoedge.scripts.cli", "g2p"], capture_output=True, timeout=60)
    assert proc.returncode == 1 and b"no text" in proc.stderr


def test_help_lists_subcommands(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "g2p" in out and "corpus" in out and "regress" in out




@pytest.mark.parametrize("argv", [["g2p", "你好，我係香港人。", "--json"], ["regress", "--help"], ["g2p", "--help"],
                                  ["say", "--help"], ["serve", "--help"]])
def test_device_subcommands_import_no_build_side_code(argv):
    proc = subprocess.run([sys.executable, "-c", BLOCKER, *argv], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    if "--json" in argv:
        assert json.loads(proc.stdout)["jyutping"][:2] == ["nei5", "hou2"]


# what a short `say` on one thread has no use for: the server stack, the other subcommands, the thread pool of
# windows in flight, the English dictionary's gzip, FLAC; each cost milliseconds of every start when imported
SAY_NEVER_IMPORTS = ("starlette", "uvicorn", "prometheus_client", "httpx", "cantoedge.runtime.server",
                     "cantoedge.runtime.batcher", "cantoedge.runtime.triton", "cantoedge.runtime.flac",
                     "cantoedge.scripts.serve_cmd", "cantoedge.scripts.g2p_cmd", "cantoedge.scripts.regress_cmd",
                     "cantoedge.regression", "concurrent.futures", "gzip", "logging.handlers")


def test_say_imports_nothing_it_does_not_need(tmp_path):
    snippet = BLOCKER.replace("sys.exit(main(sys.argv[1:]))", "code = main(sys.argv[1:])\n"
                              "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\nsys.exit(code)")
    proc = subprocess.run([sys.executable, "-c", snippet, "say", "你好", "-o", str(tmp_path / "a.wav"), "--threads",
                           "1"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    loaded = set(proc.stderr.split())
    assert "onnxruntime" in loaded and "cantoedge.runtime.synth" in loaded  # the list below is not vacuous
    assert sorted(m for m in loaded if m.startswith(SAY_NEVER_IMPORTS)) == []


def test_tone_eval_runs_with_build_side_blocked(tiny_corpus):
    proc = subprocess.run([sys.executable, "-c", BLOCKER, "regress", "tone-eval", "--corpus", str(tiny_corpus),
                           "--split", "val", "--json"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["accuracy"] > 0.6 and report["syllables"] > 30  # espeak's own tones are heard
    assert set(report["per_tone"]) <= {"1", "2", "3", "4", "5", "6"} and len(report["per_tone"]) >= 4


def test_say_speaks_with_onnxruntime_and_no_build_side_code(tiny_graphs, tmp_path):
    from cantoedge.runtime.wavio import read_wav

    wav, tsv = tmp_path / "out.wav", tmp_path / "out.tsv"
    proc = subprocess.run([sys.executable, "-c", BLOCKER, "say", "詩史試時市事。", "-o", str(wav), "--graphs",
                           str(tiny_graphs), "--alignment", str(tsv), "--threads", "1"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "si1 si2 si3 si4 si5 si6" in proc.stdout
    audio, rate = read_wav(wav)
    assert rate == 22050 and audio.size > 0 and np.isfinite(audio).all()
    assert [line.split("\t")[0] for line in tsv.read_text().splitlines()[1:]] == [f"si{t}" for t in range(1, 7)]


def test_say_without_graphs_or_text_is_a_clear_error(tiny_graphs, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["say", "你好", "-o", str(tmp_path / "x.wav"), "--graphs", str(tmp_path / "none")])
    assert exit_.value.code == 2 and "cantoedge export" in capsys.readouterr().err
    assert main(["say", "你好", "-o", str(tmp_path / "x.wav"), "--graphs", str(tmp_path)]) == 1
    assert "cantoedge export" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["say", "   ", "-o", str(tmp_path / "x.wav"), "--graphs", str(tiny_graphs)])
    assert exit_.value.code == 2 and "empty text" in capsys.readouterr().err
    assert not (tmp_path / "x.wav").exists()


@pytest.mark.parametrize("extra, says", [([], "no batching"), (["--batch-window-ms", "7"], "batching windows 7 ms")])
def test_serve_batches_on_cpu_only_when_asked(extra, says):
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "cantoedge.scripts.cli", "serve", "--port", str(port),
                             "--threads", "1", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert "windows at once per request: 1" in line and says in line, line


@pytest.mark.slow  # reads HKCanCor and CantoMap (about 10 s)
def test_g2p_eval_gives_every_gain_over_tojyutping_an_interval_over_whole_conversations(capsys):
    assert main(["corpus", "g2p-eval", "--folds", "0", "--json"]) == 0
    sets = json.loads(capsys.readouterr().out)["sets"]
    for name, data in sets.items():
        rows = {r["name"]: r for r in data["results"]}
        assert "gain_over_tojyutping" not in rows["ToJyutping"]
        ours = rows["cantoedge (ToJyutping + lexicon + context rules)"]
        gain = ours["gain_over_tojyutping"]
        assert gain["gain"] == pytest.approx(100 * (ours["rate"] - rows["ToJyutping"]["rate"]))
        assert gain["low"] < gain["gain"] < gain["high"] and gain["level"] == 0.95
        assert gain["groups"] == (20 if name.startswith("CantoMap") else 58), name  # speaker pairs; conversations
