"""Per-channel output equalisation of a convolution (the vocoder's mel embedding): the same function in float,
and a far smaller INT8 error where the output channels' ranges differ widely, as the embedding's do (13 to 205)."""

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from cantoedge.calibrate.equalise import SUFFIX, channel_peaks, equalise
from cantoedge.calibrate.qdq import quantise, quantised_nodes
from cantoedge.calibrate.ranges import GraphRanges, Ranges

CHANNELS = 16


def embedding(shared: bool = False, bias: bool = True) -> onnx.ModelProto:
    """mel (1, 8, 1, 40) -> a 1 x 3 Conv whose output channels' gains span 1 to 30 -> Relu."""
    rng = np.random.default_rng(0)
    gains = np.geomspace(1, 30, CHANNELS).astype(np.float32)
    w = (rng.standard_normal((CHANNELS, 8, 1, 3)) * gains[:, None, None, None] / 5).astype(np.float32)
    inits = [numpy_helper.from_array(w, "w")] + ([numpy_helper.from_array(gains / 10, "b")] if bias else [])
    params = ["w", "b"] if bias else ["w"]
    nodes = [helper.make_node("Conv", ["mel", *params], ["y"], name="/embed/Conv", pads=[0, 1, 0, 1]),
             helper.make_node("Relu", ["y"], ["out"], name="/relu")]
    if shared:
        nodes.append(helper.make_node("Conv", ["mel", *params], ["y2"], name="/other/Conv", pads=[0, 1, 0, 1]))
    outputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, CHANNELS, 1, 40])
               for n in ["out"] + (["y2"] if shared else [])]
    graph = helper.make_graph(nodes, "embed", [helper.make_tensor_value_info("mel", TensorProto.FLOAT, [1, 8, 1, 40])],
                              outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def mels(n: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.uniform(-3, 1, (1, 8, 1, 40)).astype(np.float32) for _ in range(n)]


def run(model: onnx.ModelProto, mel: np.ndarray, name: str = "y") -> np.ndarray:
    model = onnx.ModelProto.FromString(model.SerializeToString())
    if name not in {o.name for o in model.graph.output}:
        model.graph.output.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run([name], {"mel": mel})[0]


def measured(model: onnx.ModelProto, calibration: list[np.ndarray]) -> GraphRanges:
    """The ranges calibrate would write for this graph: |x| peaks of the Conv's input and output, and the
    output's per-channel peaks."""
    ys = [run(model, m) for m in calibration]
    peak_in, peak_out = max(np.abs(m).max() for m in calibration), max(np.abs(y).max() for y in ys)
    amax = {"mel": dict.fromkeys(("max", "percentile", "entropy"), float(peak_in)),
            "y": dict.fromkeys(("max", "percentile", "entropy"), float(peak_out))}
    peaks = np.max([channel_peaks(y) for y in ys], axis=0)
    return GraphRanges("-", amax, [], {"/embed/Conv": "mel"}, {"/embed/Conv": peaks.tolist()})


def test_channel_peaks_are_the_largest_magnitude_of_each_channel():
    x = np.zeros((2, 3, 1, 4), np.float32)
    x[1, 0, 0, 2], x[0, 2, 0, 0] = -7, 3
    np.testing.assert_array_equal(channel_peaks(x), [7, 0, 3])


@pytest.mark.parametrize("bias", [True, False])
def test_equalising_keeps_the_float_function(bias):
    model = embedding(bias=bias)
    peaks = measured(model, mels(4, 1)).channel_peaks["/embed/Conv"]
    rewritten = onnx.ModelProto.FromString(model.SerializeToString())
    assert equalise(rewritten, "/embed/Conv", peaks) == "y" + SUFFIX
    onnx.checker.check_model(rewritten, full_check=True)
    for mel in mels(3, 2):
        np.testing.assert_allclose(run(rewritten, mel, "out"), run(model, mel, "out"), rtol=1e-5, atol=1e-5)
        assert np.abs(run(rewritten, mel, "y" + SUFFIX)).max() < 1.5  # every channel near [-1, 1]


def test_equalised_int8_output_is_several_times_closer_to_float():
    model, calibration, test = embedding(), mels(8, 3), mels(4, 4)
    g = measured(model, calibration)
    plain = quantise(model, GraphRanges(g.sha256, g.amax, [], g.inputs), "entropy")
    equalised = quantise(model, g, "entropy")
    assert quantised_nodes(equalised) == ["/embed/Conv"] == quantised_nodes(plain)
    assert any(n.op_type == "Mul" and n.output[0] == "y" for n in equalised.graph.node)

    def error(q):  # each channel's rms error against its own rms, the median over channels
        err = np.concatenate([run(q, m, "out") - run(model, m, "out") for m in test], axis=-1)
        ref = np.concatenate([run(model, m, "out") for m in test], axis=-1)
        return np.median(np.sqrt(np.mean(err ** 2, axis=(0, 2, 3)) / np.mean(ref ** 2, axis=(0, 2, 3))))
    assert error(equalised) * 2 < error(plain)  # 0.011 against 0.035 here
    # kept in float, the layer is neither equalised nor quantised
    kept = quantise(model, GraphRanges(g.sha256, g.amax, ["/embed/Conv"], g.inputs, g.channel_peaks), "entropy")
    assert not quantised_nodes(kept) and not any(SUFFIX in n.name for n in kept.graph.node)


def test_equalising_refuses_what_it_cannot_rewrite_exactly():
    with pytest.raises(ValueError, match="no convolution named"):
        equalise(embedding(), "/relu", [1.0] * CHANNELS)
    with pytest.raises(ValueError, match="15 channel peaks for 16"):
        equalise(embedding(), "/embed/Conv", [1.0] * 15)
    with pytest.raises(ValueError, match="shared with another node"):
        equalise(embedding(shared=True), "/embed/Conv", [1.0] * CHANNELS)


def test_a_dead_channel_keeps_its_scale():
    model = embedding()
    equalise(model, "/embed/Conv", [0.0] + [2.0] * (CHANNELS - 1))
    scale = next(numpy_helper.to_array(t) for t in model.graph.initializer if t.name.endswith("_scale"))
    assert scale.ravel()[0] == 1 and scale.ravel()[1] == 2


def test_ranges_carry_channel_peaks_and_refuse_bad_ones(tmp_path):
    g = measured(embedding(), mels(2, 5))
    ranges = Ranges("entropy", {"set": "-"}, {"vocoder": g})
    ranges.save(tmp_path / "ranges.json")
    assert Ranges.load(tmp_path / "ranges.json").graphs["vocoder"].channel_peaks == g.channel_peaks
    assert g.per_tensor_fallback() == ["/embed/Conv"]  # TensorRT's implicit calibrator has no channel scales
    g.channel_peaks["/embed/Conv"][3] = float("nan")
    with pytest.raises(ValueError, match="channel peaks"):
        ranges.save(tmp_path / "bad.json")
