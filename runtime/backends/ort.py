"""ONNX Runtime backend (CPU everywhere; CUDA and TensorRT execution providers where installed)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..graphs import GraphInfo, GraphSpec, graph_precision
from .base import BackendMissingError, Runner, TensorMeta

# onnxruntime's element type names -> numpy's
_ORT_TYPES = {"tensor(float)": "float32", "tensor(float16)": "float16", "tensor(int64)": "int64",
              "tensor(int32)": "int32", "tensor(int8)": "int8", "tensor(uint8)": "uint8"}
GPU_PROVIDERS = ("TensorrtExecutionProvider", "CUDAExecutionProvider")


def import_ort():
    try:
        import onnxruntime
    except ImportError:
        raise BackendMissingError("onnxruntime", "onnxruntime", "ort") from None
    return onnxruntime


@dataclass(frozen=True)
class OrtLoader:
    """Opens one .onnx file in an onnxruntime session: CPU by default; ``gpu`` adds the TensorRT and CUDA
    execution providers that this onnxruntime build has (the CPU one stays last, as a fallback)."""

    path: Path
    threads: int | None = None
    gpu: bool = False

    def providers(self) -> list[str]:
        available = import_ort().get_available_providers()
        wanted = [p for p in GPU_PROVIDERS if p in available] if self.gpu else []
        return [*wanted, "CPUExecutionProvider"]

    def __call__(self):
        ort = import_ort()
        options = ort.SessionOptions()
        if self.threads:
            options.intra_op_num_threads = self.threads
            options.inter_op_num_threads = 1
        options.log_severity_level = 3  # warnings about unused initialisers are not the user's business
        try:
            return ort.InferenceSession(str(self.path), options, providers=self.providers())
        except Exception as exc:  # onnxruntime raises its own error types for damaged files
            raise ValueError(f"{self.path} is not a loadable ONNX graph: {exc}") from exc


class OrtRunner(Runner):
    """One exported graph in an onnxruntime session, checked against the contract it claims."""

    backend = "ort"

    def __init__(self, path: Path, spec: GraphSpec, threads: int | None = None,
                 precision: str | tuple[str, ...] | None = None, gpu: bool = False):
        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"no {spec.name} graph at {path}: run `cantoedge export` first")
        self.session = OrtLoader(path, threads, gpu)()
        meta = self.session.get_modelmeta().custom_metadata_map
        self.info = GraphInfo.from_metadata(meta, path)
        self.precision = graph_precision(meta)
        if self.info.graph != spec.name:
            raise ValueError(f"{path} is the {self.info.graph} graph, expected the {spec.name}")
        allowed = (precision,) if isinstance(precision, str) else precision
        if allowed and self.precision not in allowed:
            wanted = allowed[0]
            raise ValueError(f"{path} holds an {self.precision.upper()} graph (its metadata says so), not "
                             f"{wanted.upper()}: it was copied or renamed; restore {spec.filename(wanted)} with "
                             f"`cantoedge {'export' if wanted == 'fp32' else 'calibrate'}`")
        names = tuple(i.name for i in self.session.get_inputs())
        if names != spec.inputs:
            raise ValueError(f"{path} takes {names}, the {spec.name} contract is {spec.inputs}")
        self.path, self.spec = path, spec
        self.inputs = tuple(_meta(v) for v in self.session.get_inputs())
        self.outputs = tuple(_meta(v) for v in self.session.get_outputs())

    def infer(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return dict(zip(self.spec.outputs, self(**feeds)))

    def __call__(self, **feeds: np.ndarray) -> list[np.ndarray]:
        try:
            return self.session.run(list(self.spec.outputs), feeds)  # the hot path: no dict in between
        except Exception as exc:  # onnxruntime's own error types (InvalidArgument, Fail, ...)
            raise RuntimeError(f"onnxruntime could not run the {self.spec.name} graph: {exc}") from exc


def _meta(value) -> TensorMeta:
    return TensorMeta(value.name, tuple(value.shape), _ORT_TYPES.get(value.type, value.type))
