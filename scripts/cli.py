"""``cantoedge``: one command, a subcommand per stage. Subcommand modules import their stage lazily, so
device subcommands (g2p, say, serve, regress) never load build-side code or torch."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from . import (
    calibrate_cmd,
    corpus_cmd,
    evaluate_cmd,
    export_cmd,
    g2p_cmd,
    regress_cmd,
    say_cmd,
    synth_torch_cmd,
    train_cmd,
)

COMMANDS = (g2p_cmd, corpus_cmd, train_cmd, evaluate_cmd, synth_torch_cmd, export_cmd, calibrate_cmd, say_cmd,
            regress_cmd)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cantoedge",
        description="Edge compilation pipeline and runtime for a Cantonese TTS voice.",
    )
    parser.add_argument("--debug", action="store_true", help="show full tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if getattr(args, "verbose", False) else logging.WARNING,
                        format="cantoedge: %(levelname)s: %(message)s", stream=sys.stderr)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print("cantoedge: interrupted", file=sys.stderr)
        return 130
    except (ValueError, OSError, RuntimeError) as exc:
        if args.debug:
            raise
        print(f"cantoedge {args.command}: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
