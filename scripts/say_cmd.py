"""``cantoedge say``: speak with a built voice folder (any backend) or exported graphs (onnxruntime); device
side: no torch, nothing from the build side."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cantoedge.runtime.graphs import DEFAULT_GRAPH_DIR

from .speech_args import add_speech_arguments, check_outputs, save_speech
from .validate import existing_dir, graph_dir, int_in, max_threads

BACKENDS = ("auto", "ort", "trt", "rknn")  # runtime/backends/loading.py checks the same names


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("say", help="speak Cantonese text with a built voice folder or the exported graphs",
                       description="Frontend -> encoder -> length regulator (numpy) -> decoder and vocoder over "
                                   "128-frame windows joined seamlessly. --voice DIR speaks with a folder from "
                                   "`cantoedge build` on its backend (onnxruntime, TensorRT, or RKNN: the NPU on a "
                                   "board, the simulator on a build host); --graphs speaks with exported graphs "
                                   "through onnxruntime. Nothing is written unless synthesis succeeds; the WAV and "
                                   "its --alignment appear together.")
    add_speech_arguments(p)
    p.add_argument("--voice", type=existing_dir,
                   help="a built voice folder (`cantoedge build --out DIR`); default: $CANTOEDGE_VOICE, else "
                        "~/.local/share/cantoedge/voice ($XDG_DATA_HOME), else the INT8 voice in the package")
    p.add_argument("--backend", choices=BACKENDS, default="auto",
                   help="with --voice: auto (the folder's own target), ort, trt or rknn")
    p.add_argument("--graphs", type=graph_dir,
                   help=f"exported graph folder instead of a built voice, run with onnxruntime (e.g. "
                        f"{DEFAULT_GRAPH_DIR})")
    p.add_argument("--precision", choices=["fp32", "int8"],
                   help="with --graphs: which graphs (default fp32; a --voice folder has its own)")
    p.add_argument("--threads", type=int_in(1, max_threads()),
                   help=f"onnxruntime intra-op threads, 1..{max_threads()} (the cores here; default: its own choice)")
    p.set_defaults(run=run)


def open_voice(args: argparse.Namespace):
    """The voice the options name: a built folder, or a graph folder with a precision."""
    from cantoedge.runtime.synth import Voice
    from cantoedge.runtime.voices import find_voice

    if args.graphs:
        if args.voice:
            raise ValueError("give --voice (a built folder with its own precision) or --graphs with --precision, "
                             "not both")
        if args.backend not in ("auto", "ort"):
            raise ValueError(f"--backend {args.backend} runs a built folder: give --voice DIR (`cantoedge build`)")
        precision = args.precision or "fp32"
        return Voice(Path(args.graphs), precision, args.threads), precision
    if args.precision:
        raise ValueError("--precision chooses among exported graphs (--graphs); a voice folder has its own: give "
                         "--voice DIR built with that precision, or not both")
    found = find_voice(args.voice)
    voice = Voice.load(found.path, args.backend, args.threads)
    return voice, voice.precision


def run(args: argparse.Namespace) -> int:
    from cantoedge.runtime.audio import AUDIO

    check_outputs(args)
    voice, precision = open_voice(args)
    try:
        _ = voice.frontend  # load the lexicon before the clock starts: RTF is synthesis time
        start = time.perf_counter()
        speech = voice.speak(args.text, args.speed)
        rtf = (time.perf_counter() - start) / (speech.audio.size / AUDIO.sample_rate)
    finally:
        voice.close()
    backends = "+".join(dict.fromkeys(voice.backends.values()))
    save_speech(args, speech, f" ({backends} {precision}, RTF {rtf:.3f})")
    return 0
