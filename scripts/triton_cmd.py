"""``cantoedge triton-repo``: a Triton Inference Server model repository serving the voice (fleets)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .validate import existing_dir, int_in, output_dir


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("triton-repo", help="write a Triton model repository that serves the voice",
                       description="OUT/cantoedge/: config.pbtxt (Python backend, dynamic batching, CPU instances) "
                                   "and 1/model.py running this runtime on a copy of the voice folder. Serve it "
                                   "with `tritonserver --model-repository OUT` where cantoedge[ort] is installed.")
    p.add_argument("--out", required=True, type=output_dir, help="model repository folder")
    p.add_argument("--voice", type=existing_dir, help="a built voice folder (default: as `say` finds one)")
    p.add_argument("--instances", type=int_in(1, 64), default=2, help="model instances per server, 1..64 (default 2)")
    p.add_argument("--max-batch", type=int_in(1, 64), default=8,
                   help="requests Triton groups into one call, 1..64 (default 8)")
    p.add_argument("--queue-delay-us", type=int_in(0, 1_000_000), default=5000,
                   help="how long Triton waits to fill a batch, 0..1000000 microseconds (default 5000)")
    p.add_argument("--threads", type=int_in(1, 64), default=1, help="onnxruntime threads per instance (default 1)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cantoedge.runtime.triton import write_repository

    model = write_repository(Path(args.out), args.voice, args.instances, args.max_batch, args.queue_delay_us,
                             args.threads)
    print(f"{model}: Triton model '{model.name}' ({args.instances} instances, dynamic batching up to "
          f"{args.max_batch}); serve with: tritonserver --model-repository {args.out}")
    return 0
