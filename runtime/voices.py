"""Where the device finds its voice, from any working directory: --voice DIR, else $CANTOEDGE_VOICE, else the
user's data directory (XDG), else the default INT8 voice that ships inside the package."""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .enginefolder import MANIFEST_FILE

VOICE_ENV = "CANTOEDGE_VOICE"


@dataclass(frozen=True)
class FoundVoice:
    path: Path
    source: str  # how it was found: "--voice", "$CANTOEDGE_VOICE", "user data directory", "bundled"


def user_voice_dir() -> Path:
    """$XDG_DATA_HOME/cantoedge/voice, ~/.local/share/cantoedge/voice when XDG_DATA_HOME is unset."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cantoedge" / "voice"


def bundled_voice_dir() -> Path:
    """The default voice inside the package: the onnxruntime INT8 build of export/voice/ (README)."""
    return Path(str(resources.files("cantoedge.runtime").joinpath("voice")))


def find_voice(explicit: str | Path | None = None) -> FoundVoice:
    """The first voice folder that is asked for or present; a folder asked for must exist."""
    if explicit:
        path = Path(explicit)
        if not path.is_dir():
            raise FileNotFoundError(f"--voice {explicit}: no such folder")
        return FoundVoice(path, "--voice")
    if os.environ.get(VOICE_ENV):
        path = Path(os.environ[VOICE_ENV])
        if not path.is_dir():
            raise FileNotFoundError(f"${VOICE_ENV} is {path}, which is not a folder; unset it or point it at a "
                                    "voice folder from `cantoedge build`")
        return FoundVoice(path, f"${VOICE_ENV}")
    user = user_voice_dir()
    if (user / MANIFEST_FILE).is_file():
        return FoundVoice(user, "user data directory")
    bundled = bundled_voice_dir()
    if not (bundled / MANIFEST_FILE).is_file():
        raise FileNotFoundError(f"no voice: the package's default voice is missing from {bundled}; pass --voice DIR "
                                "(a folder from `cantoedge build`)")
    return FoundVoice(bundled, "bundled")
