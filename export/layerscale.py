"""Each ConvNeXt block's layer scale (a Mul by gamma after its second pointwise layer) folded into that layer's
weight columns and bias: x·W + b, then × gamma, is x·(W·diag(gamma)) + b·gamma. Same function to float rounding,
one elementwise op fewer a block in every backend. Measured on 2 cores, one thread, the bundled voice: vocoder
window 3.24 -> 3.18 ms FP32, 1.95 -> 1.87 ms INT8 (its pointwise weights have a scale per output column, which
absorbs gamma, so INT8 loses nothing); the decoder's four blocks 0.01-0.02 ms."""

from __future__ import annotations

import numpy as np


def fold_layer_scale(model) -> int:
    """Rewrite ``model`` in place; -> how many Mul nodes were folded. Only where the chain MatMul(x, W) -> Add(b)
    -> Mul(gamma) has initialiser W (K, N), b (N,), gamma (N,), each used there alone, and each intermediate
    result feeds only the next node (so nothing else sees the unscaled values). Node names stay."""
    from onnx import numpy_helper

    graph = model.graph
    weights = {t.name: t for t in graph.initializer}
    producer = {out: node for node in graph.node for out in node.output}
    uses: dict[str, int] = {}
    for node in graph.node:
        for name in node.input:
            uses[name] = uses.get(name, 0) + 1
    outputs = {o.name for o in graph.output}
    folded, gammas = [], set()
    for mul in graph.node:
        chain = _layer_scale_chain(mul, weights, producer, uses, outputs)
        if chain is None:
            continue
        matmul, add, weight, bias, gamma = chain
        scale = numpy_helper.to_array(weights[gamma]).astype(np.float32)
        for name, value in ((weight, numpy_helper.to_array(weights[weight]) * scale[None, :]),
                            (bias, numpy_helper.to_array(weights[bias]) * scale)):
            weights[name].CopyFrom(numpy_helper.from_array(value.astype(np.float32), name))
        for node in graph.node:  # the Mul's consumers now read the Add
            for i, name in enumerate(node.input):
                if name == mul.output[0]:
                    node.input[i] = add.output[0]
        folded.append(mul)
        gammas.add(gamma)
    for mul in folded:
        graph.node.remove(mul)
    for tensor in [t for t in graph.initializer if t.name in gammas]:
        graph.initializer.remove(tensor)
    return len(folded)


def _layer_scale_chain(mul, weights: dict, producer: dict, uses: dict, outputs: set):
    """(matmul, add, weight, bias, gamma) names/nodes of a foldable chain ending in ``mul``, else None."""
    if mul.op_type != "Mul" or len(mul.input) != 2 or mul.output[0] in outputs:
        return None
    gamma = next((name for name in mul.input if name in weights), None)
    scaled = next((name for name in mul.input if name not in weights), None)
    add = producer.get(scaled)
    if gamma is None or scaled is None or add is None or add.op_type != "Add" or uses.get(scaled) != 1:
        return None
    bias = next((name for name in add.input if name in weights), None)
    product = next((name for name in add.input if name not in weights), None)
    matmul = producer.get(product)
    if (bias is None or product is None or matmul is None or matmul.op_type != "MatMul"
            or uses.get(product) != 1 or matmul.input[1] not in weights or {product, scaled} & outputs):
        return None
    weight = matmul.input[1]
    shape = {name: tuple(weights[name].dims) for name in (weight, bias, gamma)}
    if len(shape[weight]) != 2 or shape[bias] != shape[weight][1:] or shape[gamma] != shape[bias]:
        return None
    if any(uses.get(name) != 1 for name in (weight, bias, gamma)):
        return None
    if any(weights[name].data_type != 1 for name in (weight, bias, gamma)):  # float32 only
        return None
    return matmul, add, weight, bias, gamma
