"""The convolutions' height axis kept between ConvNeXt blocks (export/squeeze.py): the same outputs in
onnxruntime without the Squeeze/Unsqueeze pair each block paid, node names kept, and a Squeeze put back
wherever an op cannot take the 4-D tensor."""

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from cantoedge.export.conv2d import conv1d_as_conv2d
from cantoedge.export.squeeze import _transpose_4d, keep_height_axis

C, H = 8, 16


def blocks(n: int = 2, tail: str = "none") -> onnx.ModelProto:
    """x (B, C, T) -> a pointwise convolution -> n ConvNeXt blocks (depthwise conv, transpose, LayerNorm, MatMul,
    GELU, MatMul, transpose, residual add), then ``tail``: "none" (the stream is the output), "channel_scale" (a
    Mul by a (C, 1) constant, which broadcasts over the channel axis of (B, C, T)), or "slice" (an op the pass
    does not know)."""
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(np.array(np.sqrt(2.0), np.float32), "sqrt2"),
             numpy_helper.from_array(np.array(1.0, np.float32), "one"),
             numpy_helper.from_array(np.array(0.5, np.float32), "half")]
    inits += [numpy_helper.from_array(rng.standard_normal((C, C, 1)).astype(np.float32), "proj")]
    nodes = [helper.make_node("Conv", ["x", "proj"], ["/in_proj"], name="/in_proj/Conv", kernel_shape=[1])]
    x = "/in_proj"
    for b in range(n):
        p = f"/blocks.{b}"
        inits += [numpy_helper.from_array(rng.standard_normal(s).astype(np.float32), f"{p}.{name}") for name, s in
                  (("dw", (C, 1, 7)), ("dwb", (C,)), ("g", (C,)), ("beta", (C,)), ("w1", (C, H)), ("b1", (H,)),
                   ("w2", (H, C)), ("b2", (C,)))]
        nodes += [helper.make_node("Conv", [x, f"{p}.dw", f"{p}.dwb"], [f"{p}/dw"], name=f"{p}/dwconv/Conv",
                                   group=C, kernel_shape=[7], pads=[3, 3]),
                  helper.make_node("Transpose", [f"{p}/dw"], [f"{p}/t"], name=f"{p}/Transpose", perm=[0, 2, 1]),
                  helper.make_node("LayerNormalization", [f"{p}/t", f"{p}.g", f"{p}.beta"], [f"{p}/ln"],
                                   name=f"{p}/norm", axis=-1),
                  helper.make_node("MatMul", [f"{p}/ln", f"{p}.w1"], [f"{p}/m1"], name=f"{p}/pw1/MatMul"),
                  helper.make_node("Add", [f"{p}.b1", f"{p}/m1"], [f"{p}/a1"], name=f"{p}/pw1/Add"),
                  helper.make_node("Div", [f"{p}/a1", "sqrt2"], [f"{p}/d"], name=f"{p}/Div"),
                  helper.make_node("Erf", [f"{p}/d"], [f"{p}/e"], name=f"{p}/Erf"),
                  helper.make_node("Add", [f"{p}/e", "one"], [f"{p}/e1"], name=f"{p}/Add"),
                  helper.make_node("Mul", [f"{p}/a1", f"{p}/e1"], [f"{p}/g1"], name=f"{p}/Mul"),
                  helper.make_node("Mul", [f"{p}/g1", "half"], [f"{p}/g"], name=f"{p}/Mul_1"),
                  helper.make_node("MatMul", [f"{p}/g", f"{p}.w2"], [f"{p}/m2"], name=f"{p}/pw2/MatMul"),
                  helper.make_node("Add", [f"{p}.b2", f"{p}/m2"], [f"{p}/a2"], name=f"{p}/pw2/Add"),
                  helper.make_node("Transpose", [f"{p}/a2"], [f"{p}/t2"], name=f"{p}/Transpose_1", perm=[0, 2, 1]),
                  helper.make_node("Add", [x, f"{p}/t2"], [f"{p}/out"], name=f"{p}/Add_1")]
        x = f"{p}/out"
    if tail == "channel_scale":
        inits.append(numpy_helper.from_array(rng.standard_normal((C, 1)).astype(np.float32), "scale"))
        nodes.append(helper.make_node("Mul", [x, "scale"], ["y"], name="/scale"))
    elif tail == "slice":
        inits += [numpy_helper.from_array(np.array([1], np.int64), name) for name in ("start", "axis")]
        inits.append(numpy_helper.from_array(np.array([5], np.int64), "stop"))
        nodes.append(helper.make_node("Slice", [x, "start", "stop", "axis"], ["y"], name="/slice"))
    else:
        nodes.append(helper.make_node("Identity", [x], ["y"], name="/out"))
    graph = helper.make_graph(nodes, "blocks", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["B", C, "T"])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    conv1d_as_conv2d(model)
    return model


def run(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def count(model: onnx.ModelProto, op: str) -> int:
    return sum(n.op_type == op for n in model.graph.node)


@pytest.mark.parametrize("tail", ["none", "channel_scale", "slice"])
def test_the_stream_stays_4d_between_blocks_and_computes_the_same(tail):
    model = blocks(3, tail)
    x = np.random.default_rng(1).standard_normal((2, C, 29)).astype(np.float32)
    before = run(model, x)
    names = {n.name for n in model.graph.node if n.op_type not in ("Squeeze", "Unsqueeze")}
    assert (count(model, "Squeeze"), count(model, "Unsqueeze")) == (4, 4)
    assert keep_height_axis(model) == 7  # every Squeeze, and every Unsqueeze but the one of the graph's input
    onnx.checker.check_model(onnx.shape_inference.infer_shapes(model, strict_mode=True), full_check=True)
    # one Squeeze comes back before the op that cannot take the height axis (or the graph's output)
    assert (count(model, "Squeeze"), count(model, "Unsqueeze")) == (1, 1)
    assert names <= {n.name for n in model.graph.node}
    after = run(model, x)
    assert after.shape == before.shape
    np.testing.assert_allclose(after, before, rtol=1e-6, atol=1e-6)
    assert keep_height_axis(model) == 0  # nothing left to remove


def test_transposes_carry_the_height_axis_with_the_axis_after_it():
    assert _transpose_4d([0, 2, 1], 2) == ([0, 2, 3, 1], 1)  # (B, C, 1, T) -> (B, 1, T, C)
    assert _transpose_4d([0, 2, 1], 1) == ([0, 3, 1, 2], 2)  # (B, 1, T, C) -> (B, C, 1, T)
    assert _transpose_4d([1, 0, 2], 3) == ([1, 0, 2, 3], 3)  # at the end it stays there


def test_a_per_axis_quantised_tensor_is_not_lifted():
    """A per-axis QuantizeLinear names an axis of the 3-D tensor; the pass must not move it."""
    model = blocks(1)
    inits = [numpy_helper.from_array(np.full(C, 0.05, np.float32), "qs"),
             numpy_helper.from_array(np.zeros(C, np.int8), "qz")]
    model.graph.initializer.extend(inits)
    out = model.graph.node[-1]
    model.graph.node.remove(out)
    model.graph.node.extend([helper.make_node("QuantizeLinear", [out.input[0], "qs", "qz"], ["q"], name="/q", axis=1),
                             helper.make_node("DequantizeLinear", ["q", "qs", "qz"], ["y"], name="/dq", axis=1)])
    x = np.random.default_rng(2).standard_normal((1, C, 11)).astype(np.float32)
    before = run(model, x)
    keep_height_axis(model)
    np.testing.assert_array_equal(run(model, x), before)
