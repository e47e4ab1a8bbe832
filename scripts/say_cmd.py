"""``cantoedge say``: speak with the exported graphs through onnxruntime (device side: no torch)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cantoedge.runtime.graphs import DEFAULT_GRAPH_DIR as DEFAULT_GRAPHS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("say", help="speak Cantonese text with the exported graphs (device side, onnxruntime)",
                       description="Frontend -> encoder -> length regulator (numpy) -> decoder and vocoder over "
                                   "128-frame windows joined seamlessly, through onnxruntime only.")
    p.add_argument("text", help="Cantonese text")
    p.add_argument("-o", "--output", required=True, help="WAV file to write (22,050 Hz, 16-bit)")
    p.add_argument("--graphs", default=DEFAULT_GRAPHS, help=f"graph directory (default {DEFAULT_GRAPHS})")
    p.add_argument("--precision", choices=["fp32", "int8"], default="fp32", help="which graphs (default fp32)")
    p.add_argument("--alignment", help="also write each syllable's Jyutping, start and end (seconds) as TSV")
    p.add_argument("--speed", type=float, default=1.0, help="speaking rate (durations divided by it)")
    p.add_argument("--threads", type=int, help="onnxruntime intra-op threads (default: its own choice)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cantoedge.runtime.alignment import write_alignment
    from cantoedge.runtime.audio import AUDIO
    from cantoedge.runtime.synth import Voice
    from cantoedge.runtime.wavio import write_wav

    if args.speed <= 0:
        raise ValueError("--speed must be positive")
    voice = Voice(Path(args.graphs), args.precision, args.threads)
    start = time.perf_counter()
    speech = voice.speak(args.text, args.speed)
    took = time.perf_counter() - start
    write_wav(Path(args.output), speech.audio, AUDIO.sample_rate)
    if args.alignment:
        write_alignment(Path(args.alignment), speech.alignment())
    seconds = speech.audio.size / AUDIO.sample_rate
    print(f"{args.output}: {seconds:.2f} s ({args.precision}, RTF {took / seconds:.3f}), "
          f"{len(speech.g2p.jyutping)} syllables: {' '.join(speech.g2p.jyutping)}")
    return 0
