"""A built voice folder and its manifest.json: `.engine` and `.rknn` files carry no ONNX metadata, so every
build writes down what it made, from what, with which toolkit, for which platform, and each graph's contract.
A runner refuses a folder whose files, contracts or toolkit disagree with it (numpy-free, device safe)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .fileio import file_sha256
from .graphs import GRAPH_VERSION, GRAPHS, GraphInfo

MANIFEST_FILE = "manifest.json"
MANIFEST_VERSION = 1
TARGETS = ("ort", "trt", "rknn")
PRECISIONS = ("fp32", "fp16", "int8")


class EngineFolderError(ValueError):
    """A built folder that cannot be run as it is; the message names the file and the rebuild."""


@dataclass(frozen=True)
class GraphEntry:
    """One graph of a built folder: the file a backend runs, and the contract it was built to."""

    file: str  # relative to the folder
    sha256: str
    backend: str  # the runner that runs this file: ort, trt or rknn
    precision: str  # what the file computes in: fp32, fp16, int8 (mixed builds name their lowest)
    metadata: dict[str, str]  # the source graph's cantoedge.* metadata: its GraphInfo, the contract
    inputs: list[dict]  # [{name, shape, dtype}] as built (ints, or names for dynamic axes)
    outputs: list[dict]
    shapes: dict = field(default_factory=dict)  # TensorRT profiles or RKNN's fixed shapes
    float_layers: list[str] = field(default_factory=list)  # layers kept in float (from the ranges file)
    build: dict = field(default_factory=dict)  # the backend's own settings, as used
    source: str = ""  # the ONNX graph the file was built from, kept where a simulator rebuilds it (RKNN)
    source_sha256: str = ""

    @property
    def info(self) -> GraphInfo:
        return GraphInfo.from_metadata(self.metadata, self.file)


@dataclass(frozen=True)
class EngineManifest:
    target: str
    precision: str
    platform: str  # "any" for ONNX Runtime CPU, "rk3588", or a GPU's compute capability "sm_87"
    toolkit: dict  # {"name": ..., "version": ...}: what built the files
    inputs: dict[str, str]  # every build input (ONNX graphs, ranges file, fallback list) -> sha256
    graphs: dict[str, GraphEntry]
    notes: list[str] = field(default_factory=list)  # decisions the build took, in words
    version: int = MANIFEST_VERSION

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, sort_keys=True, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str, source: str | Path = MANIFEST_FILE) -> EngineManifest:
        try:
            data = json.loads(text)
            if data.get("version") != MANIFEST_VERSION:
                raise ValueError(f"manifest version {data.get('version')}, this runtime reads {MANIFEST_VERSION}")
            graphs = {name: GraphEntry(**g) for name, g in data.pop("graphs").items()}
            manifest = cls(graphs=graphs, **data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise EngineFolderError(f"{source} is not a cantoedge engine manifest ({exc}); rebuild the folder "
                                    "with `cantoedge build`") from exc
        if manifest.target not in TARGETS or manifest.precision not in PRECISIONS:
            raise EngineFolderError(f"{source}: unknown target {manifest.target!r} or precision "
                                    f"{manifest.precision!r}")
        return manifest

    @classmethod
    def load(cls, folder: Path) -> EngineManifest:
        path = Path(folder) / MANIFEST_FILE
        if not path.is_file():
            hint = (" (it holds exported graphs: use --graphs for those, or build it with `cantoedge build`)"
                    if any(Path(folder).glob("*.onnx")) else "; make one with `cantoedge build --out DIR`")
            raise EngineFolderError(f"{folder} is not a built voice folder: no {MANIFEST_FILE}{hint}")
        return cls.from_json(path.read_text("utf-8"), path)


def rebuild_hint(manifest: EngineManifest) -> str:
    return f"rebuild it with `cantoedge build --target {manifest.target} --precision {manifest.precision}`"


def _files(folder: Path, manifest: EngineManifest) -> list[tuple[Path, str]]:
    """Every file the manifest names (graphs and their sources) with its recorded sha256."""
    return [(Path(folder) / rel, sha) for entry in manifest.graphs.values()
            for rel, sha in ((entry.file, entry.sha256), (entry.source, entry.source_sha256)) if rel]


def check_digests(folder: Path, manifest: EngineManifest) -> None:
    """Every file the manifest names has the bytes it was built with (each is read whole: run it beside other
    work, as ``backends.loading.DigestCheck`` does). Raises EngineFolderError naming the file and the fix."""
    for path, sha in _files(folder, manifest):
        if file_sha256(path) != sha:
            raise EngineFolderError(f"{path} is not the file this folder was built with (its sha256 differs: "
                                    f"truncated, replaced or from another build); {rebuild_hint(manifest)}")


def check_contract(folder: Path, manifest: EngineManifest) -> None:
    """Every file present, every graph built to this runtime's contract, the graphs from one voice (no file is
    read: the quick half of a folder's checks, ``check_digests`` the other). Raises EngineFolderError."""
    folder = Path(folder)
    missing = sorted({spec.name for spec in GRAPHS} - set(manifest.graphs))
    if missing:
        raise EngineFolderError(f"{folder}/{MANIFEST_FILE} lists no {', '.join(missing)} graph; "
                                f"{rebuild_hint(manifest)}")
    for path, _ in _files(folder, manifest):
        if not path.is_file():
            raise EngineFolderError(f"{path} is missing; {rebuild_hint(manifest)}")
    for name, entry in manifest.graphs.items():
        spec = next((s for s in GRAPHS if s.name == name), None)
        if spec is None:
            raise EngineFolderError(f"{folder}/{MANIFEST_FILE} names an unknown graph {name!r}")
        try:
            info = entry.info
        except ValueError as exc:
            raise EngineFolderError(f"{folder}: the {name} graph was built to another graph contract ({exc}); "
                                    f"export the graphs again and {rebuild_hint(manifest)}") from exc
        names = tuple(i["name"] for i in entry.inputs), tuple(o["name"] for o in entry.outputs)
        if names != (spec.inputs, spec.outputs) or info.graph != name:
            raise EngineFolderError(f"{folder}: the {name} graph takes {names[0]} and gives {names[1]}; graph "
                                    f"contract v{GRAPH_VERSION} says {spec.inputs} -> {spec.outputs}; "
                                    f"{rebuild_hint(manifest)}")
    shas = {manifest.graphs[n].info.checkpoint_sha256 for n in ("encoder", "decoder")}
    if len(shas) != 1:
        raise EngineFolderError(f"{folder}: its encoder and decoder come from different checkpoints (another "
                                f"voice's engine was copied in); {rebuild_hint(manifest)}")
