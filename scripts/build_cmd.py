"""``cantoedge build``: the files each device runs, from the exported and calibrated graphs (build side,
torch-free: TensorRT engines are built on the Jetson itself)."""

from __future__ import annotations

import argparse
from pathlib import Path

from cantoedge.runtime.backends.rknn_worker import INT8_DTYPES
from cantoedge.runtime.enginefolder import PRECISIONS, TARGETS
from cantoedge.runtime.graphs import DEFAULT_GRAPH_DIR

from .validate import graph_dir, int_in, output_dir, output_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("build", help="build the device files: onnxruntime (.onnx), TensorRT (.engine), RKNN (.rknn)",
                       description="Turns the graphs of `cantoedge export` (and, for int8, `cantoedge calibrate`) "
                                   "into a voice folder a device runs: the files, and manifest.json saying what "
                                   "was built from what, with which toolkit, for which platform. The folder "
                                   "appears only when the build is complete. Speak with it: `cantoedge say "
                                   "--voice OUT`.")
    p.add_argument("--target", required=True, choices=TARGETS,
                   help="ort: onnxruntime anywhere; trt: TensorRT on this machine's GPU (build on the Jetson "
                        "itself); rknn: Rockchip RK3588 NPU (converted in the RKNN environment)")
    p.add_argument("--precision", choices=PRECISIONS, default="int8",
                   help="int8 (default: the calibrated graphs), fp16 (trt, rknn) or fp32 (ort, trt)")
    p.add_argument("--graphs", default=DEFAULT_GRAPH_DIR, type=graph_dir,
                   help=f"graph folder from `cantoedge export`/`calibrate` (default {DEFAULT_GRAPH_DIR})")
    p.add_argument("--out", required=True, type=output_dir, help="voice folder to write (replaced when complete)")
    p.add_argument("--corpus", default="data/corpus",
                   help="corpus with calib_set.json, for RKNN's INT8 calibration (default data/corpus)")
    p.add_argument("--rknn-dtype", choices=INT8_DTYPES,
                   help="rknn int8 only: the decoder's and vocoder's quantised type (default w8a8, hybrid: "
                        "int8 feed-forward layers in every block but the last, every other tensor FP16)")
    p.add_argument("--workspace-mb", type=int_in(64, 65536),
                   help="trt only: builder workspace limit in MiB, 64..65536 (default 1024, sized for a "
                        "Jetson's shared memory)")
    p.add_argument("--print-commands", action="store_true",
                   help="trt only: print the plan as equivalent trtexec and polygraphy commands and stop (works "
                        "without TensorRT, for the version given by --trt-version)")
    p.add_argument("--trt-version", default=None,
                   help="trt --print-commands only: plan for this TensorRT version (default: the installed one, "
                        "else 10.3.0, JetPack 6's)")
    p.add_argument("--timing-cache", type=output_file,
                   help="trt only: persistent timing cache file (default OUT/../trt-timing.cache)")
    p.set_defaults(run=run)


# options that mean something for one target (and precision) only: given elsewhere they would be ignored
TARGET_OPTIONS = (("rknn_dtype", "--target rknn --precision int8",
                   lambda a: a.target == "rknn" and a.precision == "int8"),
                  ("workspace_mb", "--target trt", lambda a: a.target == "trt"),
                  ("timing_cache", "--target trt", lambda a: a.target == "trt"),
                  ("trt_version", "--target trt --print-commands", lambda a: a.target == "trt" and a.print_commands))


def check_target_options(args: argparse.Namespace) -> None:
    """Refuse an option the chosen target would silently ignore, then fill in the defaults."""
    for attr, where, applies in TARGET_OPTIONS:
        if getattr(args, attr) is not None and not applies(args):
            raise ValueError(f"--{attr.replace('_', '-')} applies to {where} only; it would be ignored here")
    args.rknn_dtype = args.rknn_dtype or "w8a8"
    args.workspace_mb = args.workspace_mb or 1024


def run(args: argparse.Namespace) -> int:
    out, graphs = Path(args.out), Path(args.graphs)
    check_target_options(args)
    if args.print_commands:
        return print_trt_commands(args, out, graphs)
    if out.resolve() == graphs.resolve():
        raise ValueError("--out must not be the graph folder: the build replaces --out whole")
    from cantoedge.engines.targets import build_folder

    if args.target == "rknn" and args.precision == "int8" and not (Path(args.corpus) / "calib_set.json").is_file():
        raise ValueError(f"an RKNN int8 build calibrates on {args.corpus}/calib_set.json: run `cantoedge corpus "
                         "calib-set` first, or pass --corpus")
    cache = Path(args.timing_cache) if args.timing_cache else out.parent / "trt-timing.cache"
    manifest = build_folder(args.target, graphs, args.precision, out, Path(args.corpus), args.rknn_dtype,
                            args.workspace_mb, cache)
    for name, entry in manifest.graphs.items():
        size = (out / entry.file).stat().st_size / 1e6
        print(f"{out / entry.file}: {name}, {entry.backend} {entry.precision}, {size:.2f} MB")
    print(f"{out}: {manifest.target} {manifest.precision} for {manifest.platform} "
          f"({manifest.toolkit['name']} {manifest.toolkit['version']}); speak with `cantoedge say --voice {out}`")
    return 0


def print_trt_commands(args: argparse.Namespace, out: Path, graphs: Path) -> int:
    """The TensorRT plan as trtexec and polygraphy command lines (for Jetsons set up without cantoedge)."""
    from cantoedge.engines.tensorrt import plan_trt

    if args.target != "trt":
        raise ValueError("--print-commands is for --target trt")
    version = args.trt_version
    if version is None:
        try:
            import tensorrt

            version = tensorrt.__version__
        except ImportError:
            version = "10.3.0"
    plan = plan_trt(graphs, args.precision, version, args.workspace_mb)
    cache = str(args.timing_cache or out.parent / "trt-timing.cache")
    print(f"# TensorRT {version}, {args.precision}: INT8 path {plan.mode}" if args.precision == "int8" else
          f"# TensorRT {version}, {args.precision}")
    for name in plan.graphs:
        print(plan.trtexec(name, str(out / f"{name}.engine"), cache))
    for name in plan.graphs:
        print(plan.polygraphy(name, str(out / f"{name}.engine"), cache))
    return 0
