"""``cantoedge export``: the three ONNX graphs from the PyTorch checkpoints (build side)."""

from __future__ import annotations

import argparse
from pathlib import Path

from cantoedge.runtime.graphs import DEFAULT_GRAPH_DIR as DEFAULT_GRAPHS

from .validate import existing_file, int_in, output_dir


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="export encoder, decoder and vocoder to ONNX (build side)",
                       description="Writes OUT/encoder.onnx (dynamic token length), OUT/decoder.onnx and "
                                   "OUT/vocoder.onnx (one 128-frame window plus context, dynamic batch; the frame "
                                   "axis is dynamic too, so onnxruntime runs an utterance's last window at its "
                                   "own length while the engines fix it), each "
                                   "simplified, fully checked and stamped with its provenance. Defaults to the "
                                   "bundled voice (export/voice/). Exporting again gives byte-identical files.")
    p.add_argument("--out", default=DEFAULT_GRAPHS, type=output_dir, help=f"graph directory (default {DEFAULT_GRAPHS})")
    p.add_argument("--acoustic", type=existing_file, help="acoustic model .safetensors (default: the bundled student)")
    p.add_argument("--vocoder", type=existing_file, help="vocoder .safetensors (default: the bundled vocoder)")
    p.add_argument("--parity", type=int_in(0), default=0, metavar="N",
                   help="then compare the graphs with PyTorch on N held-out utterances (needs --corpus)")
    p.add_argument("--corpus", default="data/corpus", help="corpus for --parity (default data/corpus)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cantoedge.export.bundle import voice_paths
    from cantoedge.export.onnx import export_voice

    bundled = voice_paths()
    acoustic, vocoder = Path(args.acoustic or bundled.acoustic), Path(args.vocoder or bundled.vocoder)
    out = export_voice(acoustic, vocoder, Path(args.out))
    for path in (out.encoder, out.decoder, out.vocoder):
        print(f"{path}: {path.stat().st_size / 1e6:.2f} MB")
    if args.parity:
        from cantoedge.export.parity import F0_TOLERANCE_HZ, PARITY_TOLERANCE, check_parity

        parity = check_parity(Path(args.out), acoustic, vocoder, Path(args.corpus), limit=args.parity)
        print(f"parity with PyTorch on {parity.utterances} test utterances, max |diff|: encoder {parity.encoder:.2e}, "
              f"decoder {parity.decoder:.2e} (F0 {parity.f0_hz:.2e} Hz), vocoder {parity.vocoder:.2e}")
        if not parity.ok:
            raise RuntimeError(f"the graphs differ from PyTorch by {parity.worst:.2e} (tolerance {PARITY_TOLERANCE}), "
                               f"F0 by {parity.f0_hz:.2e} Hz (tolerance {F0_TOLERANCE_HZ})")
    return 0
