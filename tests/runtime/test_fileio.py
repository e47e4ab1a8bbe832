import pytest

from cantoedge.runtime.fileio import atomic_write, atomic_write_text


def test_interrupted_write_leaves_the_old_file(tmp_path):
    path = tmp_path / "f.txt"
    atomic_write_text(path, "old")

    def broken(tmp: str) -> None:
        with open(tmp, "w") as fh:
            fh.write("half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write(path, broken)
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]


def test_outputs_written_together_appear_together_or_not_at_all(tmp_path):
    from cantoedge.runtime.fileio import atomic_write_all

    wav, tsv = tmp_path / "out.wav", tmp_path / "out.tsv"

    def fails(tmp: str) -> None:
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match=f"cannot write {tsv}"):
        atomic_write_all([(wav, lambda tmp: open(tmp, "w").write("audio")), (tsv, fails)])
    assert list(tmp_path.iterdir()) == []  # no WAV without its alignment, no temp files
    atomic_write_all([(wav, lambda tmp: open(tmp, "w").write("audio")), (tsv, lambda tmp: open(tmp, "w").write("a"))])
    assert wav.read_text() == "audio" and tsv.read_text() == "a"


def test_a_write_error_names_the_path_given_not_the_temp_file(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(OSError) as err:
        atomic_write_text(blocker / "out.wav", "data")  # its folder is a file
    assert str(blocker / "out.wav") in str(err.value) and ".tmp" not in str(err.value)


def test_stale_temp_files_are_removed_and_nothing_else(tmp_path):
    from cantoedge.runtime.fileio import remove_stale_temps

    (tmp_path / "a").mkdir()
    keep = [tmp_path / "a" / "x.wav", tmp_path / "notes.tmp"]  # not the atomic writer's hidden pattern
    stale = [tmp_path / "a" / ".x.wav.q1w2e3.tmp", tmp_path / ".manifest.jsonl.zz.tmp"]
    for p in keep + stale:
        p.write_text("x")
    assert remove_stale_temps(tmp_path) == 2
    assert all(p.exists() for p in keep) and not any(p.exists() for p in stale)
