import pytest

from cantoedge.datasets import package_data
from cantoedge.runtime import datafiles
from cantoedge.runtime.datafiles import CHECKSUMS_FILE, DataFileError, read_package_bytes, recorded_checksums


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A package data folder of two files, one recorded by its build step."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "lexicon.tsv").write_text("# header\n㗎\tgaa4\n", "utf-8")
    (data / "inventory.json").write_text("{}\n", "utf-8")
    monkeypatch.setattr(datafiles, "PACKAGE_DIR", str(tmp_path))
    monkeypatch.setattr(package_data, "DATA_PATH", data)
    monkeypatch.setattr(package_data, "CHECKSUMS_PATH", data / CHECKSUMS_FILE)
    recorded_checksums.cache_clear()
    yield data
    recorded_checksums.cache_clear()


def test_a_build_step_records_what_it_wrote_into_the_package_and_only_that(data_dir, tmp_path):
    assert package_data.record_data_files("cantoedge corpus lexicon", data_dir / "lexicon.tsv")
    assert not package_data.record_data_files("cantoedge corpus lexicon", tmp_path / "lexicon.tsv")  # an --out
    assert set(recorded_checksums()) == {"lexicon.tsv"}
    assert read_package_bytes("data/lexicon.tsv") == (data_dir / "lexicon.tsv").read_bytes()
    (data_dir / "lexicon.tsv").write_text("# header\n㗎\tgaa3\n", "utf-8")  # rewritten by hand, same size
    with pytest.raises(DataFileError, match="lexicon.tsv is damaged"):
        read_package_bytes("data/lexicon.tsv")
    package_data.record_data_files("cantoedge corpus lexicon", data_dir / "lexicon.tsv")  # the build step again
    assert read_package_bytes("data/lexicon.tsv").endswith(b"gaa3\n")
    # a build step that writes several files records them in one write, and only its own
    ours = package_data.record_data_files("a step", data_dir / "lexicon.tsv", data_dir / "inventory.json",
                                          tmp_path / "elsewhere.tsv")
    assert ours == [data_dir / "lexicon.tsv", data_dir / "inventory.json"]
    assert {name: r.command for name, r in recorded_checksums().items()} == {"lexicon.tsv": "a step",
                                                                             "inventory.json": "a step"}


def test_recording_everything_keeps_each_files_command(data_dir):
    package_data.record_data_files("cantoedge corpus lexicon", data_dir / "lexicon.tsv")
    assert package_data.main([]) == 0
    recorded = recorded_checksums()
    assert recorded["lexicon.tsv"].command == "cantoedge corpus lexicon"
    assert recorded["inventory.json"].command == package_data.HAND_WRITTEN
    assert datafiles.verify_package_data() == ["inventory.json", "lexicon.tsv"]
    assert package_data.data_files() == [data_dir / "inventory.json", data_dir / "lexicon.tsv"]
