"""RKNN backend: Rockchip NPUs (RK3588) through rknn-toolkit-lite2 on the board, and rknn-toolkit2's PC
simulator on a build host, in this process when its toolkit is importable here, else in the RKNN
environment's own Python (its pins conflict with the main environment) through a worker process."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from ..enginefolder import GraphEntry
from ..graphs import GraphSpec
from . import rknn_worker
from .base import BackendMissingError, Runner, TensorMeta

RKNN_PYTHON_ENV = "CANTOEDGE_RKNN_PYTHON"  # the RKNN environment's python, where it is not .venv-rknn

log = logging.getLogger("cantoedge.rknn")


def toolkit_importable() -> bool:
    """rknnlite (board) or rknn.api (simulator) in this very interpreter."""
    import importlib.util

    return any(importlib.util.find_spec(m) is not None for m in ("rknnlite", "rknn"))


def rknn_python() -> Path | None:
    """The RKNN environment's interpreter: $CANTOEDGE_RKNN_PYTHON, else .venv-rknn beside this checkout."""
    if os.environ.get(RKNN_PYTHON_ENV):
        return Path(os.environ[RKNN_PYTHON_ENV])
    candidate = Path(__file__).resolve().parents[2] / ".venv-rknn" / "bin" / "python"
    return candidate if candidate.exists() else None


class RknnRunner(Runner):
    """One graph of a built RKNN folder. Inputs are positional on the NPU: they are passed in the graph
    contract's order, at the fixed shapes the build recorded (batch 1)."""

    backend = "rknn"
    fixed_shapes = True  # the NPU runs the shapes the model was converted for

    def __init__(self, folder: Path, entry: GraphEntry, spec: GraphSpec):
        self.folder, self.entry, self.spec = Path(folder), entry, spec
        self.info, self.precision = entry.info, entry.precision
        self.inputs = tuple(TensorMeta(i["name"], tuple(i["shape"]), i["dtype"]) for i in entry.inputs)
        self.outputs = tuple(TensorMeta(o["name"], tuple(o["shape"]), o["dtype"]) for o in entry.outputs)
        self.fixed = {name: tuple(shape) for name, shape in entry.shapes.get("fixed", {}).items()}
        self._proc = self._session = None
        if toolkit_importable():
            self._session = rknn_worker.Session(self.folder, entry.file, entry.source, entry.build)
            self.mode = self._session.mode
        else:
            self._start_worker()

    def _start_worker(self) -> None:
        python = rknn_python()
        if python is None or not python.exists():
            raise BackendMissingError("rknn", "rknnlite", "rknn-lite",
                                      f"on a build host, the simulator runs in its own environment: create it with "
                                      f"`bash scripts/rknn_env.sh`, or point ${RKNN_PYTHON_ENV} at one")
        if self.entry.build.get("build", {}).get("do_quantization"):  # the one slow start: say so
            log.warning("the RKNN PC simulator rebuilds the %s %s model from %s with its build's quantisation "
                        "(up to a minute on 2 cores; a board runs %s as it is)", self.entry.precision,
                        self.spec.name, self.entry.source, self.entry.file)
        self._log = tempfile.TemporaryFile()
        self._proc = subprocess.Popen([str(python), rknn_worker.__file__, "serve", str(self.folder), self.spec.name],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log)
        self.mode = None  # known once the worker says it is ready

    def ready(self) -> None:
        """Wait for the worker's hello: the simulator rebuilds each model (up to a minute for a quantised one),
        so the decoder's and the vocoder's workers start together and are waited for here."""
        if self.mode is not None:
            return
        hello = rknn_worker.receive(self._proc.stdout)
        if hello is None or "ready" not in hello:
            raise RuntimeError(f"the RKNN worker for {self.spec.name} did not start: {self._log_tail()}")
        self.mode = str(hello["mode"])

    def _log_tail(self, lines: int = 8) -> str:
        self._log.seek(0)
        text = self._log.read().decode("utf-8", "replace").strip().splitlines()
        return " | ".join(text[-lines:]) or "(no output)"

    def infer(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        self.check_feeds(feeds)
        arrays = []
        for name in self.spec.inputs:
            x = np.ascontiguousarray(feeds[name], dtype=np.float32)
            if self.fixed and x.shape != self.fixed[name]:
                raise ValueError(f"the {self.spec.name} RKNN model takes {name} of shape {self.fixed[name]} only "
                                 f"(the NPU runs fixed shapes), got {x.shape}")
            arrays.append(x)
        if self._session is not None:
            outputs = self._session.run(arrays)
        else:
            self.ready()
            try:
                rknn_worker.send(self._proc.stdin, {f"arr_{i}": a for i, a in enumerate(arrays)})
                reply = rknn_worker.receive(self._proc.stdout)
            except (BrokenPipeError, OSError) as exc:
                raise RuntimeError(f"the RKNN worker for {self.spec.name} stopped: {self._log_tail()}") from exc
            if reply is None:
                raise RuntimeError(f"the RKNN worker for {self.spec.name} stopped: {self._log_tail()}")
            if "error" in reply:
                raise RuntimeError(f"RKNN {self.spec.name}: {reply['error']}")
            outputs = [reply[f"out_{i}"] for i in range(len(reply))]
        result = {}
        for name, out in zip(self.spec.outputs, outputs):
            want = self.fixed.get(name)
            result[name] = (out.reshape(want) if want else out).astype(np.float32, copy=False)
        return result

    def close(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            if self.mode is None:  # still rebuilding (another graph's worker failed): nothing of it to keep
                self._proc.kill()
            self._proc.stdin.close()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
        self._proc = None

    def __del__(self) -> None:
        if sys.meta_path is not None:  # not during interpreter shutdown
            self.close()
