"""RKNN's hybrid INT8 builds, the parts that need no rknn-toolkit2: which activations stay int8,
and the quantisation config the toolkit's second step reads (the build itself: test_rknn.py)."""

import re

import onnx
import pytest
from onnx import TensorProto, helper

from cantoedge.engines.rknn import HYBRID_FP16_BLOCKS, hybrid_int8_tensors
from cantoedge.runtime.backends.rknn_worker import with_fp16


def graph_with_nodes(names: list[str]) -> onnx.ModelProto:
    nodes, previous = [], "x"
    for i, name in enumerate(names):
        nodes.append(helper.make_node("Identity", [previous], [f"t{i}"], name=name))
        previous = f"t{i}"
    x, y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [1]) for n in ("x", previous))
    return helper.make_model(helper.make_graph(nodes, "g", [x], [y]))


# tensor names as rknn-toolkit2 2.5.0 reports them for the bundled vocoder (its step-1 quantisation config)
FEED_FORWARD = ["/blocks.{}/norm/LayerNormalization#1", "/blocks.{}/pw1/MatMul_output_0_mm_tp_sw",
                "/blocks.{}/Mul_1_output_0_tp-rs", "/blocks.{}/pw2/Add_output_0-rs_sw"]
ELSEWHERE = ["/blocks.{}/dwconv/Conv_output_0-rs", "/blocks.{}/Add_1_output_0-rs"]


def test_every_block_but_the_last_keeps_its_feed_forward_layers_int8():
    blocks = [f"/blocks.{i}/{op}" for i in range(3) for op in ("dwconv/Conv", "pw1/MatMul", "pw2/MatMul")]
    patterns = hybrid_int8_tensors(graph_with_nodes(["/embed/Conv", *blocks, "/head/MatMul"]))

    def int8(name: str) -> bool:
        return any(re.match(p, name) for p in patterns)

    assert all(int8(t.format(i)) for t in FEED_FORWARD for i in (0, 1))
    assert not any(int8(t.format(2)) for t in FEED_FORWARD)  # the last block: FP16
    assert not any(int8(t.format(i)) for t in ELSEWHERE for i in range(3))  # depthwise convs, residual stream
    assert not any(int8(n) for n in ("/embed/Conv_output_0-rs", "/head/MatMul_output_0_mm_tp_sw", "share-rs",
                                     "/blocks.10/pw1/MatMul_output_0_mm_tp_sw"))


def test_the_decoder_keeps_its_last_three_blocks_fp16():
    """The rime-filled stage's decoder lost 0.8 point of tone accuracy with blocks 1-2 int8, 0.3 with block 1."""
    blocks = [f"/blocks.{i}/{op}" for i in range(4) for op in ("dwconv/Conv", "pw1/MatMul", "pw2/MatMul")]
    patterns = hybrid_int8_tensors(graph_with_nodes(["/in_proj/Conv", *blocks, "/out/MatMul"]),
                                   HYBRID_FP16_BLOCKS["decoder"])
    int8 = {i for i in range(4) if any(re.match(p, t.format(i)) for p in patterns for t in FEED_FORWARD)}
    assert int8 == {0} and HYBRID_FP16_BLOCKS["vocoder"] == 1


def test_a_graph_without_two_blocks_is_refused_and_a_short_one_keeps_its_first_int8():
    with pytest.raises(ValueError, match="has 1 ConvNeXt blocks"):
        hybrid_int8_tensors(graph_with_nodes(["/embed/Conv", "/blocks.0/pw1/MatMul", "/head/MatMul"]))
    assert hybrid_int8_tensors(graph_with_nodes(["/blocks.0/pw1/MatMul", "/blocks.1/pw1/MatMul"]), 2) == [
        r"^/blocks\.0/(norm/|pw1/|Mul_1_|pw2/)"]


def test_the_config_lists_the_fp16_tensors_and_keeps_every_scale_as_printed():
    cfg = "custom_quantize_layers: {}\nquantize_parameters:\n    a:\n        scale:\n        -   0.053786931552138983\n"
    edited = with_fp16(cfg, ["/norm_in/LayerNormalization#1", "share-rs"])
    assert edited.splitlines()[:3] == ["custom_quantize_layers:", "    /norm_in/LayerNormalization#1: float16",
                                       "    share-rs: float16"]
    assert edited.endswith(cfg.split("\n", 1)[1])  # step 2 refuses reprinted scales
    with pytest.raises(RuntimeError, match="unexpected quantisation config"):
        with_fp16(edited, ["x"])
