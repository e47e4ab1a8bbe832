"""ONNX Runtime backend (CPU everywhere; CUDA and TensorRT execution providers where installed)."""

from __future__ import annotations

import hashlib
import logging
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..enginefolder import MANIFEST_FILE
from ..graphs import GraphInfo, GraphSpec, graph_precision
from .base import BackendMissingError, Runner, TensorMeta

# onnxruntime's element type names -> numpy's
_ORT_TYPES = {"tensor(float)": "float32", "tensor(float16)": "float16", "tensor(int64)": "int64",
              "tensor(int32)": "int32", "tensor(int8)": "int8", "tensor(uint8)": "uint8"}
GPU_PROVIDERS = ("TensorrtExecutionProvider", "CUDAExecutionProvider")
CACHE_ENV = "CANTOEDGE_CACHE_DIR"  # where optimised graphs are kept; set it empty to keep none
# the cache keeps the most recently used graphs up to this size: a device that updates its voice, or a machine
# that builds many, would otherwise fill its storage (one session here had left 136 graphs, 160 MB)
CACHE_MAX_BYTES = 128 * 1024 * 1024
STALE_TEMP_SECONDS = 3600  # a temp file this old was left by a killed process

log = logging.getLogger("cantoedge.ort")


def optimized_cache_dir() -> Path | None:
    """$CANTOEDGE_CACHE_DIR, else $XDG_CACHE_HOME/cantoedge/ort (~/.cache/cantoedge/ort); None when set empty."""
    if CACHE_ENV in os.environ:
        return Path(os.environ[CACHE_ENV]) if os.environ[CACHE_ENV] else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cantoedge" / "ort"


def import_ort():
    try:
        import onnxruntime
    except ImportError:
        raise BackendMissingError("onnxruntime", "onnxruntime", "ort") from None
    return onnxruntime


@lru_cache(maxsize=1)
def machine_key() -> str:
    """The architecture and a digest of the CPU's feature flags: a graph optimised for AVX-512 blocking is never
    read on a CPU without it, even from a home folder shared between machines."""
    flags = None
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            flags = next((line for line in fh if line.startswith(("flags", "Features"))), None)
    except OSError:
        pass
    if flags is None:  # not Linux; only then, as platform.processor() runs `uname -p` (6 ms of every start)
        flags = platform.processor()
    return f"{platform.machine()}-{hashlib.sha256(flags.encode()).hexdigest()[:8]}"


@dataclass(frozen=True)
class OrtLoader:
    """Opens one .onnx file in an onnxruntime session: CPU by default; ``gpu`` adds the TensorRT and CUDA
    execution providers that this onnxruntime build has (the CPU one stays last, as a fallback)."""

    path: Path
    threads: int | None = None
    gpu: bool = False
    sha256: str | None = None  # the file's digest as its manifest records it (saves a re-read)
    verified: Callable[[], None] | None = None  # raises unless the file has that digest; called before it is opened

    def providers(self) -> list[str]:
        available = import_ort().get_available_providers()
        wanted = [p for p in GPU_PROVIDERS if p in available] if self.gpu else []
        return [*wanted, "CPUExecutionProvider"]

    def __call__(self):
        """The session, from this machine's cached optimised graph when there is one: onnxruntime's graph
        optimisations took 25-40 ms of the 3 graphs' 40-60 ms at every start (measured, 2 cores); a cached graph
        opens with them off, then runs the same optimised graph as the first start did."""
        cached = self.cached_path()
        if cached is not None:
            data = read_cached(cached)
            if data is not None:
                try:
                    return self._session(data, optimize=False)
                except Exception as exc:  # checked bytes onnxruntime still refuses: optimise again below
                    log.debug("dropping the cached graph %s: %s", cached, exc)
                    cached.unlink(missing_ok=True)
        if self.verified is not None:
            self.verified()
        try:
            return self._session(str(self.path), optimize=True, save_to=cached)
        except Exception as exc:  # onnxruntime raises its own error types for damaged files
            if cached is not None:
                try:
                    return self._session(str(self.path), optimize=True)  # the cache folder, not the graph, failed
                except Exception:
                    pass
            raise ValueError(f"{self.path} is not a loadable ONNX graph: {exc}") from exc

    def cached_path(self) -> Path | None:
        """Where this graph's optimised form is kept: named by its bytes, the onnxruntime version and the machine
        (layout optimisations are CPU-specific), so a changed graph or runtime never reads a stale one. None for
        GPU providers, whose optimisations belong to their device, and when the cache is off."""
        folder = optimized_cache_dir()
        if folder is None or self.gpu:
            return None
        try:
            digest = (self.sha256 or hashlib.sha256(self.path.read_bytes()).hexdigest())[:32]
        except OSError:
            return None
        return folder / f"{digest}-ort{import_ort().__version__}-{machine_key()}.onnx"

    def session_options(self):
        """The runtime's session settings (the profiler in regression/opprofile.py measures with the same)."""
        options = import_ort().SessionOptions()
        if self.threads:
            options.intra_op_num_threads = self.threads
            options.inter_op_num_threads = 1
        options.log_severity_level = 3  # warnings about unused initialisers are not the user's business
        # idle intra-op workers sleep instead of spinning: spinning took the cores the numpy stages between graphs
        # needed (whole INT8 voice, 2 threads, 2 cores: RTF 0.016-0.019 spinning, 0.0091-0.0097 not)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        return options

    def _session(self, model: str | bytes, optimize: bool, save_to: Path | None = None):
        ort = import_ort()
        options = self.session_options()
        if not optimize:
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        temp = None
        if save_to is not None:
            try:
                save_to.parent.mkdir(parents=True, exist_ok=True)
                temp = save_to.with_name(f".{save_to.name}.{os.getpid()}.tmp")
                options.optimized_model_filepath = str(temp)
            except OSError:
                temp = None
        session = ort.InferenceSession(model, options, providers=self.providers())
        if temp is not None:
            write_cached(temp, save_to)
        return session


def _digest_path(cached: Path) -> Path:
    return cached.with_name(cached.name + ".sha256")


def read_cached(cached: Path) -> bytes | None:
    """The cached graph's bytes when they match the digest written beside them; a missing, damaged or
    half-replaced entry is dropped (None), so a flipped bit never becomes wrong audio."""
    try:
        data, digest = cached.read_bytes(), _digest_path(cached).read_text("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if hashlib.sha256(data).hexdigest() != digest:
        log.debug("dropping the cached graph %s: its bytes do not match their digest", cached)
        cached.unlink(missing_ok=True)
        return None
    try:
        os.utime(cached)  # used now: the last the bound evicts
    except OSError:
        pass  # a read-only cache still serves
    return data


def write_cached(temp: Path, cached: Path) -> None:
    """Move onnxruntime's freshly written graph into place, then its digest (each whole, by rename); any
    failure leaves no entry, never a wrong one."""
    digest_temp = _digest_path(temp)
    try:
        digest_temp.write_text(hashlib.sha256(temp.read_bytes()).hexdigest(), "ascii")
        os.replace(temp, cached)
        os.replace(digest_temp, _digest_path(cached))
    except OSError:
        for path in (temp, digest_temp):
            path.unlink(missing_ok=True)
        return
    prune_cache(cached.parent, keep=cached)


def prune_cache(folder: Path, keep: Path) -> None:
    """Evict the least recently used graphs (and their digests) until the folder holds at most CACHE_MAX_BYTES,
    never ``keep``; temp files older than an hour go too. Another process's eviction only costs a re-optimise."""
    entries = []
    try:
        paths = list(folder.iterdir())
    except OSError:
        return
    for path in paths:
        try:
            stat = path.stat()
            if path.name.endswith(".tmp") and time.time() - stat.st_mtime > STALE_TEMP_SECONDS:
                path.unlink(missing_ok=True)
            elif path.suffix == ".onnx":
                entries.append((stat.st_mtime, stat.st_size, path))
        except OSError:  # gone meanwhile (another process pruned it), or not ours to remove
            continue
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries, key=lambda e: e[0]):
        if total <= CACHE_MAX_BYTES:
            break
        if path != keep:
            path.unlink(missing_ok=True)
            _digest_path(path).unlink(missing_ok=True)
            total -= size


class OrtRunner(Runner):
    """One exported graph in an onnxruntime session, checked against the contract it claims."""

    backend = "ort"
    concurrent_calls = True  # onnxruntime sessions are safe to run from several threads

    def __init__(self, path: Path, spec: GraphSpec, threads: int | None = None,
                 precision: str | tuple[str, ...] | None = None, gpu: bool = False, sha256: str | None = None,
                 verified: Callable[[], None] | None = None):
        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"no {spec.name} graph at {path}: run `cantoedge export` first")
        self.session = OrtLoader(path, threads, gpu, sha256, verified)()
        meta = self.session.get_modelmeta().custom_metadata_map
        self.info = GraphInfo.from_metadata(meta, path)
        self.precision = graph_precision(meta)
        if self.info.graph != spec.name:
            raise ValueError(f"{path} is the {self.info.graph} graph, expected the {spec.name}")
        allowed = (precision,) if isinstance(precision, str) else precision
        if allowed and self.precision not in allowed:
            wanted = allowed[0]
            if (path.parent / MANIFEST_FILE).exists():  # a built folder's graphs keep plain names in any precision
                raise ValueError(f"{path.parent} is a built device folder (it has a {MANIFEST_FILE}): this reads "
                                 "exported graphs, <graph>.onnx and <graph>.int8.onnx side by side; give the folder "
                                 "`cantoedge export` and `cantoedge calibrate` wrote (default build/voice), or "
                                 "speak with the built folder through --voice (Voice.load)")
            raise ValueError(f"{path} holds an {self.precision.upper()} graph (its metadata says so), not "
                             f"{wanted.upper()}: it was copied or renamed; restore {spec.filename(wanted)} with "
                             f"`cantoedge {'export' if wanted == 'fp32' else 'calibrate'}`")
        names = tuple(i.name for i in self.session.get_inputs())
        if names != spec.inputs:
            raise ValueError(f"{path} takes {names}, the {spec.name} contract is {spec.inputs}")
        self.path, self.spec = path, spec
        self.fixed_shapes = gpu  # with GPU providers, TensorRT's would build an engine for every window length
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
