"""The 2-D convolutions' height axis kept through the graph instead of squeezed after each convolution and put
back before the next: a ConvNeXt block's LayerNorm, pointwise layers, GELU, transposes and residual add run on
(B, C, 1, T) and (B, 1, T, C) as they did on (B, C, T) and (B, T, C), so the Squeeze and Unsqueeze pair each
block paid (``conv2d.conv1d_as_conv2d``) goes: 2.5-5 % of a window on 2 cores (docs/int8.md, "The height axis kept").
Same arithmetic and node names (the fallback lists and RKNN's hybrid rules name nodes); a convolution writes the
tensor its Squeeze wrote, under that name, and only the ranks of the tensors in between change."""

from __future__ import annotations

import numpy as np

from .conv2d import HEIGHT_AXIS

UNARY = {"Erf", "Sigmoid", "Tanh", "Relu", "Sqrt", "Exp", "Log", "Neg", "Abs", "Cast", "Identity", "Floor",
         "Sin", "Cos", "Reciprocal"}
BROADCASTING = {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min"}


def keep_height_axis(model) -> int:
    """Rewrite ``model`` in place; -> how many Squeeze and Unsqueeze nodes were removed. A tensor stays 4-D while
    every op on it can take the height axis (elementwise ops with constants that do not broadcast over it,
    LayerNorm over the last axis, MatMul by a 2-D weight, Transpose); a Squeeze is put back where one cannot."""
    from onnx import helper

    graph = model.graph
    ranks = _constant_ranks(graph)
    outputs = {o.name for o in graph.output}
    lifted: dict[str, int] = {}  # tensor now 4-D -> where its height axis (size 1) sits
    rename: dict[str, str] = {}  # a removed Unsqueeze's output -> its 4-D input
    squeezed: dict[str, str] = {}  # a lifted tensor -> the 3-D copy made for a consumer that needs one
    removed = 0
    nodes = []
    producer = {out: node for node in graph.node for out in node.output}
    readers: dict[str, list[str]] = {}
    for node in graph.node:
        for name in node.input:
            readers.setdefault(name, []).append(node.op_type)

    def materialise(name: str) -> str:
        if name not in squeezed:
            squeezed[name] = f"{name}_3d"
            nodes.append(helper.make_node("Squeeze", [name, _axis_constant(graph, lifted[name])], [squeezed[name]],
                                          name=f"{name}_height_out"))
        return squeezed[name]

    for node in graph.node:
        inputs = [rename.get(name, name) for name in node.input]
        if (node.op_type == "Squeeze" and inputs[1:] == [HEIGHT_AXIS] and _is_conv_output(inputs[0], producer)
                and len(readers.get(inputs[0], [])) == 1 and node.output[0] not in outputs):
            producer[inputs[0]].output[0] = node.output[0]  # the convolution writes the 4-D tensor itself
            lifted[node.output[0]] = 2
            removed += 1
            continue
        if (node.op_type == "Unsqueeze" and inputs[1:] == [HEIGHT_AXIS] and lifted.get(inputs[0]) == 2
                and set(readers.get(node.output[0], [])) == {"Conv"} and node.output[0] not in outputs):
            rename[node.output[0]] = inputs[0]
            removed += 1
            continue
        takes_4d = inputs != list(node.input)  # it read a removed Unsqueeze: a convolution, as built above
        height = None if takes_4d or node.output[0] in outputs else _height_after(node, inputs, lifted, ranks)
        if height is None:  # an input that replaced a removed Unsqueeze is the 4-D tensor this node takes
            inputs = [materialise(new) if new in lifted and new == old else new
                      for new, old in zip(inputs, node.input)]
        else:
            for out in node.output:
                lifted[out] = height
            for attribute in node.attribute if node.op_type == "Transpose" else ():
                perm, _ = _transpose_4d(list(helper.get_attribute_value(attribute)), lifted[inputs[0]])
                attribute.CopyFrom(helper.make_attribute("perm", perm))
        del node.input[:]
        node.input.extend(inputs)
        nodes.append(node)
    del graph.node[:]
    graph.node.extend(nodes)
    kept = [v for v in graph.value_info if v.name not in lifted]
    del graph.value_info[:]
    graph.value_info.extend(kept)
    return removed


def _axis_constant(graph, axis: int) -> str:
    """The name of an int64 initialiser [axis], added once (axis 2 is ``conv2d.HEIGHT_AXIS``)."""
    from onnx import numpy_helper

    name = HEIGHT_AXIS if axis == 2 else f"{HEIGHT_AXIS}_{axis}"
    if not any(t.name == name for t in graph.initializer):
        graph.initializer.append(numpy_helper.from_array(np.array([axis], np.int64), name))
    return name


def _is_conv_output(name: str, producer: dict) -> bool:
    node = producer.get(name)
    return node is not None and node.op_type == "Conv" and len(node.output) == 1


def _height_after(node, inputs: list[str], lifted: dict[str, int], ranks: dict[str, int]) -> int | None:
    """Where the height axis sits in ``node``'s outputs if it can run on its lifted inputs, else None."""
    from onnx import helper

    data = [name for name in inputs if name and name not in ranks]
    if not data or any(name not in lifted for name in data):
        return None
    heights = {lifted[name] for name in data}
    if len(heights) != 1:
        return None
    k = heights.pop()
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    if node.op_type in UNARY:
        return k
    if node.op_type in ("QuantizeLinear", "DequantizeLinear"):  # per-tensor only: a per-axis scale names an axis
        return k if all(ranks.get(name, 1) == 0 for name in inputs[1:] if name) else None
    if node.op_type in BROADCASTING:
        # a constant broadcasts over the trailing axes; it must not reach the height axis (3 - k trailing axes)
        return k if all(ranks[name] <= 3 - k for name in inputs if name and name in ranks) else None
    if node.op_type == "LayerNormalization":
        return k if attrs.get("axis", -1) == -1 and k <= 2 and len(node.output) == 1 else None
    if node.op_type == "MatMul":
        return k if k <= 1 and inputs[0] in lifted and ranks.get(inputs[1]) == 2 else None
    if node.op_type == "Transpose" and len(attrs.get("perm", [])) == 3:
        return _transpose_4d(list(attrs["perm"]), k)[1]
    return None


def _transpose_4d(perm: list[int], k: int) -> tuple[list[int], int]:
    """A rank-3 Transpose's permutation for the 4-D tensor whose height axis sits at ``k``, and where it sits in
    the output: the height axis travels with the axis after it (with the end, when it is last)."""
    axis_4d = [i if i < k else i + 1 for i in range(3)]
    out: list[int] = []
    for original in perm:
        if original == k:
            out.append(k)
        out.append(axis_4d[original])
    if k == 3:
        out.append(3)
    return out, out.index(k)


def _constant_ranks(graph) -> dict[str, int]:
    """Rank of every tensor that depends on initialisers and Constant nodes alone, where it is known."""
    from onnx import helper

    ranks = {t.name: len(t.dims) for t in graph.initializer}
    for node in graph.node:
        if node.op_type == "Constant":
            value = helper.get_attribute_value(node.attribute[0])
            ranks[node.output[0]] = len(getattr(value, "dims", ()))  # a scalar attribute has no dims: rank 0
        elif node.op_type in ("DequantizeLinear", "Identity", "Cast") and node.input[0] in ranks:
            ranks[node.output[0]] = ranks[node.input[0]]
    return ranks
