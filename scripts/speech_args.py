"""What the speaking commands (say, synth-torch) share: their arguments, checked before any model loads,
and how they save what was said."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cantoedge.runtime.limits import MAX_TEXT_CHARS, SPEED_MAX, SPEED_MIN

from .validate import float_in, output_file, wav_output

SHOWN_SYLLABLES = 40  # the summary line names this many; the alignment file has them all


STDIN_TEXT = "-"  # the text argument that means: read it from standard input


def checked_text(value: str) -> str:
    """A text argument within the limits (or - for standard input, checked when read), refused before any work."""
    if value == STDIN_TEXT:
        return value  # read and checked by speech_text, before any model loads
    if not value.strip():
        raise argparse.ArgumentTypeError("empty text: nothing to say")
    if len(value) > MAX_TEXT_CHARS:
        raise argparse.ArgumentTypeError(f"{len(value):,} characters; the limit is {MAX_TEXT_CHARS:,}")
    return value


def speech_text(args: argparse.Namespace) -> str:
    """The text to speak: the argument, or with ``-`` standard input read as UTF-8. At most 4 bytes a character
    are read past the limit, so an endless or huge input is refused without being held whole."""
    if args.text != STDIN_TEXT:
        return args.text
    stream = getattr(sys.stdin, "buffer", None)  # None: standard input is closed
    if stream is None:
        raise ValueError("the text is '-' but there is no standard input to read it from (it is closed)")
    try:
        data = stream.read(4 * MAX_TEXT_CHARS + 1)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot read standard input: {exc.strerror}") from None
    if len(data) > 4 * MAX_TEXT_CHARS:  # UTF-8 spends at most 4 bytes on a character
        raise ValueError(f"standard input holds more than {MAX_TEXT_CHARS:,} characters, the limit (split it)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"standard input is not UTF-8 text (byte {exc.start}: {exc.reason})") from None
    try:
        return checked_text(text.removeprefix("\ufeff"))
    except argparse.ArgumentTypeError as exc:
        raise ValueError(f"standard input: {exc}") from None


def add_speech_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("text", type=checked_text,
                   help=f"Cantonese text, or - to read it (UTF-8) from standard input (at most {MAX_TEXT_CHARS:,} "
                        "characters; longer text is cut at pauses into pieces the encoder takes)")
    p.add_argument("-o", "--output", required=True, type=wav_output,
                   help="WAV file to write (22,050 Hz, 16-bit; a name ending in .wav or with no suffix), or - for "
                        "standard output")
    p.add_argument("--alignment", type=output_file,
                   help="also write each syllable's Jyutping, start and end (seconds) as TSV")
    p.add_argument("--speed", type=float_in(SPEED_MIN, SPEED_MAX), default=1.0,
                   help=f"speaking rate, {SPEED_MIN:g}..{SPEED_MAX:g} (durations divided by it; default 1)")


def check_outputs(args: argparse.Namespace) -> None:
    """What argparse cannot see alone: two outputs that are the same file, or an alignment to stdout."""
    if args.alignment == "-":
        raise ValueError("--alignment needs a file path (standard output carries the audio with -o -)")
    if args.alignment and args.output != "-" and Path(args.alignment).resolve() == Path(args.output).resolve():
        raise ValueError(f"--alignment and --output are the same file ({args.output})")


def save_speech(args: argparse.Namespace, audio, syllables, note: str = "") -> None:
    """Write the WAV and the alignment TSV (``syllables``: SyllableTime rows) together (both or neither), then
    say what was written: on stderr when the audio went to stdout."""
    from cantoedge.runtime.alignment import alignment_tsv
    from cantoedge.runtime.audio import AUDIO
    from cantoedge.runtime.fileio import atomic_write_all
    from cantoedge.runtime.wavio import wav_bytes

    data = wav_bytes(audio, AUDIO.sample_rate)
    outputs = []
    if args.output != "-":
        outputs.append((Path(args.output), lambda tmp: Path(tmp).write_bytes(data)))
    if args.alignment:
        tsv = alignment_tsv(syllables)
        outputs.append((Path(args.alignment), lambda tmp: Path(tmp).write_text(tsv, encoding="utf-8")))
    atomic_write_all(outputs)
    if args.output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    report(args, audio.size / AUDIO.sample_rate, [s.jyutping for s in syllables], note)


def report(args: argparse.Namespace, seconds: float, jyutping: list[str], note: str) -> None:
    """The one summary line: what was written, how long, which syllables (on stderr when stdout is audio)."""
    shown = " ".join(jyutping[:SHOWN_SYLLABLES]) + (" ..." if len(jyutping) > SHOWN_SYLLABLES else "")
    print(f"{args.output if args.output != '-' else '<stdout>'}: {seconds:.2f} s{note}, {len(jyutping)} syllables: "
          f"{shown}", file=sys.stderr if args.output == "-" else sys.stdout)
