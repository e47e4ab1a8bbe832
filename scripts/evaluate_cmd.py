"""``cantoedge evaluate``: the PyTorch voice on held-out utterances with the shared metrics (build side)."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from cantoedge.runtime.manifest import SPLITS

from .validate import existing_dir, existing_file, int_in, named_path, output_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("evaluate", help="score acoustic models and the vocoder on held-out audio (build side)",
                       description="Reference audio vs vocoder resynthesis vs each acoustic model through the "
                                   "vocoder: mel L1, MCD, tone-band error, F0 RMSE (aligned with the reference "
                                   "durations) and tone accuracy (free-running); medians and p95.")
    p.add_argument("--model", action="append", required=True, metavar="NAME=PATH", type=named_path("file"),
                   help="an acoustic model to score, e.g. teacher=runs/teacher/model.safetensors (repeatable)")
    p.add_argument("--vocoder", required=True, type=existing_file, help="vocoder .safetensors")
    p.add_argument("--corpus", default="data/corpus", type=existing_dir,
                   help="corpus directory (default data/corpus; the bundled voice's own reference is the "
                        "flutter-free rendering, `corpus build --no-flutter`)")
    p.add_argument("--split", default="test", choices=SPLITS, help="split (default test)")
    p.add_argument("--limit", type=int_in(1), help="first N utterances only (>= 1)")
    p.add_argument("--shapes", action="store_true",
                   help="also measure tone shapes: each tone's slope over its voiced core (pYIN) in six-tone sets "
                        "alone and in 「我話X畀你聽。」, against espeak-ng's rendering of the same tokens; the first "
                        "row is the --vocoder on espeak-ng's own mel and F0: what it keeps of those slopes")
    p.add_argument("--shape-sets", choices=("measured", "validation"), default="measured",
                   help="with --shapes: the six sets issue 10's target is scored on (詩史試時市事 ...; default), or "
                        "twelve held-out sets (datasets/tonesets.VALIDATION_SETS, never trained on) to choose "
                        "between runs without tuning on the measured ones")
    p.add_argument("--graphs", type=existing_dir, metavar="DIR",
                   help="with --shapes: also the exported ONNX graphs in DIR, FP32 and INT8 (onnxruntime)")
    p.add_argument("--nudges", action="store_true",
                   help="with --shapes: each model again with 0.05, 0.1 and 0.2 Hz added to and taken from the F0 "
                        "of each utterance's first voiced run (1-4 cents: no one hears it), which moves the "
                        "harmonic source's phase for what follows; prints how far the count of slopes within "
                        "0.4 semitone moves: the measure's own spread (six more renderings of every set a model)")
    p.add_argument("--flutter-free", action="store_true",
                   help="also score F0 against the same utterances rendered without espeak-ng's pitch flutter (a "
                        "+-2 Hz wobble whose phase no text predicts; the reference row then shows the flutter "
                        "itself), add a row for the vocoder on that rendering's own mel and F0 (a voice that made "
                        "it exactly, scored against the corpus), a row per model with the corpus's own flutter put "
                        "into its F0 (an oracle: the phase comes from the reference; what is left of its F0 error "
                        "apart from the flutter) and, with --shapes, the slopes against the six-tone sets rendered "
                        "without it")
    p.add_argument("--json", type=output_file, help="also write the full report here")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from cantoedge.export.evaluate import CARRIER, evaluate, listen_proxy, markdown_table
    from cantoedge.export.synth import TorchVoice
    from cantoedge.runtime.fileio import atomic_write_text

    if (args.graphs or args.nudges or args.shape_sets != "measured") and not args.shapes:
        raise ValueError("--graphs, --nudges and --shape-sets choose what --shapes measures: give --shapes too")
    models = {name: Path(path) for name, path in args.model}
    flutter_free = None
    if args.flutter_free:
        from cantoedge.datasets.flutterfree import corpus_flutter_free

        def flutter_free(records):
            return corpus_flutter_free(records, progress=lambda xs, total: tqdm(
                xs, total=total, desc="rendering without flutter", unit="utt"))
    results = evaluate(Path(args.corpus), models, Path(args.vocoder), args.split, args.limit,
                       progress=lambda xs: tqdm(xs, desc="evaluating", unit="utt"), flutter_free=flutter_free)
    print(markdown_table(results))
    proxies = {}
    for name, path in models.items():
        proxy = listen_proxy(TorchVoice(path, Path(args.vocoder)))
        proxies[name] = proxy
        print(f"{name}: 詩史試時市事 heard as tones {proxy['isolated']} alone "
              f"({100 * proxy['isolated_accuracy']:.0f} %), {proxy['carrier']} in 「{CARRIER}」 "
              f"({100 * proxy['carrier_accuracy']:.0f} %)")
    shapes, shapes_flutter_free, nudges = _shapes(args, models) if args.shapes else ({}, {}, {})
    if args.json:
        report = {"systems": [r.to_json() for r in results], "listen_proxy": proxies, "shapes": shapes,
                  **({"shapes_flutter_free": shapes_flutter_free} if shapes_flutter_free else {}),
                  **({"nudges": nudges} if nudges else {})}
        text = json.dumps(_strict_json(report), ensure_ascii=False, indent=1, allow_nan=False)
        atomic_write_text(Path(args.json), text + "\n")
    return 0


def _strict_json(value):
    """NaN and infinities (a metric nothing was measured for, as the reference's own F0 error; a slope that could
    not be fitted) as null, so that strict JSON readers (JavaScript's JSON.parse refused NaN) take the report."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _strict_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict_json(v) for v in value]
    return value


def _shapes(args: argparse.Namespace, models: dict[str, Path]) -> tuple[dict, dict, dict]:
    """Tone shapes of every model (PyTorch) and, with --graphs, of the ONNX graphs, beside espeak-ng's; with
    --flutter-free also beside espeak-ng's rendering without its pitch flutter (the vocoder row left out there: it
    is given the rendering with flutter); with --nudges, how far each model's count moves under inaudible nudges."""
    from cantoedge.datasets.tonesets import MEASURED_SETS, VALIDATION_SETS
    from cantoedge.export import contours
    from cantoedge.export.checkpoint import load_model
    from cantoedge.runtime.synth import Voice

    bases = tuple(MEASURED_SETS) if args.shape_sets == "measured" else VALIDATION_SETS
    vocoder, _ = load_model(Path(args.vocoder))
    copy = "vocoder on espeak-ng's mel and F0"  # what the vocoder alone keeps
    measured = {copy: contours.measure(lambda units: contours.copy_rendering(vocoder, units), bases)}
    nudged: dict[str, list] = {}
    for name, path in models.items():
        model, _ = load_model(path)
        measured[name] = contours.measure(
            lambda units, model=model: contours.model_rendering(model, vocoder, units), bases)
        if args.nudges:
            nudged[name] = [contours.measure(lambda units, model=model, hz=hz: contours.model_rendering(
                model, vocoder, units, nudge_hz=hz), bases) for hz in contours.NUDGES_HZ]
    if args.graphs:
        for precision in ("fp32", "int8"):
            voice = Voice(Path(args.graphs), precision, threads=1)
            try:
                measured[f"onnx-{precision}"] = contours.measure(contours.device_renderer(voice), bases)
            finally:
                voice.close()
    reference = contours.measure(contours.espeak_rendering, bases)
    systems = {name: contours.compare(rows, reference) for name, rows in measured.items()}
    print(f"Slopes against espeak-ng's rendering ({args.shape_sets} sets):")
    print(contours.markdown_table(systems))
    free_systems = {}
    references = {"espeak-ng": reference}
    if args.flutter_free:
        free = contours.measure_flutter_free(bases)
        references["espeak-ng without flutter"] = free
        free_systems = {name: contours.compare(rows, free) for name, rows in measured.items() if name != copy}
        print(f"Slopes against espeak-ng's rendering without pitch flutter ({args.shape_sets} sets):")
        print(contours.markdown_table(free_systems))
    spreads = {name: {against: contours.nudge_spread(measured[name], rows, ref)
                      for against, ref in references.items()} for name, rows in nudged.items()}
    if spreads:
        print(_nudge_table(spreads))
    return systems, free_systems, {name: {k: v.to_json() for k, v in by.items()} for name, by in spreads.items()}


def _nudge_table(spreads: dict) -> str:
    """The count of slopes within tolerance as spoken and under the nudges, per model and reference."""
    from cantoedge.export.contours import NUDGES_HZ, SLOPE_TOLERANCE

    hz = ", ".join(f"{h:+g}" for h in NUDGES_HZ)
    lines = [f"Slopes within {SLOPE_TOLERANCE} st under nudges of {hz} Hz to each utterance's first voiced run:",
             "| system | against | as spoken | under the nudges | a slope moves (median / p90 / most) | most moved |",
             "|---|---|---|---|---|---|"]
    for name, by in spreads.items():
        for against, s in by.items():
            lines.append(f"| {name} | {against} | {s.within} of {s.total} | {s.lowest}–{s.highest} | "
                         + " / ".join(f"{m:.2f}" for m in s.slope_moves) + f" st | {', '.join(s.most_moved)} |")
    return "\n".join(lines) + "\n"
