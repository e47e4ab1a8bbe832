"""The Q/DQ placement onnxruntime's CPU kernels and TensorRT both want: a MatMul's inputs quantised, its output
float, and each MatMul its own pair even where two read one tensor (the vocoder's two heads)."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from cantoedge.calibrate.qdq import quantise, quantised_nodes
from cantoedge.calibrate.ranges import GraphRanges


def two_heads() -> onnx.ModelProto:
    """x (1, 16, 32) -> LayerNorm -> two MatMuls reading the same tensor (as the vocoder's heads do)."""
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal((32, n)).astype(np.float32), f"w{n}") for n in (48, 24)]
    inits += [numpy_helper.from_array(np.ones(32, np.float32), "gamma"),
              numpy_helper.from_array(np.zeros(32, np.float32), "beta")]
    nodes = [helper.make_node("LayerNormalization", ["x", "gamma", "beta"], ["h"], name="/norm", axis=-1),
             helper.make_node("MatMul", ["h", "w48"], ["a"], name="/head/MatMul"),
             helper.make_node("MatMul", ["h", "w24"], ["b"], name="/harmonic_head/MatMul")]
    graph = helper.make_graph(nodes, "two_heads", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 32])],
                              [helper.make_tensor_value_info("a", TensorProto.FLOAT, [1, 16, 48]),
                               helper.make_tensor_value_info("b", TensorProto.FLOAT, [1, 16, 24])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def ranges(fallback: list[str] = ()) -> GraphRanges:
    amax = {name: {"max": 4.0, "percentile": 4.0, "entropy": 4.0} for name in ("x", "h", "a", "b")}
    return GraphRanges("-", amax, list(fallback), {"/head/MatMul": "h", "/harmonic_head/MatMul": "h"})


def optimised_ops(model: onnx.ModelProto, tmp_path) -> list[str]:
    options = ort.SessionOptions()
    options.optimized_model_filepath = str(tmp_path / "optimised.onnx")
    ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return [n.op_type for n in onnx.load(str(tmp_path / "optimised.onnx")).graph.node]


def test_matmul_outputs_stay_float_and_each_head_fuses_into_one_integer_kernel(tmp_path):
    q = quantise(two_heads(), ranges(), "entropy")
    onnx.checker.check_model(q, full_check=True)
    assert sorted(quantised_nodes(q)) == ["/harmonic_head/MatMul", "/head/MatMul"]
    quantized_outputs = [n.input[0] for n in q.graph.node if n.op_type == "QuantizeLinear"]
    assert "a" not in quantized_outputs and "b" not in quantized_outputs
    scales = {n.input[1] for n in q.graph.node if n.op_type == "QuantizeLinear" and n.input[0] == "h"}
    assert len(scales) == 2  # one pair each, which onnxruntime's CSE must not merge back into one
    ops = optimised_ops(q, tmp_path)
    assert ops.count("MatMulIntegerToFloat") == 2
    assert "MatMul" not in ops and "DequantizeLinear" not in ops


def test_quantised_heads_stay_close_to_float_and_a_fallback_head_is_exact():
    x = np.random.default_rng(1).standard_normal((1, 16, 32)).astype(np.float32)

    def run(model: onnx.ModelProto) -> list[np.ndarray]:
        return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    ref = run(two_heads())
    out = run(quantise(two_heads(), ranges(), "entropy"))
    for a, b in zip(out, ref):
        assert np.abs(a - b).max() < 0.05 * np.abs(b).max()
    kept = run(quantise(two_heads(), ranges(["/head/MatMul"]), "entropy"))
    np.testing.assert_array_equal(kept[0], ref[0])
    assert not np.array_equal(kept[1], ref[1])


def test_the_float_glue_beside_a_quantised_convolution_reads_the_float_tensor(tmp_path):
    """A residual add reading the tensor a convolution quantises keeps the float one (onnxruntime's quantiser
    routes every consumer through the pair), and the convolution still fuses into QLinearConv."""
    rng = np.random.default_rng(3)
    inits = [numpy_helper.from_array(rng.standard_normal((8, 1, 1, 7)).astype(np.float32), "dw"),
             numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), "dwb")]
    nodes = [helper.make_node("Conv", ["x", "dw", "dwb"], ["c"], name="/blocks.0/dwconv/Conv", group=8,
                              kernel_shape=[1, 7], pads=[0, 3, 0, 3]),
             helper.make_node("Add", ["x", "c"], ["y"], name="/blocks.0/Add_1")]
    graph = helper.make_graph(nodes, "residual", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 1, 20])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 1, 20])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    amax = {name: {"max": peak, "percentile": peak, "entropy": peak} for name, peak in (("x", 4.0), ("c", 16.0))}
    q = quantise(model, GraphRanges("-", amax, [], {"/blocks.0/dwconv/Conv": "x"}), "max")
    add = next(n for n in q.graph.node if n.name == "/blocks.0/Add_1")
    assert add.input[0] == "x"
    assert "QLinearConv" in optimised_ops(q, tmp_path)
    x = rng.standard_normal((1, 8, 1, 20)).astype(np.float32)
    y = ort.InferenceSession(q.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    c = y - x  # what the quantised convolution added: the residual itself came through exactly
    ref = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0] - x
    np.testing.assert_allclose(c, ref, atol=0.05 * np.abs(ref).max())

