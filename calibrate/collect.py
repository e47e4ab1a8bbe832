"""Activation statistics of the FP32 graphs on the calibration set: every activation an INT8 op reads or
writes becomes an output and fills its 2048-bin |x| histogram. One sample per run, as the graphs see them
on the device (variable lengths cannot be batched)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from cantoedge.runtime.synth import Voice

from .entropy import Histogram
from .equalise import channel_peaks
from .qdq import QUANTISED_OPS


@dataclass(frozen=True)
class Utterance:
    tokens: np.ndarray
    tones: np.ndarray


def graph_inputs(voice: Voice, utterances: Iterable[Utterance]) -> dict[str, list[dict[str, np.ndarray]]]:
    """What each graph is fed on the device for these utterances: the encoder their tokens, the decoder the
    windows of its predicted frames, the vocoder the windows of the FP32 decoder's mel and F0. Whole windows
    only, as TensorRT and RKNN run every window (their caches come from these ranges): onnxruntime's short last
    window drops only padding frames."""
    feeds: dict[str, list[dict[str, np.ndarray]]] = {"encoder": [], "decoder": [], "vocoder": []}
    with voice.whole_windows():
        for u in utterances:
            feeds["encoder"].append({"tokens": u.tokens.astype(np.int64)[None],
                                     "tones": u.tones.astype(np.int64)[None]})
            frames, position, _ = voice.encode_tokens(u.tokens, u.tones)
            feeds["decoder"].extend({"frames": f, "position": p} for f, p, _ in voice.decoder_inputs(frames, position))
            feeds["vocoder"].extend(f for f, _ in voice.vocoder_feeds(*voice.decode(frames, position)))
    return feeds


def observed_tensors(model) -> list[str]:
    """The activations an INT8 build needs ranges for: what goes into and comes out of every op that can
    run in INT8 (initialisers excluded: weights get their own per-channel scales)."""
    from onnx import TensorProto

    types = {v.name: v.type.tensor_type.elem_type for v in [*model.graph.input, *model.graph.value_info,
                                                             *model.graph.output]}
    weights = {t.name for t in model.graph.initializer}
    names = []
    for node in model.graph.node:
        if node.op_type in QUANTISED_OPS:
            names.extend([*node.input[: 2 if node.op_type == "MatMul" else 1], *node.output])
    return list(dict.fromkeys(n for n in names if n and n not in weights and types.get(n) == TensorProto.FLOAT))


def _observing_session(model, names: list[str]):
    """A session whose outputs are ``names``: the graph with every one of them exposed. One intra-op thread:
    onnxruntime's float results can change in their last bits with the thread count (the voice's calibration
    feeds did), so ranges computed with its default, the machine's cores, could differ between machines."""
    import onnx
    import onnxruntime as ort

    observed = onnx.ModelProto()
    observed.CopyFrom(model)
    known = {o.name for o in observed.graph.output}
    infos = {v.name: v for v in observed.graph.value_info}
    for name in names:
        if name not in known and name in infos:
            observed.graph.output.append(infos[name])
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL  # keep every tensor
    options.log_severity_level = 3
    options.intra_op_num_threads = 1
    return ort.InferenceSession(observed.SerializeToString(), options, providers=["CPUExecutionProvider"])


def collect_histograms(model, feeds: list[dict[str, np.ndarray]],
                       progress: Callable[[Iterable, str], Iterable] | None = None, channels: Iterable[str] = ()
                       ) -> tuple[dict[str, Histogram], dict[str, np.ndarray]]:
    """Per observed tensor of ``model`` (an onnx.ModelProto with inferred shapes), its |x| histogram over
    ``feeds``; and per tensor of ``channels`` (observed ones), the max |x| of each channel (axis 1)."""
    names = observed_tensors(model)
    wanted = set(names)
    session = _observing_session(model, names)
    inputs = {i.name for i in session.get_inputs()}
    outputs = [o.name for o in session.get_outputs() if o.name in wanted]
    wrap = progress or (lambda xs, _desc: xs)

    def run(feed: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        values = dict(zip(outputs, session.run(outputs, {k: v for k, v in feed.items() if k in inputs})))
        values.update({k: v for k, v in feed.items() if k in wanted})
        return values

    hists = {name: Histogram.empty() for name in names}
    peaks: dict[str, np.ndarray] = {}
    channels = set(channels)
    for feed in wrap(feeds, "ranges"):
        for name, value in run(feed).items():
            hists[name].add(value)
            if name in channels:
                peaks[name] = np.maximum(peaks.get(name, 0), channel_peaks(value))
    return hists, peaks
