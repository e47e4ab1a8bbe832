"""RKNN (RK3588): built in the RKNN environment and run through rknn-toolkit2's PC simulator, from the
ordinary cantoedge process (a worker in that environment runs the toolkit)."""

import json
import shutil

import numpy as np
import onnx
import pytest

from cantoedge.runtime.backends.rknn import rknn_python
from cantoedge.runtime.enginefolder import EngineManifest
from cantoedge.runtime.synth import Voice

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    rknn_python() is None, reason="rknn-toolkit2's environment is not here: create it with `bash scripts/rknn_env.sh` "
                                  "(CI does)")]


@pytest.fixture(scope="module")
def rknn_fp16(tiny_graphs, tmp_path_factory):
    from cantoedge.engines.rknn import build_rknn

    out = tmp_path_factory.mktemp("rknn") / "fp16"
    build_rknn(tiny_graphs, "fp16", out, log=lambda _: None)
    return out


def snr_db(reference: np.ndarray, other: np.ndarray) -> float:
    return float(10 * np.log10((reference ** 2).sum() / max(((reference - other) ** 2).sum(), 1e-20)))


def test_the_folder_keeps_the_encoder_on_onnxruntime_and_fixes_the_npu_shapes(rknn_fp16):
    manifest = EngineManifest.load(rknn_fp16)
    assert (manifest.target, manifest.platform, manifest.toolkit["name"]) == ("rknn", "rk3588", "rknn-toolkit2")
    enc, dec, voc = (manifest.graphs[g] for g in ("encoder", "decoder", "vocoder"))
    assert (enc.backend, enc.precision) == ("ort", "fp32")
    assert (dec.backend, dec.precision, voc.precision) == ("rknn", "fp16", "fp16")
    assert dec.shapes["fixed"]["frames"][0] == 1 and voc.shapes["fixed"]["log_magnitude"][:2] == [1, 131]
    assert dec.source == "sim/decoder.onnx" and any("simulator" in n for n in manifest.notes)


def test_the_simulator_speaks_the_fp32_voice_within_tolerance(rknn_fp16, tiny_graphs):
    reference, npu = Voice(tiny_graphs, "fp32", threads=1), Voice.load(rknn_fp16)
    try:
        assert npu.backends == {"encoder": "ort", "decoder": "rknn", "vocoder": "rknn"}
        frames, position, _ = reference.encode(reference.frontend("詩史試時市事，我哋去飲茶。"))
        mel, f0 = reference.decode(frames, position)
        mel_npu, f0_npu = npu.decode(frames, position)
        both = (f0 > 0) & (f0_npu > 0)
        cents = 1200 * np.abs(np.log2(f0_npu[both] / f0[both]))
        assert both.mean() > 0.2 and np.sqrt((cents ** 2).mean()) < 5.0  # FP16 decoder: F0 within 5 cents
        assert np.abs(mel_npu - mel).mean() < 0.02
        # per window, against onnxruntime FP32: the bundled voice reaches 37.9 dB (README); this tiny vocoder,
        # trained for seconds, about 22 dB; a vocoder that collapses on the NPU reads below 0 dB
        for feeds, w in npu.vocoder_feeds(mel, f0):  # the NPU's fixed windows (onnxruntime's last one is shorter)
            assert snr_db(reference.vocode_window(feeds, w), npu.vocode_window(feeds, w)) >= 18.0
        speech = npu.speak("詩史試時市事。")
        assert np.isfinite(speech.audio).all() and speech.audio.size == speech.durations.sum() * 256
    finally:
        npu.close()


def test_the_npu_refuses_shapes_it_was_not_built_for(rknn_fp16):
    npu = Voice.load(rknn_fp16)
    try:
        frames = np.zeros((2, *npu.decoder.entry.shapes["fixed"]["frames"][1:]), np.float32)
        with pytest.raises(ValueError, match="fixed shapes"):
            npu.decoder(frames=frames, position=np.zeros(frames.shape[:2], np.float32))
    finally:
        npu.close()


def test_an_int8_build_calibrates_both_window_graphs_on_the_calibration_set(tiny_graphs, calib_corpus, tmp_path,
                                                                            caplog):
    from cantoedge.engines.rknn import HYBRID_FP16_BLOCKS, build_rknn

    manifest = build_rknn(tiny_graphs, "int8", tmp_path / "int8", calib_corpus, log=lambda _: None)
    assert manifest.graphs["decoder"].precision == manifest.graphs["vocoder"].precision == "int8"
    for graph, inputs in (("decoder", ("frames", "position")), ("vocoder", ("mel", "f0"))):
        dataset = (tmp_path / "int8" / "rknn_calib" / f"{graph}.txt").read_text().splitlines()
        assert dataset and all(tuple(f.split("_")[-1][:-4] for f in line.split()) == inputs for line in dataset)
    assert any("tone-balanced calibration set" in n for n in manifest.notes)
    for graph in ("decoder", "vocoder"):  # hybrid: int8 feed-forward layers in every block but the last one or two
        blocks = {n.name.split("/")[1] for n in onnx.load(tiny_graphs / f"{graph}.onnx").graph.node
                  if n.name.startswith("/blocks.")}
        expected = max(1, len(blocks) - HYBRID_FP16_BLOCKS[graph])
        assert len(manifest.graphs[graph].build["int8_tensors"]) == expected
    # MMSE for the decoder's int8 layers; the vocoder's `normal` (MMSE's result varies from build to build there)
    assert [manifest.graphs[g].build["config"]["quantized_algorithm"] for g in ("decoder", "vocoder")] == [
        "mmse", "normal"]
    with caplog.at_level("WARNING", logger="cantoedge.rknn"):  # the simulator's slow start is announced
        reference, npu = Voice(tiny_graphs, "fp32", threads=1), Voice.load(tmp_path / "int8")
    assert [r.message.split(" from ")[0] for r in caplog.records] == [
        f"the RKNN PC simulator rebuilds the int8 {g} model" for g in ("decoder", "vocoder")]
    try:
        speech = npu.speak("詩史試時市事。")
        assert np.isfinite(speech.audio).all() and np.abs(speech.audio).max() > 0
        # the INT8 vocoder alone, per window against FP32: graph v2's harmonic source collapsed below 0 dB
        # in every INT8 build; this tiny vocoder reads 28-43 dB, the bundled voice's 30.1 (README)
        frames, position, _ = reference.encode(reference.frontend("詩史試時市事，我哋去飲茶。"))
        snr = [snr_db(reference.vocode_window(feeds, w), npu.vocode_window(feeds, w))
               for feeds, w in npu.vocoder_feeds(*reference.decode(frames, position))]
        assert min(snr) >= 20.0
    finally:
        npu.close()


def test_fp32_is_refused_and_a_broken_worker_is_a_clear_error(rknn_fp16, tiny_graphs, tmp_path):
    from cantoedge.engines.rknn import build_rknn

    with pytest.raises(ValueError, match="fp16 or int8"):
        build_rknn(tiny_graphs, "fp32", tmp_path / "x")
    broken = tmp_path / "broken"
    shutil.copytree(rknn_fp16, broken)
    data = json.loads((broken / "manifest.json").read_text())
    data["graphs"]["decoder"]["build"]["load"]["inputs"] = ["nope", "position"]
    (broken / "manifest.json").write_text(json.dumps(data))
    with pytest.raises(RuntimeError, match="RKNN worker for decoder did not start"):
        Voice.load(broken)


def test_say_runs_the_simulator_from_the_ordinary_cantoedge_command(rknn_fp16, tmp_path, capsys):
    from cantoedge.runtime.wavio import read_wav
    from cantoedge.scripts.cli import main

    wav, tsv = tmp_path / "npu.wav", tmp_path / "npu.tsv"
    assert main(["say", "詩史試時市事", "--voice", str(rknn_fp16), "--backend", "rknn", "-o", str(wav),
                 "--alignment", str(tsv)]) == 0
    assert "(ort+rknn fp16," in capsys.readouterr().out
    audio, rate = read_wav(wav)
    assert rate == 22050 and np.isfinite(audio).all() and len(tsv.read_text().splitlines()) == 7


def test_the_decoder_and_vocoder_workers_start_side_by_side(rknn_fp16, monkeypatch):
    from cantoedge.runtime.backends import rknn

    started, seen = [], []
    original_init, original_ready = rknn.RknnRunner.__init__, rknn.RknnRunner.ready

    def init(self, *args):
        original_init(self, *args)
        started.append(self)

    def ready(self):  # by the first wait, every worker is already running
        seen.append([r.spec.name for r in started if r._proc is not None and r._proc.poll() is None])
        original_ready(self)

    monkeypatch.setattr(rknn.RknnRunner, "__init__", init)
    monkeypatch.setattr(rknn.RknnRunner, "ready", ready)
    voice = Voice.load(rknn_fp16)
    try:
        assert seen[0] == ["decoder", "vocoder"]
        assert all(r.mode == "simulator" for r in started)
    finally:
        voice.close()
