"""Renders HKCanCor with espeak-ng into a training corpus: wavs, features, durations and a manifest."""

from __future__ import annotations

import json
import logging
import multiprocessing as mp
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from cantoedge.runtime.audio import AUDIO
from cantoedge.runtime.fileio import atomic_write, remove_stale_temps
from cantoedge.runtime.frontend import Encoded, Unit, encode_units
from cantoedge.runtime.jyutping import Syllable, parse_syllable
from cantoedge.runtime.manifest import MANIFEST, Record, read_manifest, write_manifest
from cantoedge.runtime.normalize import PUNCTUATION_PAUSES
from cantoedge.runtime.wavio import write_wav

from .align import AlignmentError, durations_in_frames, espeak_text, token_starts
from .espeak import FLUTTER_FREE_VOICE, Espeak, flutter_free_data
from .features import Features, extract
from .hkcancor import HKUtterance, clean_utterances_named, load_clean

log = logging.getLogger("cantoedge.corpus")


@dataclass(frozen=True)
class BuildSummary:
    out_dir: Path
    utterances: int
    rendered: int  # this run
    resumed: int  # already done before this run
    skipped: int  # could not be aligned
    audio_hours: float
    wall_s: float


def utterance_units(utt: HKUtterance) -> list[Unit]:
    """Hand syllables and punctuation pauses of one corpus utterance, in order."""
    units: list[Unit] = []
    for word in utt.words:
        if word.syllables:
            units.extend(parse_syllable(s) for s in word.syllables)
        else:
            marks = [PUNCTUATION_PAUSES[ch] for ch in word.text if ch in PUNCTUATION_PAUSES]
            units.extend(marks[:1])
    return units


@dataclass(frozen=True)
class RenderedUnits:
    encoded: Encoded
    syllables: list[Syllable]
    pcm: np.ndarray  # int16, as espeak-ng gave it
    audio: np.ndarray  # float32 in [-1, 1]
    durations: np.ndarray  # frames per token, from the phoneme events


def render_units(units: Sequence[Unit], espeak: Espeak) -> RenderedUnits:
    """espeak-ng's rendering of syllables and pauses, with each token's frames from its phoneme events: what
    every corpus utterance is, and what the voice's tone shapes are measured against (export/contours.py)."""
    syllables = [u for u in units if isinstance(u, Syllable)]
    encoded = encode_units(units)
    rendering = espeak.synth_isolated(espeak_text(encoded, syllables))
    if rendering.sample_rate != AUDIO.sample_rate:
        raise AlignmentError(f"espeak rendered {rendering.sample_rate} Hz, expected {AUDIO.sample_rate}")
    audio = rendering.audio.astype(np.float32) / 32768.0
    durations = durations_in_frames(token_starts(encoded, syllables, rendering.events), audio.size)
    return RenderedUnits(encoded, syllables, rendering.audio, audio, durations)


SPEAKER = Record.speaker  # the manifest's default: espeak-ng's Cantonese voice as it ships
FLUTTER_FREE_SPEAKER = f"{SPEAKER}-noflutter"  # a corpus's records say which voice rendered them


def render(utt: HKUtterance, espeak: Espeak, out_dir: Path, speaker: str = SPEAKER) -> Record:
    """Render one utterance and write its wav and features (atomically); returns its manifest record."""
    r = render_units(utterance_units(utt), espeak)
    feats = extract(r.audio)
    assert int(r.durations.sum()) == feats.n_frames
    wav_rel, feat_rel = f"wavs/{utt.id}.wav", f"features/{utt.id}.npz"
    write_wav(out_dir / wav_rel, r.pcm, AUDIO.sample_rate)
    save_features(out_dir / feat_rel, feats, r.durations, r.encoded)
    return Record(
        id=utt.id, text=utt.text, jyutping=[str(s) for s in r.syllables], tokens=r.encoded.tokens,
        tones=r.encoded.tones, phones=r.encoded.phones, wav=wav_rel, features=feat_rel, n_frames=feats.n_frames,
        n_samples=int(r.audio.size), sample_rate=AUDIO.sample_rate, split=utt.split, speaker=speaker,
    )


def save_features(path: Path, feats: Features, durations: np.ndarray, encoded: Encoded) -> None:
    """One .npz per utterance (loaded without pickles): mel, f0, voiced, energy, durations, tokens, tones."""
    arrays = dict(mel=feats.mel, f0=feats.f0, voiced=feats.voiced, energy=feats.energy, durations=durations,
                  tokens=np.asarray(encoded.tokens, np.int32), tones=np.asarray(encoded.tones, np.int8))

    def write(tmp: str) -> None:
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)

    atomic_write(path, write)


# One synthesiser per worker process (libespeak-ng keeps global state).
_worker: dict = {}


def _init_worker(out_dir: str, data_parent: str | None) -> None:
    """``data_parent``: the flutter-free espeak-ng data (``flutter_free_data``), or None for the system's voice."""
    if data_parent is None:
        _worker["espeak"], _worker["speaker"] = Espeak(), SPEAKER
    else:
        _worker["espeak"], _worker["speaker"] = Espeak(FLUTTER_FREE_VOICE, Path(data_parent)), FLUTTER_FREE_SPEAKER
    _worker["out"] = Path(out_dir)


def _meta_path(out_dir: Path, utt_id: str) -> Path:
    return out_dir / "meta" / f"{utt_id}.json"


def _work(utt: HKUtterance) -> dict:
    """Render and leave a meta/<id>.json marker last, so a killed build resumes where it stopped."""
    out = _worker["out"]
    try:
        result = {"record": asdict(render(utt, _worker["espeak"], out, _worker["speaker"]))}
    except AlignmentError as exc:
        result = {"id": utt.id, "error": str(exc)}
    atomic_write(_meta_path(out, utt.id),
                 lambda tmp: Path(tmp).write_text(json.dumps(result, ensure_ascii=False), "utf-8"))
    return result


def _read_meta(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None  # a damaged marker: render again


def refuse_other_speaker(out_dir: Path, rendered: Iterable[str], flutter: bool) -> None:
    """A folder holds one kind of rendering: refuse ``out_dir`` when any of the speakers ``rendered`` there is
    not the one a build with (or without) flutter writes."""
    speaker = SPEAKER if flutter else FLUTTER_FREE_SPEAKER
    other = next((s for s in rendered if s != speaker), None)
    if other is not None:
        raise ValueError(f"{out_dir} holds utterances rendered as {other!r}, not {speaker!r} (with"
                         f"{'out' if flutter else ''} --no-flutter): build into another folder")


def build_corpus(out_dir: Path, limit: int | None = None, workers: int = 2,
                 utterances: Sequence[HKUtterance] | None = None, progress: bool = True,
                 flutter: bool = True) -> BuildSummary:
    """Render the clean HKCanCor utterances (or the first ``limit``), resuming any earlier run. ``flutter=False``
    renders without espeak-ng's pitch flutter (docs/voice.md, "espeak-ng's pitch flutter"), which no text predicts."""
    from tqdm import tqdm

    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    if limit is not None and limit < 1:
        raise ValueError(f"--limit must be at least 1, got {limit}")
    Espeak()  # fail here, naming the apt package, rather than in every worker
    start = time.perf_counter()
    out_dir = Path(out_dir)
    if out_dir.is_dir():
        remove_stale_temps(out_dir)  # a killed build's half-written files (one build at a time per folder)
    known = list(utterances if utterances is not None else load_clean())
    utts = known[:limit] if limit is not None else known
    results: dict[str, dict] = {}
    todo = []
    for utt in utts:
        meta = _read_meta(_meta_path(out_dir, utt.id))
        if meta is not None:
            results[utt.id] = meta
        else:
            todo.append(utt)
    resumed = len(results)
    rendered = [m["record"].get("speaker", SPEAKER) for m in results.values() if "record" in m]
    if (out_dir / MANIFEST).exists():  # what earlier builds into this folder rendered, whichever utterances
        rendered += [r.speaker for r in read_manifest(out_dir)]
    refuse_other_speaker(out_dir, rendered, flutter)
    if todo:
        ctx = mp.get_context("spawn")  # lean workers: they fork per utterance (Espeak.synth_isolated)
        with tempfile.TemporaryDirectory(prefix="cantoedge-espeak-") as tmp, \
                tqdm(total=len(todo), desc="rendering", unit="utt", disable=not progress) as bar:
            data_parent = None if flutter else str(flutter_free_data(Path(tmp)))
            with ctx.Pool(workers, initializer=_init_worker, initargs=(str(out_dir), data_parent)) as pool:
                for res in pool.imap_unordered(_work, todo, chunksize=4):
                    results[res.get("id") or res["record"]["id"]] = res
                    bar.update()
    # The manifest lists every utterance rendered into this folder, not only this run's --limit: a smaller
    # --limit on a bigger corpus must never drop utterances from it.
    chosen = {u.id for u in utts}
    for utt in known:
        if utt.id not in chosen:
            meta = _read_meta(_meta_path(out_dir, utt.id))
            if meta is not None:
                results[utt.id] = meta
    done = [u for u in known if u.id in results]
    records = [Record(**results[u.id]["record"]) for u in done if "record" in results[u.id]]
    skipped = [results[u.id] for u in done if "error" in results[u.id]]
    for item in skipped[:5]:
        log.warning("skipped %s: %s", item["id"], item["error"])
    write_manifest(records, out_dir)
    hours = sum(r.n_samples for r in records) / AUDIO.sample_rate / 3600
    return BuildSummary(out_dir, len(records), len(todo), resumed, len(skipped), hours,
                        time.perf_counter() - start)


def flutter_free_copy(corpus_dir: Path, out_dir: Path, progress: bool = True) -> Path:
    """Every utterance of ``corpus_dir`` rendered without pitch flutter into ``out_dir``: renders only what
    ``out_dir`` lacks and keeps whatever else it holds (its manifest never shrinks). Refuses a corpus with
    utterances that are not HKCanCor's, which espeak-ng cannot render again."""
    corpus_dir, out_dir = Path(corpus_dir), Path(out_dir)
    wanted = {r.id for r in read_manifest(corpus_dir)}
    held = read_manifest(out_dir) if (out_dir / MANIFEST).exists() else []
    refuse_other_speaker(out_dir, (r.speaker for r in held), flutter=False)
    have = {r.id for r in held}
    if wanted <= have:
        return out_dir
    picked = clean_utterances_named(wanted | have, corpus_dir,  # what out_dir holds, a build rendered from HKCanCor
                                    "only the HKCanCor corpus can be rendered again without flutter")
    build_corpus(out_dir, utterances=picked, progress=progress, flutter=False)
    return out_dir

