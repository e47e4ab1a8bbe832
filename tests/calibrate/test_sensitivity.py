"""Tone-aware sensitivity: a per-layer table, and a fallback that grows until the targets are met."""

import json

import onnx
import pytest

from cantoedge.calibrate.int8 import RANGES_FILE, calibrate_voice, protected_nodes
from cantoedge.calibrate.qdq import QUANTISED_OPS, quantised_nodes
from cantoedge.calibrate.ranges import Ranges
from cantoedge.calibrate.sensitivity import choose_fallback, layer_effects
from cantoedge.regression.compare import render_reference
from cantoedge.regression.targets import Int8Targets
from cantoedge.runtime.graphs import GRAPHS
from cantoedge.runtime.manifest import load_features, read_manifest
from cantoedge.runtime.synth import Voice


@pytest.fixture(scope="module")
def calibrated(tiny_graphs, calib_corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("sens-out")
    build = calibrate_voice(tiny_graphs, calib_corpus, out, sensitivity=2)
    return build, calib_corpus, out


def test_every_capable_layer_gets_a_row_and_the_chosen_ones_stay_float(calibrated, tiny_graphs):
    build, _, out = calibrated
    report = json.loads((out / "sensitivity.json").read_text())
    ranges = Ranges.load(out / RANGES_FILE)
    for name, g in ranges.graphs.items():
        model = onnx.load(str(tiny_graphs / f"{name}.onnx"))
        capable = {n.name for n in model.graph.node if n.op_type in QUANTISED_OPS}
        rows = {r["node"] for r in report["layers"] if r["graph"] == name}
        protected = set(protected_nodes(next(s for s in GRAPHS if s.name == name), model))
        assert rows == capable - protected  # every layer but the always-float heads is measured alone
        chosen = {f for t in report["trail"] for f in t["float_layers"] if f in capable}
        assert set(g.fallback) == protected | chosen  # float: the heads and what the greedy search chose
        assert not set(quantised_nodes(onnx.load(str(build.graphs[name])))) & set(g.fallback)
    trail = report["trail"]
    assert trail[-1]["met"] or len(trail[-1]["float_layers"]) == min(24, len(report["layers"]))
    assert [len(t["float_layers"]) for t in trail] == list(range(len(trail)))
    table = (out / "sensitivity.md").read_text()
    assert table.count("\n") == len(report["layers"]) + 2


def test_unreachable_targets_stop_at_the_layer_budget(calibrated, tiny_graphs, tmp_path):
    _, corpus, out = calibrated
    ranges = Ranges.load(out / RANGES_FILE)
    records = [r for r in read_manifest(corpus) if r.split == "val"][:2]
    ref = render_reference(Voice(tiny_graphs), records, lambda r: load_features(corpus, r))
    effects = layer_effects(ranges, tiny_graphs, ref, tmp_path / "work")
    _, trail = choose_fallback(ranges, tiny_graphs, ref, effects, tmp_path / "trial",
                               Int8Targets(tone_band_db=-1.0), max_layers=2)
    assert [len(t["float_layers"]) for t in trail] == [0, 1, 2] and not trail[-1]["met"]
    worst = max(effects, key=lambda e: (e.tone_band_db, e.f0_cents))
    assert trail[1]["float_layers"] == [worst.node]
