"""``cantoedge train``: teacher, student (distilled) and vocoder training (build side)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .validate import existing_file, int_in, output_dir


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train", help="train the teacher, the distilled student or the vocoder (build side)",
                       description="Train with PyTorch Lightning from a TOML config (export/configs/). Runs are "
                                   "resumable: rerun the same command after an interruption and it continues from "
                                   "OUT/last.ckpt with exactly the batches and dropout it would have seen. The "
                                   "result is OUT/model.safetensors. `train voice` is the whole default voice: "
                                   "teacher, student distilled from it, the student's contour, level, "
                                   "flutter-free and polish stages, vocoder and its slim, noise and glide stages "
                                   "(runs under OUT, default runs/), then installs "
                                   "student and vocoder as the bundled voice (export/voice/). `train student "
                                   "--config student_contour` is the contour stage: no teacher, it fine-tunes "
                                   "runs/student_pitch's decoder on the corpus's cleaned F0; `--config "
                                   "student_level` then retrains runs/student_contour's token levels, `--config "
                                   "student_noflutter --corpus data/corpus-noflutter` continues runs/student_level "
                                   "on the corpus rendered without espeak-ng's pitch flutter, and `--config "
                                   "student_polish` (the same corpus) trains that on at a lower learning rate. `train "
                                   "vocoder --config vocoder_slim` keeps half of the hidden units in each block of "
                                   "runs/vocoder_pitch and fine-tunes them; `--config vocoder_noise` then makes "
                                   "runs/vocoder_slim's noise phase random on unvoiced frames (no 86 Hz "
                                   "frame-rate buzz), and `--config vocoder_glide` runs/vocoder_noise's voicing "
                                   "lead follow each voiced run's first step.")
    p.add_argument("what", choices=["teacher", "student", "vocoder", "voice", "qat"], help="which model to train")
    p.add_argument("--config", help="TOML config file, or the name of a bundled one in export/configs/ (default: "
                                    "the bundled config named after WHAT, e.g. teacher.toml)")
    p.add_argument("--corpus", default="data/corpus", help="corpus directory (default data/corpus)")
    p.add_argument("--flutter-free-corpus", type=output_dir,
                   help="voice only: the corpus rendered without pitch flutter, for the student_noflutter stage "
                        "(default CORPUS-noflutter beside --corpus; rendered there before any training when "
                        "missing, about 2.5 minutes)")
    p.add_argument("--out", type=output_dir,
                   help="run directory (default runs/WHAT; for voice, the parent of every stage's run)")
    p.add_argument("--voice-dir", type=output_dir,
                   help="voice only: where to install the voice (default: the bundled one)")
    p.add_argument("--max-steps", type=int_in(1),
                   help="override train.max_steps, >= 1 (rounded up to whole checkpoint_every "
                        "intervals: snapshots land on those boundaries)")
    p.add_argument("--teacher", type=existing_file, help="student only: the teacher's model.safetensors to distil from "
                                                             "(not for a contour stage, which learns from the corpus)")
    p.add_argument("--student", type=existing_file,
                   help="qat only: the distilled student to fine-tune (default runs/student/"
                        "model.safetensors; its teacher_targets/ beside it are the training data)")
    p.add_argument("--ranges", default="build/voice/ranges.json",
                   help="qat only: the ranges file of the student's calibrated graphs (default %(default)s)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cantoedge.export.config import load_config
    from cantoedge.export.train import train

    if args.flutter_free_corpus and args.what != "voice":
        raise ValueError("--flutter-free-corpus is for train voice; a single run trains on --corpus")
    if args.what == "qat":
        return _qat(args)  # trains on the student's teacher targets, not on the corpus
    if not Path(args.corpus).is_dir():
        raise ValueError(f"--corpus {args.corpus}: no such directory (build it with `cantoedge corpus build`)")
    if args.what == "voice":
        return _voice(args)
    config = load_config(args.config or args.what).with_steps(args.max_steps)
    expected = "vocoder" if args.what == "vocoder" else "acoustic"
    if config.kind != expected:
        raise ValueError(f"{args.config} is a {config.kind} config, not one for the {args.what}")
    out = Path(args.out or f"runs/{args.what}")
    if args.what == "student" and config.contour is None:
        if not args.teacher:
            raise ValueError("train student needs --teacher PATH (the teacher's model.safetensors)")
        from cantoedge.export.student import train_student

        path = train_student(config, Path(args.teacher), Path(args.corpus), out, progress=not args.quiet)
    else:
        path = train(config, Path(args.corpus), out, progress=not args.quiet)
    print(f"{args.what}: {path}")
    return 0


def _voice(args: argparse.Namespace) -> int:
    from cantoedge.export.bundle import VOICE_DIR, train_voice

    if args.config or args.max_steps or args.teacher:
        raise ValueError("train voice uses the bundled configs; --config, --max-steps and --teacher are for "
                         "the single-model runs")
    paths = train_voice(Path(args.corpus), Path(args.out or "runs"), Path(args.voice_dir or VOICE_DIR),
                        progress=not args.quiet,
                        flutter_free_dir=Path(args.flutter_free_corpus) if args.flutter_free_corpus else None)
    print(f"voice: {paths.acoustic}, {paths.vocoder} ({paths.info})")
    return 0


def _qat(args: argparse.Namespace) -> int:
    from cantoedge.export.onnx import export_qat
    from cantoedge.export.qat_train import train_qat

    if args.max_steps or args.teacher:
        raise ValueError("train qat takes --config, --student, --ranges and --out")
    student = Path(args.student or "runs/student/model.safetensors")
    out = Path(args.out or "runs/qat")
    path = train_qat(student, Path(args.ranges), student.parent / "teacher_targets", out, args.config or "qat",
                     progress=not args.quiet)
    encoder, decoder = export_qat(path, out)
    print(f"qat: {path}; Q/DQ graphs {encoder}, {decoder}")
    return 0
