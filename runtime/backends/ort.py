"""ONNX Runtime backend (CPU everywhere; the device's default)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..graphs import GraphInfo, GraphSpec, graph_precision


class OrtGraph:
    """One exported graph in an onnxruntime session, checked against the contract it claims."""

    def __init__(self, path: Path, spec: GraphSpec, threads: int | None = None,
                 precision: str | tuple[str, ...] | None = None):
        import onnxruntime as ort

        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"no {spec.name} graph at {path}: run `cantoedge export` first")
        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
        options.log_severity_level = 3  # warnings about unused initialisers are not the user's business
        try:
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own error types for damaged files
            raise ValueError(f"{path} is not a loadable ONNX graph: {exc}") from exc
        meta = self.session.get_modelmeta().custom_metadata_map
        self.info = GraphInfo.from_metadata(meta, path)
        self.precision = graph_precision(meta)
        allowed = (precision,) if isinstance(precision, str) else precision
        if allowed and self.precision not in allowed:
            wanted = allowed[0]
            raise ValueError(f"{path} holds an {self.precision.upper()} graph (its metadata says so), not "
                             f"{wanted.upper()}: it was copied or renamed; restore {spec.filename(wanted)} with "
                             f"`cantoedge {'export' if wanted == 'fp32' else 'calibrate'}`")
        if self.info.graph != spec.name:
            raise ValueError(f"{path} is the {self.info.graph} graph, expected the {spec.name}")
        names = tuple(i.name for i in self.session.get_inputs())
        if names != spec.inputs:
            raise ValueError(f"{path} takes {names}, the {spec.name} contract is {spec.inputs}")
        self.path, self.spec = path, spec

    def __call__(self, **inputs: np.ndarray) -> list[np.ndarray]:
        return self.session.run(list(self.spec.outputs), inputs)
