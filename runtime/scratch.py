"""Per-thread scratch arrays for the numpy stages between graphs: reused from call to call, because a window's
temporaries allocated afresh page-fault new mappings on every call (measured here: the harmonic source 4.7 ms a
window instead of 1.4, numpy 1's padded inverse-FFT input 2.5-3.8 ms against 0.4-0.6), and one set per thread,
because several threads vocode windows at once."""

from __future__ import annotations

import math
import threading

import numpy as np

_arrays = threading.local()


def scratch(name: str, shape: tuple[int, ...], dtype: type, zeroed: bool = False) -> np.ndarray:
    """This thread's array ``name`` as ``shape`` (a prefix of its buffer, grown when too small). Its contents are
    what the thread last wrote there; a new buffer is zeros with ``zeroed``, else undefined."""
    arrays = _arrays.__dict__.setdefault("arrays", {})
    size = math.prod(shape)  # (np.prod costs 5 us a call, a window makes about 25)
    buffer = arrays.get(name)
    if buffer is None or buffer.size < size or buffer.dtype != dtype:
        buffer = arrays[name] = (np.zeros if zeroed else np.empty)(max(size, 1), dtype)
    return buffer[:size].reshape(shape)
