"""Shared fixtures, built once per test session: a tiny espeak-rendered corpus, tiny trained models (seconds to
train) and their exported graphs."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from trainkit import TINY_STUDENT, TINY_TEACHER, TINY_VOCODER, train_to_end

N_TINY = 24

# Property tests draw the same examples on every run (seeds everywhere), and no wall-clock deadline: these
# machines are shared and noisy. Session fixtures (graphs, corpora) are safe to reuse across examples.
settings.register_profile("cantoedge", derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.load_profile("cantoedge")

# onnxruntime's optimised graphs go to a folder of this test session, never the user's ~/.cache (the servers and
# commands that tests start as subprocesses inherit it); tests of the cache itself point it elsewhere.
if "CANTOEDGE_CACHE_DIR" not in os.environ:
    os.environ["CANTOEDGE_CACHE_DIR"] = tempfile.mkdtemp(prefix="cantoedge-test-ort-cache-")
    atexit.register(shutil.rmtree, os.environ["CANTOEDGE_CACHE_DIR"], ignore_errors=True)


# Fixtures that render audio or train: a test using any of them is slow, whatever it is marked, and stays out of
# the everyday subset (`pytest -m "not slow"`); CI runs everything.
SLOW_FIXTURES = {"clean_utterances", "tiny_corpus", "corpus_copy", "teacher_run", "tiny_vocoder", "student_run",
                 "tiny_graphs", "calib_corpus", "tiny_int8_graphs", "ort_voice_folders"}


def pytest_collection_modifyitems(items):
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


def espeak_available() -> bool:
    try:
        from cantoedge.datasets.espeak import Espeak

        Espeak()
    except Exception:
        return False
    return True


@pytest.fixture(autouse=True)
def _away_from_the_checkout(tmp_path, monkeypatch):
    """Every test runs in an empty folder, as on a fresh clone where data/ and build/ do not exist: a default
    path that only this checkout has (data/corpus, build/voice) cannot make a test pass here and fail in CI."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="session")
def device_voice() -> Path:
    """The default voice the package ships (runtime/voice/, committed): the device-side tests run on it, with no
    torch, corpus or training."""
    from cantoedge.runtime.voices import bundled_voice_dir

    return bundled_voice_dir()


@pytest.fixture(scope="session")
def clean_utterances():
    from cantoedge.datasets.hkcancor import load_clean

    return load_clean()


@pytest.fixture(scope="session")
def tiny_corpus(tmp_path_factory, clean_utterances) -> Path:
    """The first clean utterances of each split, rendered for real (2 workers)."""
    if not espeak_available():
        pytest.fail("libespeak-ng is required for the corpus tests: apt-get install espeak-ng")
    from cantoedge.datasets.corpus import build_corpus

    picked = [u for u in clean_utterances if u.split == "train"][:16]
    picked += [u for u in clean_utterances if u.split == "val"][:4]
    picked += [u for u in clean_utterances if u.split == "test"][:4]
    out = tmp_path_factory.mktemp("corpus")
    summary = build_corpus(out, utterances=picked, workers=2, progress=False)
    assert summary.utterances + summary.skipped == N_TINY
    return out


@pytest.fixture()
def corpus_copy(tiny_corpus, tmp_path) -> Path:
    dst = tmp_path / "corpus"
    shutil.copytree(tiny_corpus, dst)
    return dst


@pytest.fixture(scope="session")
def teacher_run(tiny_corpus, tmp_path_factory) -> tuple[Path, Path]:
    """(config, model.safetensors) of a tiny teacher trained without interruption."""
    root = tmp_path_factory.mktemp("teacher")
    return root / "teacher.toml", train_to_end("teacher", TINY_TEACHER, tiny_corpus, root)


@pytest.fixture(scope="session")
def tiny_vocoder(tiny_corpus, tmp_path_factory) -> Path:
    return train_to_end("vocoder", TINY_VOCODER, tiny_corpus, tmp_path_factory.mktemp("vocoder"))


@pytest.fixture(scope="session")
def student_run(teacher_run, tiny_corpus, tmp_path_factory) -> Path:
    """model.safetensors of a tiny student distilled from the tiny teacher (its run directory is the parent)."""
    _, teacher = teacher_run
    return train_to_end("student", TINY_STUDENT, tiny_corpus, tmp_path_factory.mktemp("student"), "--teacher",
                        str(teacher))


@pytest.fixture(scope="session")
def tiny_graphs(teacher_run, tiny_vocoder, tmp_path_factory) -> Path:
    """encoder/decoder/vocoder.onnx exported from the tiny teacher and vocoder."""
    from cantoedge.export.onnx import export_voice

    _, teacher = teacher_run
    out = tmp_path_factory.mktemp("graphs")
    export_voice(teacher, tiny_vocoder, out)
    return out


@pytest.fixture(scope="session")
def calib_corpus(tiny_corpus, tmp_path_factory) -> Path:
    """A copy of the tiny corpus with a 4-utterance tone-balanced calibration set (calib_set.json)."""
    import json

    from cantoedge.datasets.calibset import select
    from cantoedge.runtime.manifest import read_manifest

    corpus = tmp_path_factory.mktemp("calib") / "corpus"
    shutil.copytree(tiny_corpus, corpus)
    chosen = select([r for r in read_manifest(corpus) if r.split == "train"], 4)
    (corpus / "calib_set.json").write_text(json.dumps(chosen.to_json()))
    return corpus


@pytest.fixture(scope="session")
def tiny_int8_graphs(tiny_graphs, calib_corpus, tmp_path_factory) -> Path:
    """A graph folder as `cantoedge export` + `cantoedge calibrate` leave it: FP32 and INT8 graphs, the ranges
    file and the TensorRT caches."""
    from cantoedge.calibrate.int8 import calibrate_voice

    folder = tmp_path_factory.mktemp("graphs-int8") / "voice"
    shutil.copytree(tiny_graphs, folder)
    calibrate_voice(folder, calib_corpus, folder)
    return folder


@pytest.fixture(scope="session")
def ort_voice_folders(tiny_int8_graphs, tmp_path_factory) -> dict[str, Path]:
    """`cantoedge build --target ort` folders of the tiny voice, FP32 and INT8."""
    from cantoedge.engines.ort import build_ort

    root = tmp_path_factory.mktemp("built")
    return {p: (build_ort(tiny_int8_graphs, p, root / f"ort-{p}"), root / f"ort-{p}")[1] for p in ("fp32", "int8")}
