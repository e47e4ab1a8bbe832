"""Shared fixtures: a tiny espeak-rendered corpus, built once per test session."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

N_TINY = 24


def espeak_available() -> bool:
    try:
        from cantoedge.datasets.espeak import Espeak

        Espeak()
    except Exception:
        return False
    return True


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
