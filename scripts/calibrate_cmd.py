"""``cantoedge calibrate``: INT8 ranges, Q/DQ graphs and TensorRT caches from the FP32 graphs (build side)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cantoedge.regression.targets import INT8_TARGETS as T
from cantoedge.runtime.graphs import DEFAULT_GRAPH_DIR

from .validate import existing_dir, existing_file, int_in, output_dir


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calibrate", help="INT8 calibration: ranges file, Q/DQ graphs, TensorRT caches (build side)",
                       description="Runs the FP32 graphs over the tone-balanced calibration set (`cantoedge corpus "
                                   "calib-set`), histograms every float activation (2048 bins) and computes max, "
                                   "99.99th-percentile and entropy (TensorRT EntropyCalibration2) thresholds into "
                                   "ONE ranges file, OUT/ranges.json. From it: OUT/<graph>.int8.onnx (symmetric "
                                   "int8 Q/DQ, zero-point 0, per-channel weights) and OUT/<graph>.calib.cache "
                                   "(TensorRT's cache format).")
    p.add_argument("--onnx", default=DEFAULT_GRAPH_DIR, type=existing_dir,
                   help=f"FP32 graph directory (default {DEFAULT_GRAPH_DIR})")
    p.add_argument("--out", type=output_dir, help="output directory (default: the --onnx directory)")
    p.add_argument("--calib-set", type=existing_file, metavar="JSON",
                   help="a self-contained calib_set.json (with its utterances' tokens) instead of CORPUS's, e.g. "
                        "the bundled voice's export/voice/calib_set.json: calibrates without the corpus")
    p.add_argument("--corpus", default="data/corpus",
                   help="corpus with calib_set.json (default data/corpus)")
    p.add_argument("--method", choices=["entropy", "percentile", "max"], default="entropy",
                   help="thresholds the INT8 graphs and caches use (all three are kept in the ranges file)")
    p.add_argument("--limit", type=int_in(1), help="first N calibration utterances only (>= 1; together they must "
                                                   "say all six tones)")
    p.add_argument("--sensitivity", type=int_in(0), default=0, metavar="N",
                   help="quantise one layer at a time on N validation utterances, write OUT/sensitivity.md, and "
                        "keep the most tone-harmful layers float until INT8 meets the targets (tone-band <= "
                        f"{T.tone_band_db} dB, F0 <= {T.f0_cents:g} cents, tone accuracy drop <= "
                        f"{100 * T.tone_accuracy_drop:g} points); 0 skips it (default)")
    p.add_argument("--fallback", metavar="JSON", type=existing_file,
                   help="layers to keep float, {graph: [layer, ...]}, e.g. the OUT/fallback.json a --sensitivity "
                        "run wrote (the bundled voice's is export/voice/fallback.json)")
    p.add_argument("--report", type=int_in(0), default=0, metavar="N",
                   help="then write OUT/int8_report.{json,md}: FP32 vs PTQ max/percentile/entropy/entropy+fallback "
                        "(and QAT with --qat) on N test utterances, sizes, onnxruntime latency of one window at a time "
                        "and of two at once on one thread each, as the voice runs them")
    p.add_argument("--report-only", action="store_true", help="skip calibrating: report on the existing OUT")
    p.add_argument("--qat", metavar="DIR", type=existing_dir,
                   help="the `cantoedge train qat` run to include in the report")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    progress = None if args.quiet else (lambda xs, desc: tqdm(xs, desc=desc, unit="run", leave=False))
    out = Path(args.out or args.onnx)
    if not args.report_only:
        _calibrate(args, out, progress)
    if args.report or args.report_only:
        corpus_needed(args.corpus, "--report")
        from cantoedge.calibrate.report import write_report

        report = write_report(Path(args.onnx), Path(args.corpus), out, args.report or 50,
                              Path(args.qat) if args.qat else None,
                              progress=None if args.quiet else (lambda xs: tqdm(xs, desc="report", unit="utt")))
        print(report.markdown())
        print(f"report: {out / 'int8_report.md'}, {out / 'int8_report.json'}")
    return 0


def _calibrate(args: argparse.Namespace, out: Path, progress) -> None:
    from cantoedge.calibrate.int8 import calibrate_voice

    fallback = None
    if args.fallback:
        try:
            fallback = json.loads(Path(args.fallback).read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"--fallback {args.fallback}: {exc}") from exc
    if not args.calib_set or args.sensitivity:
        corpus_needed(args.corpus, "--sensitivity" if args.calib_set else "calibration")
    build = calibrate_voice(Path(args.onnx), Path(args.corpus), out, args.method, args.limit,
                            sensitivity=args.sensitivity, fallback=fallback, progress=progress, log=print,
                            calib_set=Path(args.calib_set) if args.calib_set else None)
    print(f"ranges: {build.ranges}")
    for name, path in build.graphs.items():
        print(f"{path}: {path.stat().st_size / 1e6:.2f} MB, {build.quantised[name]} ops in INT8; "
              f"TensorRT cache {build.caches[name]}")


def corpus_needed(corpus: str, why: str) -> None:
    if not Path(corpus).is_dir():
        raise ValueError(f"{why} needs the corpus, and there is none at {corpus}: build it (`cantoedge corpus build`) "
                         "or pass --corpus" + ("; or calibrate from a file with --calib-set" if why == "calibration"
                                               else ""))
