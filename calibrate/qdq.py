"""Q/DQ INT8 graphs derived from the ranges file: symmetric int8 activations with zero-point 0 (what
TensorRT requires), per-channel symmetric int8 weights, and the fallback nodes left in float."""

from __future__ import annotations

import logging

import numpy as np

from .ranges import GraphRanges

# The ops whose INT8 kernels pay for their Q/DQ pairs on CPUs and NPUs; normalisation, softmax and the
# element-wise glue stay float.
QUANTISED_OPS = ("Conv", "MatMul", "Gemm")


def quantise(model, ranges: GraphRanges, method: str, extra_fallback: tuple[str, ...] = ()):
    """-> a new onnx.ModelProto with Q/DQ pairs around the quantised ops (inputs to ``model`` untouched)."""
    import onnx
    from onnxruntime.quantization import QuantType
    from onnxruntime.quantization.calibrate import CalibrationMethod, TensorData, TensorsData
    from onnxruntime.quantization.qdq_quantizer import QDQQuantizer

    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    thresholds = ranges.thresholds(method)
    tensors = TensorsData(CalibrationMethod.Entropy, {
        name: TensorData(lowest=np.array(-amax, dtype=np.float32), highest=np.array(amax, dtype=np.float32))
        for name, amax in thresholds.items()})
    exclude = sorted(set(ranges.fallback) | set(extra_fallback))
    quiet = logging.getLogger().level
    logging.getLogger().setLevel(logging.ERROR)  # the quantiser logs every node it visits at INFO
    try:
        quantizer = QDQQuantizer(copy, True, False, QuantType.QInt8, QuantType.QInt8, tensors, None, exclude,
                                 list(QUANTISED_OPS),
                                 {"ActivationSymmetric": True, "WeightSymmetric": True,
                                  "DedicatedQDQPair": False, "QDQOpTypePerChannelSupportToAxis": {"MatMul": 1}})
        quantizer.quantize_model()
    finally:
        logging.getLogger().setLevel(quiet)
    quantizer.model.topological_sort()
    return quantizer.model.model


def quantised_nodes(model) -> list[str]:
    """Names of the ops that run in INT8 (their inputs come through DequantizeLinear)."""
    produced_by_dq = {o for n in model.graph.node if n.op_type == "DequantizeLinear" for o in n.output}
    return [n.name for n in model.graph.node
            if n.op_type in QUANTISED_OPS and any(i in produced_by_dq for i in n.input[:1])]
