"""`cantoedge regress` on the default voice and its committed evaluation bundle, the way a device runs it: build
side blocked (no torch, librosa or corpus). The report's numbers, its HTML page in a real browser, the gate."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from blocker import BLOCKER

from cantoedge.regression.baseline import GATES, BaselineError, compare, load_baseline, load_report, write_baseline
from cantoedge.regression.evalbundle import BUNDLE_FILE, BundleError, EvalBundle
from cantoedge.runtime.voices import bundled_voice_dir

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ROOT / "regression" / "baselines" / "default.json"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def regress(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCKER, "regress", *args], capture_output=True, text=True,
                          timeout=600, cwd=cwd)


@pytest.fixture(scope="module")
def device_run(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    """The suite on the default voice (found as `say` finds it), gated on the committed baseline."""
    out = tmp_path_factory.mktemp("regress")
    proc = regress("--baseline", str(BASELINE), "--out", str(out / "report"), "--repeats", "1", cwd=out)
    return proc, out / "report"


def test_the_default_voice_passes_its_gate_on_a_device_install(device_run):
    proc, report = device_run
    assert proc.returncode == 0, proc.stderr
    assert "all 9 gated metrics within tolerance" in proc.stdout
    assert "not run here, so not gated: graphs-fp32, graphs-int8, rknn-fp16" in proc.stdout
    assert sorted(p.name for p in report.iterdir()) == ["report.html", "report.json", "report.md"]
    gate = json.loads((report / "report.json").read_text())["gate"]
    assert gate["passed"] and gate["checked"] == 9 and gate["regressed"] == []
    assert "Gate against" in (report / "report.md").read_text() and "PASSED" in (report / "report.html").read_text()


def test_the_report_holds_the_measured_numbers(device_run):
    _, report = device_run
    data = json.loads((report / "report.json").read_text())
    (build,) = data["builds"]
    assert build["name"] == "ort-int8" and build["backends"] == "ort/ort/ort" and data["utterances"] == 16
    bundle = EvalBundle.load(bundled_voice_dir() / BUNDLE_FILE)
    syllables = sum(len(u.jyutping) for u in bundle.utterances)
    assert build["vs_recording"]["syllables"] == data["reference"]["recording"]["syllables"] == syllables
    # espeak's own tones are heard; INT8 is close to FP32 (not equal: it is quantised) and meets the INT8 targets
    # on the tone band and F0
    assert data["reference"]["recording"]["accuracy"] > 0.9
    assert 0.05 < build["vs_fp32"]["tone_band_db"]["median"] <= 0.3 and build["vs_fp32"]["f0_cents"]["median"] < 10
    assert build["targets_met"] == {"tone_band_db": True, "f0_cents": True, "tone_accuracy_drop": True}
    assert 20 < build["graphs"]["vocoder"]["snr_db"]["median"] < 40  # INT8 vocoder alone: audibly close
    assert build["graphs"]["encoder"]["duration_agreement"] > 0.95
    stages = build["latency"]["stages_ms"]
    assert max(stages, key=stages.get) == "vocoder"  # where the time goes, measured
    assert len(build["latency"]["rtf_all"]) == len(build["latency"]["ttfb_ms_all"]) == 16
    assert set(build["sizes"]) == {"encoder.onnx", "decoder.onnx", "vocoder.onnx"}  # not the bundle
    # the regress process's own peak (VmHWM), not the forking test process's (ru_maxrss would inherit it)
    assert 50 < data["machine"]["peak_rss_mb"] < 250
    md = (report / "report.md").read_text()
    tone_band = build["vs_fp32"]["tone_band_db"]["median"]
    assert f"| ort-int8 | ort/ort/ort | {tone_band:.3f}" in md and "## Each graph alone" in md


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (Debian package chromium; "
                                             ".ci/run installs it)")
def test_the_html_page_renders_its_plots_in_chromium(device_run, tmp_path):
    _, report = device_run
    page = tmp_path / "page.html"
    probe = """<script>window.addEventListener('load', () => {
      const imgs = [...document.querySelectorAll('figure.mel img')];
      const out = {figures: document.querySelectorAll('figure.plot').length,
        mels: imgs.length, decoded: imgs.filter(i => i.naturalWidth > 0 && i.naturalHeight > 0).length,
        f0_lines: document.querySelectorAll('figure.f0 polyline').length,
        bars: [...document.querySelectorAll('figure.per-tone rect.bar')].filter(r => r.getBBox().height > 0).length,
        points: document.querySelectorAll('figure.rtf circle.point').length,
        drawn: [...document.querySelectorAll('figure.plot svg')].every(s => s.getBoundingClientRect().width > 100)};
      document.body.insertAdjacentHTML('beforeend', '<pre id="probe">' + JSON.stringify(out) + '</pre>');
    });</script>"""
    page.write_text((report / "report.html").read_text().replace("</body>", probe + "</body>"))
    dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                          "--disable-background-networking", "--disable-component-update", "--disable-sync",
                          f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000", "--dump-dom",
                          page.as_uri()], capture_output=True, text=True, timeout=120)
    found = dom.stdout.rsplit('<pre id="probe">', 1)[1].split("</pre>")[0]  # the script's own text has one too
    seen = json.loads(found)
    assert seen["mels"] == 9 and seen["decoded"] == 9  # 3 utterances x (FP32, build, difference), decoded
    assert seen["f0_lines"] >= 3 * 3  # recording, FP32 and build contours on 3 utterances
    assert seen["bars"] >= 12 and seen["points"] == 16 and seen["drawn"]
    assert seen["figures"] == 4 + 2 * 3  # tones, RTF, TTFB, stages; then F0 and mel per utterance


def test_a_worse_build_fails_the_gate_with_a_table_naming_what_moved(device_run, tmp_path):
    _, report = device_run
    data = json.loads((report / "report.json").read_text())
    baseline = load_baseline(BASELINE)
    before = compare(data, baseline)
    assert not [m for m in before if m.regressed]
    data["builds"][0]["vs_fp32"]["f0_cents"]["median"] += 20.0  # as a broken calibration does
    data["builds"][0]["vs_recording"]["tone_accuracy"] -= 0.01  # within its tolerance
    moved = [m for m in compare(data, baseline) if m.regressed]
    assert [(m.build, m.metric) for m in moved] == [("ort-int8", "vs_fp32.f0_cents.median")]
    # the build's own distance from the baseline (float noise on another CPU) plus what was added
    was = next(m.change for m in before if (m.build, m.metric) == ("ort-int8", "vs_fp32.f0_cents.median"))
    assert moved[0].change == pytest.approx(was + 20.0)


def test_the_baseline_changes_only_with_a_reason_which_it_keeps(device_run, tmp_path):
    _, report = device_run
    data = json.loads((report / "report.json").read_text())
    with pytest.raises(ValueError, match="only with a reason"):
        write_baseline(data, "  ", tmp_path / "b.json")
    first = write_baseline(data, "first", tmp_path / "b.json")
    assert set(first["builds"]["ort-int8"]) == {g.name for g in GATES}
    first["builds"]["ort-int8"]["vs_fp32.f0_cents.median"]["tolerance"] = 1.5  # a person tightened it
    (tmp_path / "b.json").write_text(json.dumps(first))
    second = write_baseline(data, "second", tmp_path / "b.json", previous=load_baseline(tmp_path / "b.json"))
    assert [h["reason"] for h in second["history"]] == ["first", "second"]
    assert second["builds"]["ort-int8"]["vs_fp32.f0_cents.median"]["tolerance"] == 1.5
    # a build this run did not score (RKNN, from another machine) keeps its baseline, and the history says so
    second["builds"]["rknn-fp16"] = {"vs_fp32.f0_cents.median": {"value": 1.9, "tolerance": 3.0, "better": "lower"}}
    (tmp_path / "b.json").write_text(json.dumps(second))
    third = write_baseline(data, "third", tmp_path / "b.json", previous=load_baseline(tmp_path / "b.json"))
    assert third["builds"]["rknn-fp16"] == second["builds"]["rknn-fp16"]
    assert third["history"][-1]["kept_unscored"] == ["rknn-fp16"] and "kept_unscored" not in third["history"][1]
    proc = regress("baseline", "--report", str(report / "report.json"), "--out", str(tmp_path / "c.json"),
                   cwd=tmp_path)
    assert proc.returncode == 2 and "--reason" in proc.stderr and not (tmp_path / "c.json").exists()
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(BaselineError, match="not a version-1"):
        load_baseline(tmp_path / "bad.json")
    # a report that is not one (a baseline given by mistake, a truncated file) is named, and nothing is written
    (tmp_path / "cut.json").write_text((report / "report.json").read_text()[:100])
    for wrong, says in ((tmp_path / "b.json", "not a `cantoedge regress` report.json"),
                        (tmp_path / "cut.json", "not a readable report")):
        with pytest.raises(BaselineError, match=says):
            load_report(wrong)
        proc = regress("baseline", "--report", str(wrong), "--out", str(tmp_path / "d.json"), "--reason", "x",
                       cwd=tmp_path)
        assert proc.returncode == 1 and str(wrong) in proc.stderr and not (tmp_path / "d.json").exists()


def test_the_bundle_is_byte_identical_when_saved_again(tmp_path):
    bundle = EvalBundle.load(bundled_voice_dir() / BUNDLE_FILE)
    bundle.save(tmp_path / "again.npz")
    assert (tmp_path / "again.npz").read_bytes() == (bundled_voice_dir() / BUNDLE_FILE).read_bytes()
    u = bundle.utterances[0]
    assert u.rec_mel.shape == u.fp32_mel.shape == (80, u.n_frames) and u.rec_f0.shape == (u.n_frames,)
    assert len(u.tokens) == len(u.tones) == len(u.durations) == len(u.fp32_own_durations)
    assert sorted(u.graph) == ["audio", "frames", "position"] and u.graph["frames"].shape[0] == u.n_frames


def test_damaged_or_mismatched_bundles_are_clear_errors(tmp_path):
    (tmp_path / "cut.npz").write_bytes((bundled_voice_dir() / BUNDLE_FILE).read_bytes()[:5000])
    with pytest.raises(BundleError, match="not a readable evaluation bundle"):
        EvalBundle.load(tmp_path / "cut.npz")
    proc = regress("--bundle", str(tmp_path / "cut.npz"), "--out", str(tmp_path / "r"), cwd=tmp_path)
    assert proc.returncode == 1 and "not a readable evaluation bundle" in proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "r").exists()
    bundle = EvalBundle.load(bundled_voice_dir() / BUNDLE_FILE)
    bundle.checkpoint_sha256 = "0" * 64  # made from another voice
    bundle.save(tmp_path / "other.npz")
    proc = regress("--bundle", str(tmp_path / "other.npz"), "--out", str(tmp_path / "r"), cwd=tmp_path)
    assert proc.returncode == 1 and "the evaluation bundle from 000000000000" in proc.stderr
    proc = regress("--voice", str(tmp_path), "--out", str(tmp_path / "r"), cwd=tmp_path)
    assert proc.returncode == 1 and "neither a built voice" in proc.stderr
