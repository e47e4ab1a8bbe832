"""How long the text frontend takes to start (issue 14's budget: ``import`` + ``Frontend()`` + a first sentence
under 100 ms), measured in fresh processes, taking turns with ToJyutping's own import and first call where it is
installed, and whether the runtime's modules have compiled bytecode, without which every start compiles them."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from cantoedge.runtime.limits import check_text

START_TEXT = "我有2個蘋果，HK$100。"  # a digit and Latin letters: the number rules' first compile is counted too
BUDGET_MS = 100.0

# Each child times itself from its first line, so the interpreter's own start is not counted (as the issue's
# "import + first call" reads); it prints one JSON line.
_FRONTEND = """import time
t0 = time.perf_counter()
from cantoedge.runtime.frontend import Frontend
t1 = time.perf_counter()
frontend = Frontend()
t2 = time.perf_counter()
frontend(TEXT)
t3 = time.perf_counter()
print(__import__("json").dumps([t1 - t0, t2 - t1, t3 - t2]))
"""
_TOJYUTPING = """import time
t0 = time.perf_counter()
import ToJyutping
t1 = time.perf_counter()
ToJyutping.get_jyutping_list(TEXT)
t3 = time.perf_counter()
print(__import__("json").dumps([t1 - t0, 0.0, t3 - t1]))
"""


@dataclass
class StartTimes:
    """Median milliseconds of each part over fresh processes, and the spread of their sums."""

    name: str
    runs: int
    import_ms: float
    construct_ms: float
    first_ms: float
    total_ms: float
    total_q1_ms: float
    total_q3_ms: float


def stale_bytecode(package_dir: Path) -> list[str]:
    """The modules under ``package_dir`` whose cached bytecode is missing or older than their source: each start
    compiles those (a pip install writes it; ``PYTHONDONTWRITEBYTECODE`` keeps an editable checkout from it)."""
    stale = []
    for source in sorted(Path(package_dir).glob("*.py")):
        cached = Path(importlib.util.cache_from_source(str(source)))
        try:
            header = cached.read_bytes()[:16]
        except OSError:
            stale.append(source.name)
            continue
        flags = int.from_bytes(header[4:8], "little") if len(header) == 16 else -1
        if flags == 0:  # timestamp-checked: the source's mtime and size as Python's import system compares them
            stat = source.stat()
            fresh = (int.from_bytes(header[8:12], "little") == int(stat.st_mtime) & 0xFFFFFFFF
                     and int.from_bytes(header[12:16], "little") == stat.st_size & 0xFFFFFFFF)
        else:  # hash-checked bytecode is valid as written; a truncated header is not bytecode
            fresh = flags > 0
        if not fresh:
            stale.append(source.name)
    return stale


def one_start(script: str, text: str) -> tuple[float, float, float]:
    """(import, construct, first call) seconds of one fresh process running ``script`` on ``text``."""
    code = script.replace("TEXT", json.dumps(text, ensure_ascii=True))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    if proc.returncode != 0:
        raise RuntimeError(f"the timed process failed: {proc.stderr.strip()[-500:]}")
    parts = json.loads(proc.stdout.strip().splitlines()[-1])
    return parts[0], parts[1], parts[2]


def _summary(name: str, samples: list[tuple[float, float, float]]) -> StartTimes:
    totals = sorted(1000 * sum(s) for s in samples)
    q1, _, q3 = statistics.quantiles(totals, n=4, method="inclusive")
    med = [1000 * statistics.median(s[i] for s in samples) for i in range(3)]
    return StartTimes(name, len(samples), *med, statistics.median(totals), q1, q3)


def tojyutping_installed() -> bool:
    """ToJyutping is a build-side dependency: the reference is measured where it is installed."""
    return importlib.util.find_spec("ToJyutping") is not None


def measure_start(repeats: int = 21, text: str = START_TEXT, reference: bool = True,
                  progress: Callable[[Iterable], Iterable] | None = None) -> list[StartTimes]:
    """The frontend's start over ``repeats`` fresh processes, and ToJyutping's (when ``reference`` and installed)
    taking turns with it, so that both meet the same moments of a busy machine."""
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 3:
        raise ValueError(f"repeats must be a whole number of at least 3, got {repeats!r}")
    if not check_text(text).strip():
        raise ValueError("the first sentence to time is empty")
    scripts = {"cantoedge frontend": _FRONTEND}
    if reference and tojyutping_installed():
        scripts[f"ToJyutping {importlib.metadata.version('ToJyutping')} alone"] = _TOJYUTPING
    samples: dict[str, list] = {name: [] for name in scripts}
    for _ in progress(range(repeats)) if progress else range(repeats):
        for name, script in scripts.items():
            samples[name].append(one_start(script, text))
    return [_summary(name, s) for name, s in samples.items()]


def start_markdown(times: list[StartTimes], stale: list[str], text: str = START_TEXT) -> str:
    """The table `cantoedge regress frontend-start` prints: medians per part, the spread, ratios to the reference."""
    ours = times[0]
    names = " | ".join(t.name for t in times)
    lines = [f"Fresh processes, medians of {ours.runs} each, taking turns; first sentence {text!r}; budget "
             f"{BUDGET_MS:.0f} ms.", "", f"| ms | {names} |", "|---" * (len(times) + 1) + "|"]
    for label, attr in (("import", "import_ms"), ("Frontend()", "construct_ms"), ("first sentence", "first_ms")):
        lines.append(f"| {label} | " + " | ".join(f"{getattr(t, attr):.1f}" for t in times) + " |")
    lines.append("| **import + first call** | " + " | ".join(
        f"**{t.total_ms:.1f}** ({t.total_q1_ms:.1f}–{t.total_q3_ms:.1f})" for t in times) + " |")
    for t in times[1:]:
        lines.append(f"\ncantoedge starts {t.total_ms / ours.total_ms:.1f}× faster than {t.name} "
                     f"(ToJyutping loads its dictionary as it is imported, so it has no construct step).")
    verdict = "within" if ours.total_ms < BUDGET_MS else "OVER"
    lines.append(f"\ncantoedge: {ours.total_ms:.1f} ms, {verdict} the {BUDGET_MS:.0f} ms budget.")
    if stale:
        lines.append(f"\n{len(stale)} runtime modules have no up-to-date bytecode ({', '.join(stale[:5])}"
                     f"{' …' if len(stale) > 5 else ''}), so each start above compiled them; a pip install writes "
                     f"it (`python -m compileall` on the package does the same).")
    return "\n".join(lines) + "\n"
