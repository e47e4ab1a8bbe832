"""The cache of onnxruntime-optimised graphs (runtime/backends/ort.py): a later start opens the graph optimised by
the first, runs it to the same samples, and a damaged, missing or unwritable cache never stops a voice."""

import numpy as np
import pytest

from cantoedge.runtime.backends.ort import CACHE_ENV, OrtLoader
from cantoedge.runtime.synth import Voice
from cantoedge.runtime.voices import bundled_voice_dir

TEXT = "詩史試時市事，我哋今日去飲茶。"


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder


def opened(monkeypatch) -> list[bool]:
    """Records, per session opened, whether onnxruntime was asked to optimise it."""
    calls: list[bool] = []
    original = OrtLoader._session

    def spy(self, path, optimize, save_to=None):
        calls.append(optimize)
        return original(self, path, optimize, save_to)

    monkeypatch.setattr(OrtLoader, "_session", spy)
    return calls


def test_a_second_start_opens_the_cached_graphs_and_speaks_the_same_samples(cache, monkeypatch):
    calls = opened(monkeypatch)
    first = Voice.load(bundled_voice_dir(), threads=1).speak(TEXT).audio
    assert calls == [True, True, True] and len(list(cache.glob("*.onnx"))) == len(list(cache.glob("*.sha256"))) == 3
    assert not list(cache.glob(".*"))  # no temp file left behind
    calls.clear()
    second = Voice.load(bundled_voice_dir(), threads=1).speak(TEXT).audio
    assert calls == [False, False, False]  # read from the cache, optimisations off
    np.testing.assert_array_equal(first, second)


@pytest.mark.parametrize("damage", ["truncate", "flip", "no digest"])
def test_a_damaged_cache_entry_is_rebuilt_and_the_voice_still_speaks(cache, monkeypatch, damage):
    reference = Voice.load(bundled_voice_dir(), threads=1).speak(TEXT).audio
    entry = max(cache.glob("*.onnx"), key=lambda p: p.stat().st_size)
    good = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(good[: len(good) // 3])
    elif damage == "flip":  # still a loadable graph, with one weight's byte changed: must not be played
        entry.write_bytes(good[:-1000] + bytes([good[-1000] ^ 0x40]) + good[-999:])
    else:
        entry.with_name(entry.name + ".sha256").unlink()
    calls = opened(monkeypatch)
    again = Voice.load(bundled_voice_dir(), threads=1).speak(TEXT).audio
    np.testing.assert_array_equal(reference, again)
    assert sorted(calls) == [False, False, True]  # that graph optimised again, the other two from the cache
    # written again, whole: the next start reads all three from the cache and speaks the same samples (not
    # always the same bytes: onnxruntime names the NCHWc reorder nodes around 2-D convolutions in no fixed order)
    assert abs(entry.stat().st_size - len(good)) < 1024
    calls.clear()
    np.testing.assert_array_equal(Voice.load(bundled_voice_dir(), threads=1).speak(TEXT).audio, reference)
    assert calls == [False, False, False]


def test_no_cache_when_it_is_turned_off_or_cannot_be_written(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv(CACHE_ENV, "")
    calls = opened(monkeypatch)
    reference = Voice.load(bundled_voice_dir(), threads=1).speak(TEXT).audio
    assert calls == [True, True, True] and not (tmp_path / "xdg").exists() and not (tmp_path / "home").exists()
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "ort"))
    np.testing.assert_array_equal(Voice.load(bundled_voice_dir(), threads=1).speak(TEXT).audio, reference)
    assert blocker.read_text() == "a file where the cache folder would be"


def test_a_changed_graph_or_a_gpu_session_never_reads_another_graphs_cache(cache, tmp_path):
    graph = tmp_path / "decoder.onnx"
    graph.write_bytes((bundled_voice_dir() / "decoder.onnx").read_bytes())
    key = OrtLoader(graph).cached_path()
    assert key is not None and key.parent == cache and "-ort" in key.name
    graph.write_bytes(graph.read_bytes() + b"\0")
    assert OrtLoader(graph).cached_path() != key
    assert OrtLoader(graph, gpu=True).cached_path() is None


def test_a_verified_folder_names_its_cache_entries_by_the_manifests_digests(cache):
    from cantoedge.runtime.enginefolder import EngineManifest
    from cantoedge.runtime.fileio import file_sha256

    Voice.load(bundled_voice_dir(), threads=1)
    manifest = EngineManifest.load(bundled_voice_dir())
    names = sorted(p.name.split("-")[0] for p in cache.glob("*.onnx"))
    assert names == sorted(e.sha256[:32] for e in manifest.graphs.values())
    assert all(e.sha256 == file_sha256(bundled_voice_dir() / e.file) for e in manifest.graphs.values())


def test_the_cache_keeps_the_most_recently_used_graphs_within_its_bound(cache, tmp_path, monkeypatch):
    import os
    import time

    from cantoedge.runtime.backends import ort

    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "sizing"))
    Voice.load(bundled_voice_dir(), threads=1)
    voice_bytes = sum(p.stat().st_size for p in (tmp_path / "sizing").glob("*.onnx"))
    monkeypatch.setenv(CACHE_ENV, str(cache))
    cache.mkdir()
    old = [cache / f"old{i}-ort-x.onnx" for i in range(4)]
    for i, path in enumerate(old):  # 1 MB each, used long ago, the first the longest
        path.write_bytes(bytes(1 << 20))
        path.with_name(path.name + ".sha256").write_text("x", "ascii")
        os.utime(path, (time.time() - 10_000 + i,) * 2)
    stale, fresh = cache / ".a.onnx.1.tmp", cache / ".b.onnx.2.tmp"  # left by a killed run; one being written now
    stale.write_bytes(b"x")
    fresh.write_bytes(b"x")
    os.utime(stale, (time.time() - 2 * ort.STALE_TEMP_SECONDS,) * 2)
    monkeypatch.setattr(ort, "CACHE_MAX_BYTES", voice_bytes + (5 << 19))  # room for two and a half old ones
    Voice.load(bundled_voice_dir(), threads=1)  # writes the voice's three graphs, pruning after each
    assert len([p for p in cache.glob("*.onnx") if not p.name.startswith("old")]) == 3  # all just written stay
    assert sum(p.stat().st_size for p in cache.glob("*.onnx")) <= ort.CACHE_MAX_BYTES
    assert [p.exists() for p in old] == [False, False, True, True]  # the least recently used went first
    assert all(p.with_name(p.name + ".sha256").exists() == p.exists() for p in old)  # each with its digest
    assert not stale.exists() and fresh.exists()


def test_a_cache_hit_marks_the_graph_as_recently_used(cache):
    import os

    Voice.load(bundled_voice_dir(), threads=1)
    for path in cache.glob("*.onnx"):
        os.utime(path, (1_000_000_000,) * 2)  # as if last used in 2001
    Voice.load(bundled_voice_dir(), threads=1).speak(TEXT)  # read from the cache
    assert all(p.stat().st_mtime > 1_000_000_000 for p in cache.glob("*.onnx"))
