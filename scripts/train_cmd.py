"""``cantoedge train``: teacher, student (distilled) and vocoder training (build side)."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train", help="train the teacher, the distilled student or the vocoder (build side)",
                       description="Train with PyTorch Lightning from a TOML config (export/configs/). Runs are "
                                   "resumable: rerun the same command after an interruption and it continues from "
                                   "OUT/last.ckpt with exactly the batches and dropout it would have seen. The "
                                   "result is OUT/model.safetensors.")
    p.add_argument("what", choices=["teacher", "student", "vocoder"], help="which model to train")
    p.add_argument("--config", help="TOML config (default: the bundled one for WHAT)")
    p.add_argument("--corpus", default="data/corpus", help="corpus directory (default data/corpus)")
    p.add_argument("--out", help="run directory (default runs/WHAT)")
    p.add_argument("--max-steps", type=int, help="override train.max_steps")
    p.add_argument("--teacher", help="student only: the teacher's model.safetensors to distil from")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cantoedge.export.config import load_config
    from cantoedge.export.train import train

    config = load_config(args.config or args.what).with_steps(args.max_steps)
    expected = "vocoder" if args.what == "vocoder" else "acoustic"
    if config.kind != expected:
        raise ValueError(f"{args.config} is a {config.kind} config, not one for the {args.what}")
    out = Path(args.out or f"runs/{args.what}")
    if args.what == "student":
        if not args.teacher:
            raise ValueError("train student needs --teacher PATH (the teacher's model.safetensors)")
        from cantoedge.export.distil import train_student

        path = train_student(config, Path(args.teacher), Path(args.corpus), out, progress=not args.quiet)
    else:
        path = train(config, Path(args.corpus), out, progress=not args.quiet)
    print(f"{args.what}: {path}")
    return 0
