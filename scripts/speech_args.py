"""What the speaking commands (say, synth-torch) share: their arguments and how they save what was said."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_speech_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("text", help="Cantonese text")
    p.add_argument("-o", "--output", required=True, help="WAV file to write (22,050 Hz, 16-bit)")
    p.add_argument("--alignment", help="also write each syllable's Jyutping, start and end (seconds) as TSV")
    p.add_argument("--speed", type=float, default=1.0, help="speaking rate (durations divided by it)")


def check_speed(args: argparse.Namespace) -> None:
    if args.speed <= 0:
        raise ValueError("--speed must be positive")


def save_speech(args: argparse.Namespace, speech, note: str = "") -> None:
    """Write the WAV (and the alignment TSV when asked), then say what was written."""
    from cantoedge.runtime.alignment import write_alignment
    from cantoedge.runtime.audio import AUDIO
    from cantoedge.runtime.wavio import write_wav

    write_wav(Path(args.output), speech.audio, AUDIO.sample_rate)
    if args.alignment:
        write_alignment(Path(args.alignment), speech.alignment())
    seconds = speech.audio.size / AUDIO.sample_rate
    jyutping = speech.g2p.jyutping
    print(f"{args.output}: {seconds:.2f} s{note}, {len(jyutping)} syllables: {' '.join(jyutping)}")
