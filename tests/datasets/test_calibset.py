from cantoedge.datasets.calibset import PAIRS, TONES, select, tone_events
from cantoedge.runtime.manifest import read_manifest


def test_calibration_set_covers_tones_evenly(tiny_corpus):
    records = read_manifest(tiny_corpus)
    chosen = select(records, 8)
    assert len(chosen.ids) == len(set(chosen.ids)) == 8
    assert all(chosen.tone_counts[t] > 0 for t in TONES)
    # greedy beats taking the first 8: more distinct tone pairs covered
    naive = set()
    for rec in records[:8]:
        naive |= {k for k in tone_events(rec) if isinstance(k, tuple)}
    assert sum(1 for p in PAIRS if chosen.pair_counts[p]) >= len(naive)
    assert select(records, 8).ids == chosen.ids  # deterministic
    table = chosen.coverage_table()
    assert table.count("\n") == 3 + 1 + 2 + 6


def test_calib_set_cli_writes_ids_and_table(tiny_corpus, tmp_path):
    import json

    from cantoedge.scripts.cli import main

    out = tmp_path / "calib.json"
    assert main(["corpus", "calib-set", "--corpus", str(tiny_corpus), "--size", "5", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert len(data["ids"]) == 5 and set(data["tones"]) == {"1", "2", "3", "4", "5", "6"}
    assert out.with_suffix(".md").read_text().startswith("| tone |")
