import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cantoedge.runtime import datafiles
from cantoedge.runtime.datafiles import (
    CHECKSUMS_FILE,
    DataFileError,
    crc32_hex,
    read_package_bytes,
    recorded_checksums,
    verify_package_data,
)

RUNTIME = Path(datafiles.PACKAGE_DIR)
PACKAGE_ROOT = RUNTIME.parent


def test_every_committed_data_file_is_recorded_as_it_is():
    """A data file changed without its build step (or `python -m cantoedge.datasets.package_data`) would be
    refused by every runtime as damaged."""
    data = RUNTIME / "data"
    files = {p.name for p in data.iterdir() if p.is_file() and p.name != CHECKSUMS_FILE}
    recorded = recorded_checksums()
    assert set(recorded) == files
    for name, record in recorded.items():
        body = (data / name).read_bytes()
        assert (len(body), crc32_hex(body)) == (record.size, record.crc32), \
            f"{name} changed: run the command that rebuilds it, or python -m cantoedge.datasets.package_data"
    assert recorded["tojyutping.tsv"].command == "cantoedge corpus g2p-dict"
    assert recorded["plain_words.tsv"].command == "cantoedge corpus lexicon"
    assert verify_package_data() == sorted(files)


@pytest.fixture
def package_copy(tmp_path, monkeypatch):
    """The runtime's data folder copied, and read from there, so a test can damage it."""
    (tmp_path / "data").mkdir()
    for p in (RUNTIME / "data").iterdir():
        shutil.copy(p, tmp_path / "data" / p.name)
    monkeypatch.setattr(datafiles, "PACKAGE_DIR", str(tmp_path))
    recorded_checksums.cache_clear()
    yield tmp_path / "data"
    recorded_checksums.cache_clear()


def _truncate(path: Path) -> None:
    body = path.read_bytes()
    path.write_bytes(body[: len(body) // 2])


def _flip_one_byte(path: Path) -> None:
    body = bytearray(path.read_bytes())
    body[len(body) // 3] ^= 0x01
    path.write_bytes(bytes(body))


@pytest.mark.parametrize("damage", [_truncate, _flip_one_byte])
def test_a_damaged_data_file_is_refused_with_its_name_and_the_command_that_rebuilds_it(package_copy, damage):
    """A dictionary cut in half read on and dropped every character past the cut; a byte changed in place keeps
    the size, and the CRC-32 catches it."""
    damage(package_copy / "tojyutping.tsv")
    with pytest.raises(DataFileError, match=r"tojyutping\.tsv is damaged: .* where the package recorded 720,996 "
                                            r"bytes.*reinstall cantoedge.*`cantoedge corpus g2p-dict`"):
        read_package_bytes("data/tojyutping.tsv")
    assert read_package_bytes("data/lexicon.tsv")  # the others still read
    with pytest.raises(DataFileError, match="tojyutping.tsv is damaged"):
        verify_package_data()


def test_a_missing_or_unrecorded_file_and_a_damaged_record_are_refused(package_copy):
    (package_copy / "context.tsv").unlink()
    with pytest.raises(DataFileError, match=r"cannot read the bundled data file .*context\.tsv.*reinstall"):
        read_package_bytes("data/context.tsv")
    (package_copy / "extra.tsv").write_text("x\ty\n")
    with pytest.raises(DataFileError, match=r"extra\.tsv has no size and CRC-32 in checksums\.tsv"):
        read_package_bytes("data/extra.tsv")
    lines = (package_copy / CHECKSUMS_FILE).read_text("utf-8").splitlines(keepends=True)
    (package_copy / CHECKSUMS_FILE).write_text("".join(lines[:-1]) + lines[-1][:20] + "\n", "utf-8")
    recorded_checksums.cache_clear()
    with pytest.raises(DataFileError, match=rf"checksums\.tsv line {len(lines)} is damaged"):
        read_package_bytes("data/lexicon.tsv")
    with pytest.raises(ValueError, match="not a data file"):
        read_package_bytes("frontend.py")


def test_a_voice_checks_the_data_files_before_it_loads_anything(package_copy):
    from cantoedge.runtime.synth import Voice

    _truncate(package_copy / "plain_words.tsv")
    with pytest.raises(DataFileError, match=r"plain_words\.tsv is damaged.*`cantoedge corpus lexicon`"):
        Voice.load(warmup=False)


def test_the_cli_names_a_damaged_file_and_prints_no_reading(tmp_path):
    """Run as an installed copy whose dictionary was truncated: before the check it read 君臨天下 without 臨."""
    root = tmp_path / "site" / "cantoedge"
    root.mkdir(parents=True)
    for sub in PACKAGE_ROOT.iterdir():
        if sub.is_dir() and (sub / "__init__.py").exists() and sub.name != "runtime":
            os.symlink(sub, root / sub.name)
    (root / "runtime").mkdir()
    for entry in RUNTIME.iterdir():
        if entry.name == "data":
            shutil.copytree(entry, root / "runtime" / "data")
        elif entry.name != "__pycache__":
            os.symlink(entry, root / "runtime" / entry.name)
    _truncate(root / "runtime" / "data" / "tojyutping.tsv")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    done = subprocess.run([sys.executable, "-m", "cantoedge.scripts.cli", "g2p", "君臨天下"], env=env,
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 1
    assert done.stdout == ""
    assert "runtime/data/tojyutping.tsv is damaged" in done.stderr
    assert str(root) in done.stderr  # the copy's file, not the repository's
