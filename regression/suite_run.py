"""The suite as a command runs it: find the builds and the bundle, score, write JSON, Markdown and HTML
together, then gate on the baseline. Returns the exit status (1: a gated metric regressed)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from cantoedge.runtime.fileio import atomic_write_all

from .baseline import compare, load_baseline, not_run, regression_table
from .evalbundle import BUNDLE_FILE, BundleError, EvalBundle
from .suite import find_builds, run_suite
from .suite_report import html_page, markdown

REPORT_FILES = ("report.json", "report.md", "report.html")


def find_bundle(voices: list[Path], explicit: Path | None) -> Path:
    if explicit is not None:
        return explicit
    for v in voices:
        if (v / BUNDLE_FILE).exists():
            return v / BUNDLE_FILE
    raise BundleError(f"no {BUNDLE_FILE} in {', '.join(map(str, voices))}: pass --bundle FILE (made on the build "
                      "host with `cantoedge corpus eval-bundle`)")


def run_and_report(voices: list[Path] | None, backend: str, bundle_path: Path | None, baseline_path: Path | None,
                   out: Path, limit: int | None = None, repeats: int = 3, threads: int = 1,
                   quiet: bool = False) -> int:
    if voices is None:
        from cantoedge.runtime.voices import find_voice

        voices = [find_voice(None).path]
    baseline = load_baseline(baseline_path) if baseline_path else None  # before minutes of work
    builds = find_builds(voices, backend)
    path = find_bundle(voices, bundle_path)
    bundle = EvalBundle.load(path)
    if limit:
        bundle.utterances = bundle.utterances[:limit]
    report = run_suite(bundle, builds, threads, repeats, f"{path.name}: {bundle.source}",
                       progress=None if quiet else counted("scoring utterance"))
    data = report.to_json()
    if baseline is not None:
        report.gate = gate_result(data, baseline, str(baseline_path))
        data = report.to_json()
    text = markdown(report)
    outputs = dict(zip(REPORT_FILES, (json.dumps(data, indent=1, ensure_ascii=False) + "\n", text,
                                      html_page(report))))
    atomic_write_all([(out / name, lambda tmp, body=body: Path(tmp).write_text(body, "utf-8"))
                      for name, body in outputs.items()])
    print(text)
    print(f"report: {out / 'report.html'} (and report.json, report.md)")
    if report.gate is None:
        return 0
    gate = report.gate
    if gate["not_run"]:
        print(f"baseline {baseline_path}: not run here, so not gated: {', '.join(gate['not_run'])}")
    if not gate["checked"]:
        print(f"baseline {baseline_path} gates none of the builds scored here ({', '.join(b.name for b in builds)})",
              file=sys.stderr)
        return 1
    if not gate["passed"]:
        print(f"REGRESSION against {baseline_path}: {len(gate['regressed'])} of {gate['checked']} gated metrics "
              "moved past their tolerance", file=sys.stderr)
        print(gate["table"], file=sys.stderr)
        return 1
    print(f"baseline {baseline_path}: all {gate['checked']} gated metrics within tolerance")
    return 0


def gate_result(data: dict, baseline: dict, source: str) -> dict:
    """What the gate decided, for the report files as well as the exit status."""
    movements = compare(data, baseline)
    regressed = [m for m in movements if m.regressed]
    return {"baseline": source, "checked": len(movements), "passed": bool(movements) and not regressed,
            "not_run": not_run(data, baseline), "table": regression_table(movements) if regressed else "",
            "regressed": [{"build": m.build, "metric": m.metric, "baseline": m.baseline, "now": m.now,
                           "change": m.change, "tolerance": m.tolerance, "better": m.better} for m in regressed]}


def counted(what: str) -> Callable[[Iterable], Iterable]:
    """A progress display for the device side's long measures (no tqdm there): "WHAT i/n" on stderr."""

    def show(items: Iterable) -> Iterable:
        items = list(items)
        for i, item in enumerate(items, 1):
            print(f"\r  {what} {i}/{len(items)}", end="", file=sys.stderr, flush=True)
            yield item
        print(file=sys.stderr)

    return show
