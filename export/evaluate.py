"""Held-out evaluation of the PyTorch voice with the shared metrics: reference audio vs vocoder
resynthesis (reference mel and F0; with a flutter-free rendering, its mel and F0 too) vs each acoustic model
(teacher, student, with their own F0) through the vocoder.

Aligned metrics (mel L1, MCD, tone-band error, F0 RMSE) decode with the reference durations so frames line
up; tone accuracy is free-running: the model's own durations give the syllable spans, as on the device."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from cantoedge.datasets.flutterfree import FlutterFreeTrack, with_corpus_flutter
from cantoedge.datasets.tonesets import MEASURED_CARRIER_TEXT, MEASURED_SETS
from cantoedge.regression.metrics import (
    f0_rmse_cents,
    mel_cepstral_distortion,
    mel_l1,
    summarize,
    tone_band_error_db,
)
from cantoedge.regression.pitch import yin
from cantoedge.regression.tones import ToneClassifier
from cantoedge.regression.toneset import corpus_speaker_stats, toneset_from
from cantoedge.regression.toneset import evaluate as tone_report
from cantoedge.runtime.audio import log_mel
from cantoedge.runtime.excitation import voiced_f0
from cantoedge.runtime.inventory import load_inventory
from cantoedge.runtime.manifest import Record, load_features, split_records
from cantoedge.runtime.wavio import read_wav

from .checkpoint import load_model
from .chunked import vocode_chunked
from .models.acoustic import AcousticModel, count_parameters


@dataclass
class SystemResult:
    name: str
    parameters: int = 0
    mel_l1: list[float] = field(default_factory=list)
    mcd: list[float] = field(default_factory=list)
    tone_band_db: list[float] = field(default_factory=list)
    f0_cents: list[float] = field(default_factory=list)
    f0_flutter_free_cents: list[float] = field(default_factory=list)  # against the flutter-free rendering
    tone_accuracy: float = float("nan")

    def to_json(self) -> dict:
        out = {"name": self.name, "parameters": self.parameters, "tone_accuracy": self.tone_accuracy}
        for key in ("mel_l1", "mcd", "tone_band_db", "f0_cents", "f0_flutter_free_cents"):
            out[key] = summarize(getattr(self, key))
        return out


@torch.no_grad()
def _speak(model: AcousticModel, feats: dict, aligned: bool) -> dict[str, torch.Tensor]:
    """Aligned: predicted pitch and energy, reference durations, so frames line up with the reference;
    otherwise free-running (the model's own durations)."""
    durations = torch.as_tensor(feats["durations"], dtype=torch.long) if aligned else None
    return model.speak(torch.as_tensor(feats["tokens"], dtype=torch.long),
                       torch.as_tensor(feats["tones"], dtype=torch.long), durations=durations)


def _f0_against(cents: list[float], ref_f0: np.ndarray, f0: np.ndarray) -> None:
    try:
        cents.append(f0_rmse_cents(ref_f0, f0))
    except ValueError:
        pass  # no frame voiced in both


def _score(result: SystemResult, mel: np.ndarray, audio: np.ndarray, ref_mel: np.ndarray, ref_f0: np.ndarray,
           ref_voiced: np.ndarray, free_f0: np.ndarray | None) -> None:
    result.mel_l1.append(mel_l1(ref_mel, mel))
    result.mcd.append(mel_cepstral_distortion(ref_mel, mel))
    if ref_voiced.any():
        result.tone_band_db.append(tone_band_error_db(ref_mel, log_mel(audio), ref_voiced))
    f0, _ = yin(audio)
    _f0_against(result.f0_cents, ref_f0, f0)
    if free_f0 is not None:
        _f0_against(result.f0_flutter_free_cents, free_f0, f0)


def evaluate(corpus_dir: Path, acoustic: dict[str, Path], vocoder_path: Path, split: str = "test",
             limit: int | None = None, classifier: ToneClassifier | None = None,
             progress: Callable | None = None,
             flutter_free: Callable[[Sequence[Record]], Mapping[str, FlutterFreeTrack]] | None = None
             ) -> list[SystemResult]:
    """``flutter_free``: the records scored -> utterance id -> its flutter-free rendering (``datasets.flutterfree``;
    called once the checkpoints have loaded, so a damaged one is refused before any rendering); each system's F0 is
    then also scored against that rendering's, and so is the reference's own F0 (the flutter itself), and a row
    vocodes the rendering's own mel and F0: a voice that made the flutter-free rendering exactly, scored against
    the corpus; and a row per model puts the corpus's own flutter into that model's aligned F0 (an oracle: aligned
    metrics only, no tones heard), so its F0 error apart from the flutter shows. Tones are heard on the corpus
    speaker's pitch scale (its stored F0 over the whole split), however few utterances are scored."""
    corpus_dir = Path(corpus_dir)
    whole_split: list[Record] = split_records(corpus_dir, split)
    records = whole_split[:limit]
    if not records:
        raise ValueError(f"{corpus_dir} has no '{split}' utterances")
    classifier = classifier or ToneClassifier.load()
    vocoder, _ = load_model(vocoder_path)
    models = {name: load_model(path)[0] for name, path in acoustic.items()}
    renderings = flutter_free(records) if flutter_free is not None else None
    missing = [r.id for r in records if renderings is not None and r.id not in renderings]
    if missing:
        raise ValueError(f"no flutter-free rendering for {len(missing)} utterances (first {missing[0]})")
    inv = load_inventory()
    reference = SystemResult("reference audio")
    resynth = SystemResult("vocoder on reference mel", count_parameters(vocoder))
    copies = {"resynth": resynth}
    if renderings is not None:
        copies["free"] = SystemResult("vocoder on the flutter-free mel and F0", count_parameters(vocoder))
    systems = {name: SystemResult(name, count_parameters(m)) for name, m in models.items()}
    oracles = {} if renderings is None else {
        name: SystemResult(f"{name} with the corpus's own flutter (oracle)", count_parameters(m))
        for name, m in models.items()}
    tracks: dict[str, list] = {k: [] for k in ["reference", *copies, *models]}
    durations: dict[str, list] = {k: [] for k in tracks}
    phones: dict[str, list] = {k: [] for k in tracks}
    items = progress(records) if progress else records
    for rec in items:
        feats = load_features(corpus_dir, rec)
        ref_audio, _ = read_wav(corpus_dir / rec.wav)
        ref_f0, ref_voiced, ref_mel = feats["f0"], feats["voiced"], feats["mel"]
        free_track = renderings[rec.id] if renderings is not None else None
        free_f0 = free_track.f0 if free_track is not None else None
        if free_f0 is not None:
            _f0_against(reference.f0_flutter_free_cents, free_f0, ref_f0)
        tracks["reference"].append(yin(ref_audio)[0])
        inputs = {"resynth": (ref_mel, voiced_f0(ref_f0, ref_voiced), feats["durations"])}
        if free_track is not None:
            inputs["free"] = (free_track.mel, voiced_f0(free_f0, free_f0 > 0), free_track.durations)
        for key, (mel, pitch, frames) in inputs.items():
            audio = vocode_chunked(vocoder, torch.from_numpy(mel), torch.from_numpy(pitch)).numpy()
            _score(copies[key], log_mel(audio), audio, ref_mel, ref_f0, ref_voiced, free_f0)
            tracks[key].append(yin(audio)[0])
            durations[key].append(frames)
            phones[key].append(rec.phones)
        durations["reference"].append(feats["durations"])
        phones["reference"].append(rec.phones)
        for name, model in models.items():
            out = _speak(model, feats, aligned=True)
            audio = vocode_chunked(vocoder, out["mel"], out["f0"]).numpy()
            _score(systems[name], out["mel"].numpy(), audio, ref_mel, ref_f0, ref_voiced, free_f0)
            if free_f0 is not None:
                f0 = torch.from_numpy(with_corpus_flutter(out["f0"].numpy(), ref_f0, free_f0))
                audio = vocode_chunked(vocoder, out["mel"], f0).numpy()
                _score(oracles[name], out["mel"].numpy(), audio, ref_mel, ref_f0, ref_voiced, free_f0)
            free = _speak(model, feats, aligned=False)
            free_audio = vocode_chunked(vocoder, free["mel"], free["f0"]).numpy()
            tracks[name].append(yin(free_audio)[0])
            durations[name].append(free["durations"].numpy())
            phones[name].append([inv.phone(int(t)) for t in feats["tokens"]])
    jyutping = [r.jyutping for r in records]
    stats = corpus_speaker_stats(corpus_dir, whole_split)
    for key, result in (("reference", reference), *copies.items(), *((n, systems[n]) for n in models)):
        try:
            toneset = toneset_from(tracks[key], durations[key], phones[key], jyutping, stats)
        except ValueError:  # the system produced (almost) no voiced speech: no tone is heard
            result.tone_accuracy = 0.0
            continue
        result.tone_accuracy = tone_report(classifier, toneset).accuracy
    return [reference, *copies.values(), *systems.values(), *oracles.values()]


def markdown_table(results: list[SystemResult]) -> str:
    """One row per system; the flutter-free F0 column only when it was measured."""
    keys = ["mel_l1", "mcd", "tone_band_db", "f0_cents"]
    head = "| system | params | mel L1 | MCD (dB) | tone-band (dB) | F0 RMSE (cents) |"
    if any(r.f0_flutter_free_cents for r in results):
        keys.append("f0_flutter_free_cents")
        head += " F0 RMSE vs flutter-free (cents) |"
    lines = [head + " tone accuracy |", "|---" * (len(keys) + 3) + "|"]
    for r in results:
        j = r.to_json()
        cells = ["–" if j[k]["n"] == 0 else f"{j[k]['median']:.3f} (p95 {j[k]['p95']:.3f})" for k in keys]
        params = f"{r.parameters / 1e6:.2f} M" if r.parameters else "–"
        heard = "–" if np.isnan(r.tone_accuracy) else f"{100 * r.tone_accuracy:.1f} %"  # aligned-only: no tones
        lines.append(f"| {r.name} | {params} | " + " | ".join(cells) + f" | {heard} |")
    return "\n".join(lines) + "\n"


CONTRAST = tuple(MEASURED_SETS["si"])  # 詩 史 試 時 市 事, si1 .. si6: one syllable, six words
CARRIER = MEASURED_CARRIER_TEXT  # "I say X to you": X is the third syllable


# Speaker statistics come from the carrier sentences of every measured set (36), not si's six alone: a voice's
# pitch is bimodal there (high and low tones) and the median of six sentences' frames sat in the gap, so a few
# frames moved it by 0.3 semitone and the proxy heard 3 of 6 instead of 6 of 6 from one checkpoint to the next of
# one run (docs/voice.md, "The listen-proxy's scale, steadied"); over 36 sentences it moves under 0.1, and
# espeak-ng's own rendering is heard 6 of 6 in the carrier, not 4.
STATS_TEXTS = tuple(CARRIER.format(c) for chars in MEASURED_SETS.values() for c in chars)


def listen_proxy(voice, classifier: ToneClassifier | None = None) -> dict:
    """The tones heard in 詩 史 試 時 市 事, alone and in a carrier sentence (speaker statistics from the
    carrier sentences of every measured set, since one syllable has no pitch range of its own)."""
    from cantoedge.regression.tones import SpeakerStats, contour_features
    from cantoedge.runtime.alignment import syllable_spans

    classifier = classifier or ToneClassifier.load()
    alone = [voice.speak(c) for c in CONTRAST]
    spoken = {text: voice.speak(text) for text in STATS_TEXTS}
    carried = [spoken[CARRIER.format(c)] for c in CONTRAST]
    try:
        stats = SpeakerStats.from_tracks([yin(s.audio)[0] for s in spoken.values()])
    except ValueError:
        return {"isolated": [-1] * 6, "carrier": [-1] * 6, "isolated_accuracy": 0.0, "carrier_accuracy": 0.0}
    out: dict = {}
    for key, speeches, position in (("isolated", alone, 0), ("carrier", carried, 2)):
        heard = []
        for s in speeches:
            spans = syllable_spans(s.durations, s.g2p.encoded.syllable_index)
            feats = contour_features(yin(s.audio)[0], spans, stats)
            heard.append(int(classifier.predict(feats[position: position + 1])[0]))
        out[key] = heard
        out[f"{key}_accuracy"] = float(np.mean(np.asarray(heard) == np.arange(1, 7)))
    return out
