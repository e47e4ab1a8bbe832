"""Model weights as safetensors with their config in the metadata (never pickles)."""

from __future__ import annotations

import json
import struct
from pathlib import Path

from torch import nn

from cantoedge.runtime.fileio import atomic_write
from cantoedge.runtime.inventory import load_inventory

from .models.acoustic import AcousticConfig, AcousticModel
from .models.vocoder import Vocoder, VocoderConfig


def canonical_safetensors(data: bytes) -> bytes:
    """The same file with its metadata keys sorted: safetensors writes ``__metadata__`` from a Rust HashMap,
    in an order that changes from process to process, so the same weights would hash differently."""
    (size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8: 8 + size])
    if "__metadata__" in header:
        header = {"__metadata__": dict(sorted(header["__metadata__"].items())),
                  **{k: v for k, v in header.items() if k != "__metadata__"}}
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
    text += b" " * (-len(text) % 8)  # the format aligns the tensor data to 8 bytes
    return struct.pack("<Q", len(text)) + text + data[8 + size:]


def save_model(model: nn.Module, path: Path, kind: str, config: dict, extra: dict | None = None) -> None:
    from safetensors.torch import save

    meta = {"kind": kind, "config": json.dumps(config, sort_keys=True),
            "inventory_version": str(load_inventory().version), **{k: json.dumps(v) for k, v in (extra or {}).items()}}
    state = {k: v.detach().contiguous().cpu() for k, v in model.state_dict().items()}
    data = canonical_safetensors(save(state, metadata=meta))
    atomic_write(Path(path), lambda tmp: Path(tmp).write_bytes(data))


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
    if "qat_layers" in meta:  # a quantisation-aware checkpoint: its layers carry fake-quant scales
        from .qat import prepare

        prepare(model, json.loads(meta["qat_layers"]))
    missing, unexpected = model.load_state_dict(state, strict=False)
    if missing or unexpected:
        raise ValueError(f"{path} does not match its config: missing {missing[:3]}, unexpected {unexpected[:3]}")
    decoded = {k: (json.loads(v) if k not in ("kind",) else v) for k, v in meta.items()}
    decoded["config"] = config
    return model.eval(), decoded
