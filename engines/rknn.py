"""RKNN target (Rockchip RK3588 NPU): the decoder and vocoder converted by rknn-toolkit2 in its own virtual
environment (scripts/rknn_env.sh), the encoder kept on the CPU through onnxruntime.

Decisions, with the measurements behind them (DESIGN.md, rknn-toolkit2 2.5.0):
- The project's Q/DQ graphs are rejected by the toolkit, so INT8 builds calibrate with RKNN's own quantiser,
  fed the same tone-balanced calibration set (the decoder windows the device really runs).
- w8a8 builds are hybrid: RKNN quantises every tensor, which bent the decoder's F0 by 46.5 cents and left
  the vocoder at 18.9 dB per window against FP32; int8 in the feed-forward layers of every block but the
  last, every other activation FP16, gives 3.6 cents and 30.1 dB (README, "RKNN"). The vocoder's harmonic
  source runs between graphs (graph v3).
- The encoder stays on onnxruntime: `dynamic_input` accepts only the exact listed token lengths, and the
  encoder is about 0.4 ms of a 17 ms window (2.5 %); a padded-length encoder would need graph contract v3.
- Fixed batch 1; graph inputs stay float32 on the caller's side (the runtime quantises them with the model's
  input scale in INT8 builds).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np

from cantoedge.runtime.backends import rknn_worker
from cantoedge.runtime.backends.rknn import rknn_python
from cantoedge.runtime.backends.rknn_worker import INT8_DTYPES
from cantoedge.runtime.enginefolder import EngineManifest
from cantoedge.runtime.fileio import file_sha256
from cantoedge.runtime.graphs import DECODER, ENCODER, VOCODER, GraphInfo, window_shapes

from .manifest import graph_entry, input_hashes, onnx_metadata, write_manifest
from .sources import find_sources
from .staging import carry_eval_bundle, staged_folder

CALIB_WINDOWS = 64  # decoder windows fed to RKNN's quantiser (from the calibration set, in order)
# how a hybrid build calibrates each graph's int8 layers (README, "RKNN"): MMSE for the decoder (tone accuracy
# -0.3 points against -0.7 with `normal`; 12 of 12 rebuilds alike), `normal` for the vocoder (30.1 dB; MMSE's
# 30.8 comes out in one of two states from run to run, and takes 5-35 s where `normal` takes a few)
HYBRID_ALGORITHM = {DECODER.name: "mmse", VOCODER.name: "normal"}


def fixed_shapes(spec_name: str, info: GraphInfo, dim: int) -> dict[str, list[int]]:
    """Batch-1 shapes of every input and output of one window (the NPU runs fixed shapes)."""
    return {name: [1, *shape] for name, shape in window_shapes(spec_name, info, dim).items()}


def settings(spec, shapes: dict[str, list[int]], quantise: bool, dtype: str, dataset: str | None,
             int8_tensors: list[str] | None = None) -> dict:
    config = {"target_platform": rknn_worker.TARGET_PLATFORM, "float_dtype": "float16", "optimization_level": 3}
    if quantise:
        algorithm = HYBRID_ALGORITHM[spec.name] if int8_tensors else "normal"
        config.update(quantized_dtype=dtype, quantized_algorithm=algorithm, quantized_method="channel")
    return {"config": config,
            "load": {"inputs": list(spec.inputs), "input_size_list": [shapes[n] for n in spec.inputs]},
            "build": {"do_quantization": quantise, **({"dataset": dataset} if dataset else {})},
            **({"int8_tensors": int8_tensors} if int8_tensors else {})}


NO_RKNN_ENVIRONMENT = ("rknn-toolkit2 runs in its own environment: create it with `bash scripts/rknn_env.sh` "
                       "(about 30 seconds, 1.5 GB) or set $CANTOEDGE_RKNN_PYTHON to its python")

# how many of a graph's last ConvNeXt blocks a hybrid build keeps FP16 whole (README, "RKNN"): the vocoder's last
# (its feed-forward layers int8 cost it 12 dB); the decoder's last three since the rime-filled flutter-free stage
# (blocks 1-2 int8: tone accuracy -0.8 points, 2.99 cents; block 1: -0.3, 2.93 cents; 50 utterances; the stage
# before it read -1.0 / -0.3 / -0.5 with blocks 1-3 / 1-2 / 1 int8)
HYBRID_FP16_BLOCKS = {DECODER.name: 3, VOCODER.name: 1}


def hybrid_int8_tensors(model, fp16_blocks: int = 1) -> list[str]:
    """The activations an 8-bit RKNN build of the decoder or the vocoder keeps int8 (the worker makes the rest
    FP16): the feed-forward layers (norm, pw1, GELU, pw2) of every ConvNeXt block but the last ``fp16_blocks``
    (the first block at least, in a graph of fewer blocks).
    Measured on the bundled voice against FP32 (README, "RKNN"): with every tensor int8 the decoder's F0 was 46.5
    cents off and the vocoder read 18.9 dB per window; so built, about 3 cents and 30 dB. The vocoder's embedding or
    heads int8 as well cost it 4 to 10 dB; its last block's feed-forward layers, 12 dB."""
    blocks = sorted({int(m.group(1)) for n in model.graph.node if (m := re.match(r"/blocks\.(\d+)/", n.name))})
    if len(blocks) < 2:
        raise ValueError(f"the graph has {len(blocks)} ConvNeXt blocks; the hybrid INT8 build needs two")
    return [rf"^/blocks\.{i}/(norm/|pw1/|Mul_1_|pw2/)" for i in blocks[:max(1, len(blocks) - fp16_blocks)]]


def write_dataset(work: Path, feeds: list[dict[str, np.ndarray]], spec) -> str:
    """RKNN's dataset list for one graph: one line per sample, its inputs' .npy files in the contract's order."""
    folder = work / "rknn_calib"
    folder.mkdir(exist_ok=True)
    lines = []
    for i, feed in enumerate(feeds[:CALIB_WINDOWS]):
        files = []
        for name in spec.inputs:  # the toolkit reads them relative to the list's own folder
            file = f"{spec.name}_{i:04d}_{name}.npy"
            np.save(folder / file, np.ascontiguousarray(feed[name], dtype=np.float32))
            files.append(file)
        lines.append(" ".join(files))
    (folder / f"{spec.name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f"rknn_calib/{spec.name}.txt"


def calibration_feeds(graph_dir: Path, corpus: Path) -> dict[str, list[dict[str, np.ndarray]]]:
    """The decoder and vocoder windows the device runs for the tone-balanced calibration set (FP32 graphs)."""
    from cantoedge.calibrate.collect import graph_inputs
    from cantoedge.calibrate.int8 import calibration_utterances
    from cantoedge.runtime.synth import Voice

    utterances, _ = calibration_utterances(corpus)
    return graph_inputs(Voice(graph_dir, "fp32", threads=1), utterances)


def build_rknn(graph_dir: Path, precision: str, out: Path, corpus: Path | None = None, int8_dtype: str = "w8a8",
               log=print) -> EngineManifest:
    import onnx

    if precision == "fp32":
        raise ValueError("the RK3588 NPU computes in fp16 or int8: use --precision fp16 or int8")
    if int8_dtype not in INT8_DTYPES:
        raise ValueError(f"--rknn-dtype must be one of {', '.join(INT8_DTYPES)} (rk3588 has no w8a16)")
    python = rknn_python()
    if python is None:
        raise RuntimeError(NO_RKNN_ENVIRONMENT)
    sources = find_sources(graph_dir, "fp32", qdq=False)
    feeds = calibration_feeds(graph_dir, corpus) if precision == "int8" else {}
    models = {name: onnx.load(str(path)) for name, path in sources.graphs.items()}
    with staged_folder(out) as work:
        shutil.copyfile(sources.graphs[ENCODER.name], work / "encoder.onnx")
        (work / "sim").mkdir()
        job: dict = {"folder": str(work), "graphs": {}}
        hybrid = ({g.name: hybrid_int8_tensors(models[g.name], HYBRID_FP16_BLOCKS[g.name])
                   for g in (DECODER, VOCODER)} if precision == "int8" and int8_dtype == "w8a8" else {})
        for spec in (DECODER, VOCODER):
            info = GraphInfo.from_metadata(onnx_metadata(models[spec.name]), sources.graphs[spec.name])
            dim = [d.dim_value for d in models[spec.name].graph.input[0].type.tensor_type.shape.dim][-1]
            shapes = fixed_shapes(spec.name, info, dim)
            quantise = precision == "int8"
            dataset = write_dataset(work, feeds[spec.name], spec) if quantise else None
            shutil.copyfile(sources.graphs[spec.name], work / "sim" / f"{spec.name}.onnx")
            job["graphs"][spec.name] = {"source": f"sim/{spec.name}.onnx", "file": f"{spec.name}.rknn",
                                        "settings": settings(spec, shapes, quantise, int8_dtype, dataset,
                                                             hybrid.get(spec.name)),
                                        "shapes": shapes, "precision": int8_dtype if quantise else "fp16"}
        (work / "rknn_job.json").write_text(json.dumps(job, indent=1), encoding="utf-8")
        log(f"rknn: converting the decoder and the vocoder ({'fp16' if precision == 'fp16' else int8_dtype}) "
            f"with {python}")
        with open(work / "rknn_build.log", "wb") as build_log:
            proc = subprocess.run([str(python), rknn_worker.__file__, "build", str(work / "rknn_job.json")],
                                  stdout=subprocess.PIPE, stderr=build_log, timeout=3600)
        if proc.returncode != 0:
            tail = (work / "rknn_build.log").read_text("utf-8", "replace").strip().splitlines()[-5:]
            raise RuntimeError("rknn-toolkit2 failed: " + " | ".join(tail))
        result = json.loads(proc.stdout.decode().strip().splitlines()[-1])
        entries = {ENCODER.name: graph_entry(work, "encoder.onnx", "ort", "fp32", models[ENCODER.name],
                                             build={"why": "RKNN's dynamic_input runs only the exact listed token "
                                                           "lengths; the encoder is ~2.5 % of synthesis time"})}
        for spec in (DECODER, VOCODER):
            g = job["graphs"][spec.name]
            quantised = g["settings"]["build"]["do_quantization"]
            entries[spec.name] = graph_entry(  # a 16-bit quantised decoder says so: w16a16i_dfp is not int8
                work, g["file"], "rknn", ("int8" if int8_dtype == "w8a8" else int8_dtype) if quantised else "fp16",
                models[spec.name], shapes={"fixed": g["shapes"]}, build=g["settings"], source=g["source"],
                source_sha256=file_sha256(work / g["source"]))
        notes = ["encoder on onnxruntime (CPU): RKNN's dynamic_input takes only the exact listed lengths",
                 "simulator: rknn-toolkit2 cannot simulate a loaded .rknn file, so it rebuilds each model from "
                 "sim/<graph>.onnx with these settings; the board runs the .rknn files"]
        if precision == "int8":
            windows = min(len(feeds[DECODER.name]), CALIB_WINDOWS)
            notes.append(f"decoder and vocoder {int8_dtype}: RKNN's own quantiser (the toolkit rejects the project's "
                         f"Q/DQ graphs) calibrated on {windows} windows each of the tone-balanced calibration set; "
                         "the project's ranges file is not used by this target")
            notes.append("vocoder INT8: its harmonic source and inverse STFT run between graphs (graph v3), so the "
                         "graph quantises; the engine report measures its SNR per window against FP32")
            if hybrid:
                notes.append("w8a8 is hybrid: int8 where build.int8_tensors match (the feed-forward layers of every "
                             "block but the last), every other activation FP16 (RKNN's hybrid quantisation); with "
                             "every tensor int8 the decoder's F0 was 46.5 cents off FP32 and the vocoder read 18.9 dB")
        manifest = EngineManifest(target="rknn", precision=precision, platform=rknn_worker.TARGET_PLATFORM,
                                  toolkit={"name": "rknn-toolkit2", "version": result["toolkit"]},
                                  inputs=input_hashes(sources.files()), graphs=entries, notes=notes)
        carry_eval_bundle(graph_dir, work)
        write_manifest(work, manifest)
    return manifest
