"""Quantisation-aware training with the project's own fake-quant modules: symmetric int8 activations whose
scales start from the ranges file (entropy thresholds) and are learnt (LSQ-style straight-through
gradients), per-channel symmetric int8 weights. Frozen at export, they trace (``dynamo=False``) to plain
QuantizeLinear/DequantizeLinear pairs with zero-point 0: the explicit Q/DQ graphs TensorRT 10+ wants."""

from __future__ import annotations

import math

import torch
from torch import nn
from torch.nn import functional as F

QMAX = 127


def _round_ste(x: torch.Tensor) -> torch.Tensor:
    return x + (torch.round(x) - x).detach()


class ActQuant(nn.Module):
    """Per-tensor symmetric int8 fake quantisation of an activation."""

    def __init__(self, amax: float):
        super().__init__()
        self.log_scale = nn.Parameter(torch.tensor(math.log(max(amax, 1e-8) / QMAX)))
        self.frozen = False

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scale = self.log_scale.exp()
        if self.frozen:
            return torch.fake_quantize_per_tensor_affine(x, float(scale.detach()), 0, -QMAX - 1, QMAX)
        return torch.clamp(_round_ste(x / scale), -QMAX - 1, QMAX) * scale


def _weight_scale(weight: torch.Tensor) -> torch.Tensor:
    """Per output channel (axis 0): the largest |w| maps to 127."""
    return (weight.detach().abs().flatten(1).amax(dim=1) / QMAX).clamp(min=1e-12)


class QuantLayer(nn.Module):
    """A Conv1d or Linear whose input and weights are fake-quantised."""

    def __init__(self, layer: nn.Conv1d | nn.Linear, amax: float):
        super().__init__()
        self.layer = layer
        self.act = ActQuant(amax)
        self.register_buffer("weight_scale", _weight_scale(layer.weight), persistent=False)
        self.frozen = False

    def freeze(self) -> None:
        """Fix every scale: the exported graph carries them as constants."""
        self.frozen = self.act.frozen = True
        self.weight_scale = _weight_scale(self.layer.weight)

    def quantised_weight(self) -> torch.Tensor:
        w = self.layer.weight
        if self.frozen:
            zero = torch.zeros(w.shape[0], dtype=torch.int32)
            return torch.fake_quantize_per_channel_affine(w, self.weight_scale, zero, 0, -QMAX - 1, QMAX)
        scale = _weight_scale(w).reshape(-1, *([1] * (w.dim() - 1)))
        return torch.clamp(_round_ste(w / scale), -QMAX - 1, QMAX) * scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x, w = self.act(x), self.quantised_weight()
        if isinstance(self.layer, nn.Conv1d):
            c = self.layer
            return F.conv1d(x, w, c.bias, c.stride, c.padding, c.dilation, c.groups)
        return F.linear(x, w, self.layer.bias)


def onnx_scope(path: str) -> str:
    """The scope the legacy exporter gives a module: ``blocks.0.ff.conv1`` -> ``/blocks.0/ff/conv1``."""
    parts: list[str] = []
    for part in path.split("."):
        if part.isdigit() and parts:
            parts[-1] += "." + part
        else:
            parts.append(part)
    return "/" + "/".join(parts)


def quantisable_layers(model: nn.Module, graphs: dict, method: str = "entropy") -> dict[str, float]:
    """Module path -> input threshold for every Conv1d/Linear the INT8 build quantises: the encoder's under
    ``/encoder/...`` in the encoder graph, the decoder's at the decoder graph's top level; layers in a graph's
    fallback (and the projection used only for distillation) stay float. ``graphs``: name -> GraphRanges."""
    layers = {}
    thresholds = {name: g.thresholds(method) for name, g in graphs.items()}
    for path, module in model.named_modules():
        if not isinstance(module, nn.Conv1d | nn.Linear):
            continue
        top, _, rest = path.partition(".")
        if top == "encoder":
            graph, node = "encoder", onnx_scope(path)
        elif top == "decoder":
            graph, node = "decoder", onnx_scope(rest)
        else:
            continue
        op = "Conv" if isinstance(module, nn.Conv1d) else "MatMul"
        g = graphs.get(graph)
        name = f"{node}/{op}"
        if g is None or name in g.fallback or name not in g.inputs:
            continue
        layers[path] = thresholds[graph][g.inputs[name]]
    return layers


def prepare(model: nn.Module, layers: dict[str, float]) -> nn.Module:
    """Wrap the named layers in place (idempotent on already wrapped ones)."""
    for path, amax in layers.items():
        parent_path, _, attr = path.rpartition(".")
        parent = model.get_submodule(parent_path) if parent_path else model
        child = getattr(parent, attr)
        if not isinstance(child, QuantLayer):
            setattr(parent, attr, QuantLayer(child, amax))
    return model


def freeze(model: nn.Module) -> nn.Module:
    for module in model.modules():
        if isinstance(module, QuantLayer):
            module.freeze()
    return model
