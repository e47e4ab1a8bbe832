"""``cantoedge g2p``: text to Jyutping and tokens (device side: runtime only)."""

from __future__ import annotations

import argparse
import json
import sys

from .speech_args import checked_text, speech_text
from .validate import existing_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "g2p", help="show the Jyutping syllables and model tokens for Cantonese text",
        description="Normalise Cantonese text (numbers, dates, money, English words, acronyms, punctuation) "
                    "and print its Jyutping and token ids. With --file, one sentence a line; with --json, one "
                    'JSON object a line: {"text", "jyutping", "tokens", "tones", "phones", "unknown", "sources"}; '
                    "with --explain, each syllable with the reading chosen and why.",
    )
    p.add_argument("text", nargs="?", type=checked_text,
                   help="the text, or - to read it (UTF-8) from standard input as one text, as `say -` does (omit "
                        "with --file)")
    p.add_argument("--file", "-f", help="read sentences from this file, one a line ('-' for stdin)")
    p.add_argument("--json", action="store_true", help="print JSON (one object a line)")
    p.add_argument("--explain", action="store_true",
                   help="per character (or English word): the syllable chosen, its source (lexicon, ToJyutping, "
                        "context, number, date, particle, english, letter-to-sound, spelled, abbreviation, "
                        "interjection, place, jyutping) and the word or rule behind it (for context: the "
                        "neighbours and HKCanCor's count)")
    p.add_argument("--strict", action="store_true", help="fail on characters without a reading instead of "
                                                         "skipping them with a warning")
    p.add_argument("--lexicon", type=existing_file,
                   help="a word<TAB>jyutping file to use instead of the bundled lexicon (the bundled context "
                        "rules still apply over it)")
    p.set_defaults(run=run)


def _lines(args: argparse.Namespace) -> list[str]:
    if args.file and args.text:
        raise ValueError("give TEXT or --file, not both")
    if args.file:
        name = "standard input" if args.file == "-" else args.file
        try:
            fh = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
            with fh:
                return [line.rstrip("\n") for line in fh]
        except UnicodeDecodeError as exc:
            raise ValueError(f"{name} is not UTF-8 text (byte {exc.start}: {exc.reason}); save it as UTF-8") from None
        except OSError as exc:
            raise OSError(exc.errno, f"cannot read {name}: {exc.strerror}") from None
    if args.text is None:
        raise ValueError("no text: give TEXT or --file FILE")
    return [speech_text(args)]


def run(args: argparse.Namespace) -> int:
    from cantoedge.runtime.frontend import Frontend, FrontendError
    from cantoedge.runtime.lexicon import load_lexicon
    from cantoedge.runtime.limits import check_text

    lexicon = load_lexicon(args.lexicon) if args.lexicon else None
    frontend = Frontend(lexicon=lexicon, strict=args.strict)
    lines = _lines(args)
    failures = 0
    for lineno, line in enumerate(lines, 1):
        if args.file and not line.strip():
            continue
        try:
            result = frontend(check_text(line))  # each --file line within the text limit, as TEXT is
        except (FrontendError, ValueError) as exc:
            if not args.file:
                raise
            failures += 1
            where = f"{args.file}:{lineno}"
            print(f"cantoedge g2p: {where}: {exc}", file=sys.stderr)
            if args.json:
                print(json.dumps({"text": line, "error": str(exc)}, ensure_ascii=False))
            continue
        if args.json:
            print(json.dumps(result.to_json(), ensure_ascii=False))
        elif args.explain:
            print(explanation(result))
        else:
            print(" ".join(result.jyutping))
            print(" ".join(result.encoded.phones))
            print(" ".join(f"{t}:{tone}" for t, tone in zip(result.tokens, result.tones)))
    return 1 if failures else 0


def explanation(result) -> str:
    """One line per syllable: what was read, the syllable, its source and why."""
    width = max((len(g) for g in result.graphemes), default=1)
    lines = [f"{g:<{width}}  {j:<7} {s:<15} {w}" for g, j, s, w in
             zip(result.graphemes, result.jyutping, result.sources, result.why)]
    if result.unknown:
        lines.append("skipped (no reading): " + " ".join(dict.fromkeys(result.unknown)))
    return "\n".join(lines)
