"""TensorRT backend (Jetson and other NVIDIA GPUs): serialised engines through the TensorRT Python API, device
buffers through pycuda, one execution context per graph, input shapes set per call within the engine's
optimisation profile. Written against TensorRT's documented name-based tensor API (8.5 and later); it cannot
run on machines without TensorRT, and its tests skip there with that reason."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..enginefolder import EngineFolderError, GraphEntry
from ..graphs import GraphSpec
from .base import BackendMissingError, Runner, TensorMeta


def import_trt():
    try:
        import tensorrt
    except ImportError:
        raise BackendMissingError("trt", "tensorrt", "trt") from None
    return tensorrt


def import_cuda():
    """pycuda's driver API with a context on device 0 (pycuda.autoinit makes and pops it at exit)."""
    try:
        import pycuda.autoinit  # noqa: F401  (creates the CUDA context)
        import pycuda.driver as cuda
    except ImportError:
        raise BackendMissingError("trt", "pycuda", "trt") from None
    return cuda


def compute_capability() -> str:
    """The GPU's compute capability as the manifest writes it: 'sm_87' on Jetson Orin."""
    major, minor = import_cuda().Device(0).compute_capability()
    return f"sm_{major}{minor}"


def check_toolkit(entry_toolkit: dict, platform: str, where: str) -> None:
    """Engines are not portable across TensorRT versions or GPUs: refuse before deserialising."""
    trt = import_trt()
    built, here = entry_toolkit.get("version"), trt.__version__
    if built != here:
        raise EngineFolderError(f"{where} was built with TensorRT {built}; this machine has {here}: TensorRT engines "
                                "are not portable across versions; rebuild it here with `cantoedge build --target trt`")
    gpu = compute_capability()
    if platform != gpu:
        raise EngineFolderError(f"{where} was built for a {platform} GPU; this one is {gpu}: rebuild it here with "
                                "`cantoedge build --target trt`")


class TrtRunner(Runner):
    """One deserialised engine with its own execution context, stream and device buffers."""

    backend = "trt"
    fixed_shapes = True  # built with one optimisation profile at the contract's window shapes

    def __init__(self, folder: Path, entry: GraphEntry, spec: GraphSpec):
        trt, cuda = import_trt(), import_cuda()
        self.spec, self.info, self.precision, self._cuda = spec, entry.info, entry.precision, cuda
        path = Path(folder) / entry.file
        self._logger = trt.Logger(trt.Logger.WARNING)
        self._runtime = trt.Runtime(self._logger)
        self.engine = self._runtime.deserialize_cuda_engine(path.read_bytes())
        if self.engine is None:
            raise EngineFolderError(f"{path} is not a TensorRT engine this TensorRT can load; rebuild it with "
                                    "`cantoedge build --target trt`")
        self.context = self.engine.create_execution_context()
        self.stream = cuda.Stream()
        names = [self.engine.get_tensor_name(i) for i in range(self.engine.num_io_tensors)]
        modes = {n: self.engine.get_tensor_mode(n) for n in names}
        engine_inputs = tuple(n for n in names if modes[n] == trt.TensorIOMode.INPUT)
        if set(engine_inputs) != set(spec.inputs):
            raise EngineFolderError(f"{path} takes {engine_inputs}; the {spec.name} contract is {spec.inputs}")
        self.inputs = tuple(TensorMeta(n, tuple(self.engine.get_tensor_shape(n)),
                                       np.dtype(trt.nptype(self.engine.get_tensor_dtype(n))).name)
                            for n in spec.inputs)
        self.outputs = tuple(TensorMeta(n, tuple(self.engine.get_tensor_shape(n)),
                                        np.dtype(trt.nptype(self.engine.get_tensor_dtype(n))).name)
                             for n in spec.outputs)
        self._buffers: dict[str, tuple[object, int]] = {}  # name -> (device allocation, bytes)

    def _bound(self, name: str, shape: tuple[int, ...]) -> None:
        low, _, high = self.engine.get_tensor_profile_shape(name, 0)
        if len(shape) != len(low) or any(s < lo or s > hi for s, lo, hi in zip(shape, low, high)):
            raise ValueError(f"the {self.spec.name} engine takes {name} between {tuple(low)} and {tuple(high)} "
                             f"(its optimisation profile), got {shape}")

    def _device(self, name: str, nbytes: int):
        buf = self._buffers.get(name)
        if buf is None or buf[1] < nbytes:
            buf = (self._cuda.mem_alloc(max(nbytes, 1)), nbytes)
            self._buffers[name] = buf
        return buf[0]

    def infer(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        self.check_feeds(feeds)
        cuda = self._cuda
        for meta in self.inputs:
            x = np.ascontiguousarray(feeds[meta.name], dtype=meta.dtype)
            self._bound(meta.name, x.shape)
            self.context.set_input_shape(meta.name, x.shape)
            dev = self._device(meta.name, x.nbytes)
            cuda.memcpy_htod_async(dev, x, self.stream)
            self.context.set_tensor_address(meta.name, int(dev))
        results = {}
        for meta in self.outputs:
            shape = tuple(self.context.get_tensor_shape(meta.name))
            host = cuda.pagelocked_empty(shape, dtype=meta.dtype)
            dev = self._device(meta.name, host.nbytes)
            self.context.set_tensor_address(meta.name, int(dev))
            results[meta.name] = (host, dev)
        if not self.context.execute_async_v3(self.stream.handle):
            raise RuntimeError(f"TensorRT could not run the {self.spec.name} engine")
        for host, dev in results.values():
            cuda.memcpy_dtoh_async(host, dev, self.stream)
        self.stream.synchronize()
        return {name: np.array(host, dtype=np.float32) for name, (host, _) in results.items()}

    def close(self) -> None:
        for buf, _ in self._buffers.values():
            buf.free()
        self._buffers.clear()
