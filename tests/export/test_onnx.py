"""ONNX export: checked graphs with the contract's names and metadata, PyTorch parity, byte-identical reruns."""

import subprocess
import sys

import numpy as np
import onnx
import pytest

from cantoedge.export.onnx import export_voice
from cantoedge.export.parity import PARITY_TOLERANCE, check_parity
from cantoedge.runtime.graphs import DECODER, ENCODER, GRAPHS, VOCODER, GraphInfo


def _dims(value_info) -> list:
    return [d.dim_param or d.dim_value for d in value_info.type.tensor_type.shape.dim]


def test_graphs_pass_the_full_checker_with_the_contract_and_provenance(tiny_graphs, teacher_run, tiny_vocoder):
    from cantoedge.runtime.fileio import file_sha256

    for spec in GRAPHS:
        path = tiny_graphs / spec.filename()
        onnx.checker.check_model(str(path), full_check=True)
        model = onnx.load(str(path))
        assert tuple(i.name for i in model.graph.input) == spec.inputs
        assert tuple(o.name for o in model.graph.output) == spec.outputs
        info = GraphInfo.from_metadata({p.key: p.value for p in model.metadata_props}, path)
        assert info.graph == spec.name and info.inventory_version == 1 and info.chunk_frames == 128
        source = tiny_vocoder if spec is VOCODER else teacher_run[1]
        assert info.checkpoint_sha256 == file_sha256(source)
    enc = onnx.load(str(tiny_graphs / ENCODER.filename()))
    assert _dims(enc.graph.input[0]) == [1, "n_tokens"]
    dec = onnx.load(str(tiny_graphs / DECODER.filename()))
    context = GraphInfo.from_metadata({p.key: p.value for p in dec.metadata_props}).context
    assert _dims(dec.graph.input[0]) == ["batch", 128 + 2 * context, 32]
    assert _dims(dec.graph.output[0]) == ["batch", 80, 128]
    voc = onnx.load(str(tiny_graphs / VOCODER.filename()))
    assert [_dims(o) for o in voc.graph.output] == [["batch", 128 + 3, 513]] * 3  # the frames that overlap-add
    # the network alone: no transposed convolution, no Fourier transform, no trigonometry (the source, its
    # mixing and the inverse STFT run between graphs)
    assert not {n.op_type for n in voc.graph.node} & {"ConvTranspose", "STFT", "DFT", "Sin", "Cos", "Floor"}


def test_graphs_match_pytorch_on_held_out_utterances(tiny_graphs, teacher_run, tiny_vocoder, tiny_corpus):
    parity = check_parity(tiny_graphs, teacher_run[1], tiny_vocoder, tiny_corpus, split="test")
    assert parity.utterances == 4
    assert parity.worst <= PARITY_TOLERANCE and parity.ok, parity


def test_batched_windows_give_the_same_output_as_single_ones(tiny_graphs):
    import onnxruntime as ort

    session = ort.InferenceSession(str(tiny_graphs / VOCODER.filename()), providers=["CPUExecutionProvider"])
    width = session.get_inputs()[0].shape[2]
    rng = np.random.default_rng(0)
    feeds = {"mel": rng.normal(-4, 1.5, size=(3, 80, width)).astype(np.float32),
             "f0": np.where(rng.random((3, width)) < 0.6, rng.uniform(70, 140, (3, width)), 0).astype(np.float32)}
    batched = session.run(None, feeds)
    single = [session.run(None, {k: v[i: i + 1] for k, v in feeds.items()}) for i in range(3)]
    for k, out in enumerate(batched):
        np.testing.assert_allclose(out, np.concatenate([s[k] for s in single]), atol=1e-5)


def test_exporting_again_in_another_process_gives_identical_bytes(tiny_graphs, teacher_run, tiny_vocoder, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "cantoedge.scripts.cli", "export", "--out", str(tmp_path),
                           "--acoustic", str(teacher_run[1]), "--vocoder", str(tiny_vocoder)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    for spec in GRAPHS:
        assert (tmp_path / spec.filename()).read_bytes() == (tiny_graphs / spec.filename()).read_bytes(), spec.name


def test_export_refuses_swapped_and_damaged_checkpoints(teacher_run, tiny_vocoder, tmp_path):
    with pytest.raises(ValueError, match="not a vocoder"):
        export_voice(teacher_run[1], teacher_run[1], tmp_path / "a")
    broken = tmp_path / "broken.safetensors"
    broken.write_bytes(teacher_run[1].read_bytes()[:1000])
    with pytest.raises(ValueError, match="not a readable safetensors"):
        export_voice(broken, tiny_vocoder, tmp_path / "b")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
