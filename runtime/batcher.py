"""Dynamic batching for the fixed-window graphs: the decoder and vocoder take a batch dimension, so windows
that concurrent requests need at about the same time run as one call. Callers block while a worker thread
gathers a batch (up to ``max_batch``, waiting at most ``window_ms`` once a second caller is around) and splits
the outputs back. A lone request never waits: with nobody else active its window runs at once."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .backends.base import Runner


@dataclass
class _Call:
    feeds: dict[str, np.ndarray]
    done: threading.Event = field(default_factory=threading.Event)
    result: dict[str, np.ndarray] | None = None
    error: BaseException | None = None


class BatchingRunner(Runner):
    """A runner in front of another whose inputs and outputs all lead with the batch axis."""

    concurrent_calls = True  # concurrent calls are what it gathers

    def __init__(self, inner: Runner, window_ms: float = 5.0, max_batch: int = 8,
                 active: Callable[[], int] = lambda: 2, on_batch: Callable[[int], None] | None = None,
                 threads: int = 1):
        """``threads`` batches at once (each gathers its own), for a runner that takes concurrent calls."""
        self.inner, self.window_s, self.max_batch = inner, window_ms / 1000.0, max_batch
        self.spec, self.info, self.precision = inner.spec, inner.info, inner.precision
        self.backend, self.inputs, self.outputs = inner.backend, inner.inputs, inner.outputs
        self.active, self.on_batch = active, on_batch
        self._queue: queue.Queue[_Call | None] = queue.Queue()
        self._threads = [threading.Thread(target=self._loop, name=f"batcher-{self.spec.name}-{i}", daemon=True)
                         for i in range(threads if inner.concurrent_calls else 1)]
        for thread in self._threads:
            thread.start()

    def infer(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        self.check_feeds(feeds)
        call = _Call(feeds)
        self._queue.put(call)
        call.done.wait()
        if call.error is not None:
            raise call.error
        return call.result  # type: ignore[return-value]

    def __call__(self, **feeds: np.ndarray) -> list[np.ndarray]:
        out = self.infer(feeds)
        return [out[name] for name in self.spec.outputs]

    def _gather(self, first: _Call) -> list[_Call]:
        batch = [first]
        alone = self.active() <= 1
        if alone and len(self._threads) > 1:  # a lone request's windows run side by side on the loop threads
            return batch                      # (as unbatched), not stacked into one call on one of them
        deadline = time.monotonic() + (0.0 if alone else self.window_s)
        while len(batch) < self.max_batch:
            try:
                item = self._queue.get(timeout=max(deadline - time.monotonic(), 0.0)) \
                    if deadline > time.monotonic() else self._queue.get_nowait()
            except queue.Empty:
                break
            if item is None:
                self._queue.put(None)  # closing: finish this batch, then stop
                break
            batch.append(item)
        return batch

    def _loop(self) -> None:
        while (first := self._queue.get()) is not None:
            self._run(self._gather(first))
        self._queue.put(None)  # closing: the other threads see it too

    def _run(self, batch: list[_Call]) -> None:
        """One batched call per window length gathered (an utterance's last window may be shorter); each caller
        gets its rows of the outputs, or the error."""
        groups: dict[tuple, list[_Call]] = {}
        for c in batch:
            groups.setdefault(tuple(c.feeds[name].shape[1:] for name in self.spec.inputs), []).append(c)
        for group in groups.values():
            self._run_stacked(group)
            if self.on_batch:
                self.on_batch(len(group))
            for c in group:
                c.done.set()

    def _run_stacked(self, batch: list[_Call]) -> None:
        sizes = [len(next(iter(c.feeds.values()))) for c in batch]
        try:
            stacked = {name: np.concatenate([c.feeds[name] for c in batch]) for name in self.spec.inputs}
            out = self.inner.infer(stacked)
            bounds = np.cumsum([0, *sizes])
            for c, a, b in zip(batch, bounds, bounds[1:]):
                c.result = {name: value[a:b] for name, value in out.items()}
        except BaseException as exc:  # every caller of the batch hears of it
            for c in batch:
                c.error = exc

    def close(self) -> None:
        self._queue.put(None)
        for thread in self._threads:
            thread.join(timeout=10)
        self.inner.close()
