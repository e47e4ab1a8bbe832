"""``cantoedge say``: speak with a built voice folder (any backend) or exported graphs (onnxruntime); device
side: no torch, nothing from the build side."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from cantoedge.runtime.graphs import DEFAULT_GRAPH_DIR
from cantoedge.runtime.speech import PITCH_SHIFT_RANGE, VOLUME_RANGE

from .speech_args import add_speech_arguments, check_outputs, report, save_speech
from .validate import existing_dir, float_in, graph_dir, int_in, max_threads

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
    p.add_argument("--pitch-shift", type=float_in(*PITCH_SHIFT_RANGE), default=0.0, metavar="SEMITONES",
                   help=f"raise or lower the voice, {PITCH_SHIFT_RANGE[0]:g}..{PITCH_SHIFT_RANGE[1]:g} semitones "
                        "(every tone keeps its shape; default 0)")
    p.add_argument("--volume", type=float_in(*VOLUME_RANGE), default=1.0,
                   help=f"linear gain, {VOLUME_RANGE[0]:g}..{VOLUME_RANGE[1]:g} (peaks still bend under full scale; "
                        "default 1)")
    p.add_argument("--stream", action="store_true",
                   help="with -o -: write raw 16-bit mono PCM at 22,050 Hz to stdout as each window is made "
                        "(no WAV header), e.g. | aplay -r 22050 -f S16_LE -c 1")
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
    voice = Voice.load(found.path, args.backend, args.threads, warmup=False, cache_bytes=0)  # one phrase, cold
    return voice, voice.precision


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from cantoedge.runtime.speech import SynthesisConfig

    check_outputs(args)
    if args.stream and args.output != "-":
        raise ValueError("--stream writes raw PCM to standard output: use it with -o -")
    config = SynthesisConfig(args.speed, args.pitch_shift, args.volume)
    voice, precision = open_voice(args)
    chunks, syllables = [], []
    try:
        _ = voice.frontend  # load the lexicon before the clock starts: RTF is synthesis time
        start = time.perf_counter()
        for chunk in voice.synthesize(args.text, config):
            syllables.extend(chunk.syllables)
            if args.stream:
                sys.stdout.buffer.write(chunk.audio.astype("<i2").tobytes())
                sys.stdout.buffer.flush()
            chunks.append(chunk.audio)
        seconds = sum(c.size for c in chunks) / chunk.sample_rate
        rtf = (time.perf_counter() - start) / seconds
    finally:
        voice.close()
    note = f" ({'+'.join(dict.fromkeys(voice.backends.values()))} {precision}, RTF {rtf:.3f})"
    if args.stream:
        if args.alignment:
            save_alignment(args.alignment, syllables)
        report(args, seconds, [s.jyutping for s in syllables], note)
    else:
        save_speech(args, np.concatenate(chunks), syllables, note)
    return 0


def save_alignment(path: str, syllables) -> None:
    from cantoedge.runtime.alignment import write_alignment

    write_alignment(Path(path), syllables)
