"""A built folder a runner must refuse: missing, truncated or foreign files, a manifest from another
toolkit or platform, another graph contract, another voice's engine. One clear error naming the file and
the rebuild, never a traceback or garbled audio."""

import json
import shutil

import pytest

from cantoedge.runtime.enginefolder import MANIFEST_FILE, EngineFolderError, EngineManifest
from cantoedge.runtime.synth import Voice


@pytest.fixture()
def folder(device_voice, tmp_path):
    dst = tmp_path / "voice"
    shutil.copytree(device_voice, dst)
    return dst


def edit_manifest(folder, change):
    path = folder / MANIFEST_FILE
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_a_folder_without_a_manifest_says_what_it_is_and_how_to_make_one(folder, tmp_path):
    (folder / MANIFEST_FILE).unlink()  # graphs, but no build record
    with pytest.raises(EngineFolderError, match="use --graphs"):
        Voice.load(folder)
    with pytest.raises(EngineFolderError, match="cantoedge build"):
        Voice.load(tmp_path)


@pytest.mark.parametrize("damage", ["truncate", "foreign", "delete"])
def test_a_damaged_or_replaced_file_is_named_with_the_rebuild(folder, damage):
    target = folder / "vocoder.onnx"
    if damage == "truncate":
        target.write_bytes(target.read_bytes()[:1000])
    elif damage == "foreign":
        shutil.copy(folder / "decoder.onnx", target)  # a real graph, but not the one built
    else:
        target.unlink()
    with pytest.raises(EngineFolderError, match=r"vocoder\.onnx .*cantoedge build --target ort --precision int8"):
        Voice.load(folder)


@pytest.mark.parametrize("cached", [False, True], ids=["no-cache", "cached"])
def test_a_damaged_graph_is_never_opened_and_is_refused_while_the_digests_run_beside_the_sessions(
        folder, tmp_path, monkeypatch, cached):
    """The sha256 checks run on another thread while the sessions open (runtime/backends/loading.py): a session
    opens the folder's own file only once they have passed, and one already open from this machine's cache of
    optimised graphs is closed again with the same clear error."""
    from cantoedge.runtime.backends.ort import CACHE_ENV, OrtLoader

    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache") if cached else "")
    if cached:
        Voice.load(folder, threads=1, warmup=False).close()  # leaves the optimised graphs in the cache
    target = folder / "vocoder.onnx"
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one byte among the weights
    target.write_bytes(bytes(data))
    opened, original = [], OrtLoader._session

    def spy(self, model, optimize, save_to=None):
        opened.append(model if isinstance(model, str) else "cached bytes")
        return original(self, model, optimize, save_to)

    monkeypatch.setattr(OrtLoader, "_session", spy)
    with pytest.raises(EngineFolderError, match=r"vocoder\.onnx is not the file this folder was built with"):
        Voice.load(folder, threads=1, warmup=False)
    assert opened == (["cached bytes"] * 3 if cached else [])  # without a cache: nothing opened before the check


def test_a_graph_of_another_contract_is_refused(folder):
    def older(data):
        data["graphs"]["decoder"]["metadata"]["cantoedge.graph_version"] = "1"

    edit_manifest(folder, older)
    with pytest.raises(EngineFolderError, match="another graph contract.*graph version 1"):
        Voice.load(folder)


def test_inputs_that_differ_from_the_contract_are_refused(folder):
    def renamed(data):
        data["graphs"]["vocoder"]["inputs"][1]["name"] = "phase"

    edit_manifest(folder, renamed)
    with pytest.raises(EngineFolderError, match=r"vocoder graph takes \('mel', 'phase'\)"):
        Voice.load(folder)


def test_another_voices_engine_copied_in_is_refused(folder):
    def other_voice(data):
        data["graphs"]["decoder"]["metadata"]["cantoedge.checkpoint_sha256"] = "0" * 64

    edit_manifest(folder, other_voice)
    with pytest.raises(EngineFolderError, match="different checkpoints"):
        Voice.load(folder)


def test_an_unreadable_or_future_manifest_is_refused(folder):
    (folder / MANIFEST_FILE).write_text("{not json")
    with pytest.raises(EngineFolderError, match="not a cantoedge engine manifest"):
        Voice.load(folder)
    (folder / MANIFEST_FILE).write_text(json.dumps({"version": 99}))
    with pytest.raises(EngineFolderError, match="manifest version 99"):
        EngineManifest.load(folder)


def test_a_backend_that_cannot_run_the_folder_says_which_build_it_needs(folder):
    with pytest.raises(EngineFolderError, match="holds ort engines; --backend rknn needs .*--target rknn"):
        Voice.load(folder, backend="rknn")
    with pytest.raises(ValueError, match="--backend must be one of"):
        Voice.load(folder, backend="cuda")


def test_tensorrt_engines_from_another_version_or_gpu_are_refused(monkeypatch):
    import types

    from cantoedge.runtime.backends import trt

    monkeypatch.setattr(trt, "import_trt", lambda: types.SimpleNamespace(__version__="10.3.0"))
    monkeypatch.setattr(trt, "compute_capability", lambda: "sm_87")
    trt.check_toolkit({"version": "10.3.0"}, "sm_87", "v")  # the same: accepted
    with pytest.raises(EngineFolderError, match="built with TensorRT 8.5.2; this machine has 10.3.0"):
        trt.check_toolkit({"version": "8.5.2"}, "sm_87", "v")
    with pytest.raises(EngineFolderError, match="built for a sm_72 GPU; this one is sm_87"):
        trt.check_toolkit({"version": "10.3.0"}, "sm_72", "v")


def test_a_missing_backend_names_the_extra_to_install(monkeypatch):
    import builtins

    from cantoedge.runtime.backends import trt
    from cantoedge.runtime.backends.base import BackendMissingError

    real_import = builtins.__import__

    def no_tensorrt(name, *args, **kwargs):
        if name == "tensorrt":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_tensorrt)
    with pytest.raises(BackendMissingError, match=r"pip install 'cantoedge\[trt\]'"):
        trt.import_trt()
