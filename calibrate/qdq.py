"""Q/DQ INT8 graphs derived from the ranges file: symmetric int8 activations with zero-point 0 (what
TensorRT requires), per-channel symmetric int8 weights, and the fallback nodes left in float. A MatMul's
inputs are quantised and its output is not (TensorRT's recommended placement): onnxruntime then runs it as one
MatMulIntegerToFloat, with no requantisation of the result and no DequantizeLinear after it."""

from __future__ import annotations

import logging

import numpy as np

from .equalise import equalise
from .ranges import GraphRanges

# The ops whose INT8 kernels pay for their Q/DQ pairs on CPUs and NPUs; normalisation, softmax and the
# element-wise glue stay float.
QUANTISED_OPS = ("Conv", "MatMul", "Gemm")
# Ops whose output stays float: every consumer of a MatMul here is a float op (bias, GELU, residual add, head
# output), so quantising it only added a rounding and a Q/DQ pair. Measured with the bundled voice's fallback
# (one thread, 50 test utterances): vocoder window 2.62 -> 2.57 ms, tone-band error against FP32 0.103 -> 0.076
# dB; plain max-range PTQ of every layer 1.79 -> 0.81 dB and 25 -> 5 cents. A Conv keeps its output Q/DQ:
# onnxruntime fuses QLinearConv only then (it has no integer-to-float convolution).
FLOAT_OUTPUT_OPS = ("MatMul", "Gemm")


def quantise(model, ranges: GraphRanges, method: str, extra_fallback: tuple[str, ...] = ()):
    """-> a new onnx.ModelProto with Q/DQ pairs around the quantised ops (inputs to ``model`` untouched)."""
    import onnx
    from onnxruntime.quantization import QuantType
    from onnxruntime.quantization.calibrate import CalibrationMethod, TensorData, TensorsData
    from onnxruntime.quantization.qdq_quantizer import QDQQuantizer

    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    thresholds = ranges.thresholds(method)
    exclude = sorted(set(ranges.fallback) | set(extra_fallback))
    for node, peaks in ranges.channel_peaks.items():
        if node not in exclude:  # every channel peaks at 1 once equalised, so max is every method's range
            thresholds[equalise(copy, node, peaks)] = 1.0
    tensors = TensorsData(CalibrationMethod.Entropy, {
        name: TensorData(lowest=np.array(-amax, dtype=np.float32), highest=np.array(amax, dtype=np.float32))
        for name, amax in thresholds.items()})
    quiet = logging.getLogger().level
    logging.getLogger().setLevel(logging.ERROR)  # the quantiser logs every node it visits at INFO
    try:
        quantizer = QDQQuantizer(copy, True, False, QuantType.QInt8, QuantType.QInt8, tensors, None, exclude,
                                 list(QUANTISED_OPS),
                                 {"ActivationSymmetric": True, "WeightSymmetric": True,
                                  "DedicatedQDQPair": True, "QDQOpTypePerChannelSupportToAxis": {"MatMul": 1},
                                  "OpTypesToExcludeOutputQuantization": list(FLOAT_OUTPUT_OPS)})
        quantizer.quantize_model()
    finally:
        logging.getLogger().setLevel(quiet)
    out = quantizer.model.model
    _feed_float(out, exclude)
    _separate_pairs(out)
    quantizer.model.topological_sort()
    return out


def _separate_pairs(model) -> None:
    """Give each dedicated Q/DQ pair of a tensor its own scale and zero-point initialisers. With shared ones,
    onnxruntime's common-subexpression elimination merges the pairs back into one DequantizeLinear feeding two
    MatMuls (the vocoder's two heads read one tensor), and a DequantizeLinear with two consumers fuses with
    neither: both ran as DequantizeLinear + float MatMul, 0.2 ms a window slower than fused."""
    from onnx import TensorProto

    graph = model.graph
    initialisers = {t.name: t for t in graph.initializer}
    readers: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            readers.setdefault(name, []).append(node)
    pairs_of: dict[str, int] = {}
    for q in [n for n in graph.node if n.op_type == "QuantizeLinear"]:
        count = pairs_of[q.input[0]] = pairs_of.get(q.input[0], 0) + 1
        if count == 1:
            continue
        renamed = {}
        for name in [n for n in q.input[1:] if n in initialisers]:
            copy = TensorProto()
            copy.CopyFrom(initialisers[name])
            copy.name = f"{name}_pair{count}"
            graph.initializer.append(copy)
            renamed[name] = copy.name
        q.input[1:] = [renamed.get(name, name) for name in q.input[1:]]
        for dq in readers.get(q.output[0], []):
            if dq.op_type == "DequantizeLinear":
                dq.input[1:] = [renamed.get(name, name) for name in dq.input[1:]]


def _feed_float(model, names: list[str]) -> None:
    """Give the float nodes the original tensors: onnxruntime's quantiser routes every consumer of a quantised
    tensor through its Q/DQ pair, which would put INT8 noise into the layers kept in float (``names``, the
    fallback) and into the float glue beside a quantised op's input — a residual add reading the tensor a
    convolution quantises, say. A quantised Conv's own output pair stays: onnxruntime fuses QLinearConv only
    with it, and the glue after that convolution reads what its INT8 kernel produced."""
    producer = {o: n for n in model.graph.node for o in n.output}
    wanted = set(names)
    for node in model.graph.node:
        glue = node.op_type not in (*QUANTISED_OPS, "QuantizeLinear", "DequantizeLinear")
        if node.name not in wanted and not glue:
            continue
        for k, name in enumerate(node.input):
            dq = producer.get(name)
            if dq is None or dq.op_type != "DequantizeLinear":
                continue
            q = producer.get(dq.input[0])
            if q is None or q.op_type != "QuantizeLinear":
                continue
            source = producer.get(q.input[0])
            if node.name in wanted or source is None or source.op_type not in QUANTISED_OPS:
                node.input[k] = q.input[0]
    _drop_unused_qdq(model)


def _drop_unused_qdq(model) -> None:
    while True:
        used = {i for n in model.graph.node for i in n.input} | {o.name for o in model.graph.output}
        dead = [n for n in model.graph.node
                if n.op_type in ("QuantizeLinear", "DequantizeLinear") and not any(o in used for o in n.output)]
        if not dead:
            break
        for n in dead:
            model.graph.node.remove(n)
    used = {i for n in model.graph.node for i in n.input}
    for init in [t for t in model.graph.initializer if t.name not in used]:
        model.graph.initializer.remove(init)


def quantised_nodes(model) -> list[str]:
    """Names of the ops that run in INT8: both their operands come through DequantizeLinear."""
    produced_by_dq = {o for n in model.graph.node if n.op_type == "DequantizeLinear" for o in n.output}
    return [n.name for n in model.graph.node
            if n.op_type in QUANTISED_OPS and all(i in produced_by_dq for i in n.input[:2])]


def float_fed(model, names: list[str]) -> list[str]:
    """Of the nodes ``names``, those that read a DequantizeLinear output (INT8 noise reaching a float node)."""
    produced_by_dq = {o for n in model.graph.node if n.op_type == "DequantizeLinear" for o in n.output}
    wanted = set(names)
    return [n.name for n in model.graph.node if n.name in wanted and any(i in produced_by_dq for i in n.input)]
