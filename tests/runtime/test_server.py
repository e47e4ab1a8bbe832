"""`cantoedge serve`: a real uvicorn server on loopback, real HTTP clients (httpx and the official openai
client), concurrent clients, a client that vanishes mid-stream, and bad requests."""

import base64
import io
import socket
import threading
import time
import wave

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install 'cantoedge[serve]')")
httpx = pytest.importorskip("httpx")

from cantoedge.runtime.server import (  # noqa: E402
    ApiError,
    ServerSettings,
    create_app,
    parse_elevenlabs_request,
    parse_speech_request,
    pcm_from_wav_stream,
    serving_in_thread,
)
from cantoedge.runtime.synth import Voice  # noqa: E402

LONG = "今日天氣好好，我哋去飲茶啦。" * 12


def serving(voice, settings):
    return serving_in_thread(create_app(voice, settings))


@pytest.fixture(scope="module")
def voice():
    return Voice.load(threads=1)


@pytest.fixture(scope="module")
def reference():
    """What the Python API says, on a voice of its own: no server batching, no shared phrase cache."""
    return Voice.load(threads=1, warmup=False, cache_bytes=0)


@pytest.fixture(scope="module")
def server(voice):
    with serving(voice, ServerSettings(token="s3cret", max_queue=4, max_chars=2000)) as (url, srv):
        yield url, srv


def raw_address(url: str) -> tuple[str, int]:
    """(host, port) of a served URL, for a client that speaks HTTP over a bare socket."""
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def json_answer(conn: socket.socket) -> bytes:
    """The server's whole answer on ``conn``, up to the end of its JSON error body; a recv times out (the
    socket's timeout) if none comes."""
    answer = b""
    while b"}}" not in answer:
        data = conn.recv(4096)
        assert data, answer
        answer += data
    return answer


def post(url, json, token="s3cret", **kw):
    return httpx.post(f"{url}/v1/audio/speech", json=json, headers={"Authorization": f"Bearer {token}"},
                      timeout=120, **kw)


def test_speech_streams_a_wav_that_matches_the_python_api(server, reference):
    url, _ = server
    r = post(url, {"model": "cantoedge-yue", "input": "你好。", "voice": "default", "response_format": "wav"})
    assert r.status_code == 200 and r.headers["content-type"] == "audio/wav"
    assert r.headers.get("transfer-encoding") == "chunked"
    expected = np.concatenate([c.audio for c in reference.synthesize("你好。")])
    np.testing.assert_array_equal(pcm_from_wav_stream(r.content), expected)
    pcm = post(url, {"model": "cantoedge-yue", "input": "你好。", "voice": "default", "response_format": "pcm"})
    np.testing.assert_array_equal(np.frombuffer(pcm.content, "<i2"), expected)


def test_the_official_openai_client_works_streaming_included(server):
    openai = pytest.importorskip("openai")
    url, _ = server
    client = openai.OpenAI(base_url=f"{url}/v1", api_key="s3cret")
    whole = client.audio.speech.create(model="cantoedge-yue", voice="alloy", input="今日天氣好好。",
                                       response_format="wav")
    with wave.open(io.BytesIO(whole.content)) as wf:
        assert wf.getframerate() == 22050 and wf.getsampwidth() == 2
    pieces = []
    with client.audio.speech.with_streaming_response.create(model="cantoedge-yue", voice="alloy", input=LONG[:60],
                                                            response_format="pcm") as response:
        for piece in response.iter_bytes():
            pieces.append(piece)
    assert len(pieces) > 1 and sum(map(len, pieces)) > 22050 * 2


def sse_events(response) -> list[dict]:
    """The JSON of every server-sent event in a streamed response, in order."""
    import json

    lines = [line for line in response.iter_lines() if line]
    assert all(line.startswith("data: ") for line in lines), lines[:3]
    return [json.loads(line[len("data: "):]) for line in lines]


@pytest.mark.parametrize("fmt", ["wav", "pcm"])
def test_sse_carries_the_same_audio_as_deltas_then_done_with_usage(server, fmt):
    url, _ = server
    body = {"model": "m", "input": "今日天氣好好。", "voice": "v", "response_format": fmt}
    plain = post(url, body).content
    with httpx.stream("POST", f"{url}/v1/audio/speech", json={**body, "stream_format": "sse"},
                      headers={"Authorization": "Bearer s3cret"}, timeout=120) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        assert r.headers["x-audio-media-type"] == f"audio/{fmt}"
        events = sse_events(r)
    *deltas, done = events
    assert {e["type"] for e in deltas} == {"speech.audio.delta"} and len(deltas) >= 2
    assert b"".join(base64.b64decode(e["audio"]) for e in deltas) == plain
    assert done == {"type": "speech.audio.done",
                    "usage": {"input_tokens": 7, "output_tokens": 6, "total_tokens": 13}}


def test_the_official_openai_client_asks_for_sse_and_gets_events(server):
    openai = pytest.importorskip("openai")
    url, _ = server
    client = openai.OpenAI(base_url=f"{url}/v1", api_key="s3cret")
    with client.audio.speech.with_streaming_response.create(model="cantoedge-yue", voice="alloy", input="你好。",
                                                            response_format="pcm", stream_format="sse") as response:
        events = sse_events(response)
    assert events[-1]["type"] == "speech.audio.done" and events[-1]["usage"]["output_tokens"] == 2
    pcm = b"".join(base64.b64decode(e["audio"]) for e in events[:-1])
    assert len(pcm) > 22050 // 2 and len(pcm) % 2 == 0


def post_together(url, texts: list[str]) -> dict:
    """Each text POSTed as PCM by its own client, all at once: text -> response."""
    results = {}

    def one(text):
        results[text] = post(url, {"model": "m", "input": text, "voice": "v", "response_format": "pcm"})

    threads = [threading.Thread(target=one, args=(t,)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_concurrent_clients_all_get_their_own_speech(server, reference):
    url, _ = server
    texts = ["你好。", "多謝你。", "早晨。"]
    results = post_together(url, texts)
    for text in texts:  # batched windows agree with unbatched ones to float rounding
        expected = np.concatenate([c.audio for c in reference.synthesize(text)]).astype(int)
        got = np.frombuffer(results[text].content, "<i2").astype(int)
        assert got.shape == expected.shape and np.abs(got - expected).max() <= 4


def test_unbatched_concurrent_clients_take_turns_and_each_gets_exactly_its_speech(reference):
    """Without batching, steps take turns earliest deadline first (runtime/scheduling.py), two at once here."""
    voice = Voice.load(threads=2, cache_bytes=0)
    texts = ["你好。", "多謝你。", LONG[:40], LONG[14:60]]
    try:
        with serving(voice, ServerSettings(batch_window_ms=0.0)) as (url, _):
            results = post_together(url, texts)
    finally:
        voice.close()
    for text in texts:
        expected = np.concatenate([c.audio for c in reference.synthesize(text)])
        assert results[text].status_code == 200
        np.testing.assert_array_equal(np.frombuffer(results[text].content, "<i2"), expected)


@pytest.mark.parametrize("stream_format", ["audio", "sse"])
def test_a_client_that_disconnects_mid_stream_stops_its_work_and_others_are_served(server, stream_format):
    url, srv = server
    metrics = srv.config.app.state.metrics
    before = metrics.disconnects._value.get()
    with httpx.stream("POST", f"{url}/v1/audio/speech", json={"model": "m", "input": LONG, "voice": "v",
                      "response_format": "pcm", "stream_format": stream_format},
                      headers={"Authorization": "Bearer s3cret"}, timeout=120) as r:
        next(r.iter_bytes())  # the first window, then leave
    deadline = time.time() + 30
    while metrics.disconnects._value.get() == before:
        assert time.time() < deadline, "the server kept synthesising for a client that left"
        time.sleep(0.05)
    windows = metrics.windows._value.get()
    time.sleep(0.5)
    assert metrics.windows._value.get() == windows  # no more windows for the vanished client
    assert httpx.get(f"{url}/healthz").json()["in_progress"] == 0
    assert post(url, {"model": "m", "input": "你好。", "voice": "v"}).status_code == 200


@pytest.mark.parametrize("body, status, says", [
    ({"model": "m", "input": "", "voice": "v"}, 422, "non-empty"),
    ({"model": "m", "input": "😀😀", "voice": "v"}, 422, "no speakable text"),
    ({"model": "m", "input": "你好", "voice": "v", "response_format": "mp3"}, 422, "response_format"),
    ({"model": "m", "input": "你好", "voice": "v", "speed": 0}, 422, "speed"),
    ({"model": "m", "input": "你好", "voice": "v", "speed": -1}, 422, "speed"),
    ({"model": "m", "input": "你" * 2001, "voice": "v"}, 422, "limit is 2000"),
    ({"model": "m", "input": "你好", "voice": "v", "response_format": ["wav"]}, 422, "response_format"),
    ({"model": "m", "input": "你好", "voice": "v", "response_format": {"a": 1}}, 422, "response_format"),
    ({"model": "m", "input": "你好", "voice": "v", "stream_format": "events"}, 422, "stream_format"),
    ({"model": "m", "input": "你好", "voice": "v", "stream_format": None}, 422, "stream_format"),
])
def test_bad_requests_get_a_clear_json_error(server, body, status, says):
    url, _ = server
    r = post(url, body)
    assert r.status_code == status and says in r.json()["error"]["message"]


def test_malformed_oversize_and_unauthorised_requests(server):
    url, _ = server
    r = httpx.post(f"{url}/v1/audio/speech", content=b"{not json", headers={"Authorization": "Bearer s3cret"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]["message"]
    r = httpx.post(f"{url}/v1/audio/speech", content=b"x" * 70_000, headers={"Authorization": "Bearer s3cret"})
    assert r.status_code == 413
    assert post(url, {"model": "m", "input": "你好", "voice": "v"}, token="wrong").status_code == 401
    assert httpx.get(f"{url}/v1/models").status_code == 401
    assert httpx.get(f"{url}/v1/models", headers={"Authorization": "Bearer s3cret"}).json()["data"][0]["id"]


def test_a_chunked_body_past_the_limit_is_refused_while_it_is_still_arriving(server):
    """A chunked body declares no length: the server stops reading at the limit and answers 413, and does not
    wait for (and hold in memory) whatever the client would send next."""
    url, _ = server
    part = b"x" * 32_768
    with socket.create_connection(raw_address(url), timeout=30) as conn:
        conn.sendall(b"POST /v1/audio/speech HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\n"
                     b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in range(3):  # 96 kB of a body that never ends
            conn.sendall(b"%x\r\n" % len(part) + part + b"\r\n")
        answer = json_answer(conn)  # times out if the server is still waiting for the body's end
    assert answer.startswith(b"HTTP/1.1 413") and b"more than 65536 bytes" in answer


def test_a_full_queue_answers_503_with_retry_after(voice):
    with serving(voice, ServerSettings(max_queue=1)) as (url, _):
        # minutes of audio: the server is still making it while the second request comes
        with httpx.stream("POST", f"{url}/v1/audio/speech", json={"model": "m", "input": LONG * 20, "voice": "v"},
                          timeout=120) as first:
            received = first.iter_bytes()  # kept: a dropped iterator closes the stream
            next(received)  # one request in progress
            assert httpx.get(f"{url}/healthz").json()["in_progress"] == 1
            r = httpx.post(f"{url}/v1/audio/speech", json={"model": "m", "input": "你好", "voice": "v"}, timeout=60)
            assert r.status_code == 503 and r.headers["retry-after"] == "1"


def test_a_client_that_stops_reading_is_dropped_at_the_timeout_and_frees_its_place(voice):
    """A client that keeps its socket open but reads nothing stalls the server's sends: past --timeout the
    server drops the connection, so the request no longer holds a place in the queue."""
    with serving(voice, ServerSettings(timeout_s=2, max_queue=1)) as (url, srv):
        body = ('{"model": "m", "voice": "v", "response_format": "pcm", "input": "%s"}' % (LONG * 20)).encode()
        with socket.socket() as conn:
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # minutes of audio, and no room for it
            conn.connect(raw_address(url))
            conn.sendall(b"POST /v1/audio/speech HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n" % len(body) + body)
            deadline = time.time() + 30
            while httpx.get(f"{url}/healthz").json()["in_progress"]:
                assert time.time() < deadline, "a client that reads nothing still holds its place"
                time.sleep(0.2)
            assert httpx.post(f"{url}/v1/audio/speech", json={"model": "m", "input": "你好", "voice": "v"},
                              timeout=60).status_code == 200  # its place is free (max_queue=1)
        metrics = srv.config.app.state.metrics
        assert metrics.errors.labels("stalled_client")._value.get() == 1


def test_a_body_that_does_not_arrive_within_the_timeout_gets_408(voice):
    with serving(voice, ServerSettings(timeout_s=1)) as (url, _):
        with socket.create_connection(raw_address(url), timeout=30) as conn:
            conn.sendall(b"POST /v1/audio/speech HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100\r\n\r\n{")  # and nothing more
            answer = json_answer(conn)
        assert answer.startswith(b"HTTP/1.1 408") and b"did not arrive within 1 s" in answer


def test_metrics_are_prometheus_text(server):
    url, _ = server
    post(url, {"model": "m", "input": "你好。", "voice": "v"})
    text = httpx.get(f"{url}/metrics").text
    for name in ("cantoedge_requests_total", "cantoedge_queue_length", "cantoedge_ttfb_seconds_bucket",
                 "cantoedge_rtf_bucket", "cantoedge_batch_size_bucket", "cantoedge_errors_total"):
        assert name in text, name


@pytest.mark.slow  # a second server with a batching window, and many clients
def test_concurrent_requests_windows_are_batched(voice):
    import re

    with serving(voice, ServerSettings(batch_window_ms=50, max_batch=8)) as (url, _):
        results = {}

        def one(i):
            results[i] = httpx.post(f"{url}/v1/audio/speech", timeout=120, json={
                "model": "m", "input": LONG[: 40 + 7 * i], "voice": "v", "response_format": "pcm"})

        threads = [threading.Thread(target=one, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(r.status_code == 200 and len(r.content) > 22050 for r in results.values())
        text = httpx.get(f"{url}/metrics").text
        alone = float(re.search(r'cantoedge_batch_size_bucket\{le="1.0"\} (\S+)', text).group(1))
        calls = float(re.search(r"cantoedge_batch_size_count (\S+)", text).group(1))
        assert calls > alone  # some graph calls carried windows of several requests
    reference = Voice.load(threads=1, warmup=False, cache_bytes=0)
    for i, r in results.items():  # and each request still got its own speech
        expected = np.concatenate([c.audio for c in reference.synthesize(LONG[: 40 + 7 * i])]).astype(int)
        got = np.frombuffer(r.content, "<i2").astype(int)
        assert got.shape == expected.shape and np.abs(got - expected).max() <= 4


def test_elevenlabs_shaped_endpoints(server, reference):
    import base64

    url, _ = server
    auth = {"Authorization": "Bearer s3cret"}
    expected = np.concatenate([c.audio for c in reference.synthesize("早晨，你好。")])
    body = {"text": "早晨，你好。", "model_id": "cantoedge-yue"}
    whole = httpx.post(f"{url}/v1/text-to-speech/yue/stream", json=body, headers=auth, timeout=60)
    assert whole.status_code == 200 and whole.headers["content-type"] == "audio/pcm"
    np.testing.assert_array_equal(np.frombuffer(whole.content, "<i2"), expected)
    wav = httpx.post(f"{url}/v1/text-to-speech/yue?output_format=wav_22050", json=body, headers=auth, timeout=60)
    np.testing.assert_array_equal(pcm_from_wav_stream(wav.content), expected)
    timed = httpx.post(f"{url}/v1/text-to-speech/yue/with-timestamps", json=body, headers=auth, timeout=60).json()
    np.testing.assert_array_equal(np.frombuffer(base64.b64decode(timed["audio_base64"]), "<i2"), expected)
    alignment = timed["alignment"]
    assert alignment["characters"] == ["早", "晨", "你", "好"]
    starts, ends = alignment["character_start_times_seconds"], alignment["character_end_times_seconds"]
    assert all(a < b for a, b in zip(starts, ends)) and starts == sorted(starts)
    assert ends[-1] <= expected.size / 22050
    bad = httpx.post(f"{url}/v1/text-to-speech/yue?output_format=mp3_44100_128", json=body, headers=auth)
    assert bad.status_code == 422 and "output_format" in bad.json()["error"]["message"]
    slow = httpx.post(f"{url}/v1/text-to-speech/yue", json={**body, "voice_settings": {"speed": 9}}, headers=auth)
    assert slow.status_code == 422 and "speed" in slow.json()["error"]["message"]
    assert httpx.post(f"{url}/v1/text-to-speech/yue", json={"text": ""}, headers=auth).status_code == 422
    for wrong in ("fast", -1, [1]):  # not an object: a clear 422, where it was a 500
        r = httpx.post(f"{url}/v1/text-to-speech/yue", json={**body, "voice_settings": wrong}, headers=auth)
        assert r.status_code == 422 and "voice_settings" in r.json()["error"]["message"]
    r = httpx.post(f"{url}/v1/text-to-speech/yue/sing", json=body, headers=auth)
    assert r.status_code == 404 and "stream" in r.json()["error"]["message"]


def test_elevenlabs_rates_and_mu_law_are_the_voice_resampled_as_it_streams(server, reference):
    from cantoedge.runtime.resample import Resampler, ulaw_encode
    from cantoedge.runtime.wavio import pcm16

    url, _ = server
    auth = {"Authorization": "Bearer s3cret"}
    body = {"text": "早晨，你好。"}
    voice_pcm = np.concatenate([c.audio for c in reference.synthesize("早晨，你好。")])
    resampler = Resampler(22050, 16000)  # what the server runs on each chunk, as one piece: the same samples
    expected = pcm16(np.concatenate([resampler.resample(voice_pcm / np.float32(32767)), resampler.flush()]))
    got = httpx.post(f"{url}/v1/text-to-speech/yue/stream?output_format=pcm_16000", json=body, headers=auth,
                     timeout=60)
    assert got.status_code == 200 and got.headers["content-type"] == "audio/pcm"
    got = np.frombuffer(got.content, "<i2").astype(int)
    assert got.shape == expected.shape and np.abs(got - expected).max() <= 1  # float rounding across chunks
    wav = httpx.post(f"{url}/v1/text-to-speech/yue?output_format=wav_44100", json=body, headers=auth, timeout=60)
    assert int.from_bytes(wav.content[24:28], "little") == 44100  # the header says the rate it carries
    assert abs(pcm_from_wav_stream(wav.content).size - 2 * voice_pcm.size) <= 1
    resampler = Resampler(22050, 8000)
    ulaw = httpx.post(f"{url}/v1/text-to-speech/yue?output_format=ulaw_8000", json=body, headers=auth, timeout=60)
    assert ulaw.headers["content-type"] == "audio/basic"
    expected = ulaw_encode(pcm16(np.concatenate([resampler.resample(voice_pcm / np.float32(32767)),
                                                          resampler.flush()])))
    codes = np.frombuffer(ulaw.content, np.uint8)
    assert codes.shape == expected.shape and np.mean(codes != expected) < 1e-3


def test_flac_streams_and_decodes_to_the_same_samples(server, reference):
    import soundfile

    url, _ = server
    r = post(url, {"model": "m", "input": "早晨，你好。", "voice": "v", "response_format": "flac"})
    assert r.status_code == 200 and r.headers["content-type"] == "audio/flac" and r.content[:4] == b"fLaC"
    expected = np.concatenate([c.audio for c in reference.synthesize("早晨，你好。")])
    data = bytearray(r.content)  # a stream leaves the total unknown; a file reader wants it: fill it in
    field = int.from_bytes(data[18:26], "big") | expected.size
    data[18:26] = field.to_bytes(8, "big")
    decoded, rate = soundfile.read(io.BytesIO(bytes(data)), dtype="int16")
    assert rate == 22050
    np.testing.assert_array_equal(decoded, expected)


def test_batching_gives_the_shared_window_pool_threads_for_full_batches():
    """Every request keeps its windows in flight (a lone request vocodes as fast as unbatched), and the window
    pool all requests share has enough threads to fill every batcher: with only the voice's own few it let that
    many windows reach the vocoder's batcher at once and capped every batch there."""
    from cantoedge.runtime.batcher import BatchingRunner

    voice = Voice.load(threads=2, warmup=False, cache_bytes=0)
    try:
        create_app(voice, ServerSettings(batch_window_ms=5.0, max_batch=8))
        assert voice.workers == 2 and isinstance(voice.vocoder, BatchingRunner)
        assert len(voice.vocoder._threads) == 2  # two batches at once, on the two cores asked for
        assert voice._window_pool()._max_workers == 16  # two batchers' worth of full batches
        assert voice.longest_window == voice.chunk  # concurrent requests' windows share one length to batch
    finally:
        voice.close()
    unbatched = Voice.load(threads=2, warmup=False, cache_bytes=0)
    try:
        create_app(unbatched, ServerSettings(batch_window_ms=0.0))
        # two requests' steps at once, the most urgent first, each vocoding its own windows: a window queued on
        # a shared pool would wait behind every stream's queued windows, whatever its deadline
        assert unbatched.workers == 1
        assert unbatched.longest_window == unbatched.chunk  # a step holds a core for one graph chunk, as measured
    finally:
        unbatched.close()


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=8)
FIELDS = st.sampled_from(["input", "text", "response_format", "speed", "voice_settings", "model", "voice"])


@settings(max_examples=300, deadline=None)
@given(body=st.one_of(JSON, st.dictionaries(FIELDS, JSON | st.sampled_from(["你好", "wav", "flac", 1.0]), max_size=5)))
def test_any_json_body_is_parsed_or_refused_with_an_api_error(body):
    """What a client sends is either a request or an ApiError (a 4xx with a message), never another exception
    (a list as response_format and a string as voice_settings were 500s)."""
    import json

    raw = json.dumps(body).encode()
    for parse in (parse_speech_request, parse_elevenlabs_request):
        try:
            parse(raw, ServerSettings())
        except ApiError as exc:
            assert 400 <= exc.status < 500 and exc.message
