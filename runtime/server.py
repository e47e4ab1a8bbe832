"""`cantoedge serve`: the voice over HTTP (Starlette on uvicorn, prometheus-client; no hand-written HTTP or
metrics code). OpenAI's speech API shape, streamed with chunked transfer as each window is made; a bounded
queue (503 with Retry-After), body and text limits (413, 422), a per-request time limit (a client that stops
reading is dropped at it), bearer-token auth, and a client that disconnects stops its synthesis at the next window.

Requests share one voice. With batching (the default), each request synthesises in its own worker thread
and the decoder's and vocoder's windows of concurrent requests run together as one batched graph call
(runtime/batcher.py: up to ``max_batch``, gathered for at most ``batch_window_ms`` while others are active).
Without it, each step of each request (one window) takes its turn, earliest deadline first: a request's first
window is due when it arrives, each later one when the audio sent so far would have played out in real time
(runtime/scheduling.py)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from .audio import AUDIO
from .batcher import BatchingRunner
from .flac import FlacEncoder
from .flac import stream_header as flac_header
from .limits import SPEED_MAX, SPEED_MIN, finite_within
from .resample import Resampler, ulaw_encode
from .scheduling import DeadlineSemaphore
from .speech import SynthesisConfig
from .synth import Voice
from .wavio import pcm16

FORMATS = {"wav": "audio/wav", "pcm": "audio/pcm", "flac": "audio/flac"}  # pcm: raw 16-bit LE mono, 22,050 Hz
# OpenAI's stream_format: the audio's bytes as they are made, or server-sent events carrying them in base64
STREAM_FORMATS = ("audio", "sse")
# ElevenLabs' output formats, container_rate: the voice's own 22,050 Hz as it is, the others resampled as they
# stream (runtime/resample.py); ulaw_8000 is G.711 mu-law for telephony. No mp3 or opus: no encoder on the device.
OUTPUT_RATES = (8000, 16000, 22050, 24000, 44100, 48000)
ELEVENLABS_FORMATS = {**{f"pcm_{r}": "audio/pcm" for r in OUTPUT_RATES},
                      **{f"wav_{r}": "audio/wav" for r in OUTPUT_RATES}, "ulaw_8000": "audio/basic"}
ELEVENLABS_MODES = ("", "stream", "with-timestamps")  # /v1/text-to-speech/{voice_id}[/mode]
MODEL_ID = "cantoedge-yue"
log = logging.getLogger(__name__)
# after a request's --timeout, how long one send may still wait for a client to read before it is dropped
SEND_GRACE_S = 1.0


@dataclass(frozen=True)
class ServerSettings:
    token: str | None = None  # bearer token every /v1 request must carry
    max_queue: int = 16  # requests in progress at once; more get 503
    max_body_bytes: int = 64 * 1024
    max_chars: int = 4096  # per request (OpenAI's own limit for this endpoint)
    timeout_s: float = 120.0  # by then a body has arrived (else 408) and a stream ends (a stalled client is dropped)
    retry_after_s: int = 1
    batch_window_ms: float = 5.0  # 0: no batching
    max_batch: int = 8


@dataclass(frozen=True)
class SpeechRequest:
    """An OpenAI speech request, validated: what to say, in which format, how, and whether as events."""
    text: str
    fmt: str
    config: SynthesisConfig
    sse: bool = False


class ApiError(Exception):
    def __init__(self, status: int, message: str, kind: str = "invalid_request_error"):
        super().__init__(message)
        self.status, self.message, self.kind = status, message, kind


def streaming_wav_header(sample_rate: int) -> bytes:
    """A WAV header for a stream of unknown length: the sizes say 'as much as follows' (0xFFFFFFFF), which
    players and the wave readers of ffmpeg and browsers accept for streamed audio."""
    import struct

    byte_rate = sample_rate * 2
    return (b"RIFF" + struct.pack("<I", 0xFFFFFFFF) + b"WAVE" + b"fmt " +
            struct.pack("<IHHIIHH", 16, 1, 1, sample_rate, byte_rate, 2, 16) + b"data" + struct.pack("<I", 0xFFFFFFFF))


class Metrics:
    """The server's Prometheus metrics, in a registry of its own (several apps in one process stay apart)."""

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.registry = CollectorRegistry()
        self.requests = Counter("cantoedge_requests", "HTTP requests by endpoint and status",
                                ["endpoint", "status"], registry=self.registry)
        self.errors = Counter("cantoedge_errors", "requests that ended in an error, by kind", ["kind"],
                              registry=self.registry)
        self.queue = Gauge("cantoedge_queue_length", "speech requests in progress", registry=self.registry)
        self.batch = Histogram("cantoedge_batch_size", "windows run together in one graph call",
                               buckets=(1, 2, 4, 8, 16), registry=self.registry)
        self.ttfb = Histogram("cantoedge_ttfb_seconds", "request to first audio byte",
                              buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5), registry=self.registry)
        self.rtf = Histogram("cantoedge_rtf", "synthesis time / audio duration per request",
                             buckets=(0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1), registry=self.registry)
        self.windows = Counter("cantoedge_windows", "vocoder windows synthesised", registry=self.registry)
        self.disconnects = Counter("cantoedge_disconnects", "streams stopped because the client left",
                                   registry=self.registry)


def json_object(body: bytes, settings: ServerSettings) -> dict:
    """The request body as a JSON object within the size limit (413, 400 otherwise)."""
    if len(body) > settings.max_body_bytes:
        raise ApiError(413, f"request body is {len(body)} bytes; the limit is {settings.max_body_bytes}")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, f"the body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data


def text_field(data: dict, name: str, settings: ServerSettings) -> str:
    text = data.get(name)
    if not isinstance(text, str) or not text.strip():
        raise ApiError(422, f"'{name}' must be a non-empty string")
    if len(text) > settings.max_chars:
        raise ApiError(422, f"'{name}' is {len(text)} characters; the limit is {settings.max_chars}")
    return text


def speed_config(speed, name: str) -> SynthesisConfig:
    if not finite_within(speed, SPEED_MIN, SPEED_MAX):
        raise ApiError(422, f"'{name}' must be a number within {SPEED_MIN:g}..{SPEED_MAX:g}, got {speed!r}")
    return SynthesisConfig(speed=float(speed))


def parse_speech_request(body: bytes, settings: ServerSettings) -> SpeechRequest:
    """The OpenAI speech request's fields, validated before any synthesis."""
    data = json_object(body, settings)
    text = text_field(data, "input", settings)
    fmt = data.get("response_format", "wav")
    if not isinstance(fmt, str) or fmt not in FORMATS:
        raise ApiError(422, f"'response_format' must be one of {', '.join(FORMATS)}, got {fmt!r}")
    stream_format = data.get("stream_format", "audio")
    if not isinstance(stream_format, str) or stream_format not in STREAM_FORMATS:
        raise ApiError(422, f"'stream_format' must be one of {', '.join(STREAM_FORMATS)}, got {stream_format!r}")
    return SpeechRequest(text, fmt, speed_config(data.get("speed", 1.0), "speed"), stream_format == "sse")


def sse_event(event: dict) -> bytes:
    """One server-sent event carrying ``event`` as JSON."""
    return b"data: " + json.dumps(event, separators=(",", ":")).encode() + b"\n\n"


def parse_elevenlabs_request(body: bytes, settings: ServerSettings) -> tuple[str, SynthesisConfig]:
    """ElevenLabs' request: ``text`` and optional ``voice_settings.speed`` (model_id is accepted, not used)."""
    data = json_object(body, settings)
    text = text_field(data, "text", settings)
    voice_settings = data.get("voice_settings") or {}
    if not isinstance(voice_settings, dict):
        raise ApiError(422, f"'voice_settings' must be an object, got {json.dumps(voice_settings)[:80]}")
    return text, speed_config(voice_settings.get("speed", 1.0), "voice_settings.speed")


def character_alignment(graphemes: list[str], syllables: list) -> dict:
    """ElevenLabs' alignment: each spoken character (one per syllable; digits and letters as the normaliser
    wrote them out) with its syllable's start and end in seconds."""
    return {"characters": list(graphemes[: len(syllables)]),
            "character_start_times_seconds": [round(s.start, 3) for s in syllables],
            "character_end_times_seconds": [round(s.end, 3) for s in syllables]}


def create_app(voice: Voice, settings: ServerSettings | None = None):
    """The ASGI application serving ``voice``."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    settings = settings or ServerSettings()
    metrics = Metrics()
    in_progress = [0]
    batching = settings.batch_window_ms > 0
    voice.longest_window = voice.chunk  # windows of one length, as the batcher and the step scheduling were measured
    if batching:  # the app owns the voice from here: its decoder and vocoder batch across requests
        for name in ("decoder", "vocoder"):
            setattr(voice, name, BatchingRunner(getattr(voice, name), settings.batch_window_ms, settings.max_batch,
                                                active=lambda: in_progress[0], on_batch=metrics.batch.observe,
                                                threads=voice.workers))
        # each request keeps its windows in flight (a lone request vocodes as fast as unbatched), and the window
        # pool they share gets enough threads for every batcher to gather a full batch: with only ``workers``
        # threads it let that few windows reach the vocoder's batcher at once and capped every batch there
        voice.pool_threads = voice.workers * settings.max_batch
    turns = None
    if not batching:  # a step (a window) per core at once, the most urgent first; each request vocodes its own
        turns = DeadlineSemaphore(voice.workers)  # windows in its step, as the pool's FIFO queue would let a new
        voice.workers = 1  # request's first window wait behind every stream's queued windows

    class TimedStream(StreamingResponse):
        """A stream whose every send must go out before the request's deadline (``--timeout`` after it arrived):
        a client that stops reading and keeps its socket open would otherwise hold its place in the queue for
        as long as it liked, as the send waits for room in the socket. Past the deadline the connection is
        dropped, not ended, so the client cannot take the cut audio for the whole."""

        def __init__(self, content, started: float, **kwargs):
            super().__init__(content, **kwargs)
            self.deadline = started + settings.timeout_s

        async def stream_response(self, send) -> None:
            async def timed(message) -> None:
                # the stream's own check ends a slow request cleanly first; this catches a send that never returns
                await asyncio.wait_for(send(message), max(self.deadline - time.perf_counter(), 0.0) + SEND_GRACE_S)

            try:
                await super().stream_response(timed)
            except TimeoutError:
                metrics.errors.labels("stalled_client").inc()
                log.warning("dropped a client that stopped reading for %g s", settings.timeout_s)
                await self.body_iterator.aclose()  # its place in the queue and its synthesis end here

    def error(endpoint: str, exc: ApiError) -> JSONResponse:
        metrics.requests.labels(endpoint, str(exc.status)).inc()
        metrics.errors.labels(exc.kind).inc()
        headers = {"Retry-After": str(settings.retry_after_s)} if exc.status == 503 else None
        return JSONResponse({"error": {"message": exc.message, "type": exc.kind, "code": exc.status}},
                            status_code=exc.status, headers=headers)

    def authorise(request: Request) -> None:
        if settings.token and request.headers.get("authorization") != f"Bearer {settings.token}":
            raise ApiError(401, "missing or wrong bearer token", "authentication_error")

    def next_chunk(chunks: Iterator, deadline: float):
        """The request's next chunk; ``deadline`` (perf_counter seconds) is when its listener needs it."""
        with turns.hold(deadline) if turns is not None else contextlib.nullcontext():
            return next(chunks, None)

    async def admitted(request: Request, parse) -> tuple:
        """Auth, body size, the endpoint's own parsing (``parse(body) -> (text, config, ...)``), then the queue:
        all before any synthesis starts."""
        authorise(request)
        declared = int(request.headers.get("content-length") or 0)
        if declared > settings.max_body_bytes:
            raise ApiError(413, f"request body is {declared} bytes; the limit is {settings.max_body_bytes}")
        try:  # a body that dribbles in would hold its connection open for as long as its client liked
            body = await asyncio.wait_for(bounded_body(request), settings.timeout_s)
        except TimeoutError:
            raise ApiError(408, f"the request body did not arrive within {settings.timeout_s:g} s") from None
        parsed = parse(body)
        if in_progress[0] >= settings.max_queue:
            raise ApiError(503, f"{in_progress[0]} requests are in progress (the limit): try again shortly",
                           "overloaded")
        return parsed

    async def bounded_body(request: Request) -> bytes:
        """The body as it arrives, refused once it passes the limit: a chunked body declares no length, and
        reading it whole first let one client fill the device's memory before the 413."""
        body = bytearray()
        async for part in request.stream():
            body += part
            if len(body) > settings.max_body_bytes:
                raise ApiError(413, f"request body is more than {settings.max_body_bytes} bytes (the limit)")
        return bytes(body)

    async def start(text: str, config: SynthesisConfig, started: float):
        """The request's chunk iterator and its first chunk: errors before any byte become a JSON error."""
        in_progress[0] += 1
        metrics.queue.set(in_progress[0])
        chunks = voice.synthesize(text, config)
        try:
            return chunks, await run_in_threadpool(next_chunk, chunks, started)
        except ValueError as exc:
            finish(chunks)
            raise ApiError(422, str(exc)) from None

    def finish(chunks) -> None:
        chunks.close()  # a client that left stops the synthesis here, between windows
        in_progress[0] -= 1
        metrics.queue.set(in_progress[0])

    def encoder(fmt: str, rate: int):
        """(encode, end) for a stream: int16 chunks at the voice's rate -> bytes of ``fmt`` at ``rate``, and the
        bytes that end it; which one is decided once, not per chunk."""
        if fmt == "flac":
            flac = FlacEncoder(AUDIO.sample_rate)
            return flac.add, flac.finish

        def to_bytes(pcm):
            return ulaw_encode(pcm).tobytes() if fmt == "ulaw" else pcm.astype("<i2").tobytes()

        if rate == AUDIO.sample_rate:
            return to_bytes, lambda: b""
        resampler = Resampler(AUDIO.sample_rate, rate)
        return (lambda pcm: to_bytes(pcm16(resampler.resample(pcm / np.float32(32767)))),
                lambda: to_bytes(pcm16(resampler.flush())))

    async def stream(chunks, first, started: float, fmt: str = "pcm", timings: list | None = None,
                     rate: int = AUDIO.sample_rate):
        """Each chunk's audio in ``fmt`` at ``rate`` as it is made; ``timings`` collects the syllables as they
        come."""
        samples, finished, chunk = 0, False, first
        encode, end = encoder(fmt, rate)
        head = {"wav": streaming_wav_header(rate), "flac": flac_header(AUDIO.sample_rate)}.get(fmt, b"")
        try:
            if head:
                yield head
            metrics.ttfb.observe(time.perf_counter() - started)
            while chunk is not None:
                metrics.windows.inc()
                if not batching:
                    metrics.batch.observe(1)
                samples += chunk.audio.size
                if timings is not None:
                    timings.extend(chunk.syllables)
                yield encode(chunk.audio)
                if time.perf_counter() - started > settings.timeout_s:
                    metrics.errors.labels("timeout").inc()
                    break
                chunk = await run_in_threadpool(next_chunk, chunks, started + samples / AUDIO.sample_rate)
            finished = chunk is None
            tail = end()
            if tail:
                yield tail
            if samples:
                metrics.rtf.observe((time.perf_counter() - started) / (samples / AUDIO.sample_rate))
        finally:
            if not finished:
                metrics.disconnects.inc()
            finish(chunks)

    async def speech(request: Request):
        started = time.perf_counter()
        try:
            asked = await admitted(request, lambda body: parse_speech_request(body, settings))
            chunks, first = await start(asked.text, asked.config, started)
        except ApiError as exc:
            return error("speech", exc)
        metrics.requests.labels("speech", "200").inc()
        if not asked.sse:
            return TimedStream(stream(chunks, first, started, asked.fmt), started, media_type=FORMATS[asked.fmt])
        return TimedStream(speech_events(asked, chunks, first, started), started, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Audio-Media-Type": FORMATS[asked.fmt]})

    async def speech_events(asked: SpeechRequest, chunks, first, started: float):
        """OpenAI's stream_format "sse": each piece of the audio stream as a speech.audio.delta event (its bytes
        in base64; decoded and joined they are the plain stream), then speech.audio.done with the usage, counted
        as the input's characters and the syllables spoken (the voice has no text tokens)."""
        timings: list = []
        async with contextlib.aclosing(stream(chunks, first, started, asked.fmt, timings)) as audio:
            async for piece in audio:
                if piece:
                    yield sse_event({"type": "speech.audio.delta", "audio": base64.b64encode(piece).decode()})
        usage = {"input_tokens": len(asked.text), "output_tokens": len(timings),
                 "total_tokens": len(asked.text) + len(timings)}
        yield sse_event({"type": "speech.audio.done", "usage": usage})

    async def elevenlabs(request: Request):
        """/v1/text-to-speech/{voice_id}[/stream|/with-timestamps] in the shapes the ElevenLabs API uses."""
        started, mode = time.perf_counter(), request.path_params.get("mode", "")
        try:
            if mode not in ELEVENLABS_MODES:
                raise ApiError(404, f"no endpoint /v1/text-to-speech/{{voice_id}}/{mode}: the modes are "
                                    f"{', '.join(m for m in ELEVENLABS_MODES if m)}", "not_found_error")
            fmt = request.query_params.get("output_format", "pcm_22050")
            if fmt not in ELEVENLABS_FORMATS:
                raise ApiError(422, f"output_format must be one of {', '.join(ELEVENLABS_FORMATS)}, got {fmt!r}")
            text, config = await admitted(request, lambda body: parse_elevenlabs_request(body, settings))
            chunks, first = await start(text, config, started)
        except ApiError as exc:
            return error("text-to-speech", exc)
        metrics.requests.labels("text-to-speech", "200").inc()
        container, rate_text = fmt.split("_")
        rate, media = int(rate_text), ELEVENLABS_FORMATS[fmt]
        if mode != "with-timestamps":
            return TimedStream(stream(chunks, first, started, container, rate=rate), started, media_type=media)
        timings: list = []
        audio = b"".join([piece async for piece in stream(chunks, first, started, container, timings, rate)])
        graphemes = voice.frontend(text).graphemes
        return JSONResponse({"audio_base64": base64.b64encode(audio).decode(),
                             "alignment": character_alignment(graphemes, timings),
                             "normalized_alignment": character_alignment(graphemes, timings)})

    async def healthz(request: Request):
        return JSONResponse({"status": "ok", "in_progress": in_progress[0], "precision": voice.precision,
                             "backends": voice.backends})

    async def models(request: Request):
        try:
            authorise(request)
        except ApiError as exc:
            return error("models", exc)
        return JSONResponse({"object": "list", "data": [{"id": MODEL_ID, "object": "model", "owned_by": "cantoedge"}]})

    async def metrics_endpoint(request: Request):
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    app = Starlette(routes=[Route("/v1/audio/speech", speech, methods=["POST"]),
                            Route("/v1/text-to-speech/{voice_id}", elevenlabs, methods=["POST"]),
                            Route("/v1/text-to-speech/{voice_id}/{mode:str}", elevenlabs, methods=["POST"]),
                            Route("/v1/models", models), Route("/healthz", healthz),
                            Route("/metrics", metrics_endpoint)])
    app.state.metrics = metrics
    return app


@contextlib.contextmanager
def serving_in_thread(app, host: str = "127.0.0.1", port: int = 0):
    """Run ``app`` under uvicorn in a background thread (tests, benchmarks); yields (base URL, server)."""
    import socket

    import uvicorn

    if port == 0:
        with socket.socket() as s:
            s.bind((host, 0))
            port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not server.started:
        if time.time() > deadline or not thread.is_alive():
            raise RuntimeError(f"the server did not start on {host}:{port}")
        time.sleep(0.02)
    try:
        yield f"http://{host}:{port}", server
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def pcm_from_wav_stream(data: bytes) -> np.ndarray:
    """The samples of a streamed WAV (header sizes unknown): what a client gets back, for tests and tools."""
    return np.frombuffer(data[44:], dtype="<i2")
