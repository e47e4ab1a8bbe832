"""Open a built voice folder on runners: read and verify its manifest, pick the backend, load each graph."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ..enginefolder import EngineFolderError, EngineManifest, verify_folder
from ..graphs import GRAPHS
from .base import Runner

BACKENDS = ("auto", "ort", "trt", "rknn")
EXTRAS = {"ort": "ort", "trt": "trt", "rknn": "rknn-lite"}


def backend_available(backend: str) -> bool:
    """Whether this machine can run ``backend``'s files (RKNN: on the board, in this interpreter's simulator,
    or through the RKNN environment's worker)."""
    if backend == "ort":
        return importlib.util.find_spec("onnxruntime") is not None
    if backend == "trt":
        return all(importlib.util.find_spec(m) is not None for m in ("tensorrt", "pycuda"))
    if backend == "rknn":
        from .rknn import rknn_python, toolkit_importable

        return toolkit_importable() or rknn_python() is not None
    raise ValueError(f"unknown backend {backend!r}; one of {', '.join(BACKENDS)}")


def choose_backend(manifest: EngineManifest, asked: str, folder: Path) -> str:
    """``auto`` is the folder's own target; another backend cannot run files built for a different one."""
    if asked not in BACKENDS:
        raise ValueError(f"--backend must be one of {', '.join(BACKENDS)}, got {asked!r}")
    if asked not in ("auto", manifest.target):
        raise EngineFolderError(f"{folder} holds {manifest.target} engines; --backend {asked} needs a folder built "
                                f"with `cantoedge build --target {asked}`")
    return manifest.target


def open_runners(folder: Path, backend: str = "auto", threads: int | None = None
                 ) -> tuple[EngineManifest, dict[str, Runner]]:
    """The verified manifest and a runner per graph (an RKNN folder's encoder runs on onnxruntime)."""
    folder = Path(folder)
    manifest = EngineManifest.load(folder)
    choose_backend(manifest, backend, folder)
    verify_folder(folder, manifest)
    runners: dict[str, Runner] = {}
    try:
        for spec in GRAPHS:
            entry = manifest.graphs[spec.name]
            if entry.backend == "ort":
                from .ort import OrtRunner

                runners[spec.name] = OrtRunner(folder / entry.file, spec, threads, entry.precision,
                                               sha256=entry.sha256)  # verify_folder has just checked it
            elif entry.backend == "trt":
                from .trt import TrtRunner, check_toolkit

                check_toolkit(manifest.toolkit, manifest.platform, str(folder))
                runners[spec.name] = TrtRunner(folder, entry, spec)
            elif entry.backend == "rknn":
                from .rknn import RknnRunner

                runners[spec.name] = RknnRunner(folder, entry, spec)
            else:
                raise EngineFolderError(f"{folder}: the {spec.name} graph names an unknown backend {entry.backend!r}")
    except BaseException:
        for runner in runners.values():
            runner.close()
        raise
    return manifest, runners
