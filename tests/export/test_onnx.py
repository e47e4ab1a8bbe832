"""ONNX export: checked graphs with the contract's names and metadata, PyTorch parity, byte-identical reruns."""

import subprocess
import sys

import numpy as np
import onnx
import pytest

from cantoedge.export.onnx import export_voice
from cantoedge.export.parity import PARITY_TOLERANCE, check_parity
from cantoedge.runtime.graphs import DECODER, ENCODER, GRAPHS, VOCODER, GraphInfo, spectrum_frames, window_frames


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
    assert context > 0 and _dims(dec.graph.input[0]) == ["batch", "window", 32]  # 128 + 2 * context on engines
    assert _dims(dec.graph.output[0]) == ["batch", 80, "kept"]
    voc = onnx.load(str(tiny_graphs / VOCODER.filename()))
    assert [_dims(i) for i in voc.graph.input] == [["batch", 80, "window"], ["batch", "window"]]
    assert [_dims(o) for o in voc.graph.output] == [["batch", "spectra", 513]] * 3  # the frames that overlap-add
    # the network alone: no transposed convolution, no Fourier transform, no trigonometry (the source, its
    # mixing and the inverse STFT run between graphs)
    assert not {n.op_type for n in voc.graph.node} & {"ConvTranspose", "STFT", "DFT", "Sin", "Cos", "Floor"}
    # every ConvNeXt block's layer scale is folded into its second pointwise layer (export/layerscale.py)
    for model in (dec, voc):
        assert not [t.name for t in model.graph.initializer if t.name.endswith(".gamma")]
        assert not [n.name for n in model.graph.node if n.op_type == "Mul" and "pw2" in "".join(n.input)]
        # and the ConvNeXt stream keeps the convolutions' height axis from block to block (export/squeeze.py)
        assert not [n.name for n in model.graph.node if n.op_type in ("Squeeze", "Unsqueeze") and "/blocks." in n.name]


def test_graphs_match_pytorch_on_held_out_utterances(tiny_graphs, teacher_run, tiny_vocoder, tiny_corpus):
    parity = check_parity(tiny_graphs, teacher_run[1], tiny_vocoder, tiny_corpus, split="test")
    assert parity.utterances == 4
    assert parity.worst <= PARITY_TOLERANCE and parity.ok, parity


def test_batched_windows_give_the_same_output_as_single_ones(tiny_graphs):
    import onnxruntime as ort

    session = ort.InferenceSession(str(tiny_graphs / VOCODER.filename()), providers=["CPUExecutionProvider"])
    width = window_frames(GraphInfo.from_metadata(session.get_modelmeta().custom_metadata_map).context)
    rng = np.random.default_rng(0)
    feeds = {"mel": rng.normal(-4, 1.5, size=(3, 80, width)).astype(np.float32),
             "f0": np.where(rng.random((3, width)) < 0.6, rng.uniform(70, 140, (3, width)), 0).astype(np.float32)}
    batched = session.run(None, feeds)
    single = [session.run(None, {k: v[i: i + 1] for k, v in feeds.items()}) for i in range(3)]
    for k, out in enumerate(batched):
        np.testing.assert_allclose(out, np.concatenate([s[k] for s in single]), atol=1e-5)


@pytest.mark.parametrize("keep", [1, 37, 127])
def test_a_short_last_window_gives_what_the_padded_whole_window_keeps(tiny_graphs, keep):
    """The frame axis is dynamic: an utterance's last window may stop ``context`` frames after its end instead of
    being padded to 128 kept frames, and gives the same outputs for those frames (onnxruntime takes it; the engines
    keep their fixed windows)."""
    import onnxruntime as ort

    rng = np.random.default_rng(keep)
    for spec in (DECODER, VOCODER):
        session = ort.InferenceSession(str(tiny_graphs / spec.filename()), providers=["CPUExecutionProvider"])
        c = GraphInfo.from_metadata(session.get_modelmeta().custom_metadata_map).context
        width, short = window_frames(c), keep + 2 * c
        if spec is DECODER:
            whole = {"frames": np.zeros((1, width, 32), np.float32), "position": np.zeros((1, width), np.float32)}
            whole["frames"][:, :short - c] = rng.normal(size=(1, short - c, 32))
            whole["position"][:, :short - c] = rng.random((1, short - c))
            cut = {k: v[:, :short] for k, v in whole.items()}
        else:
            whole = {"mel": np.full((1, 80, width), -11.5, np.float32), "f0": np.zeros((1, width), np.float32)}
            whole["mel"][..., :short - c] = rng.normal(-4, 1.5, size=(1, 80, short - c))
            whole["f0"][:, :short - c] = np.where(rng.random(short - c) < 0.6, rng.uniform(70, 140, short - c), 0)
            cut = {"mel": whole["mel"][..., :short], "f0": whole["f0"][:, :short]}
            n = len(range(*spectrum_frames(c, keep).indices(short)))
            assert n == keep + 3
        full, part = session.run(None, whole), session.run(None, cut)
        for a, b in zip(full, part):
            a = a[..., :keep] if spec is DECODER else a[:, :n]
            assert a.shape == b.shape
            np.testing.assert_allclose(b, a, atol=1e-5)


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
