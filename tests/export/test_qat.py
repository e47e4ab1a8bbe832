"""Quantisation-aware training: the project's fake-quant modules, the run, and its Q/DQ export."""

import shutil

import numpy as np
import onnx
import pytest
import torch
from torch import nn

from cantoedge.export.qat import ActQuant, QuantLayer, freeze, onnx_scope


def test_activation_fake_quant_snaps_to_its_grid_and_learns_its_scale():
    q = ActQuant(amax=1.27)  # scale 0.01
    x = torch.tensor([0.004, 0.016, -0.5, 3.0], requires_grad=True)
    y = q(x)
    assert torch.allclose(y, torch.tensor([0.0, 0.02, -0.5, 1.27]), atol=1e-6)
    y.sum().backward()
    assert q.log_scale.grad is not None and q.log_scale.grad != 0  # clipped values pull on the scale
    assert x.grad.tolist() == [1.0, 1.0, 1.0, 0.0]  # straight through inside the range, zero outside
    q.frozen = True
    assert torch.allclose(q(x.detach()), y.detach(), atol=1e-6)


def test_quantised_layer_uses_per_channel_weights_and_freezes_to_the_same_output():
    torch.manual_seed(0)
    conv = nn.Conv1d(4, 3, 3, padding=1)
    layer = QuantLayer(conv, amax=2.0)
    x = torch.randn(2, 4, 10)
    trained = layer(x)
    w = layer.quantised_weight().detach()
    per_channel = (w / (conv.weight.abs().flatten(1).amax(1) / 127)[:, None, None])
    assert torch.allclose(per_channel, per_channel.round(), atol=1e-4)  # integers on each channel's grid
    freeze(nn.Sequential(layer))
    assert torch.allclose(layer(x), trained, atol=1e-5)


def test_module_paths_map_to_the_exporters_scopes():
    assert onnx_scope("encoder.blocks.0.ff.conv1") == "/encoder/blocks.0/ff/conv1"
    assert onnx_scope("in_proj") == "/in_proj"


@pytest.fixture(scope="module")
def student_int8(student_run, tiny_vocoder, calib_corpus, tmp_path_factory):
    """The tiny student exported and calibrated (the ranges QAT starts from)."""
    from cantoedge.calibrate.int8 import calibrate_voice
    from cantoedge.export.onnx import export_voice

    graphs = tmp_path_factory.mktemp("qat") / "graphs"
    export_voice(student_run, tiny_vocoder, graphs)
    calibrate_voice(graphs, calib_corpus, graphs)
    return graphs


def test_qat_run_exports_symmetric_qdq_graphs_that_speak(student_run, student_int8, tmp_path):
    from cantoedge.export.checkpoint import load_model
    from cantoedge.export.onnx import export_qat
    from cantoedge.export.qat_train import train_qat
    from cantoedge.runtime.synth import Voice

    config = tmp_path / "qat.toml"
    config.write_text('kind = "acoustic"\n[train]\nseed = 3\nbatch_size = 4\nmax_steps = 4\nlr = 1e-4\n'
                      'warmup_steps = 1\ncheckpoint_every = 2\n')
    path = train_qat(student_run, student_int8 / "ranges.json", student_run.parent / "teacher_targets",
                     tmp_path / "qat", config, progress=False)
    model, meta = load_model(path)
    assert meta["steps"] == 4 and len(meta["qat_layers"]) > 5
    encoder, decoder = export_qat(path, tmp_path / "graphs")
    for p in (encoder, decoder):
        graph = onnx.load(str(p))
        onnx.checker.check_model(graph, full_check=True)
        ops = [n.op_type for n in graph.graph.node]
        assert ops.count("QuantizeLinear") >= len([k for k in meta["qat_layers"] if k.startswith(p.stem[:7])])
        zero_points = [onnx.numpy_helper.to_array(t) for t in graph.graph.initializer
                       if t.data_type in (onnx.TensorProto.INT8, onnx.TensorProto.INT32)]
        assert all(not z.any() for z in zero_points)
    shutil.copy(student_int8 / "vocoder.int8.onnx", tmp_path / "graphs" / "vocoder.int8.onnx")
    speech = Voice(tmp_path / "graphs", "int8").speak("詩史試時市事。")
    assert np.isfinite(speech.audio).all() and speech.audio.size == speech.durations.sum() * 256


def test_plain_export_refuses_a_qat_checkpoint_and_qat_needs_its_targets(student_run, student_int8, tmp_path):
    from cantoedge.export.qat_train import train_qat

    with pytest.raises(FileNotFoundError, match="teacher targets"):
        train_qat(student_run, student_int8 / "ranges.json", tmp_path / "none", tmp_path / "qat", progress=False)
