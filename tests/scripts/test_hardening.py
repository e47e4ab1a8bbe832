"""Careless-user inputs that once crashed a command, wrote a wrong artefact or said something misleading:
each now gets one clear line and a non-zero exit before any work, and nothing is written."""

import subprocess
import sys

import pytest

from cantoedge.scripts.cli import build_parser, main


def run_cli(argv, capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("option, value, says", [
    ("--speed", "100", "0.25..4"), ("--speed", "0.01", "0.25..4"), ("--speed", "0", "0.25..4"),
    ("--speed", "-2", "0.25..4"), ("--speed", "inf", "finite"), ("--speed", "nan", "finite"),
    ("--speed", "fast", "not a number"), ("--threads", "-1", "1.."), ("--threads", "1000", "1.."),
    ("--threads", "0", "1.."), ("--threads", "1.5", "not an integer"),
])
def test_say_refuses_out_of_range_options_with_one_line_before_any_work(tiny_graphs, tmp_path, capsys, option, value,
                                                                        says):
    wav = tmp_path / "x.wav"
    code, _, err = run_cli(["say", "你好", "-o", str(wav), "--graphs", str(tiny_graphs), option, value], capsys)
    last = err.strip().splitlines()[-1]
    assert code == 2 and option in last and value in last and says in last, err
    assert "Traceback" not in err and not wav.exists()


def test_say_speaks_text_longer_than_the_encoder_takes(tiny_graphs, tmp_path, capsys):
    from cantoedge.runtime.wavio import read_wav

    text = "今日天氣好好，我哋去飲茶啦。" * 45  # 630 characters, about 1,300 tokens: over the encoder's 1,024
    wav, tsv = tmp_path / "long.wav", tmp_path / "long.tsv"
    code, out, err = run_cli(["say", text, "-o", str(wav), "--graphs", str(tiny_graphs), "--alignment", str(tsv),
                              "--threads", "1"], capsys)
    assert code == 0, err
    rows = tsv.read_text().splitlines()[1:]
    assert len(rows) == 12 * 45 and "540 syllables" in out
    audio, _ = read_wav(wav)
    last_end = float(rows[-1].split("\t")[2])
    assert last_end <= audio.size / 22050 < last_end + 1.0  # only the final pause follows the last syllable
    starts = [float(r.split("\t")[1]) for r in rows]
    assert starts == sorted(starts)  # the pieces follow each other


def test_calibrate_limit_zero_or_negative_is_refused_and_the_int8_graphs_stay(tiny_graphs, calib_corpus, tmp_path,
                                                                             capsys):
    out = tmp_path / "out"
    out.mkdir()
    good = out / "encoder.int8.onnx"
    good.write_bytes(b"the good INT8 graph")
    for limit in ("0", "-127"):
        code, _, err = run_cli(["calibrate", "--onnx", str(tiny_graphs), "--corpus", str(calib_corpus), "--out",
                                str(out), "--limit", limit, "--quiet"], capsys)
        assert code == 2 and "--limit" in err and limit in err and ">= 1" in err
    assert good.read_bytes() == b"the good INT8 graph" and sorted(p.name for p in out.iterdir()) == [good.name]


def test_output_errors_name_the_path_given_and_leave_nothing(tiny_graphs, tmp_path, capsys):
    wav = tmp_path / "x.wav"
    code, _, err = run_cli(["say", "你好", "-o", "/proc/x.wav", "--graphs", str(tiny_graphs)], capsys)
    assert code == 2 and "/proc/x.wav" in err and ".tmp" not in err
    code, _, err = run_cli(["say", "你好", "-o", str(wav), "--alignment", "/proc/x.tsv", "--graphs",
                            str(tiny_graphs)], capsys)
    assert code == 2 and "/proc/x.tsv" in err
    assert not wav.exists()  # the WAV is not left behind when its alignment cannot be written
    code, _, err = run_cli(["say", "你好", "-o", str(tmp_path), "--graphs", str(tiny_graphs)], capsys)
    assert code == 2 and "is a directory" in err
    code, _, err = run_cli(["say", "你好", "-o", str(wav), "--alignment", str(wav), "--graphs", str(tiny_graphs)],
                           capsys)
    assert code == 1 and "same file" in err and not wav.exists()


@pytest.mark.parametrize("name", ["x.mp3", "x.flac", "x.ogg", "x.wav.txt"])
def test_say_refuses_an_output_named_for_another_format_before_any_work(tiny_graphs, tmp_path, capsys, name):
    code, _, err = run_cli(["say", "你好", "-o", str(tmp_path / name), "--graphs", str(tiny_graphs)], capsys)
    last = err.strip().splitlines()[-1]
    assert code == 2 and name in last and "WAV" in last and "ffmpeg" in last, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["x.WAV", "x"])
def test_say_writes_a_wav_named_wav_in_any_case_or_with_no_suffix(tiny_graphs, tmp_path, capsys, name):
    code, _, err = run_cli(["say", "你好", "-o", str(tmp_path / name), "--graphs", str(tiny_graphs), "--threads", "1"],
                           capsys)
    assert code == 0, err
    assert (tmp_path / name).read_bytes()[:4] == b"RIFF"


def test_say_to_stdout_writes_a_wav_there_and_no_file_named_dash(tiny_graphs, tmp_path):
    import io
    import wave

    proc = subprocess.run([sys.executable, "-m", "cantoedge.scripts.cli", "say", "詩史試時市事", "-o", "-",
                           "--graphs", str(tiny_graphs), "--threads", "1"], capture_output=True, timeout=300,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr.decode()
    with wave.open(io.BytesIO(proc.stdout)) as wf:
        assert wf.getframerate() == 22050 and wf.getnframes() > 22050 // 2
    assert b"6 syllables" in proc.stderr and list(tmp_path.iterdir()) == []


def test_a_file_that_is_not_utf8_is_named_in_the_error(tmp_path, capsys):
    bad = tmp_path / "big5.txt"
    bad.write_bytes("你好".encode("big5"))
    code, _, err = run_cli(["g2p", "--file", str(bad)], capsys)
    assert code == 1 and str(bad) in err and "UTF-8" in err and "Traceback" not in err
    code, _, err = run_cli(["g2p", "--file", str(tmp_path / "missing.txt")], capsys)
    assert code == 1 and "missing.txt" in err


def test_debug_and_verbose_work_before_and_after_the_subcommand():
    parser = build_parser()
    for argv in (["--debug", "-v", "g2p", "x"], ["g2p", "x", "--debug", "--verbose"],
                 ["corpus", "build", "--debug", "-v"]):
        args = parser.parse_args(argv)
        assert args.debug and args.verbose, argv
    args = parser.parse_args(["g2p", "x"])
    assert not args.debug and not args.verbose


def _parsers(parser):
    yield parser
    for action in parser._actions:
        if hasattr(action, "choices") and isinstance(action.choices, dict):
            for child in dict.fromkeys(action.choices.values()):
                yield from _parsers(child)


def test_every_help_text_is_there_and_says_what_it_means():
    import cantoedge.scripts.cli as cli

    top = build_parser()
    commands = set(next(a for a in top._actions if hasattr(a, "choices") and isinstance(a.choices, dict)).choices)
    if "serve" not in commands:  # the help and the CLI's docstring once promised a server that did not exist
        assert "serve" not in top.format_help() and "serve" not in (cli.__doc__ or "")
    for parser in _parsers(top):
        text = parser.format_help()
        assert "%%" not in text and "WHAT)" not in text.replace("runs/WHAT", ""), parser.prog
        for action in parser._actions:
            if action.option_strings and action.dest != "help":
                assert action.help and action.help.strip(), f"{parser.prog} {action.option_strings} has no help"


def test_say_streams_raw_pcm_to_stdout_as_it_is_made(tmp_path):
    import numpy as np

    tsv = tmp_path / "a.tsv"
    proc = subprocess.run([sys.executable, "-m", "cantoedge.scripts.cli", "say", "今日天氣好好。我哋去飲茶啦！", "-o",
                           "-", "--stream", "--alignment", str(tsv), "--threads", "1"], capture_output=True,
                          timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr.decode()
    pcm = np.frombuffer(proc.stdout, dtype="<i2")
    rows = tsv.read_text().splitlines()[1:]
    assert not proc.stdout.startswith(b"RIFF") and len(rows) == 12
    assert float(rows[-1].split("\t")[2]) <= pcm.size / 22050 < float(rows[-1].split("\t")[2]) + 1.0
    assert b"12 syllables" in proc.stderr


def test_stream_needs_stdout_and_settings_have_ranges(tmp_path, capsys):
    code, _, err = run_cli(["say", "你好", "-o", str(tmp_path / "a.wav"), "--stream"], capsys)
    assert code == 1 and "use it with -o -" in err and not (tmp_path / "a.wav").exists()
    for option, value in (("--pitch-shift", "13"), ("--volume", "-1")):
        code, _, err = run_cli(["say", "你好", "-o", str(tmp_path / "a.wav"), option, value], capsys)
        assert code == 2 and option in err and "valid range" in err


@pytest.mark.parametrize("value, says", [("1", "nothing to build from"), ("-1", ">= 0"), ("two", "integer")])
def test_g2p_eval_refuses_folds_it_cannot_use_before_loading_anything(capsys, value, says):
    code, out, err = run_cli(["corpus", "g2p-eval", "--folds", value], capsys)
    assert code in (1, 2) and says in err.strip().splitlines()[-1] and not out, err


def test_say_dash_reads_the_text_from_standard_input_and_speaks_it_as_the_argument_would(tmp_path):
    text = "今日天氣好好。我哋去飲茶啦！"
    base = [sys.executable, "-m", "cantoedge.scripts.cli", "say", "--threads", "1", "-o"]
    given = subprocess.run([*base, "given.wav", text], capture_output=True, timeout=300, cwd=tmp_path)
    piped = subprocess.run([*base, "piped.wav", "-", "--alignment", "piped.tsv"], capture_output=True, timeout=300,
                           cwd=tmp_path, input=("\ufeff" + text + "\n").encode())  # a BOM and a newline, as saved
    assert given.returncode == 0 and piped.returncode == 0, (given.stderr.decode(), piped.stderr.decode())
    assert (tmp_path / "piped.wav").read_bytes() == (tmp_path / "given.wav").read_bytes()
    assert b"12 syllables" in piped.stdout and len((tmp_path / "piped.tsv").read_text().splitlines()) == 13


@pytest.mark.parametrize("data, says", [
    (b"", "empty text"),
    (b" \n\t", "empty text"),
    ("你好".encode("big5"), "not UTF-8 text (byte 0"),
    (("你" * 20_001).encode(), "20,001 characters; the limit is 20,000"),
    (b"a" * 10_000_000, "more than 20,000 characters"),
])
def test_say_dash_refuses_bad_standard_input_with_one_line_before_any_model_loads(tiny_graphs, tmp_path, capsys,
                                                                                monkeypatch, data, says):
    import io
    import types

    from cantoedge.runtime.synth import Voice

    stdin = io.BytesIO(data)
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=stdin))
    monkeypatch.setattr(Voice, "__init__", lambda *a, **k: pytest.fail("a voice was loaded"))
    code, out, err = run_cli(["say", "-", "-o", str(tmp_path / "a.wav"), "--graphs", str(tiny_graphs)], capsys)
    assert code == 1 and says in err.strip().splitlines()[-1] and "standard input" in err and not out, err
    assert list(tmp_path.iterdir()) == []
    assert stdin.tell() <= 80_001  # an endless input is not read whole


def test_say_dash_with_standard_input_closed_says_so(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "cantoedge.scripts.cli", "say", "-", "-o", "a.wav"],
                          capture_output=True, timeout=300, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert proc.returncode == 1 and b"empty text" in proc.stderr and list(tmp_path.iterdir()) == []
    proc = subprocess.run(f'"{sys.executable}" -m cantoedge.scripts.cli say - -o a.wav <&-', shell=True,
                          capture_output=True, timeout=300, cwd=tmp_path)
    err = proc.stderr.decode().strip().splitlines()
    assert proc.returncode == 1 and len(err) == 1 and "no standard input" in err[0] and "internal" not in err[0], err
    assert list(tmp_path.iterdir()) == []


def test_g2p_eval_refuses_a_file_that_is_not_cc_canto_before_loading_the_corpora(tmp_path, capsys, monkeypatch):
    path = tmp_path / "readings.tsv"
    path.write_text("食飯\tsik6 faan6\n", encoding="utf-8")
    import cantoedge.datasets.hkcancor as hkcancor
    monkeypatch.setattr(hkcancor, "load_annotated", lambda: pytest.fail("loaded HKCanCor before checking the file"))
    code, out, err = run_cli(["corpus", "g2p-eval", "--cc-canto", str(path)], capsys)
    assert code == 1 and "no CC-Canto entry found" in err and not out, err
    code, out, err = run_cli(["corpus", "g2p-eval", "--cc-canto", str(tmp_path / "missing.txt")], capsys)
    assert code == 2 and "missing.txt" in err and not out


def test_g2p_eval_asks_for_canto_hk_g2p_when_its_row_is_wanted_and_it_is_missing(capsys, monkeypatch):
    import cantoedge.datasets.hkcancor as hkcancor
    monkeypatch.setitem(sys.modules, "canto_hk_g2p", None)  # as if not installed
    monkeypatch.setattr(hkcancor, "load_annotated", lambda: pytest.fail("loaded HKCanCor before the check"))
    code, out, err = run_cli(["corpus", "g2p-eval", "--canto-hk-g2p"], capsys)
    assert code == 1 and "pip install canto-hk-g2p==2.6.1" in err and not out, err
