"""A candidate build (INT8 graphs) against the FP32 graphs on the same held-out utterances. The candidate's
hidden states are expanded with the FP32 durations so every frame lines up; how often its own durations
would have differed is counted separately."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from cantoedge.runtime.audio import log_mel
from cantoedge.runtime.manifest import Record
from cantoedge.runtime.synth import Voice

from .metrics import MetricError, f0_rmse_cents, mel_l1, summarize, tone_band_error_db
from .pitch import yin
from .tones import SpeakerStats, ToneClassifier
from .toneset import evaluate, toneset_from


@dataclass
class Rendered:
    """One utterance through one build."""

    mel: np.ndarray  # decoder output (n_mels, T)
    audio: np.ndarray
    f0: np.ndarray  # YIN track of the audio
    own_durations: np.ndarray  # what this build's encoder predicted


def render(voice: Voice, tokens: np.ndarray, tones: np.ndarray, durations: np.ndarray | None = None) -> Rendered:
    """Speak ``tokens`` with ``voice``, expanding with ``durations`` when given (else its own)."""
    frames, position, own = voice.encode_tokens(tokens, tones, durations=durations)
    mel, f0 = voice.decode(frames, position)
    audio = voice.vocode(mel, f0)
    return Rendered(mel, audio, yin(audio)[0], own)


@dataclass
class Comparison:
    name: str
    tone_band_db: list[float] = field(default_factory=list)
    f0_cents: list[float] = field(default_factory=list)
    mel_l1: list[float] = field(default_factory=list)
    tone_accuracy: float = 0.0
    durations_changed: int = 0  # utterances whose own predicted durations differ from the FP32 ones
    utterances: int = 0

    def to_json(self) -> dict:
        return {"name": self.name, "utterances": self.utterances, "tone_accuracy": self.tone_accuracy,
                "durations_changed": self.durations_changed,
                **{k: summarize(getattr(self, k)) for k in ("tone_band_db", "f0_cents", "mel_l1")}}


@dataclass
class ReferenceRun:
    """The FP32 build's renderings of a set of utterances, computed once and compared against many builds."""

    records: Sequence[Record]
    features: list[dict]
    rendered: list[Rendered]


def render_reference(reference: Voice, records: Sequence[Record], features: Callable,
                     progress: Callable[[Iterable], Iterable] | None = None) -> ReferenceRun:
    """``features(record)`` gives the record's tokens and tones."""
    feats = [features(r) for r in records]
    items = progress(feats) if progress else feats
    return ReferenceRun(list(records), feats, [render(reference, f["tokens"], f["tones"]) for f in items])


def compare_builds(ref: ReferenceRun, candidates: dict[str, Voice], classifier: ToneClassifier | None = None,
                   progress: Callable[[Iterable], Iterable] | None = None, with_reference: bool = True,
                   stats: SpeakerStats | None = None) -> list[Comparison]:
    """Each candidate against the FP32 renderings, utterance by utterance (and FP32 itself, scored for tone
    accuracy only, first when ``with_reference``). Tones are heard on the pitch scale ``stats`` gives every
    build alike (``toneset.corpus_speaker_stats``), else on each build's own tracks' scale."""
    classifier = classifier or ToneClassifier.load()
    results = {**({"fp32": Comparison("fp32")} if with_reference else {}),
               **{name: Comparison(name) for name in candidates}}
    tracks: dict[str, list[np.ndarray]] = {name: [] for name in results}
    if with_reference:
        tracks["fp32"] = [r.f0 for r in ref.rendered]
    pairs = list(zip(ref.features, ref.rendered))
    for f, base in progress(pairs) if progress else pairs:
        base_mel, voiced = log_mel(base.audio), base.f0 > 0
        for name, voice in candidates.items():
            out = render(voice, f["tokens"], f["tones"], base.own_durations)
            c = results[name]
            c.durations_changed += int(not np.array_equal(out.own_durations, base.own_durations))
            c.mel_l1.append(mel_l1(base.mel, out.mel))
            tracks[name].append(out.f0)
            try:
                c.tone_band_db.append(tone_band_error_db(base_mel, log_mel(out.audio), voiced))
                c.f0_cents.append(f0_rmse_cents(base.f0, out.f0))
            except MetricError:
                pass  # nothing voiced to compare in this utterance
    durations = [r.own_durations for r in ref.rendered]
    phones, jyutping = [r.phones for r in ref.records], [r.jyutping for r in ref.records]
    for name, result in results.items():
        result.utterances = len(ref.records)
        try:
            toneset = toneset_from(tracks[name], durations, phones, jyutping, stats)
            result.tone_accuracy = evaluate(classifier, toneset).accuracy
        except ValueError:
            result.tone_accuracy = 0.0  # no voiced speech at all: no tone is heard
    return list(results.values())
