"""Tiny trained models shared by the export tests (seconds to train)."""

from pathlib import Path

import pytest
from trainkit import TINY_TEACHER, TINY_VOCODER, _train


@pytest.fixture(scope="session")
def teacher_run(tiny_corpus, tmp_path_factory):
    root = tmp_path_factory.mktemp("teacher")
    config = root / "tiny.toml"
    config.write_text(TINY_TEACHER)
    proc = _train("teacher", config, tiny_corpus, root / "whole")
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return config, root / "whole" / "model.safetensors"




@pytest.fixture(scope="session")
def tiny_vocoder(tiny_corpus, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("vocoder")
    config = root / "voc.toml"
    config.write_text(TINY_VOCODER)
    proc = _train("vocoder", config, tiny_corpus, root / "run")
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return root / "run" / "model.safetensors"
