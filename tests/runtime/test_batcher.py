"""Dynamic batching: concurrent callers' windows run as one graph call, each gets its own outputs back."""

import threading

import numpy as np
import pytest

from cantoedge.runtime.batcher import BatchingRunner
from cantoedge.runtime.synth import Voice


@pytest.fixture(scope="module")
def voice():
    return Voice.load(threads=1, warmup=False, cache_bytes=0)


def window_feeds(voice, text):
    frames, position, _ = voice.encode(voice.frontend(text))
    return [feeds for feeds, _ in voice.vocoder_feeds(*voice.decode(frames, position))]


def test_concurrent_windows_run_together_and_come_back_to_their_callers(voice):
    feeds = window_feeds(voice, "今日天氣好好，我哋去飲茶啦。" * 3)[:6]
    expected = [voice.vocoder.infer(f)["log_magnitude"] for f in feeds]
    sizes = []
    batcher = BatchingRunner(voice.vocoder, window_ms=200, max_batch=8, active=lambda: len(feeds),
                             on_batch=sizes.append)
    results = [None] * len(feeds)

    def call(i):
        results[i] = batcher.infer(feeds[i])["log_magnitude"]

    threads = [threading.Thread(target=call, args=(i,)) for i in range(len(feeds))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert max(sizes) > 1 and sum(sizes) == len(feeds)
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
