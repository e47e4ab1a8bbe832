"""``cantoedge pipeline``: evaluation subset, export, calibration, every buildable engine, the regression suite
and its report, in one resumable command (build side)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cantoedge.runtime.enginefolder import TARGETS

from .validate import existing_file, int_in, output_dir

DEFAULT_BASELINE = Path(__file__).resolve().parents[1] / "regression" / "baselines" / "default.json"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("pipeline", help="everything from the committed checkpoints to the regression report",
                       description="Render the held-out evaluation utterances, export the bundled voice to ONNX, "
                                   "calibrate it to INT8 on its committed calibration set, make the evaluation "
                                   "bundle, build a device folder for every target this machine can build "
                                   "(onnxruntime always, RKNN where rknn-toolkit2 is, TensorRT where it is), then "
                                   "score them all (`cantoedge regress`) into OUT/report/report.html and gate on "
                                   "the committed baseline. A stage whose inputs (content hashes) did not change "
                                   "is skipped: rerun to resume. Exit 1 when the gate finds a regression.")
    p.add_argument("--out", type=output_dir, default="build", help="where everything goes (default build)")
    p.add_argument("--eval-utterances", type=int_in(1, 500), default=16,
                   help="held-out utterances to score on, 1..500 (default 16)")
    p.add_argument("--target", action="append", choices=TARGETS, dest="targets",
                   help="build only this target (repeatable; default: every one this machine can build; one it "
                        "cannot build is refused before any stage runs)")
    p.add_argument("--baseline", type=existing_file, default=None,
                   help="baseline to gate on (default: the committed regression/baselines/default.json when the "
                        "voice is the committed one; none with --from-scratch)")
    p.add_argument("--no-gate", action="store_true", help="report only, gate on nothing")
    p.add_argument("--calibration", choices=["entropy", "percentile", "max"], default="entropy",
                   help="INT8 range method (default entropy, the voice's own)")
    p.add_argument("--no-fallback", action="store_true",
                   help="quantise the voice's tone-sensitive layers too (an experiment: the gate should fail)")
    p.add_argument("--from-scratch", action="store_true",
                   help="also render the whole corpus and train teacher, student and vocoder with the bundled "
                        "configs (hours on 2 cores; resumable) into OUT/checkpoints, leaving the committed voice")
    p.add_argument("--corpus", default="data/corpus", help="--from-scratch: where the corpus is rendered")
    p.add_argument("--repeats", type=int_in(1, 50), default=3, help="timed runs per utterance, 1..50 (default 3)")
    p.add_argument("--force", action="store_true", help="run every stage even if its inputs did not change")
    p.add_argument("--quiet", action="store_true", help="no progress bars inside stages")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cantoedge.engines.pipeline import PipelineConfig, UnbuildableTarget, log_line, plan, run_stages, summary

    baseline = None
    if not args.no_gate:
        baseline = Path(args.baseline) if args.baseline else (None if args.from_scratch else DEFAULT_BASELINE)
    config = PipelineConfig(Path(args.out), args.eval_utterances, tuple(args.targets or ()), baseline,
                            args.from_scratch, Path(args.corpus), args.calibration, not args.no_fallback,
                            args.repeats, args.quiet)
    try:
        stages = plan(config)
    except UnbuildableTarget as exc:  # an option this machine cannot honour: refused as argparse refuses a bad one
        print(f"cantoedge pipeline: error: argument --target: {exc}", file=sys.stderr)
        return 2
    result = run_stages(stages, config.out, log_line, force=args.force)
    print(summary(result, config))
    return 1 if result.failed else 0
