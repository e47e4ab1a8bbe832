"""`cantoedge regress`: every voice build present scored on the evaluation bundle, on the device, with numpy and
its backend only. Accuracy against the FP32 voice and against the recordings, per graph and end to end; latency
from cold start to RTF, with a per-stage breakdown; memory and engine sizes."""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from cantoedge.runtime.audio import AUDIO, log_mel
from cantoedge.runtime.inventory import syllable_index
from cantoedge.runtime.synth import Voice, length_regulate, predicted_durations

from .evalbundle import BUNDLE_FILE, BundleError, EvalBundle, EvalUtterance, fit_frames
from .metrics import MetricError, f0_rmse_cents, mel_l1, snr_db, summarize, tone_band_error_db
from .pitch import yin
from .targets import INT8_TARGETS
from .tones import ToneClassifier
from .toneset import evaluate, toneset_from

SNR_CEILING_DB = 100.0  # above this two renderings are equal within float rounding (FP32 against itself)
STAGES = ("frontend", "encoder", "length_regulator", "decoder", "vocoder", "io")
Progress = Callable[[Iterable], Iterable]


@dataclass(frozen=True)
class VoiceBuild:
    """One build to score: a built folder (its manifest says target and precision) or exported graphs."""

    name: str
    path: Path
    precision: str
    kind: str  # "folder" (cantoedge build) or "graphs" (cantoedge export/calibrate)
    backend: str = "auto"

    def open(self, threads: int) -> Voice:
        if self.kind == "folder":
            return Voice.load(self.path, backend=self.backend, threads=threads, warmup=False, cache_bytes=0)
        return Voice(self.path, self.precision, threads=threads)

    def sizes(self) -> dict[str, int]:
        if self.kind == "folder":
            return {p.name: p.stat().st_size for p in sorted(self.path.iterdir())
                    if p.is_file() and p.name not in ("manifest.json", BUNDLE_FILE) and not p.name.startswith(".")}
        suffix = "" if self.precision == "fp32" else f".{self.precision}"
        return {f"{g}{suffix}.onnx": (self.path / f"{g}{suffix}.onnx").stat().st_size
                for g in ("encoder", "decoder", "vocoder")}


def find_builds(paths: Iterable[Path], backend: str = "auto") -> list[VoiceBuild]:
    """What each path holds: a built folder is one build; an exported graph folder is one per precision found."""
    from cantoedge.runtime.enginefolder import MANIFEST_FILE, EngineManifest

    builds = []
    for path in map(Path, paths):
        if (path / MANIFEST_FILE).exists():
            m = EngineManifest.load(path)
            builds.append(VoiceBuild(f"{m.target}-{m.precision}", path, m.precision, "folder", backend))
            continue
        found = [p for p, suffix in (("fp32", ""), ("int8", ".int8"))
                 if all((path / f"{g}{suffix}.onnx").exists() for g in ("encoder", "decoder", "vocoder"))]
        if not found:
            raise ValueError(f"{path} holds neither a built voice (manifest.json) nor exported graphs "
                             "(encoder/decoder/vocoder.onnx)")
        if backend not in ("auto", "ort"):
            raise ValueError(f"{path} holds exported ONNX graphs, which run on onnxruntime, not {backend}")
        builds.extend(VoiceBuild(f"graphs-{p}", path, p, "graphs") for p in found)
    names = [b.name for b in builds]
    if len(set(names)) != len(names):
        raise ValueError(f"two builds would have the same name ({', '.join(names)}): pass each folder once")
    return builds


@dataclass
class BuildResult:
    name: str
    precision: str
    backends: str
    vs_fp32: dict  # end to end with the recording's durations: tone_band_db, f0_cents, mel_l1 summaries
    vs_recording: dict  # tone_accuracy, per_tone, f0_cents, mel_l1, vuv_error
    graphs: dict  # encoder / decoder / vocoder alone
    latency: dict  # cold start, TTFB, RTF, stages
    sizes: dict[str, int]
    targets_met: dict[str, bool] = field(default_factory=dict)  # INT8 targets (non-FP32 builds)
    plots: dict = field(default_factory=dict)  # arrays for the HTML page (not in the JSON)

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("plots")
        return d


@dataclass
class SuiteReport:
    bundle: str
    utterances: int
    reference: dict  # the recordings' and the FP32 voice's own tone accuracy (the ceilings)
    builds: list[BuildResult]
    machine: dict
    gate: dict | None = None  # what the baseline gate decided, when there was one

    def to_json(self) -> dict:
        return {"bundle": self.bundle, "utterances": self.utterances, "reference": self.reference,
                "machine": self.machine, "targets": INT8_TARGETS.to_json(),
                "builds": [b.to_json() for b in self.builds], "gate": self.gate}


def run_suite(bundle: EvalBundle, builds: list[VoiceBuild], threads: int = 1, repeats: int = 3,
              bundle_name: str = "", progress: Progress | None = None) -> SuiteReport:
    """Score every build on every utterance of the bundle."""
    classifier = ToneClassifier.load()
    utts = bundle.utterances
    reference = {"recording": _tone_report(classifier, [u.rec_f0 for u in utts], utts),
                 "fp32": _tone_report(classifier, [u.fp32_audio_f0 for u in utts], utts)}
    results = [score_build(build, bundle, classifier, threads, repeats, reference["fp32"]["accuracy"], progress)
               for build in builds]
    machine = {"python": sys.version.split()[0], "platform": sys.platform, "threads": threads,
               "peak_rss_mb": _peak_rss_mb()}
    return SuiteReport(bundle_name, len(utts), reference, results, machine)


def score_build(build: VoiceBuild, bundle: EvalBundle, classifier: ToneClassifier, threads: int, repeats: int,
                fp32_tone_accuracy: float, progress: Progress | None = None) -> BuildResult:
    """One build on every utterance; ``fp32_tone_accuracy`` (the FP32 voice's own, from the bundle) is what an
    INT8 build's tone-accuracy drop is measured from."""
    t0 = time.perf_counter()
    voice = build.open(threads)
    load_s = time.perf_counter() - t0
    try:
        _check_matches(voice, bundle, build)
        t0 = time.perf_counter()
        first = next(iter(voice.synthesize(bundle.utterances[0].text)))
        cold_s = load_s + time.perf_counter() - t0
        del first
        accuracy = _accuracy(voice, bundle, classifier, progress)
        graphs = _graph_errors(voice, bundle)
        latency = _latency(voice, bundle, repeats)
    finally:
        voice.close()
    latency = {"load_s": load_s, "cold_start_s": cold_s, **latency}
    backends = "/".join(voice.backends[g] for g in ("encoder", "decoder", "vocoder"))
    vs_fp32, vs_rec, plots = accuracy
    met = {}
    if build.precision != "fp32":
        drop = fp32_tone_accuracy - vs_rec["tone_accuracy"]
        met = INT8_TARGETS.checks(vs_fp32["tone_band_db"]["median"], vs_fp32["f0_cents"]["median"], drop)
    return BuildResult(build.name, build.precision, backends, vs_fp32, vs_rec, graphs, latency, build.sizes(),
                       met, plots)


def _check_matches(voice: Voice, bundle: EvalBundle, build: VoiceBuild) -> None:
    sha = voice.encoder.info.checkpoint_sha256
    if sha != bundle.checkpoint_sha256:
        raise BundleError(f"{build.path} was built from checkpoint {sha[:12]}…, the evaluation bundle from "
                          f"{bundle.checkpoint_sha256[:12]}…: make the bundle from this voice's FP32 graphs")


def _tone_report(classifier: ToneClassifier, tracks: list[np.ndarray], utts: list[EvalUtterance]) -> dict:
    toneset = toneset_from(tracks, [u.durations for u in utts], [u.phones for u in utts], [u.jyutping for u in utts])
    r = evaluate(classifier, toneset)
    return {"accuracy": r.accuracy, "syllables": r.syllables, "per_tone": {str(k): v for k, v in r.per_tone.items()}}


def _accuracy(voice: Voice, bundle: EvalBundle, classifier: ToneClassifier, progress: Progress | None):
    """End to end with the recording's durations: against the FP32 voice's outputs and against the recording."""
    tb, f0c, ml1 = [], [], []
    rec_f0c, rec_ml1, vuv = [], [], []
    tracks = []
    plots = {"utterances": []}
    utts = bundle.utterances
    for i, u in enumerate(progress(utts) if progress else utts):
        frames, position, _ = voice.encode_tokens(u.tokens, u.tones, durations=u.durations)
        mel, f0 = voice.decode(frames, position)
        audio = voice.vocode(mel, f0)
        n = u.n_frames
        track = fit_frames(yin(audio)[0], n)
        audio_mel = fit_frames(log_mel(audio), n)
        tracks.append(track)
        ml1.append(mel_l1(u.fp32_mel, mel))
        rec_ml1.append(mel_l1(u.rec_mel, mel))
        vuv.append(float(np.mean((track > 0) != (u.rec_f0 > 0))))
        try:
            tb.append(tone_band_error_db(u.fp32_audio_mel, audio_mel, u.fp32_audio_f0 > 0))
            f0c.append(f0_rmse_cents(u.fp32_audio_f0, track))
        except MetricError:
            pass  # nothing voiced in both
        try:
            rec_f0c.append(f0_rmse_cents(u.rec_f0, track))
        except MetricError:
            pass
        if i < 3:
            plots["utterances"].append({"id": u.id, "text": u.text, "jyutping": u.jyutping,
                                        "spans": _syllable_spans(u), "rec_f0": u.rec_f0, "fp32_f0": u.fp32_audio_f0,
                                        "f0": track, "fp32_mel": u.fp32_mel, "mel": mel})
    tones = _tone_report(classifier, tracks, utts)
    vs_fp32 = {"tone_band_db": summarize(tb), "f0_cents": summarize(f0c), "mel_l1": summarize(ml1)}
    vs_rec = {"tone_accuracy": tones["accuracy"], "per_tone": tones["per_tone"], "syllables": tones["syllables"],
              "f0_cents": summarize(rec_f0c), "mel_l1": summarize(rec_ml1), "vuv_error": float(np.mean(vuv))}
    return vs_fp32, vs_rec, plots


def _graph_errors(voice: Voice, bundle: EvalBundle) -> dict:
    """Each graph alone, fed what the FP32 voice fed its own: the encoder's durations, the decoder's mel and F0
    from the FP32 encoder frames, the vocoder's audio from the FP32 mel and F0."""
    agree, hidden_err, dec_f0, dec_mel, snr = [], [], [], [], []
    for u in bundle.utterances:
        _, log_dur, _, _ = voice.encoder(tokens=u.tokens[None], tones=u.tones[None])
        own = predicted_durations(log_dur[0])
        agree.append(float(np.mean(own == u.fp32_own_durations)))
        g = u.graph
        if not g:
            continue
        frames, _, _ = voice.encode_tokens(u.tokens, u.tones, durations=u.durations)
        ref = g["frames"]
        hidden_err.append(float(np.linalg.norm(frames - ref) / max(np.linalg.norm(ref), 1e-12)))
        mel, f0 = voice.decode(g["frames"], g["position"])
        dec_mel.append(mel_l1(u.fp32_mel, mel))
        try:
            dec_f0.append(f0_rmse_cents(f0, u.fp32_f0))
        except MetricError:
            pass  # no frame voiced in both
        audio = voice.vocode(u.fp32_mel, u.fp32_f0)
        snr.append(min(SNR_CEILING_DB, snr_db(g["audio"], audio[: g["audio"].size])))
    return {"encoder": {"duration_agreement": float(np.mean(agree)), "hidden_rel_error": summarize(hidden_err)},
            "decoder": {"f0_cents": summarize(dec_f0), "mel_l1": summarize(dec_mel)},
            "vocoder": {"snr_db": summarize(snr), "snr_min_db": min(snr, default=float("nan"))}}


def _latency(voice: Voice, bundle: EvalBundle, repeats: int) -> dict:
    """TTFB and RTF of the Python API per utterance (median of ``repeats``), and where the time goes."""
    import io

    ttfb, rtf = [], []
    stages = {s: [] for s in STAGES}
    for u in bundle.utterances:
        firsts, totals = [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            samples = 0
            first = None
            for chunk in voice.synthesize(u.text):
                first = first if first is not None else time.perf_counter() - t0
                samples += chunk.audio.size
            totals.append(time.perf_counter() - t0)
            firsts.append(first)
        ttfb.append(1000 * float(np.median(firsts)))
        rtf.append(float(np.median(totals)) / max(samples / AUDIO.sample_rate, 1e-9))
        for name, seconds in _stage_times(voice, u.text, io.BytesIO()).items():
            stages[name].append(1000 * seconds)
    total = sum(float(np.median(v)) for v in stages.values())
    return {"ttfb_ms": summarize(ttfb), "rtf": summarize(rtf), "ttfb_ms_all": ttfb, "rtf_all": rtf,
            "stages_ms": {k: float(np.median(v)) for k, v in stages.items()},
            "stages_share": {k: float(np.median(v)) / total if total else 0.0 for k, v in stages.items()}}


def _stage_times(voice: Voice, text: str, sink) -> dict[str, float]:
    """One utterance, stage by stage, timed (whole text at once: the per-stage split, not the streaming path)."""
    from cantoedge.runtime.audio import soft_limit
    from cantoedge.runtime.wavio import pcm16

    t = {}
    t0 = time.perf_counter()
    g2p = voice.frontend(text)
    t["frontend"] = time.perf_counter() - t0
    tokens, tones = np.asarray(g2p.tokens), np.asarray(g2p.tones)
    if len(tokens) > voice.max_tokens:
        tokens, tones = tokens[: voice.max_tokens], tones[: voice.max_tokens]
    t0 = time.perf_counter()
    hidden, log_dur, _, _ = voice.encoder(tokens=tokens.astype(np.int64)[None], tones=tones.astype(np.int64)[None])
    t["encoder"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    frames, position = length_regulate(hidden[0], predicted_durations(log_dur[0]))
    t["length_regulator"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    mel, f0 = voice.decode(frames, position)
    t["decoder"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    audio = voice.vocode(mel, f0)
    t["vocoder"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    sink.write(pcm16(soft_limit(audio)).astype("<i2").tobytes())
    t["io"] = time.perf_counter() - t0
    return t


def _syllable_spans(u: EvalUtterance) -> list[tuple[int, int]]:
    from cantoedge.runtime.alignment import syllable_spans

    return syllable_spans(u.durations, syllable_index(list(u.phones)))


def _peak_rss_mb() -> float:
    """This process's peak resident memory. Linux: VmHWM, which exec resets; ru_maxrss would carry the peak of
    the process that forked this one (the pipeline, with torch loaded: 694 MB reported for a 165 MB run)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024
