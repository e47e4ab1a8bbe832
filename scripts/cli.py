"""``cantoedge``: one command, a subcommand per stage. Subcommand modules import their stage lazily, so
device subcommands (g2p, say, serve, regress) never load build-side code or torch."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

# subcommand -> the module that registers it, in --help's order. A run imports only its own subcommand's module
# (all thirteen took 10-20 ms of every `say`'s start, measured); --help and mistyped names build them all.
COMMANDS = {"g2p": "g2p_cmd", "corpus": "corpus_cmd", "train": "train_cmd", "evaluate": "evaluate_cmd",
            "synth-torch": "synth_torch_cmd", "export": "export_cmd", "calibrate": "calibrate_cmd",
            "build": "build_cmd", "say": "say_cmd", "serve": "serve_cmd", "triton-repo": "triton_cmd",
            "regress": "regress_cmd", "pipeline": "pipeline_cmd"}
# Short device commands whose process ends when their work does: Python's teardown after them only frees what the
# OS reclaims anyway (numpy's, onnxruntime's and three sessions' objects: 25-30 ms of a 0.22 s `say`, measured).
QUICK_EXIT = frozenset({"say", "g2p"})


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


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``only`` just that subcommand (what a run of it needs)."""
    parser = argparse.ArgumentParser(
        prog="cantoedge",
        description="Edge compilation pipeline and runtime for a Cantonese TTS voice.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module in COMMANDS.items():
        if only is None or name == only:
            # the import statement's machinery, not importlib.import_module: under import_module, numpy 2's
            # typing-heavy modules imported beneath took 18 ms longer (say, device install, numpy 2.4, measured)
            __import__(f"{__package__}.{module}", fromlist=["register"]).register(sub)
    _add_common_options(parser, top=True)
    return parser


def command_of(argv: Sequence[str]) -> str | None:
    """The subcommand's name: the first word that is not an option (top-level options are flags only)."""
    return next((a for a in argv if not a.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = command_of(argv)
    parser = build_parser(command if command in COMMANDS else None)
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


def exit_without_teardown(code: int) -> NoReturn:
    """Ends the process now, after delivering everything written: the log handlers and stdio are flushed (what
    interpreter shutdown would deliver), then the OS frees the memory at once instead of Python object by object."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a pipe closed by its reader, or a stream already closed: nothing to deliver
            pass
    os._exit(code)


def entry() -> NoReturn:
    """The console script: main(), then a finished say or g2p exits without the teardown (see QUICK_EXIT); the
    other subcommands (training, servers) end the ordinary way, running every library's exit handlers."""
    argv = sys.argv[1:]
    code = main(argv)
    if command_of(argv) in QUICK_EXIT:
        exit_without_teardown(code)
    sys.exit(code)


if __name__ == "__main__":
    entry()
