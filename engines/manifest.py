"""Writing a built folder's manifest (the runtime reads it: runtime/enginefolder.py): graph entries from the
ONNX graphs they were built from, and the hashes of every input."""

from __future__ import annotations

from pathlib import Path

from cantoedge.runtime.enginefolder import MANIFEST_FILE, EngineManifest, GraphEntry
from cantoedge.runtime.fileio import atomic_write_text, file_sha256
from cantoedge.runtime.graphs import META_PREFIX

_ONNX_TYPES = {1: "float32", 10: "float16", 7: "int64", 6: "int32", 3: "int8", 2: "uint8"}


def onnx_metadata(model) -> dict[str, str]:
    """The cantoedge.* metadata of an ONNX model (the graph contract and provenance)."""
    return {p.key: p.value for p in model.metadata_props if p.key.startswith(META_PREFIX)}


def tensor_list(values) -> list[dict]:
    """[{name, shape, dtype}] of ONNX graph inputs or outputs; dynamic axes by their names."""
    out = []
    for v in values:
        dims = [d.dim_value if d.HasField("dim_value") else (d.dim_param or "?") for d in v.type.tensor_type.shape.dim]
        out.append({"name": v.name, "shape": dims, "dtype": _ONNX_TYPES.get(v.type.tensor_type.elem_type, "?")})
    return out


def graph_entry(folder: Path, file: str, backend: str, precision: str, source_model, **extra) -> GraphEntry:
    """The manifest entry for ``folder/file``, built from ``source_model`` (an onnx.ModelProto)."""
    return GraphEntry(file=file, sha256=file_sha256(Path(folder) / file), backend=backend, precision=precision,
                      metadata=onnx_metadata(source_model), inputs=tensor_list(source_model.graph.input),
                      outputs=tensor_list(source_model.graph.output), **extra)


def input_hashes(paths: list[Path]) -> dict[str, str]:
    return {Path(p).name: file_sha256(Path(p)) for p in paths}


def write_manifest(folder: Path, manifest: EngineManifest) -> Path:
    path = Path(folder) / MANIFEST_FILE
    atomic_write_text(path, manifest.to_json())
    return path
