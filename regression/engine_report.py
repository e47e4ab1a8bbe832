"""Accuracy of built voice folders (any backend) against the FP32 ONNX voice on held-out utterances, and each
backend's time per decoder and vocoder window, as one table (numpy and the backends only)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from cantoedge.runtime.enginefolder import EngineManifest
from cantoedge.runtime.manifest import load_features, split_records
from cantoedge.runtime.synth import Voice

from .compare import compare_builds, render_reference
from .latency import time_runner, typical_feeds
from .metrics import MetricError, f0_rmse_cents, snr_db, summarize, summary_cell
from .toneset import corpus_speaker_stats

GRAPH_UTTERANCES = 10  # utterances for the per-graph errors (each vocoder window is compared)


@dataclass(frozen=True)
class EngineRow:
    name: str
    target: str
    precision: str
    backends: str  # which backend ran encoder/decoder/vocoder
    utterances: int
    tone_band_db: dict
    f0_cents: dict
    mel_l1: dict
    tone_accuracy: float
    reference_tone_accuracy: float
    decoder_ms: float  # median of one window, batch 1
    vocoder_ms: float
    decoder_f0_cents: dict  # per utterance, RMS over frames voiced in both: the decoder graph alone
    vocoder_snr_db: dict  # per window, the FP32 decoder's mel and F0 vocoded by both: the vocoder graph alone
    vocoder_snr_min: float


def engine_report(reference_dir: Path, folders: dict[str, Path], corpus: Path, split: str = "test",
                  limit: int = 50, repeats: int = 10, threads: int | None = 1,
                  progress: Callable[[Iterable], Iterable] | None = None) -> list[EngineRow]:
    """Each folder against the FP32 graphs in ``reference_dir``, utterance by utterance (the candidate expands
    with the FP32 durations so every frame lines up)."""
    whole_split = split_records(Path(corpus), split)
    records = whole_split[:limit]
    if not records:
        raise ValueError(f"{corpus} has no {split} utterances")
    stats = corpus_speaker_stats(Path(corpus), whole_split)
    reference = Voice(reference_dir, "fp32", threads=threads)
    ref = render_reference(reference, records, lambda r: load_features(Path(corpus), r), progress)
    first = ref.features[0]
    feeds, _ = typical_feeds(reference, first["tokens"], first["tones"])
    rows = []
    for name, folder in folders.items():
        manifest = EngineManifest.load(folder)
        voice = Voice.load(folder, threads=threads)
        try:
            (base, c) = compare_builds(ref, {name: voice}, progress=progress, stats=stats)
            j = c.to_json()
            dec_f0, snr = graph_errors(reference, voice, ref, GRAPH_UTTERANCES)
            dec_ms, _ = time_runner(voice.decoder, feeds["decoder"], repeats, warmup=1)
            voc_ms, _ = time_runner(voice.vocoder, feeds["vocoder"], repeats, warmup=1)
        finally:
            voice.close()
        backends = "/".join(voice.backends[g] for g in ("encoder", "decoder", "vocoder"))
        rows.append(EngineRow(name, manifest.target, manifest.precision, backends, c.utterances, j["tone_band_db"],
                              j["f0_cents"], j["mel_l1"], c.tone_accuracy, base.tone_accuracy, dec_ms, voc_ms,
                              summarize(dec_f0), summarize(snr), min(snr, default=float("nan"))))
    return rows


def graph_errors(reference: Voice, voice: Voice, ref, limit: int) -> tuple[list[float], list[float]]:
    """Each graph alone against FP32 on the first ``limit`` utterances: the decoder's F0 (cents RMS on frames
    voiced in both, same inputs) and the vocoder's SNR per window (the FP32 decoder's mel and F0 in both)."""
    f0_cents, snr = [], []
    for f, base in list(zip(ref.features, ref.rendered))[:limit]:
        frames, position, _ = reference.encode_tokens(f["tokens"], f["tones"], durations=base.own_durations)
        mel, f0 = reference.decode(frames, position)
        _, f0_other = voice.decode(frames, position)
        try:
            f0_cents.append(f0_rmse_cents(f0_other, f0))
        except MetricError:
            pass  # no frame voiced in both
        for feeds, w in voice.vocoder_feeds(mel, f0):  # the build's own windows (fixed on engines), the FP32 input
            snr.append(snr_db(reference.vocode_window(feeds, w), voice.vocode_window(feeds, w)))
    return f0_cents, snr


def markdown(rows: list[EngineRow]) -> str:
    lines = ["| build | backends (enc/dec/voc) | tone-band vs FP32 (dB) | F0 RMSE vs FP32 (cents) | tone accuracy "
             "(FP32's, change) | mel L1 vs FP32 | decoder F0 vs FP32 (cents) | vocoder SNR per window (dB; min) | "
             "decoder window (ms) | vocoder window (ms) |", "|---" * 10 + "|"]
    for r in rows:
        drop = 100 * (r.tone_accuracy - r.reference_tone_accuracy)
        snr = (f"{r.vocoder_snr_db['median']:.1f}; {r.vocoder_snr_min:.1f}" if r.vocoder_snr_db["n"] else "–")
        lines.append(f"| {r.name} | {r.backends} | {summary_cell(r.tone_band_db, '.3f')} | "
                     f"{summary_cell(r.f0_cents, '.1f')} | "
                     f"{100 * r.tone_accuracy:.1f} % ({100 * r.reference_tone_accuracy:.1f} %, {drop:+.1f}) | "
                     f"{summary_cell(r.mel_l1, '.3f')} | {summary_cell(r.decoder_f0_cents, '.2f')} | {snr} | "
                     f"{r.decoder_ms:.1f} | {r.vocoder_ms:.1f} |")
    n = rows[0].utterances if rows else 0
    lines.append(f"\n{n} held-out utterances, medians (p95); decoder F0 and vocoder SNR: each graph alone on the "
                 f"first {GRAPH_UTTERANCES}; window times: median of one 128-frame window, batch 1, on the backend "
                 "that runs it (RKNN: rknn-toolkit2's PC simulator, not the NPU).")
    return "\n".join(lines) + "\n"


def to_json(rows: list[EngineRow]) -> str:
    return json.dumps([asdict(r) for r in rows], indent=1) + "\n"
