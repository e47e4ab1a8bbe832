"""Earliest deadline first for the server's synthesis steps. Requests that share one voice take turns a window at a
time; a plain lock hands the next turn to whichever thread the OS wakes, so a new request's first window waited
behind every ongoing stream's next one (TTFB p95 at 16 clients was 10-15x one client's). Here the turn goes to
the step whose audio is needed soonest: a new request's first window before windows that streams already playing
ahead of real time need later."""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class DeadlineSemaphore:
    """``slots`` holders at a time; a freed slot is handed to the waiter with the earliest deadline (ties: the one
    that asked first), never to a thread that happens to arrive just then."""

    def __init__(self, slots: int = 1) -> None:
        if slots < 1:
            raise ValueError(f"slots must be at least 1, got {slots}")
        self._mutex = threading.Lock()
        self._free = slots
        self._waiting: list[tuple[float, int, threading.Event]] = []
        self._order = itertools.count()

    @contextmanager
    def hold(self, deadline: float) -> Iterator[None]:
        """Wait for the turn (at once when free and nobody waits), run the block, hand the turn on."""
        turn = None
        with self._mutex:
            if self._free == 0 or self._waiting:
                turn = threading.Event()
                heapq.heappush(self._waiting, (deadline, next(self._order), turn))
            else:
                self._free -= 1
        if turn is not None:
            turn.wait()  # set by a releasing holder, who passed its slot on to us
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        with self._mutex:
            if self._waiting:
                heapq.heappop(self._waiting)[2].set()
            else:
                self._free += 1
