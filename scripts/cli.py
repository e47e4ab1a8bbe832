"""``cantoedge``: one command, a subcommand per stage. Subcommand modules import their stage lazily, so
device subcommands (g2p, say, serve, regress) never load build-side code or torch."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from . import (
    build_cmd,
    calibrate_cmd,
    corpus_cmd,
    evaluate_cmd,
    export_cmd,
    g2p_cmd,
    pipeline_cmd,
    regress_cmd,
    say_cmd,
    serve_cmd,
    synth_torch_cmd,
    train_cmd,
    triton_cmd,
)

COMMANDS = (g2p_cmd, corpus_cmd, train_cmd, evaluate_cmd, synth_torch_cmd, export_cmd, calibrate_cmd, build_cmd,
            say_cmd, serve_cmd, triton_cmd, regress_cmd, pipeline_cmd)


def _add_common_options(parser: argparse.ArgumentParser, top: bool) -> None:
    """--debug and --verbose on every parser, so they work before or after the subcommand; below the top
    level their default is SUPPRESS, so a subcommand never overwrites what was given before it."""
    default = {} if top else {"default": argparse.SUPPRESS}
    parser.add_argument("--debug", action="store_true", help="show full tracebacks on errors", **default)
    parser.add_argument("-v", "--verbose", action="store_true", help="log what each stage is doing", **default)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):
                _add_common_options(child, top=False)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cantoedge",
        description="Edge compilation pipeline and runtime for a Cantonese TTS voice.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMANDS:
        module.register(sub)
    _add_common_options(parser, top=True)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="cantoedge: %(levelname)s: %(message)s", stream=sys.stderr)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print("cantoedge: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `cantoedge say -o - | head` closed the pipe: not an error of ours
        return 0
    except (ValueError, OSError, RuntimeError) as exc:
        if args.debug:
            raise
        print(f"cantoedge {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug: one line, never a traceback unless asked for
        if args.debug:
            raise
        print(f"cantoedge {args.command}: internal error: {type(exc).__name__}: {exc} "
              "(run with --debug for the traceback, and please report it)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
