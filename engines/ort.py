"""ONNX Runtime target: each graph saved once with onnxruntime's offline optimisations (basic level: constant
folding and redundant-node removal, which stay portable across machines; the extended and all levels write
hardware-specific fused kernels), and the session settings in the manifest."""

from __future__ import annotations

import platform
from pathlib import Path

from cantoedge.runtime.enginefolder import EngineManifest
from cantoedge.runtime.graphs import GRAPHS

from .manifest import graph_entry, input_hashes, write_manifest
from .sources import check_layer_names, find_sources
from .staging import carry_eval_bundle, staged_folder

SESSION = {"graph_optimization_level": "ORT_ENABLE_BASIC", "providers": ["CPUExecutionProvider"],
           "inter_op_num_threads": 1, "intra_op_num_threads": 1, "session.intra_op.allow_spinning": "0",
           "windows_at_once": "the caller's --threads, else the cores (at most 4)"}


def optimise(source: Path, dest: Path) -> None:
    """Run onnxruntime's basic graph optimisations once and save the result (deterministic bytes)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(dest)
    options.log_severity_level = 3
    ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])


def build_ort(graph_dir: Path, precision: str, out: Path) -> EngineManifest:
    import onnx
    import onnxruntime as ort

    if precision == "fp16":
        raise ValueError("onnxruntime's CPU provider runs fp32 and int8 graphs; fp16 is for --target trt or rknn")
    sources = find_sources(graph_dir, precision, qdq=True)
    with staged_folder(out) as work:
        entries = {}
        for spec in GRAPHS:
            file = f"{spec.name}.onnx"
            optimise(sources.graphs[spec.name], work / file)
            source_model = onnx.load(str(sources.graphs[spec.name]), load_external_data=False)
            built = {n.name for n in onnx.load(str(work / file)).graph.node}
            float_layers = sources.float_layers.get(spec.name, [])
            check_layer_names(spec.name, float_layers, built, "the optimised graph")
            entries[spec.name] = graph_entry(work, file, "ort", precision, source_model,
                                             float_layers=float_layers, build=SESSION)
        manifest = EngineManifest(
            target="ort", precision=precision, platform="any",
            toolkit={"name": "onnxruntime", "version": ort.__version__, "host": platform.machine()},
            inputs=input_hashes(sources.files()), graphs=entries,
            notes=["graphs optimised offline at ORT_ENABLE_BASIC, which stays portable across CPUs"])
        carry_eval_bundle(graph_dir, work)
        write_manifest(work, manifest)
    return manifest
