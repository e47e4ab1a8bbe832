"""1-D convolutions rewritten as 2-D (export/conv2d.py): the same outputs in onnxruntime, the same node names
(fallback lists and RKNN's hybrid rules name nodes), and QAT-style convolutions left alone."""

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from cantoedge.export.conv2d import conv1d_as_conv2d


def convolutions() -> onnx.ModelProto:
    """x (B, 8, T) -> a padded k=7 conv with bias -> a depthwise k=5 dilated conv -> a strided k=3 conv."""
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name) for name, shape in
             (("w_embed", (16, 8, 7)), ("b_embed", (16,)), ("w_dw", (16, 1, 5)), ("w_stride", (4, 16, 3)))]
    nodes = [helper.make_node("Conv", ["x", "w_embed", "b_embed"], ["a"], name="/embed/Conv", kernel_shape=[7],
                              pads=[3, 3]),
             helper.make_node("Conv", ["a", "w_dw"], ["b"], name="/blocks.0/dwconv/Conv", group=16, kernel_shape=[5],
                              pads=[4, 4], dilations=[2]),
             helper.make_node("Conv", ["b", "w_stride"], ["y"], name="/out/Conv", strides=[2])]
    graph = helper.make_graph(nodes, "convs", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["B", 8, "T"])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["B", 4, None])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def run(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


@pytest.mark.parametrize("frames", [3, 37, 186])
def test_rewritten_graph_computes_what_the_1d_one_does_with_the_same_node_names(frames):
    model = convolutions()
    x = np.random.default_rng(frames).standard_normal((2, 8, frames)).astype(np.float32)
    before = run(model, x)
    assert conv1d_as_conv2d(model) == 3
    onnx.checker.check_model(onnx.shape_inference.infer_shapes(model, strict_mode=True), full_check=True)
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    assert [n.name for n in convs] == ["/embed/Conv", "/blocks.0/dwconv/Conv", "/out/Conv"]
    weights = {t.name: t for t in model.graph.initializer}
    assert [list(weights[n.input[1]].dims) for n in convs] == [[16, 8, 1, 7], [16, 1, 1, 5], [4, 16, 1, 3]]
    np.testing.assert_allclose(run(model, x), before, atol=1e-6 * np.abs(before).max())  # float rounding


def test_convolutions_fed_quantised_weights_stay_1d_and_a_second_pass_changes_nothing():
    model = convolutions()
    dq = helper.make_node("DequantizeLinear", ["w_q", "w_scale"], ["w_dw"], name="/blocks.0/dwconv/weight_dq", axis=0)
    weights = {t.name: t for t in model.graph.initializer}
    model.graph.initializer.remove(weights["w_dw"])
    model.graph.initializer.extend([numpy_helper.from_array(np.ones((16, 1, 5), np.int8), "w_q"),
                                    numpy_helper.from_array(np.full(16, 0.1, np.float32), "w_scale")])
    model.graph.node.insert(0, dq)
    assert conv1d_as_conv2d(model) == 2
    depthwise = next(n for n in model.graph.node if n.name == "/blocks.0/dwconv/Conv")
    assert helper.get_attribute_value(next(a for a in depthwise.attribute if a.name == "kernel_shape")) == [5]
    assert conv1d_as_conv2d(model) == 0
