"""Every 1-D convolution of an exported graph as a 2-D one over a height of 1 (Unsqueeze, Conv 1 x k, Squeeze).
onnxruntime's CPU provider runs 2-D convolutions in its blocked NCHWc layout (AVX2/AVX-512 kernels, the
depthwise ones included) and 1-D ones through a generic im2col path: the vocoder's eight depthwise convolutions
took 0.043 ms each of a window, its mel embedding 0.27 ms (measured, docs/int8.md, "1-D convolutions as 2-D").
Same arithmetic, same node names (the fallback lists and the RKNN hybrid rules name nodes), and TensorRT and
RKNN take either form."""

from __future__ import annotations

import numpy as np

HEIGHT_AXIS = "cantoedge_conv2d_height_axis"  # the initialiser that Unsqueeze and Squeeze share (axis 2)


def conv1d_as_conv2d(model) -> int:
    """Rewrite ``model`` in place; -> how many convolutions were rewritten. Only convolutions whose weights are
    initialisers (not a QAT graph's DequantizeLinear outputs, which stay 1-D)."""
    from onnx import helper, numpy_helper

    graph = model.graph
    weights = {t.name: t for t in graph.initializer}
    targets = {i for i, n in enumerate(graph.node) if n.op_type == "Conv" and n.input[1] in weights
               and len(weights[n.input[1]].dims) == 3}
    if not targets:
        return 0
    graph.initializer.append(numpy_helper.from_array(np.array([2], np.int64), HEIGHT_AXIS))
    rewritten: set[str] = set()
    nodes = []
    for i, node in enumerate(graph.node):
        if i not in targets:
            nodes.append(node)
            continue
        weight = weights[node.input[1]]
        if weight.name not in rewritten:  # a weight two convolutions share is reshaped once
            weight.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(weight)[:, :, None, :], weight.name))
            rewritten.add(weight.name)
        wide_in, wide_out = f"{node.output[0]}_2d_input", f"{node.output[0]}_2d"
        nodes.append(helper.make_node("Unsqueeze", [node.input[0], HEIGHT_AXIS], [wide_in], name=f"{node.name}_2d_in"))
        nodes.append(helper.make_node("Conv", [wide_in, *node.input[1:]], [wide_out], name=node.name,
                                      **_attributes_2d(node)))
        nodes.append(helper.make_node("Squeeze", [wide_out, HEIGHT_AXIS], [node.output[0]], name=f"{node.name}_2d_out"))
    del graph.node[:]
    graph.node.extend(nodes)
    return len(targets)


def _attributes_2d(node) -> dict:
    """A 1-D Conv's attributes for the 1 x k convolution: height 1, no padding, stride and dilation 1 there."""
    from onnx import helper

    out = {}
    for attribute in node.attribute:
        value = helper.get_attribute_value(attribute)
        if attribute.name == "kernel_shape":
            value = [1, *value]
        elif attribute.name == "pads":
            value = [0, value[0], 0, value[1]]
        elif attribute.name in ("strides", "dilations"):
            value = [1, *value]
        elif attribute.name == "auto_pad" and value not in (b"NOTSET", "NOTSET"):
            raise ValueError(f"{node.name}: auto_pad {value!r} is not written for 2-D here; pad explicitly")
        out[attribute.name] = value
    return out
