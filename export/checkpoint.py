"""Model weights as safetensors with their config in the metadata (never pickles)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from torch import nn

from cantoedge.runtime.fileio import atomic_write
from cantoedge.runtime.inventory import load_inventory

from .models.acoustic import AcousticConfig, AcousticModel
from .models.vocoder import Vocoder, VocoderConfig


def save_model(model: nn.Module, path: Path, kind: str, config: dict, extra: dict | None = None) -> None:
    from safetensors.torch import save_file

    meta = {"kind": kind, "config": json.dumps(config, sort_keys=True),
            "inventory_version": str(load_inventory().version), **{k: json.dumps(v) for k, v in (extra or {}).items()}}
    state = {k: v.detach().contiguous().cpu() for k, v in model.state_dict().items()}
    atomic_write(Path(path), lambda tmp: save_file(state, tmp, metadata=meta))


def load_model(path: Path) -> tuple[nn.Module, dict]:
    """(model in eval mode, metadata) from a safetensors file written by ``save_model``."""
    from safetensors import safe_open
    from safetensors.torch import load_file

    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no checkpoint at {path}")
    try:
        with safe_open(str(path), "pt") as fh:
            meta = dict(fh.metadata() or {})
        state = load_file(str(path))
    except Exception as exc:  # safetensors raises its own error types for damaged files
        raise ValueError(f"{path} is not a readable safetensors checkpoint: {exc}") from exc
    kind = meta.get("kind")
    config = json.loads(meta.get("config", "{}"))
    if kind == "acoustic":
        model: nn.Module = AcousticModel(AcousticConfig.from_dict(config))
    elif kind == "vocoder":
        model = Vocoder(VocoderConfig.from_dict(config))
    else:
        raise ValueError(f"{path}: unknown model kind {kind!r}")
    if meta.get("inventory_version") != str(load_inventory().version):
        raise ValueError(f"{path} was trained on token inventory v{meta.get('inventory_version')}, "
                         f"this code has v{load_inventory().version}")
    missing, unexpected = model.load_state_dict(state, strict=False)
    if missing or unexpected:
        raise ValueError(f"{path} does not match its config: missing {missing[:3]}, unexpected {unexpected[:3]}")
    decoded = {k: (json.loads(v) if k not in ("kind",) else v) for k, v in meta.items()}
    decoded["config"] = config
    return model.eval(), decoded


def file_hash(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
