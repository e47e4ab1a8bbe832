"""Tiny trained models shared by the export tests (seconds to train)."""

from pathlib import Path

import pytest
from trainkit import TINY_STUDENT, TINY_TEACHER, TINY_VOCODER, train_to_end


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
