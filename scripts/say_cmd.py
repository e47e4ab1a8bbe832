"""``cantoedge say``: speak with a built voice folder (any backend) or exported graphs (onnxruntime); device
side: no torch, nothing from the build side."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from cantoedge.runtime.backends.loading import BACKENDS
from cantoedge.runtime.graphs import DEFAULT_GRAPH_DIR
from cantoedge.runtime.speech import PITCH_SHIFT_RANGE, VOLUME_RANGE

from .speech_args import add_speech_arguments, check_outputs, report, save_speech, speech_text
from .validate import existing_dir, float_in, graph_dir, int_in, max_threads


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
                   help=f"cores the synthesis may use, 1..{max_threads()}: that many vocoder windows at once, one "
                        "onnxruntime thread each (default: the cores here, at most 4)")
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

    from cantoedge.runtime.audio import AUDIO
    from cantoedge.runtime.fileio import atomic_write_all
    from cantoedge.runtime.speech import SynthesisConfig
    from cantoedge.runtime.wavio import write_wav_stream

    check_outputs(args)
    if args.stream and args.output != "-":
        raise ValueError("--stream writes raw PCM to standard output: use it with -o -")
    config = SynthesisConfig(args.speed, args.pitch_shift, args.volume)
    text = speech_text(args)
    voice, precision = open_voice(args)
    syllables, samples = [], [0]

    def audio():
        """The speech window by window, never held whole (10,000 characters are half an hour of audio)."""
        for chunk in voice.synthesize(text, config):
            syllables.extend(chunk.syllables)
            samples[0] += chunk.audio.size
            yield chunk.audio

    try:
        _ = voice.frontend  # load the lexicon before the clock starts: RTF is synthesis time
        start = time.perf_counter()
        if args.stream:
            for pcm in audio():
                sys.stdout.buffer.write(pcm.astype("<i2").tobytes())
                sys.stdout.buffer.flush()
            if args.alignment:
                from cantoedge.runtime.alignment import write_alignment

                write_alignment(Path(args.alignment), syllables)
        elif args.output == "-":
            whole = np.concatenate(list(audio()))  # a WAV on stdout needs its length first
        else:  # the WAV streams into its temp file; the alignment follows; both appear together or neither
            outputs = [(Path(args.output), lambda tmp: write_wav_stream(tmp, audio(), AUDIO.sample_rate))]
            if args.alignment:
                outputs.append((Path(args.alignment), lambda tmp: save_alignment(tmp, syllables)))
            atomic_write_all(outputs)
        rtf = (time.perf_counter() - start) / (samples[0] / AUDIO.sample_rate)
    finally:
        voice.close()
    note = f" ({'+'.join(dict.fromkeys(voice.backends.values()))} {precision}, RTF {rtf:.3f})"
    if args.output == "-" and not args.stream:
        save_speech(args, whole, syllables, note)
    else:
        report(args, samples[0] / AUDIO.sample_rate, [s.jyutping for s in syllables], note)
    return 0


def save_alignment(path: str, syllables) -> None:
    from cantoedge.runtime.alignment import alignment_tsv

    Path(path).write_text(alignment_tsv(syllables), encoding="utf-8")
