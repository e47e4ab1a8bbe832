"""The accuracy baseline a build is gated against: each metric's accepted value, a tolerance and which way is
better. It changes only through `cantoedge regress baseline --reason`, which appends the reason to its history.
Latency is never gated (shared, noisy machines)."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path

from cantoedge.runtime.fileio import atomic_write_text

FORMAT = "cantoedge-regress-baseline"
VERSION = 1


@dataclass(frozen=True)
class Gate:
    """One gated metric: where it lives in a build's JSON, which way is better, and how far it may move."""

    path: tuple[str, ...]
    better: str  # "lower" or "higher"
    tolerance: float

    @property
    def name(self) -> str:
        return ".".join(self.path)


# Tolerances: a few times the run-to-run spread of onnxruntime across x86 CPUs, well below what a broken
# calibration does (plain max-range PTQ moves F0 by 30-40 cents).
GATES = (
    Gate(("vs_fp32", "tone_band_db", "median"), "lower", 0.05),
    Gate(("vs_fp32", "f0_cents", "median"), "lower", 3.0),
    Gate(("vs_fp32", "mel_l1", "median"), "lower", 0.02),
    Gate(("vs_recording", "tone_accuracy"), "higher", 0.015),
    Gate(("vs_recording", "f0_cents", "median"), "lower", 5.0),
    Gate(("vs_recording", "vuv_error"), "lower", 0.01),
    Gate(("graphs", "encoder", "duration_agreement"), "higher", 0.02),
    Gate(("graphs", "decoder", "f0_cents", "median"), "lower", 3.0),
    Gate(("graphs", "vocoder", "snr_db", "median"), "higher", 2.0),
)


class BaselineError(ValueError):
    """A missing or unreadable baseline file."""


@dataclass(frozen=True)
class Movement:
    build: str
    metric: str
    baseline: float | None
    now: float | None
    tolerance: float
    better: str

    @property
    def change(self) -> float | None:
        return None if self.baseline is None or self.now is None else self.now - self.baseline

    @property
    def regressed(self) -> bool:
        if self.now is None or self.baseline is None:
            return True  # a build or metric the baseline gates went missing
        worse = self.change if self.better == "lower" else -self.change
        return worse > self.tolerance


def metric_value(build_json: dict, path: tuple[str, ...]) -> float | None:
    value = build_json
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return float(value) if isinstance(value, int | float) else None


def _read_json(path: Path, what: str):
    try:
        return json.loads(Path(path).read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise BaselineError(f"{path} is not a readable {what} ({exc})") from None


def load_baseline(path: Path) -> dict:
    if not Path(path).exists():
        raise BaselineError(f"no baseline at {path}: write one with `cantoedge regress baseline --report "
                            "REPORT.json --reason TEXT --out FILE`")
    data = _read_json(path, "baseline")
    if data.get("format") != FORMAT or data.get("version") != VERSION or "builds" not in data:
        raise BaselineError(f"{path} is not a version-{VERSION} cantoedge regression baseline")
    return data


def load_report(path: Path) -> dict:
    """A `cantoedge regress` report.json to accept, or a BaselineError saying why it is not one."""
    data = _read_json(path, "report")
    builds = data.get("builds") if isinstance(data, dict) else None
    if not isinstance(builds, list) or not all(isinstance(b, dict) and "name" in b for b in builds):
        raise BaselineError(f"{path} is not a `cantoedge regress` report.json (no list of scored builds): "
                            "pass the report.json a `cantoedge regress` run wrote")
    return data


def compare(report_json: dict, baseline: dict) -> list[Movement]:
    """Every gated metric of every build that both the baseline and this run have (a machine builds only the
    targets it can: see ``not_run``); a metric the build no longer reports counts as a regression."""
    builds = {b["name"]: b for b in report_json["builds"]}
    out = []
    for name, metrics in baseline["builds"].items():
        if name not in builds:
            continue
        for metric, entry in metrics.items():
            now = metric_value(builds[name], tuple(metric.split(".")))
            out.append(Movement(name, metric, entry["value"], now, entry["tolerance"], entry["better"]))
    return out


def not_run(report_json: dict, baseline: dict) -> list[str]:
    """Builds the baseline gates that this run did not score."""
    return sorted(set(baseline["builds"]) - {b["name"] for b in report_json["builds"]})


def regression_table(movements: list[Movement], only_regressions: bool = True) -> str:
    rows = [m for m in movements if m.regressed or not only_regressions]
    lines = ["| build | metric | baseline | now | change | tolerance | |", "|---|---|---|---|---|---|---|"]
    for m in rows:
        fmt = lambda v: "missing" if v is None else f"{v:.4g}"  # noqa: E731
        change = "–" if m.change is None else f"{m.change:+.4g}"
        lines.append(f"| {m.build} | {m.metric} | {fmt(m.baseline)} | {fmt(m.now)} | {change} | "
                     f"{m.tolerance:g} ({m.better} is better) | {'REGRESSED' if m.regressed else 'ok'} |")
    return "\n".join(lines) + "\n"


def write_baseline(report_json: dict, reason: str, out: Path, previous: dict | None = None,
                   source: str = "") -> dict:
    """The report's gated metrics as the new baseline; the reason and date join the history. Tolerances
    already in ``previous`` are kept (a person may have tuned them), and so are its builds the report did not
    score (an onnxruntime-only run must not drop the RKNN build's baseline)."""
    if not reason or not reason.strip():
        raise ValueError("a baseline changes only with a reason: pass --reason 'why these numbers are accepted'")
    builds = {}
    for b in report_json["builds"]:
        kept = (previous or {}).get("builds", {}).get(b["name"], {})
        entries = {}
        for gate in GATES:
            value = metric_value(b, gate.path)
            if value is None or value != value:  # missing or NaN: nothing to gate
                continue
            tolerance = kept.get(gate.name, {}).get("tolerance", gate.tolerance)
            entries[gate.name] = {"value": value, "tolerance": tolerance, "better": gate.better}
        builds[b["name"]] = entries
    unscored = {name: entries for name, entries in (previous or {}).get("builds", {}).items() if name not in builds}
    builds.update(unscored)
    history = list((previous or {}).get("history", []))
    history.append({"date": datetime.date.today().isoformat(), "reason": reason.strip(), "report": source,
                    "utterances": report_json.get("utterances"), "bundle": report_json.get("bundle"),
                    **({"kept_unscored": sorted(unscored)} if unscored else {})})
    data = {"format": FORMAT, "version": VERSION, "builds": builds, "history": history}
    atomic_write_text(Path(out), json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n")
    return data
