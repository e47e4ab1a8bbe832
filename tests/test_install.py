"""A device-only install: `pip install '.[ort]'` (numpy and onnxruntime, no torch) speaks with the default
INT8 voice from any directory, out of the box."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ANYWHERE = shutil.ignore_patterns(".git", ".venv*", "*.egg-info", "__pycache__", ".*cache")
AT_ROOT = {"data", "build", "runs", "out"}  # the corpus and build outputs (runtime/data is package data)


def skip(folder: str, names: list[str]) -> set[str]:
    return set(ANYWHERE(folder, names)) | (AT_ROOT & set(names) if Path(folder) == ROOT else set())


@pytest.mark.slow
def test_a_device_only_install_speaks_the_default_voice(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=skip)  # pip builds in the source tree: keep the checkout clean
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", f"{src}[ort]"],
                         capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stderr[-2000:]
    probe = subprocess.run([str(venv / "bin" / "python"), "-c", "import importlib.util as u; "
                            "print([m for m in ('torch', 'ToJyutping', 'librosa') if u.find_spec(m)])"],
                           capture_output=True, text=True, check=True)
    assert probe.stdout.strip() == "[]"
    env = {k: v for k, v in os.environ.items() if k != "CANTOEDGE_VOICE"} | {"XDG_DATA_HOME": str(tmp_path / "x")}
    out = tmp_path / "elsewhere"
    out.mkdir()
    say = subprocess.run([str(venv / "bin" / "cantoedge"), "say", "今日天氣好好。", "-o", "hello.wav"], cwd=out,
                         capture_output=True, text=True, timeout=300, env=env)
    assert say.returncode == 0, say.stderr
    assert "(ort int8," in say.stdout and (out / "hello.wav").stat().st_size > 22050
    # the regression suite runs there too: numpy and onnxruntime, the default voice and the bundle it carries
    regress = subprocess.run([str(venv / "bin" / "cantoedge"), "regress", "--limit", "4", "--repeats", "1",
                              "--out", "report"], cwd=out, capture_output=True, text=True, timeout=600, env=env)
    assert regress.returncode == 0, regress.stderr
    assert "| ort-int8 | ort/ort/ort |" in regress.stdout and (out / "report" / "report.html").exists()


def test_every_folder_of_package_files_is_a_listed_package():
    """setuptools installs a folder's files only when the folder is listed in `packages`; an unlisted one (a new
    data folder, say) is dropped from the wheel with no more than a build warning."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    folders = set()
    for package, where in config["package-dir"].items():
        for folder in (ROOT / where).rglob("*"):
            if folder.is_dir() and folder.name != "__pycache__" and any(p.is_file() for p in folder.iterdir()):
                folders.add(".".join([package, *folder.relative_to(ROOT / where).parts]))
    assert folders <= listed, f"not in pyproject's packages: {sorted(folders - listed)}"
    assert set(config["package-data"]) <= listed
