"""``cantoedge synth-torch``: speak with the PyTorch checkpoints (build-side check before export)."""

from __future__ import annotations

import argparse

from .speech_args import add_speech_arguments, check_outputs, save_speech, speech_text
from .validate import existing_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("synth-torch", help="speak Cantonese text with the PyTorch checkpoints (build side)",
                       description="Frontend -> acoustic model -> vocoder in 128-frame chunks, all in PyTorch. "
                                   "Defaults to the bundled voice (export/voice/).")
    add_speech_arguments(p)
    p.add_argument("--acoustic", type=existing_file, help="acoustic model .safetensors (default: the bundled student)")
    p.add_argument("--vocoder", type=existing_file, help="vocoder .safetensors (default: the bundled vocoder)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cantoedge.export.synth import TorchVoice

    check_outputs(args)
    text = speech_text(args)
    speech = TorchVoice(args.acoustic, args.vocoder).speak(text, args.speed)
    save_speech(args, speech.audio, speech.alignment())
    return 0
