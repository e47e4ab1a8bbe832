"""Export of the three device graphs (runtime/graphs.py): encoder with a dynamic token length, decoder and
vocoder on one 128-frame window plus context with a dynamic batch and frame axis (the engines fix the window;
onnxruntime also takes an utterance's shorter last one). Each file is simplified, passes the full
``onnx.checker`` and strict shape inference, carries its provenance in the metadata, and is byte-identical
when exported again from the same checkpoint."""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

from cantoedge.runtime.chunks import CHUNK_FRAMES
from cantoedge.runtime.fileio import atomic_write, file_sha256
from cantoedge.runtime.graphs import (
    DECODER,
    ENCODER,
    GRAPH_VERSION,
    META_PREFIX,
    VOCODER,
    GraphInfo,
    GraphSpec,
    audio_params,
    spectrum_frames,
)
from cantoedge.runtime.graphs import window_frames as _window
from cantoedge.runtime.inventory import load_inventory

from .checkpoint import load_model
from .conv2d import conv1d_as_conv2d
from .layerscale import fold_layer_scale
from .models.acoustic import AcousticModel, Decoder, Encoder, frame_f0
from .models.vocoder import Vocoder
from .squeeze import keep_height_axis

OPSET = 17  # LayerNormalization; TensorRT 8.5 (JetPack 5) and rknn-toolkit2 both read it


class EncoderGraph(nn.Module):
    def __init__(self, encoder: Encoder):
        super().__init__()
        self.encoder = encoder

    def forward(self, tokens: torch.Tensor, tones: torch.Tensor):
        hidden, log_dur, pitch, energy, _ = self.encoder(tokens, tones)
        return hidden, log_dur, pitch, energy


class DecoderGraph(nn.Module):
    """One window in, its mel and F0 for the frames past its ``context`` either side out (the kept chunk; for a
    short last window, fewer)."""

    def __init__(self, decoder: Decoder):
        super().__init__()
        self.decoder = decoder

    def forward(self, frames: torch.Tensor, position: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        c = self.decoder.context
        mel, pitch = self.decoder.forward_padded(frames, position)
        keep = slice(c, mel.shape[-1] - c)  # traced relative to the window's length: any window length works
        return mel[:, :, keep], frame_f0(pitch[:, :, keep])


class VocoderGraph(nn.Module):
    """One window of mel and F0 in; the network's outputs for the frames its kept samples overlap-add from
    out (the heads run on those alone; the device mixes in the harmonic source and inverts the STFT)."""

    def __init__(self, vocoder: Vocoder):
        super().__init__()
        self.vocoder = vocoder

    def forward(self, mel: torch.Tensor, f0: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        c = self.vocoder.context
        frames = spectrum_frames(c, mel.shape[-1] - 2 * c)  # traced relative to the window's length
        return self.vocoder.heads(self.vocoder.trunk(mel, f0)[:, frames])


@dataclass(frozen=True)
class Exported:
    encoder: Path
    decoder: Path
    vocoder: Path


def to_onnx(module: nn.Module, args: tuple, spec: GraphSpec, dynamic_axes: dict, info: GraphInfo,
            precision: str = "fp32") -> bytes:
    """Trace (legacy exporter, as the Q/DQ graphs must be), simplify, fold the layer scales (export/layerscale.py),
    turn 1-D convolutions 2-D (export/conv2d.py), check, stamp the metadata (and the precision where it is not
    FP32, as the calibrator stamps its INT8 graphs)."""
    import onnx
    import onnxslim

    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        warnings.filterwarnings("ignore", category=FutureWarning)
        warnings.filterwarnings("ignore", message="Constant folding")
        torch.onnx.export(module.eval(), args, buf, input_names=list(spec.inputs), output_names=list(spec.outputs),
                          dynamic_axes=dynamic_axes, opset_version=OPSET, do_constant_folding=True, dynamo=False)
    model = onnxslim.slim(onnx.load_from_string(buf.getvalue()))
    fold_layer_scale(model)
    conv1d_as_conv2d(model)
    keep_height_axis(model)
    model = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
    onnx.checker.check_model(model, full_check=True)
    model.producer_name, model.doc_string = "cantoedge", f"cantoedge {spec.name} graph v{GRAPH_VERSION}"
    del model.metadata_props[:]
    meta = info.to_metadata() | ({META_PREFIX + "precision": precision} if precision != "fp32" else {})
    for key, value in sorted(meta.items()):
        model.metadata_props.add(key=key, value=value)
    return model.SerializeToString(deterministic=True)


def _write(path: Path, data: bytes) -> Path:
    atomic_write(path, lambda tmp: Path(tmp).write_bytes(data))
    return path


def _acoustic_graphs(model: AcousticModel, meta: dict, sha: str, chunk: int,
                     precision: str = "fp32") -> tuple[bytes, bytes]:
    inventory = load_inventory().version
    cfg = model.cfg
    tokens = torch.tensor([[1, 5, 9, 5, 9, 2]], dtype=torch.long)
    tones = torch.tensor([[0, 1, 1, 6, 6, 0]], dtype=torch.long)
    enc = to_onnx(EncoderGraph(model.encoder), (tokens, tones), ENCODER,
                  {"tokens": {1: "n_tokens"}, "tones": {1: "n_tokens"}, "hidden": {1: "n_tokens"},
                   "log_durations": {1: "n_tokens"}, "pitch": {1: "n_tokens"}, "energy": {1: "n_tokens"}},
                  GraphInfo(ENCODER.name, GRAPH_VERSION, inventory, sha, chunk, 0, audio_params(), meta["config"]),
                  precision)
    c = model.decoder.context
    w = _window(c, chunk)
    dec = to_onnx(DecoderGraph(model.decoder), (torch.zeros(1, w, cfg.dim), torch.zeros(1, w)),
                  DECODER, {"frames": {0: "batch", 1: "window"}, "position": {0: "batch", 1: "window"},
                            "mel": {0: "batch", 2: "kept"}, "f0": {0: "batch", 1: "kept"}},
                  GraphInfo(DECODER.name, GRAPH_VERSION, inventory, sha, chunk, c, audio_params(), meta["config"]),
                  precision)
    return enc, dec


def _load_acoustic(path: Path) -> tuple[AcousticModel, dict]:
    model, meta = load_model(path)
    if not isinstance(model, AcousticModel):
        raise ValueError(f"{path} is a {meta['kind']} checkpoint, not an acoustic model")
    if not model.cfg.frame_pitch:
        raise ValueError(f"{path} predicts no per-frame pitch (model.frame_pitch = false): the device's vocoder "
                         "needs it; fine-tune it with a frame_pitch config (see export/configs/*_pitch.toml)")
    return model, meta


def export_voice(acoustic_path: Path, vocoder_path: Path, out_dir: Path, chunk: int = CHUNK_FRAMES) -> Exported:
    """encoder.onnx, decoder.onnx and vocoder.onnx for one acoustic checkpoint and one vocoder."""
    acoustic_path, vocoder_path, out_dir = Path(acoustic_path), Path(vocoder_path), Path(out_dir)
    model, meta = _load_acoustic(acoustic_path)
    if "qat_layers" in meta:
        raise ValueError(f"{acoustic_path} is a quantisation-aware checkpoint: its graphs are INT8, export them "
                         "with `cantoedge train qat` (it writes them) or export_qat()")
    vocoder, voc_meta = load_model(vocoder_path)
    if not isinstance(vocoder, Vocoder):
        raise ValueError(f"{vocoder_path} is a {voc_meta['kind']} checkpoint, not a vocoder")
    enc, dec = _acoustic_graphs(model, meta, file_sha256(acoustic_path), chunk)
    if not vocoder.cfg.harmonics:
        raise ValueError(f"{vocoder_path} has no harmonic branch (model.harmonics = false): the device's vocoder "
                         "takes f0; fine-tune it with export/configs/vocoder_pitch.toml")
    c = vocoder.context
    info = GraphInfo(VOCODER.name, GRAPH_VERSION, load_inventory().version, file_sha256(vocoder_path), chunk, c,
                     audio_params(), voc_meta["config"])
    w = _window(c, chunk)
    example = (torch.full((1, vocoder.cfg.n_mels, w), -5.0), torch.full((1, w), 100.0))
    voc = to_onnx(VocoderGraph(vocoder), example, VOCODER,
                  {"mel": {0: "batch", 2: "window"}, "f0": {0: "batch", 1: "window"},
                   **{name: {0: "batch", 1: "spectra"} for name in VOCODER.outputs}}, info)
    return Exported(_write(out_dir / ENCODER.filename(), enc), _write(out_dir / DECODER.filename(), dec),
                    _write(out_dir / VOCODER.filename(), voc))


def export_qat(acoustic_path: Path, out_dir: Path, chunk: int = CHUNK_FRAMES) -> tuple[Path, Path]:
    """encoder.int8.onnx and decoder.int8.onnx from a quantisation-aware checkpoint: its scales frozen and
    traced into QuantizeLinear/DequantizeLinear pairs (zero-point 0, per-channel weights on axis 0)."""
    from .qat import freeze

    acoustic_path = Path(acoustic_path)
    model, meta = _load_acoustic(acoustic_path)
    if "qat_layers" not in meta:
        raise ValueError(f"{acoustic_path} has no fake-quant layers: train it with `cantoedge train qat`")
    enc, dec = _acoustic_graphs(freeze(model), meta, file_sha256(acoustic_path), chunk, "int8")
    out_dir = Path(out_dir)
    return _write(out_dir / ENCODER.filename("int8"), enc), _write(out_dir / DECODER.filename("int8"), dec)
