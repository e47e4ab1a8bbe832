"""``cantoedge synth-torch``: speak with the PyTorch checkpoints (build-side check before export)."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("synth-torch", help="speak Cantonese text with the PyTorch checkpoints (build side)",
                       description="Frontend -> acoustic model -> vocoder in 128-frame chunks, all in PyTorch. "
                                   "Defaults to the bundled voice (export/voice/).")
    p.add_argument("text", help="Cantonese text")
    p.add_argument("-o", "--output", required=True, help="WAV file to write (22,050 Hz, 16-bit)")
    p.add_argument("--alignment", help="also write each syllable's Jyutping, start and end (seconds) as TSV")
    p.add_argument("--acoustic", help="acoustic model .safetensors (default: the bundled student)")
    p.add_argument("--vocoder", help="vocoder .safetensors (default: the bundled vocoder)")
    p.add_argument("--speed", type=float, default=1.0, help="speaking rate (durations divided by it)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cantoedge.export.synth import TorchVoice
    from cantoedge.runtime.alignment import write_alignment
    from cantoedge.runtime.audio import AUDIO
    from cantoedge.runtime.wavio import write_wav

    if args.speed <= 0:
        raise ValueError("--speed must be positive")
    speech = TorchVoice(args.acoustic, args.vocoder).speak(args.text, args.speed)
    write_wav(Path(args.output), speech.audio, AUDIO.sample_rate)
    if args.alignment:
        write_alignment(Path(args.alignment), speech.alignment())
    seconds = speech.audio.size / AUDIO.sample_rate
    print(f"{args.output}: {seconds:.2f} s, {len(speech.g2p.jyutping)} syllables: {' '.join(speech.g2p.jyutping)}")
    return 0
