"""One small interface every backend implements, after Polygraphy's split: a loader knows how to open a file
for one backend; a runner runs it on numpy arrays by the graph contract's tensor names. The voice runs on
runners and never knows which backend it has."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..graphs import GraphInfo, GraphSpec


class BackendMissingError(RuntimeError):
    """A backend's library is not installed here; the message names the extra that brings it."""

    def __init__(self, backend: str, module: str, extra: str, hint: str = ""):
        super().__init__(f"the {backend} backend needs the Python module {module!r}, which is not installed here: "
                         f"pip install 'cantoedge[{extra}]'" + (f"; {hint}" if hint else ""))


@dataclass(frozen=True)
class TensorMeta:
    name: str
    shape: tuple  # ints, or names/None for dynamic axes
    dtype: str  # numpy dtype name


class Runner:
    """A loaded graph: ``infer(feeds) -> outputs`` by contract names, plus what it was built from."""

    backend: str = "?"
    concurrent_calls: bool = False  # whether several threads may call it at once (the voice then overlaps windows)
    fixed_shapes: bool = False  # runs the contract's fixed window shapes only (TensorRT, RKNN, onnxruntime on a GPU)
    spec: GraphSpec
    info: GraphInfo
    precision: str
    inputs: tuple[TensorMeta, ...] = ()
    outputs: tuple[TensorMeta, ...] = ()

    def infer(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        raise NotImplementedError

    @property
    def any_window_length(self) -> bool:
        """Whether every input's axes past the batch are dynamic where they are not the feature width: an
        onnxruntime graph exported so takes a short last window; engines with fixed shapes do not."""
        return not self.fixed_shapes and bool(self.inputs) and \
            all(any(not isinstance(d, int) for d in m.shape[1:]) for m in self.inputs)

    def __call__(self, **feeds: np.ndarray) -> list[np.ndarray]:
        """The outputs in the contract's order (how the voice unpacks them)."""
        out = self.infer(feeds)
        return [out[name] for name in self.spec.outputs]

    def check_feeds(self, feeds: dict[str, np.ndarray]) -> None:
        """Feeds named exactly as the contract says; a wrong name is a bug in the caller, said plainly."""
        if set(feeds) != set(self.spec.inputs):
            raise ValueError(f"the {self.spec.name} graph takes {self.spec.inputs}, got {tuple(feeds)}")

    def ready(self) -> None:
        """Wait until the runner can run: a backend may start slowly in the background (the RKNN simulator's
        worker rebuilding its model), so that a voice's graphs start side by side. Raises what the start met."""

    def close(self) -> None:
        """Release what the backend holds (device memory, a helper process)."""
