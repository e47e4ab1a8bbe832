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
