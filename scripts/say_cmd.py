"""``cantoedge say``: speak with the exported graphs through onnxruntime (device side: no torch)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cantoedge.runtime.graphs import DEFAULT_GRAPH_DIR

from .speech_args import add_speech_arguments, check_outputs, save_speech
from .validate import graph_dir, int_in, max_threads


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("say", help="speak Cantonese text with the exported graphs (device side, onnxruntime)",
                       description="Frontend -> encoder -> length regulator (numpy) -> decoder and vocoder over "
                                   "128-frame windows joined seamlessly, through onnxruntime only. Nothing is "
                                   "written unless synthesis succeeds; the WAV and its --alignment appear together.")
    add_speech_arguments(p)
    p.add_argument("--graphs", default=DEFAULT_GRAPH_DIR, type=graph_dir,
                   help=f"graph directory (default {DEFAULT_GRAPH_DIR})")
    p.add_argument("--precision", choices=["fp32", "int8"], default="fp32", help="which graphs (default fp32)")
    p.add_argument("--threads", type=int_in(1, max_threads()),
                   help=f"onnxruntime intra-op threads, 1..{max_threads()} (the cores here; default: its own choice)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cantoedge.runtime.audio import AUDIO
    from cantoedge.runtime.synth import Voice

    check_outputs(args)
    voice = Voice(Path(args.graphs), args.precision, args.threads)
    _ = voice.frontend  # load the lexicon before the clock starts: RTF is synthesis time
    start = time.perf_counter()
    speech = voice.speak(args.text, args.speed)
    rtf = (time.perf_counter() - start) / (speech.audio.size / AUDIO.sample_rate)
    save_speech(args, speech, f" ({args.precision}, RTF {rtf:.3f})")
    return 0
