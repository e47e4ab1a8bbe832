"""Layer scales folded into the pointwise layer before them (export/layerscale.py): the same outputs in
onnxruntime with one Mul fewer, node names kept, and every chain that cannot be folded exactly left alone."""

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from cantoedge.export.layerscale import fold_layer_scale


def block(gamma_shared: bool = False, product_seen: bool = False) -> onnx.ModelProto:
    """x (B, T, 8) -> MatMul W (8, 16) -> Add b -> Mul gamma -> Add x' (x projected) -> y; optionally gamma
    also scales the output once more, or the MatMul's product is a graph output too."""
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name) for name, shape in
             (("w", (8, 16)), ("b", (16,)), ("gamma", (16,)), ("w_skip", (8, 16)))]
    nodes = [helper.make_node("MatMul", ["x", "w"], ["p"], name="/blocks.0/pw2/MatMul"),
             helper.make_node("Add", ["b", "p"], ["q"], name="/blocks.0/pw2/Add"),
             helper.make_node("Mul", ["gamma", "q"], ["r"], name="/blocks.0/Mul_2"),
             helper.make_node("MatMul", ["x", "w_skip"], ["s"], name="/skip/MatMul"),
             helper.make_node("Add", ["s", "r"], ["y"], name="/blocks.0/Add_1")]
    outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["B", "T", 16])]
    if gamma_shared:
        nodes.append(helper.make_node("Mul", ["y", "gamma"], ["z"], name="/again"))
        outputs = [helper.make_tensor_value_info("z", TensorProto.FLOAT, ["B", "T", 16])]
    if product_seen:
        outputs.append(helper.make_tensor_value_info("p", TensorProto.FLOAT, ["B", "T", 16]))
    graph = helper.make_graph(nodes, "block", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["B", "T", 8])],
                              outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def run(model: onnx.ModelProto, x: np.ndarray) -> list[np.ndarray]:
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})


@pytest.mark.parametrize("frames", [1, 37])
def test_folded_graph_computes_the_same_with_one_mul_fewer_and_the_same_node_names(frames):
    model = block()
    x = np.random.default_rng(frames).standard_normal((2, frames, 8)).astype(np.float32)
    before = run(model, x)[0]
    assert fold_layer_scale(model) == 1
    onnx.checker.check_model(onnx.shape_inference.infer_shapes(model, strict_mode=True), full_check=True)
    assert [n.name for n in model.graph.node] == ["/blocks.0/pw2/MatMul", "/blocks.0/pw2/Add", "/skip/MatMul",
                                                   "/blocks.0/Add_1"]
    assert "gamma" not in {t.name for t in model.graph.initializer}
    np.testing.assert_allclose(run(model, x)[0], before, rtol=1e-5, atol=1e-5 * np.abs(before).max())
    assert fold_layer_scale(model) == 0  # nothing left to fold


@pytest.mark.parametrize("variant", ["gamma_shared", "product_seen"])
def test_a_chain_whose_parts_are_used_elsewhere_is_left_alone(variant):
    model = block(**{variant: True})
    x = np.random.default_rng(1).standard_normal((1, 5, 8)).astype(np.float32)
    before = run(model, x)
    assert fold_layer_scale(model) == 0
    assert "/blocks.0/Mul_2" in {n.name for n in model.graph.node}
    for a, b in zip(run(model, x), before, strict=True):
        np.testing.assert_array_equal(a, b)


def test_a_weight_that_is_not_an_initialiser_is_left_alone():
    """QAT graphs feed their weights through DequantizeLinear: the int8 values cannot absorb gamma."""
    model = block()
    weights = {t.name: t for t in model.graph.initializer}
    model.graph.initializer.remove(weights["w"])
    model.graph.initializer.extend([numpy_helper.from_array(np.ones((8, 16), np.int8), "w_q"),
                                    numpy_helper.from_array(np.full(16, 0.1, np.float32), "w_scale")])
    model.graph.node.insert(0, helper.make_node("DequantizeLinear", ["w_q", "w_scale"], ["w"], name="/w_dq", axis=1))
    assert fold_layer_scale(model) == 0
