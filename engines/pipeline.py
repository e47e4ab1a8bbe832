"""`cantoedge pipeline`: the stages from the committed checkpoints to a regression report in one command.
Each stage records a hash of its inputs (files, settings and the package's code); a stage whose inputs did
not change and whose outputs are all there is skipped, so an interrupted or repeated run resumes."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cantoedge.runtime.fileio import atomic_write_text, file_sha256

STATE_FILE = "pipeline.json"
PACKAGE_ROOT = Path(__file__).resolve().parents[1]
CODE_FOLDERS = ("runtime", "regression", "datasets", "export", "calibrate", "engines")


@dataclass
class Stage:
    name: str
    inputs: list  # paths (files or folders, hashed by content) and settings (hashed as text)
    outputs: list[Path]
    run: Callable[[], int | None]  # non-zero: the stage failed (the gate) and is not marked done
    why: str = ""  # what it does, for the progress display


@dataclass
class PipelineResult:
    ran: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: str | None = None
    seconds: dict[str, float] = field(default_factory=dict)


def code_digest() -> str:
    """Every module of the package: a change in code reruns the stages (conservative and simple)."""
    h = hashlib.sha256()
    for folder in CODE_FOLDERS:
        for path in sorted((PACKAGE_ROOT / folder).rglob("*.py")):
            h.update(str(path.relative_to(PACKAGE_ROOT)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def inputs_digest(inputs: list, code: str) -> str:
    h = hashlib.sha256(code.encode())
    for item in inputs:
        if isinstance(item, Path):
            files = sorted(p for p in item.rglob("*") if p.is_file()) if item.is_dir() else [item]
            for p in files:
                h.update(str(p.name).encode() + b"\0" + (file_sha256(p) if p.exists() else "missing").encode())
        else:
            h.update(b"setting\0" + json.dumps(item, sort_keys=True, default=str).encode())
    return h.hexdigest()


def run_stages(stages: list[Stage], out: Path, log: Callable[[str], None] = print,
               force: bool = False) -> PipelineResult:
    out.mkdir(parents=True, exist_ok=True)
    state_path = out / STATE_FILE
    state = json.loads(state_path.read_text("utf-8")) if state_path.exists() else {}
    code = code_digest()
    result = PipelineResult()
    for i, stage in enumerate(stages, 1):
        head = f"[{i}/{len(stages)}] {stage.name}"
        digest = inputs_digest(stage.inputs, code)
        done = state.get(stage.name, {})
        if not force and done.get("inputs") == digest and all(p.exists() for p in stage.outputs):
            log(f"{head}: skipped (inputs unchanged since {done.get('finished', '?')})")
            result.skipped.append(stage.name)
            continue
        log(f"{head}: {stage.why} …")
        start = time.perf_counter()
        status = stage.run() or 0
        took = time.perf_counter() - start
        result.seconds[stage.name] = took
        if status:
            log(f"{head}: FAILED after {took:.1f} s")
            result.failed = stage.name
            state.pop(stage.name, None)
            atomic_write_text(state_path, json.dumps(state, indent=1) + "\n")
            return result
        # the stage's own outputs count as inputs of later stages: hash them after it ran
        state[stage.name] = {"inputs": inputs_digest(stage.inputs, code), "seconds": round(took, 2),
                             "finished": time.strftime("%Y-%m-%d %H:%M:%S")}
        atomic_write_text(state_path, json.dumps(state, indent=1) + "\n")
        log(f"{head}: done in {took:.1f} s")
        result.ran.append(stage.name)
    return result


@dataclass(frozen=True)
class PipelineConfig:
    out: Path = Path("build")
    eval_utterances: int = 16
    targets: tuple[str, ...] = ()  # empty: every target this machine can build
    baseline: Path | None = None
    from_scratch: bool = False
    corpus: Path = Path("data/corpus")  # --from-scratch: the whole corpus is rendered here
    calibration: str = "entropy"  # range method; anything else than the voice's own is a deliberate experiment
    fallback: bool = True  # keep the voice's tone-sensitive layers float
    repeats: int = 3
    quiet: bool = False


def buildable_targets() -> list[str]:
    """onnxruntime always; RKNN where rknn-toolkit2 (or its environment, .venv-rknn) is; TensorRT on NVIDIA."""
    import importlib.util

    from cantoedge.runtime.backends.rknn import rknn_python, toolkit_importable

    targets = ["ort"]
    if toolkit_importable() or rknn_python() is not None:
        targets.append("rknn")
    if importlib.util.find_spec("tensorrt") is not None:
        targets.append("trt")
    return targets


TARGET_PRECISION = {"ort": "int8", "rknn": "fp16", "trt": "int8"}  # the best each backend keeps tones with


def _why_not_buildable(target: str) -> str:
    """What the target's builder would say when it cannot start here (its own message, not a second wording)."""
    if target == "rknn":
        from .rknn import NO_RKNN_ENVIRONMENT

        return NO_RKNN_ENVIRONMENT
    if target == "trt":
        from cantoedge.runtime.backends.base import BackendMissingError

        return str(BackendMissingError("trt", "tensorrt", "trt"))  # what import_trt raises
    return "not a target of this pipeline"


class UnbuildableTarget(ValueError):
    """A requested target whose toolkit this machine lacks (the CLI refuses it as it refuses a bad option)."""


def check_targets(targets: tuple[str, ...] | list[str]) -> None:
    """Refuse, before any stage runs, a target this machine cannot build: the stages before its build (export,
    calibration, the evaluation bundle) would otherwise run first and then fail."""
    can = buildable_targets()
    missing = [t for t in dict.fromkeys(targets) if t not in can]
    if missing:
        reasons = "; ".join(f"{t}: {_why_not_buildable(t)}" for t in missing)
        raise UnbuildableTarget(f"cannot build {', '.join(missing)} on this machine ({reasons}); it can build "
                         f"{', '.join(can)}")


def plan(config: PipelineConfig) -> list[Stage]:
    """The stages, in order (refused at once when a requested target cannot be built here)."""
    from cantoedge.export.bundle import VOICE_DIR, voice_paths

    check_targets(config.targets)

    out = config.out
    graphs, eval_corpus = out / "voice", out / "eval-corpus"
    voice_dir = out / "checkpoints" if config.from_scratch else VOICE_DIR
    paths = voice_paths(voice_dir)
    calib_set, fallback = VOICE_DIR / "calib_set.json", VOICE_DIR / "fallback.json"
    progress = not config.quiet
    stages: list[Stage] = []

    if config.from_scratch:
        stages += _training_stages(config, voice_dir, progress)

    def render_eval() -> None:
        from cantoedge.datasets.evalset import render_eval_corpus

        if (eval_corpus / "manifest.jsonl").exists():  # its inputs changed: a stale rendering, seconds to redo
            shutil.rmtree(eval_corpus)
        render_eval_corpus(eval_corpus, limit=config.eval_utterances, progress=progress)

    stages.append(Stage("eval-corpus", [config.eval_utterances, "noflutter"], [eval_corpus / "manifest.jsonl"],
                        render_eval, f"render {config.eval_utterances} held-out utterances with espeak-ng "
                                     "(pitch flutter off)"))

    def export() -> None:
        from cantoedge.export.onnx import export_voice

        export_voice(paths.acoustic, paths.vocoder, graphs)

    fp32 = [graphs / f"{g}.onnx" for g in ("encoder", "decoder", "vocoder")]
    stages.append(Stage("export", [paths.acoustic, paths.vocoder], fp32, export, "export the FP32 graphs"))

    def calibrate() -> None:
        from cantoedge.calibrate.int8 import calibrate_voice

        chosen = json.loads(fallback.read_text("utf-8")) if config.fallback else None
        calibrate_voice(graphs, config.corpus, graphs, config.calibration, fallback=chosen, calib_set=calib_set)

    int8 = [graphs / f"{g}.int8.onnx" for g in ("encoder", "decoder", "vocoder")]
    stages.append(Stage("calibrate", [*fp32, calib_set, *([fallback] if config.fallback else []),
                                      config.calibration, config.fallback],
                        [*int8, graphs / "ranges.json"], calibrate,
                        f"INT8 ranges ({config.calibration}) on the tone-balanced calibration set"))

    def bundle() -> None:
        from cantoedge.datasets.evalset import bundle_from_corpus
        from cantoedge.regression.evalbundle import BUNDLE_FILE

        bundle_from_corpus(graphs, eval_corpus, limit=config.eval_utterances).save(graphs / BUNDLE_FILE)

    stages.append(Stage("eval-bundle", [*fp32, eval_corpus / "manifest.jsonl"], [graphs / "eval_bundle.npz"],
                        bundle, "the FP32 reference outputs on the held-out utterances"))

    targets = list(config.targets) or buildable_targets()
    folders = []
    for target in targets:
        folder = out / f"voice-{target}"
        folders.append(folder)
        precision = TARGET_PRECISION[target]
        sources = int8 if precision == "int8" and target == "ort" else fp32
        stages.append(Stage(f"build-{target}", [*sources, graphs / "ranges.json", graphs / "eval_bundle.npz",
                                                precision], [folder / "manifest.json"],
                            _builder(target, precision, graphs, folder, config.corpus),
                            f"{target} {precision} device folder"))

    report = out / "report"

    def regress() -> int:
        """In a process of its own, as on a device: no torch loaded, its own cold start and peak memory."""
        import subprocess

        cmd = [sys.executable, "-m", "cantoedge.scripts.cli", "regress", "--bundle", str(graphs / "eval_bundle.npz"),
               "--out", str(report), "--repeats", str(config.repeats), "--quiet"]
        for folder in [graphs, *folders]:
            cmd += ["--voice", str(folder)]
        if config.baseline:
            cmd += ["--baseline", str(config.baseline)]
        report.mkdir(parents=True, exist_ok=True)
        with open(report / "regress.log", "w", encoding="utf-8") as log:
            return subprocess.run(cmd, stdout=log).returncode

    stages.append(Stage("regress", [*fp32, *int8, graphs / "eval_bundle.npz", *[f / "manifest.json" for f in folders],
                                    *([config.baseline] if config.baseline else []), config.repeats],
                        [report / "report.html", report / "report.json"], regress,
                        "score every build" + (f", gate on {config.baseline}" if config.baseline else "")))
    return stages


def _builder(target: str, precision: str, graphs: Path, folder: Path, corpus: Path) -> Callable[[], None]:
    def build() -> None:
        from .targets import build_folder

        build_folder(target, graphs, precision, folder, corpus)

    return build


def _training_stages(config: PipelineConfig, voice_dir: Path, progress: bool) -> list[Stage]:
    """--from-scratch: render the whole corpus, train teacher, student and vocoder (in stages) with the bundled
    configs' step budgets, and install the result into OUT/checkpoints (the committed voice is left alone). The
    student's last stage renders the corpus again without pitch flutter, beside it."""
    corpus, runs = config.corpus, config.out / "runs"
    configs = PACKAGE_ROOT / "export" / "configs"

    def corpus_build() -> None:
        from cantoedge.datasets.corpus import build_corpus

        build_corpus(corpus, progress=progress)

    def train() -> None:
        from cantoedge.export.bundle import train_voice

        train_voice(corpus, runs, voice_dir, progress=progress)

    return [Stage("corpus", ["all clean HKCanCor utterances"], [corpus / "manifest.jsonl"], corpus_build,
                  "render the whole HKCanCor corpus with espeak-ng (about 9 minutes on 2 cores)"),
            Stage("train", [corpus / "manifest.jsonl", configs], [voice_dir / "student.safetensors",
                                                                  voice_dir / "vocoder.safetensors"], train,
                  "train teacher, student and vocoder; the student's last stage on the corpus rendered again "
                  "without pitch flutter (hours on 2 cores; resumable)")]


def summary(result: PipelineResult, config: PipelineConfig) -> str:
    report = config.out / "report" / "report.html"
    lines = [f"pipeline: {len(result.ran)} stage(s) ran, {len(result.skipped)} skipped"
             + (f"; FAILED at {result.failed}" if result.failed else "")]
    if result.seconds:
        lines.append("  " + ", ".join(f"{k} {v:.0f} s" for k, v in result.seconds.items()))
    if report.exists():
        text = report.with_suffix(".md").read_text("utf-8")
        blocks = text.split("\n\n")
        lines += [b for b in blocks if b.startswith("**Gate")][:1]
        lines += [b for b in blocks if b.startswith("| build | backends")][:1]  # the headline table
        lines.append(f"report: {report} (open it in a browser); {report.with_suffix('.md')}")
    return "\n".join(lines)


def log_line(message: str) -> None:
    print(f"pipeline {message}", file=sys.stderr, flush=True)
