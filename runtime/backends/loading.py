"""Open a built voice folder on runners: read and verify its manifest, pick the backend, load each graph."""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path

from ..enginefolder import EngineFolderError, EngineManifest, check_contract, check_digests
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
    check_contract(folder, manifest)
    digests = DigestCheck(folder, manifest)
    if any(entry.backend != "ort" for entry in manifest.graphs.values()):
        digests.result()  # an engine file is deserialised only once its bytes are known to be right
    runners: dict[str, Runner] = {}
    try:
        for spec in GRAPHS:
            entry = manifest.graphs[spec.name]
            if entry.backend == "ort":
                from .ort import OrtRunner

                # the session opens this machine's cached optimised graph, found by the manifest's sha256, while
                # the digests are checked; the folder's own file is opened only after they have passed
                runners[spec.name] = OrtRunner(folder / entry.file, spec, threads, entry.precision,
                                               sha256=entry.sha256, verified=digests.result)
            elif entry.backend == "trt":
                from .trt import TrtRunner, check_toolkit

                check_toolkit(manifest.toolkit, manifest.platform, str(folder))
                runners[spec.name] = TrtRunner(folder, entry, spec)
            elif entry.backend == "rknn":
                from .rknn import RknnRunner

                runners[spec.name] = RknnRunner(folder, entry, spec)
            else:
                raise EngineFolderError(f"{folder}: the {spec.name} graph names an unknown backend {entry.backend!r}")
        for runner in runners.values():  # those starting in the background (RKNN's simulator) started together
            runner.ready()
        digests.result()
    except BaseException:
        for runner in runners.values():
            runner.close()
        digests.result()  # a damaged file is reported as such, not as what opening it raised
        raise
    return manifest, runners


class DigestCheck(threading.Thread):
    """A folder's sha256 checks on another core while the sessions open (file reads and hashlib release the GIL):
    they were 9 ms of every `say`'s 0.2 s start; 2-5 ms are saved, as onnxruntime holds the GIL while it opens a
    session (measured). ``result()`` waits and raises what they found."""

    def __init__(self, folder: Path, manifest: EngineManifest):
        super().__init__(name="cantoedge-digests", daemon=True)
        self.folder, self.manifest = folder, manifest
        self.error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            check_digests(self.folder, self.manifest)
        except BaseException as exc:  # handed to whoever waits for the result
            self.error = exc

    def result(self) -> None:
        self.join()
        if self.error is not None:
            raise self.error
