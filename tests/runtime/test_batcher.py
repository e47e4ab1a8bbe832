"""Dynamic batching: concurrent callers' windows run as one graph call, each gets its own outputs back."""

import threading

import numpy as np
import pytest

from cantoedge.runtime.batcher import BatchingRunner
from cantoedge.runtime.synth import Voice


@pytest.fixture(scope="module")
def voice():
    voice = Voice.load(threads=1, warmup=False, cache_bytes=0)
    voice.longest_window = voice.chunk  # whole windows of one length, as the server plans them for its batcher
    return voice


def window_feeds(voice, text):
    frames, position, _ = voice.encode(voice.frontend(text))
    return [feeds for feeds, _ in voice.vocoder_feeds(*voice.decode(frames, position))]


def called_together(batcher, feeds):
    """Each feed from its own thread, all at once -> each caller's log-magnitude."""
    results = [None] * len(feeds)

    def call(i):
        results[i] = batcher.infer(feeds[i])["log_magnitude"]

    threads = [threading.Thread(target=call, args=(i,)) for i in range(len(feeds))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_concurrent_windows_run_together_and_come_back_to_their_callers(voice):
    feeds = window_feeds(voice, "今日天氣好好，我哋去飲茶啦。" * 3)[:6]
    expected = [voice.vocoder.infer(f)["log_magnitude"] for f in feeds]
    sizes = []
    batcher = BatchingRunner(voice.vocoder, window_ms=200, max_batch=8, active=lambda: len(feeds),
                             on_batch=sizes.append)
    results = called_together(batcher, feeds)
    assert max(sizes) > 1 and sum(sizes) == len(feeds)
    for got, want in zip(results, expected):
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, atol=1e-4)


def test_windows_of_other_lengths_gathered_together_run_as_one_call_per_length(voice):
    """An utterance's last window is shorter than the others (the graphs take any length): gathered with whole
    windows it cannot be stacked with them, so each length runs as its own batched call."""
    feeds = window_feeds(voice, "今日天氣好好，我哋去飲茶啦。" * 3)
    whole, last = feeds[0], feeds[-1]
    assert last["mel"].shape[2] < whole["mel"].shape[2]
    mixed = [whole, last, feeds[1], last]
    expected = [voice.vocoder.infer(f)["log_magnitude"] for f in mixed]
    sizes = []
    batcher = BatchingRunner(voice.vocoder, window_ms=5000, max_batch=len(mixed), active=lambda: len(mixed),
                             on_batch=sizes.append)  # one gather of all four (it ends when the fourth arrives)
    results = called_together(batcher, mixed)
    assert sorted(sizes) == [2, 2]
    for got, want in zip(results, expected):
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, atol=1e-4)


def test_a_lone_caller_runs_alone_and_errors_reach_every_caller(voice):
    sizes = []
    batcher = BatchingRunner(voice.decoder, window_ms=1000, active=lambda: 1, on_batch=sizes.append)
    frames, position, _ = voice.encode(voice.frontend("你好"))
    f, p, _ = next(voice.decoder_inputs(frames, position))
    mel, f0 = batcher(frames=f, position=p)
    want_mel, want_f0 = voice.decoder(frames=f, position=p)
    np.testing.assert_array_equal(mel, want_mel)
    assert sizes == [1]
    with pytest.raises(ValueError, match="takes"):
        batcher.infer({"frames": f})  # a wrong feed is refused before it joins a batch
    bad = {"frames": f[:, :, :3], "position": p}  # the graph itself refuses this shape: its caller hears why
    with pytest.raises(RuntimeError, match="could not run the decoder graph"):
        batcher.infer(bad)


def slow_runner(voice, running, most):
    """A runner that holds every call until two are in progress (or a second never comes), counting how many run
    at once."""
    lock, release = threading.Lock(), threading.Event()

    class Slow:
        concurrent_calls = True
        spec, info, precision = voice.decoder.spec, voice.decoder.info, voice.decoder.precision
        backend, inputs, outputs = "fake", (), ()

        def infer(self, feeds):
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
                if running[0] == 2:
                    release.set()
            release.wait(timeout=1)  # one thread: the second call waits for the first, which gives up
            with lock:
                running[0] -= 1
            return {"mel": feeds["frames"], "f0": feeds["position"]}

        def close(self):
            pass

    return Slow()


def two_calls_at_once(voice, batcher) -> None:
    """Two callers send one decoder window each at the same moment; the batcher is closed once both return."""
    frames, position, _ = voice.encode(voice.frontend("你好"))
    f, p, _ = next(voice.decoder_inputs(frames, position))
    callers = [threading.Thread(target=batcher.infer, args=({"frames": f, "position": p},)) for _ in range(2)]
    for t in callers:
        t.start()
    for t in callers:
        t.join(timeout=15)
    batcher.close()


def test_two_batches_run_at_once_on_a_runner_that_takes_concurrent_calls(voice):
    running, most = [0], [0]
    for threads, expected in ((2, 2), (1, 1)):
        running[0] = most[0] = 0
        batcher = BatchingRunner(slow_runner(voice, running, most), window_ms=0, max_batch=1, active=lambda: 2,
                                 threads=threads)
        two_calls_at_once(voice, batcher)
        assert most[0] == expected and not any(t.is_alive() for t in batcher._threads)


def test_a_lone_requests_windows_run_side_by_side_not_stacked_into_one_call(voice):
    """With one request active its windows gain nothing from one stacked call on one loop thread: each goes to a
    loop thread of its own and they run at once, as unbatched (a batched server's lone request was 0.56x as fast)."""
    running, most, sizes = [0], [0], []
    batcher = BatchingRunner(slow_runner(voice, running, most), window_ms=500, max_batch=8, active=lambda: 1,
                             on_batch=sizes.append, threads=2)
    two_calls_at_once(voice, batcher)
    assert sizes == [1, 1] and most[0] == 2
