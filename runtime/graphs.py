"""The graph contracts between the build side and the device: names, tensor names, shapes and the metadata
every exported graph carries. The exporter writes to them; every backend reads them (numpy only)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from .audio import AUDIO
from .chunks import CHUNK_FRAMES
from .istft import OVERLAP

DEFAULT_GRAPH_DIR = "build/voice"  # where `cantoedge export` writes and `cantoedge say` reads
GRAPH_VERSION = 3  # bump when a graph's inputs, outputs or meaning change
META_PREFIX = "cantoedge."


@dataclass(frozen=True)
class GraphSpec:
    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]

    def filename(self, precision: str = "fp32") -> str:
        return f"{self.name}.onnx" if precision == "fp32" else f"{self.name}.{precision}.onnx"


# tokens, tones (1, N) int64 -> hidden (1, N, D), log_durations, pitch, energy (1, N); N is dynamic.
ENCODER = GraphSpec("encoder", ("tokens", "tones"), ("hidden", "log_durations", "pitch", "energy"))
# frames (B, CHUNK + 2c, D) and position (B, CHUNK + 2c) -> mel (B, n_mels, CHUNK) and f0 (B, CHUNK) in Hz,
# 0 where unvoiced: the window's kept frames. The frame axis is dynamic in the exported graphs: the engines fix
# it at CHUNK + 2c (window_shapes), onnxruntime also runs an utterance's last window at keep + 2c (chunks.py).
DECODER = GraphSpec("decoder", ("frames", "position"), ("mel", "f0"))
# mel (B, n_mels, CHUNK + 2c) and f0 (B, CHUNK + 2c) in Hz, 0 where unvoiced -> for the window's frames
# [c - 1, c + CHUNK + 2) (spectrum_frames): log-magnitude, noise phase and harmonic share (B, CHUNK + 3, bins).
# The device mixes them with the harmonic source (runtime/excitation.py) and overlap-adds the window's kept
# CHUNK * hop samples (runtime/istft.py). Version 2 took the phase and returned audio, with the source and the
# inverse STFT as graph arithmetic, which INT8 could neither take nor speed up.
VOCODER = GraphSpec("vocoder", ("mel", "f0"), ("log_magnitude", "noise_phase", "share"))
GRAPHS = (ENCODER, DECODER, VOCODER)


@dataclass(frozen=True)
class GraphInfo:
    """What a graph's metadata says about it; a runtime refuses graphs that disagree with each other."""

    graph: str
    graph_version: int
    inventory_version: int
    checkpoint_sha256: str
    chunk_frames: int
    context: int  # frames of context either side of a chunk (0 for the encoder)
    audio: dict
    model: dict  # the model config the checkpoint was trained with

    def to_metadata(self) -> dict[str, str]:
        return {META_PREFIX + k: (v if isinstance(v, str) else json.dumps(v, sort_keys=True))
                for k, v in asdict(self).items()}

    @classmethod
    def from_metadata(cls, meta: dict[str, str], source: str | Path = "graph") -> GraphInfo:
        try:
            values = {k: meta[META_PREFIX + k] for k in cls.__dataclass_fields__}
            info = cls(**{k: (v if k in ("graph", "checkpoint_sha256") else json.loads(v))
                          for k, v in values.items()})
        except (KeyError, ValueError) as exc:
            raise ValueError(f"{source} is not a cantoedge graph (metadata {exc} missing or unreadable); "
                             "export it with `cantoedge export`") from exc
        if info.graph_version != GRAPH_VERSION:
            raise ValueError(f"{source} is graph version {info.graph_version}; this runtime reads {GRAPH_VERSION}")
        return info


def graph_precision(meta: dict[str, str]) -> str:
    """What a graph file is, from its metadata: the calibrator stamps INT8 graphs, exported graphs are FP32."""
    return meta.get(META_PREFIX + "precision", "fp32")


def audio_params() -> dict:
    return asdict(AUDIO)


def spectrum_frames(context: int, chunk: int = CHUNK_FRAMES) -> slice:
    """The vocoder window's frames whose spectra its graph returns: the kept chunk and the frames either side
    that overlap-add into its samples (one before, two after)."""
    return slice(context - 1, context + chunk + OVERLAP - 2)


def window_shapes(graph: str, info: GraphInfo, dim: int) -> dict[str, tuple[int, ...]]:
    """Every input and output of one decoder or vocoder window (``dim``: the decoder's frame width), without
    the batch dimension: the fixed shapes TensorRT's profiles and RKNN's builds are made from."""
    w, chunk = window_frames(info.context, info.chunk_frames), info.chunk_frames
    n_mels, bins = info.audio["n_mels"], info.audio["n_fft"] // 2 + 1
    if graph == DECODER.name:
        return {"frames": (w, dim), "position": (w,), "mel": (n_mels, chunk), "f0": (chunk,)}
    if graph == VOCODER.name:
        spectra = (chunk + OVERLAP - 1, bins)
        return {"mel": (n_mels, w), "f0": (w,), "log_magnitude": spectra, "noise_phase": spectra, "share": spectra}
    raise ValueError(f"{graph} has no fixed window")


def window_frames(context: int, chunk: int = CHUNK_FRAMES) -> int:
    """Frames in one fixed-size window: the chunk and its context either side."""
    return chunk + 2 * context
