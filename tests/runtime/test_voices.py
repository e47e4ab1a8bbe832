"""Finding the voice from any directory: --voice, $CANTOEDGE_VOICE, the user's data directory, the bundled one."""

import shutil
import subprocess
import sys

import pytest

from cantoedge.runtime.enginefolder import EngineManifest
from cantoedge.runtime.voices import VOICE_ENV, bundled_voice_dir, find_voice, user_voice_dir


@pytest.fixture()
def clean_env(monkeypatch, tmp_path):
    monkeypatch.delenv(VOICE_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


def test_the_bundled_voice_is_the_int8_onnxruntime_build(clean_env):
    found = find_voice()
    assert found.source == "bundled" and found.path == bundled_voice_dir()
    manifest = EngineManifest.load(found.path)
    assert (manifest.target, manifest.precision) == ("ort", "int8")


def test_the_order_is_flag_environment_user_directory_bundled(clean_env, device_voice, monkeypatch, tmp_path):
    user = user_voice_dir()
    assert user == tmp_path / "xdg" / "cantoedge" / "voice"
    shutil.copytree(device_voice, user)
    assert find_voice().source == "user data directory"
    env_voice = shutil.copytree(device_voice, tmp_path / "env-voice")
    monkeypatch.setenv(VOICE_ENV, str(env_voice))
    assert find_voice().path == env_voice
    assert find_voice(user).source == "--voice"


def test_a_voice_asked_for_must_exist(clean_env, monkeypatch, tmp_path):
    with pytest.raises(FileNotFoundError, match="--voice"):
        find_voice(tmp_path / "nowhere")
    monkeypatch.setenv(VOICE_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError, match=f"\\${VOICE_ENV}"):
        find_voice()


def test_say_speaks_the_bundled_voice_from_any_directory_without_build_side_code(tmp_path):
    from blocker import BLOCKER

    from cantoedge.runtime.wavio import read_wav

    env = {k: v for k, v in __import__("os").environ.items() if k != VOICE_ENV}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    proc = subprocess.run([sys.executable, "-c", BLOCKER, "say", "你好", "-o", "hello.wav", "--threads", "1"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "(ort int8," in proc.stdout
    audio, rate = read_wav(tmp_path / "hello.wav")
    assert rate == 22050 and audio.size > 0.3 * rate
