"""The server's turn-taking: the earliest deadline goes next, whoever the OS wakes first."""

import threading
import time

import pytest

from cantoedge.runtime.scheduling import DeadlineSemaphore


def _queue_up(lock: DeadlineSemaphore, deadlines: list[float], ran: list[float]) -> list[threading.Thread]:
    """One thread per deadline, started one after another and each waiting for its turn before the next starts."""
    threads = []
    for deadline in deadlines:
        def step(deadline: float = deadline) -> None:
            with lock.hold(deadline):
                ran.append(deadline)
        thread = threading.Thread(target=step)
        before = len(lock._waiting)
        thread.start()
        limit = time.monotonic() + 10
        while len(lock._waiting) == before and time.monotonic() < limit:
            time.sleep(0.001)
        assert len(lock._waiting) == before + 1, "the step did not queue"
        threads.append(thread)
    return threads


def test_the_turn_goes_to_the_earliest_deadline_then_to_whoever_asked_first():
    lock, ran = DeadlineSemaphore(), []
    with lock.hold(0.0):  # a step in progress: everyone else queues
        threads = _queue_up(lock, [5.0, 1.0, 3.0, 1.0, 2.0], ran)
    for thread in threads:
        thread.join(timeout=10)
    assert ran == [1.0, 1.0, 2.0, 3.0, 5.0]
    assert lock._free == 1 and lock._waiting == []


def test_a_late_arrival_with_an_early_deadline_overtakes_the_queue_but_never_the_holder():
    lock, ran = DeadlineSemaphore(), []
    with lock.hold(10.0):
        threads = _queue_up(lock, [7.0, 8.0], ran)
        threads += _queue_up(lock, [0.5], ran)  # a new request's first window, due now
        ran.append("holder done")
    for thread in threads:
        thread.join(timeout=10)
    assert ran == ["holder done", 0.5, 7.0, 8.0]


def test_a_step_that_fails_still_hands_the_turn_on():
    lock, ran = DeadlineSemaphore(), []
    with pytest.raises(RuntimeError):
        with lock.hold(0.0):
            threads = _queue_up(lock, [1.0], ran)
            raise RuntimeError("a window failed")
    threads[0].join(timeout=10)
    assert ran == [1.0] and lock._free == 1


def test_only_one_step_runs_at_a_time_under_contention():
    lock, inside, most = DeadlineSemaphore(), [0], [0]
    guard = threading.Lock()

    def steps(seed: int) -> None:
        for k in range(200):
            with lock.hold(float((seed * 7919 + k * 104729) % 97)):
                with guard:
                    inside[0] += 1
                    most[0] = max(most[0], inside[0])
                time.sleep(0)
                with guard:
                    inside[0] -= 1

    threads = [threading.Thread(target=steps, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert most[0] == 1 and lock._free == 1 and lock._waiting == []


def test_two_slots_hold_two_steps_at_once_and_the_third_waits_for_either():
    lock, ran = DeadlineSemaphore(2), []
    with lock.hold(5.0):
        with lock.hold(6.0):  # the second slot: taken at once, nothing queued
            assert lock._free == 0 and lock._waiting == []
            threads = _queue_up(lock, [9.0, 1.0], ran)
            ran.append("both held")
        # the inner slot freed: the waiters ran in it, earliest first, while the outer step still held its own
        for thread in threads:
            thread.join(timeout=10)
        assert ran == ["both held", 1.0, 9.0] and lock._free == 1
    assert lock._free == 2
    with pytest.raises(ValueError, match="at least 1"):
        DeadlineSemaphore(0)
