"""Per-thread scratch arrays: one buffer per name and thread, reused while large enough, zeros when asked."""

import threading

import numpy as np

from cantoedge.runtime.scratch import scratch


def test_a_name_reuses_its_buffer_grows_it_and_keeps_threads_apart():
    a = scratch("test.a", (4, 8), np.float32)
    a[...] = 1.0
    b = scratch("test.a", (2, 8), np.float32)  # a prefix of the same buffer, as written
    assert np.shares_memory(a, b) and (b == 1.0).all()
    grown = scratch("test.a", (10, 8), np.float32)
    assert grown.shape == (10, 8) and not np.shares_memory(grown, a)
    z = scratch("test.z", (3, 5), np.complex128, zeroed=True)
    assert not z.any()
    z[:, :2] = 7
    wider = scratch("test.z", (6, 5), np.complex128, zeroed=True)  # grown: zeros again, rows where they were
    assert not wider[:, 2:].any()
    seen = []
    thread = threading.Thread(target=lambda: seen.append(scratch("test.a", (2, 8), np.float32)))
    thread.start()
    thread.join()
    assert not np.shares_memory(seen[0], grown)
