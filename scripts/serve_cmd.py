"""``cantoedge serve``: the voice over HTTP, OpenAI's speech API shape (device side: Starlette, uvicorn,
prometheus-client and one backend; no torch)."""

from __future__ import annotations

import argparse

from cantoedge.runtime.backends.loading import BACKENDS

from .validate import existing_dir, float_in, int_in, max_threads


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="serve the voice over HTTP (OpenAI speech API, streaming, Prometheus metrics)",
                       description="POST /v1/audio/speech ({model, input, voice, response_format wav|pcm|flac, speed}) "
                                   "streams the speech with chunked transfer as each window is made; GET /healthz, "
                                   "/v1/models, /metrics (Prometheus). Binds 127.0.0.1 unless told otherwise. "
                                   "Needs the extra: pip install 'cantoedge[serve]'.")
    p.add_argument("--voice", type=existing_dir, help="a built voice folder (default: as `say` finds one)")
    p.add_argument("--backend", choices=BACKENDS, default="auto",
                   help="backend for the voice folder (default: its own)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1: this machine only; beyond it, put a reverse proxy in "
                        "front, as the server sets no time limit on a request's headers)")
    p.add_argument("--port", type=int_in(1, 65535), default=8880, help="port, 1..65535 (default 8880)")
    p.add_argument("--token", help="require 'Authorization: Bearer TOKEN' on /v1 requests")
    p.add_argument("--max-queue", type=int_in(1, 1024), default=16,
                   help="requests in progress at once, 1..1024; more get 503 with Retry-After (default 16)")
    p.add_argument("--max-chars", type=int_in(1, 20000), default=4096,
                   help="characters per request, 1..20000 (default 4096)")
    p.add_argument("--timeout", type=float_in(1, 3600), default=120.0,
                   help="seconds a request may take, 1..3600 (default 120): its body must arrive within it (else "
                        "408), its stream ends at it, and a client that stops reading is dropped then")
    p.add_argument("--batch-window-ms", type=float_in(0, 100),
                   help="dynamic batching: how long a window waits for others' windows while several requests are "
                        "active, 0..100 ms (0: no batching; default 5 on a TensorRT folder, 0 elsewhere: on CPU "
                        "cores batching cost 14-30 %% of the throughput, measured)")
    p.add_argument("--max-batch", type=int_in(1, 64), default=8, help="windows per batched call, 1..64 (default 8)")
    p.add_argument("--threads", type=int_in(1, max_threads()),
                   help=f"cores the server's synthesis may use, 1..{max_threads()}, one onnxruntime thread each: "
                        "without batching, that many requests' windows at once, the most urgent first; with it, "
                        "that many of each request's windows at once (default: the cores here, at most 4)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        raise RuntimeError("serve needs its extra: pip install 'cantoedge[serve]'") from None
    from cantoedge.runtime.server import ServerSettings, create_app
    from cantoedge.runtime.synth import Voice

    voice = Voice.load(args.voice, args.backend, args.threads)
    window = args.batch_window_ms
    if window is None:  # batch where a batch costs little more than one window: a GPU
        window = 5.0 if voice.vocoder.backend == "trt" else 0.0
    settings = ServerSettings(token=args.token, max_queue=args.max_queue, max_chars=args.max_chars,
                              timeout_s=args.timeout, batch_window_ms=window, max_batch=args.max_batch)
    batching = f"batching windows {window:g} ms" if window > 0 else "no batching"
    print(f"cantoedge serve: {voice.precision} voice on {'+'.join(dict.fromkeys(voice.backends.values()))}, "
          f"windows at once per request: {voice.workers}, {batching}, http://{args.host}:{args.port}/v1/audio/speech")
    try:
        uvicorn.run(create_app(voice, settings), host=args.host, port=args.port, log_level="warning")
    finally:
        voice.close()
    return 0
