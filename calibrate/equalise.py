"""Per-channel output equalisation: a convolution whose output channels peak at very different values is
rewritten as Conv(W / r, b / r) followed by Mul(r), r being each channel's peak on the calibration set, so
that its INT8 output, which has one scale per tensor, gives every channel all 255 levels. Same function in
float (to rounding); TensorRT and RKNN take the Mul like any other."""

from __future__ import annotations

import numpy as np

# The convolutions equalised in every INT8 graph (graph -> node names). The vocoder's mel embedding: its 128
# output channels peak between 13 and 205 (median 26, the calibration set), so its one per-tensor scale (entropy
# threshold 136) left most channels a dozen levels, and it had to stay float for the tones. Equalised, it runs
# INT8 (docs/int8.md, "The mel embedding in INT8").
EQUALISED = {"vocoder": ("/embed/Conv",)}
SUFFIX = "_equalised"  # the rewritten convolution's output: what the Q/DQ pair quantises, within [-1, 1]


def channel_peaks(value: np.ndarray, axis: int = 1) -> np.ndarray:
    """max |x| of each channel (``axis``) over every other axis."""
    return np.abs(np.moveaxis(np.asarray(value, np.float32), axis, 0)).reshape(value.shape[axis], -1).max(axis=1)


def equalise(model, node_name: str, peaks: list[float]) -> str:
    """Rewrite the Conv ``node_name`` of ``model`` in place; -> the name of its new output, whose channels peak
    at 1 on the calibration data. A channel that never fired (peak 0) keeps its scale."""
    from onnx import helper, numpy_helper

    graph = model.graph
    node = next((n for n in graph.node if n.name == node_name), None)
    if node is None or node.op_type != "Conv":
        raise ValueError(f"no convolution named {node_name!r} to equalise")
    weights = {t.name: t for t in graph.initializer}
    params = [i for i in node.input[1:3] if i]  # the weight, and the bias if it has one
    if not all(i in weights for i in params):
        raise ValueError(f"{node_name}: equalising needs its weight and bias as initialisers")
    if any(i in params for n in graph.node if n is not node for i in n.input):
        raise ValueError(f"{node_name}: its weight or bias is shared with another node, which would change too")
    scale = np.asarray(peaks, np.float32)
    channels = weights[params[0]].dims[0]
    if scale.shape != (channels,):
        raise ValueError(f"{node_name}: {scale.size} channel peaks for {channels} output channels")
    scale = np.where(scale > 0, scale, np.float32(1))
    for name in params:  # weight (out, in, ...) and bias (out,): each output channel divided by its peak
        value = numpy_helper.to_array(weights[name])
        weights[name].CopyFrom(numpy_helper.from_array(value / scale.reshape((-1,) + (1,) * (value.ndim - 1)), name))
    rank = len(weights[params[0]].dims)
    out, scale_name = node.output[0], f"{node_name}{SUFFIX}_scale"
    graph.initializer.append(numpy_helper.from_array(scale.reshape((1, -1) + (1,) * (rank - 2)), scale_name))
    node.output[0] = out + SUFFIX
    position = list(graph.node).index(node) + 1
    graph.node.insert(position, helper.make_node("Mul", [out + SUFFIX, scale_name], [out],
                                                 name=f"{node_name}{SUFFIX}_rescale"))
    return out + SUFFIX
