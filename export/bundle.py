"""The bundled default voice: the distilled student and the vocoder that ship in ``export/voice/``, and the
one command that trains them from scratch (teacher → student, vocoder, each in stages) and installs them
there."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from cantoedge.runtime.fileio import atomic_write, atomic_write_text, file_sha256

from .checkpoint import canonical_safetensors, load_model
from .config import RunConfig
from .models.acoustic import count_parameters

VOICE_DIR = Path(__file__).resolve().parent / "voice"
MAX_VOICE_BYTES = 25 * 1024 * 1024  # the repository's budget for committed weights
STUDENT_SHARE = 1 / 8  # the student may have at most this share of the teacher's parameters


@dataclass(frozen=True)
class VoicePaths:
    acoustic: Path
    vocoder: Path
    info: Path


def voice_paths(voice_dir: Path = VOICE_DIR) -> VoicePaths:
    voice_dir = Path(voice_dir)
    return VoicePaths(voice_dir / "student.safetensors", voice_dir / "vocoder.safetensors", voice_dir / "voice.json")


def _describe(path: Path, kind: str) -> dict:
    model, meta = load_model(path)
    if meta["kind"] != kind:
        raise ValueError(f"{path} is a {meta['kind']} checkpoint, expected a {kind}")
    return {"sha256": file_sha256(path), "bytes": path.stat().st_size, "parameters": count_parameters(model),
            "steps": meta.get("steps"), "config": meta["config"]}


def install_voice(student: Path, vocoder: Path, teacher: Path | None = None,
                  voice_dir: Path = VOICE_DIR) -> VoicePaths:
    """Check the checkpoints against the voice's contract (kinds, size budget, student ≤ 1/8 of the teacher),
    then copy them into ``voice_dir`` with a ``voice.json`` that records where they came from. Without
    ``teacher`` the record of the teacher already there is kept (a later stage of the same student)."""
    student, vocoder = Path(student), Path(vocoder)
    info = {"student": _describe(student, "acoustic"), "vocoder": _describe(vocoder, "vocoder")}
    out = voice_paths(voice_dir)
    if teacher is None and out.info.exists():
        kept = json.loads(out.info.read_text()).get("teacher")
        if kept:
            info["teacher"] = kept
            info["student"]["share_of_teacher"] = round(info["student"]["parameters"] / kept["parameters"], 4)
    total = info["student"]["bytes"] + info["vocoder"]["bytes"]
    if total > MAX_VOICE_BYTES:
        raise ValueError(f"student + vocoder are {total / 2**20:.1f} MiB; the bundled voice may hold at most "
                         f"{MAX_VOICE_BYTES / 2**20:.0f} MiB")
    if teacher is not None:
        info["teacher"] = _describe(Path(teacher), "acoustic")
        ratio = info["student"]["parameters"] / info["teacher"]["parameters"]
        if ratio > STUDENT_SHARE:
            raise ValueError(f"the student has {ratio:.2f} of the teacher's parameters; at most {STUDENT_SHARE:.3f}")
        info["student"]["share_of_teacher"] = round(ratio, 4)
        del info["teacher"]["config"]  # the teacher is not shipped; its size and hash say which one it was
    for src, dst in ((student, out.acoustic), (vocoder, out.vocoder)):
        data = canonical_safetensors(src.read_bytes())  # checkpoints written before sorting was introduced
        atomic_write(dst, lambda tmp, data=data: Path(tmp).write_bytes(data))
    atomic_write_text(out.info, json.dumps(info, indent=1, sort_keys=True) + "\n")
    return out


# (run name, config, teacher run for distillation, corpus): each later stage starts from the run before it
# (train.init); student_contour fine-tunes student_pitch's decoder on the corpus's cleaned F0 contours (no teacher),
# student_level its token levels (the decoder's F0 loss weighted up, the encoder's token-pitch predictor retrained),
# student_noflutter continues on the same utterances rendered without espeak-ng's pitch flutter ("noflutter"), the
# reference the voice is scored against, and student_polish trains that on at a lower learning rate; vocoder_slim
# keeps half of vocoder_pitch's hidden units in every block, vocoder_noise makes its unvoiced noise phase random (no
# frame-rate buzz), and vocoder_glide its voicing lead follow each voiced run's first step
VOICE_STAGES = (("teacher", "teacher", None, "corpus"),
                ("teacher_pitch", "teacher_pitch", None, "corpus"),
                ("student", "student", "teacher", "corpus"),
                ("student_pitch", "student_pitch", "teacher_pitch", "corpus"),
                ("student_contour", "student_contour", None, "corpus"),
                ("student_level", "student_level", None, "corpus"),
                ("student_noflutter", "student_noflutter", None, "noflutter"),
                ("student_polish", "student_polish", None, "noflutter"),
                ("vocoder", "vocoder", None, "corpus"),
                ("vocoder_pitch", "vocoder_pitch", None, "corpus"),
                ("vocoder_slim", "vocoder_slim", None, "corpus"),
                ("vocoder_noise", "vocoder_noise", None, "corpus"),
                ("vocoder_glide", "vocoder_glide", None, "corpus"))


def flutter_free_corpus_for(corpus_dir: Path) -> Path:
    """Where ``train voice`` keeps the flutter-free rendering of ``corpus_dir``: beside it, ``NAME-noflutter``."""
    corpus_dir = Path(corpus_dir)
    return corpus_dir.with_name(f"{corpus_dir.name}-noflutter")


def train_voice(corpus_dir: Path, runs_dir: Path, voice_dir: Path = VOICE_DIR, progress: bool = True,
                configs: dict[str, RunConfig] | None = None, flutter_free_dir: Path | None = None) -> VoicePaths:
    """Every stage of VOICE_STAGES under ``runs_dir`` (each resumable; the bundled configs unless ``configs``
    names others), then install the last student stage and the last vocoder stage. Stage 1 learns the mel; stage 2 adds
    the per-frame pitch the acoustic models predict and the vocoder's harmonic branch sings. The flutter-free corpus
    (``flutter_free_dir``, default ``flutter_free_corpus_for(corpus_dir)``) is rendered or completed first, to hold
    every utterance of ``corpus_dir``, so a corpus it cannot be made from is refused before any training.
    Rerunning after an interruption continues where it stopped."""
    from cantoedge.datasets.corpus import flutter_free_copy

    from .config import load_config
    from .student import train_student
    from .train import train

    corpus_dir, runs_dir = Path(corpus_dir), Path(runs_dir)
    corpora = {"corpus": corpus_dir, "noflutter": Path(flutter_free_dir or flutter_free_corpus_for(corpus_dir))}
    if any(corpus == "noflutter" for *_, corpus in VOICE_STAGES):  # first: refused corpora fail before hours of work
        flutter_free_copy(corpus_dir, corpora["noflutter"], progress)
    done: dict[str, Path] = {}
    for name, config_name, teacher, corpus in VOICE_STAGES:
        config = (configs or {}).get(name) or load_config(config_name)
        if teacher is None:
            done[name] = train(config, corpora[corpus], runs_dir / name, progress)
        else:
            done[name] = train_student(config, done[teacher], corpora[corpus], runs_dir / name, progress)
    return install_voice(done["student_polish"], done["vocoder_glide"], done["teacher_pitch"], voice_dir)
