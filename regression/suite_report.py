"""The regression report for people: a Markdown summary and one self-contained HTML page whose plots are inline
SVG and PNG. Drawn here with numpy and zlib because the device has no plotting library (numpy-only rule)."""

from __future__ import annotations

import base64
import html
import struct
import zlib

import numpy as np

from .metrics import summary_cell
from .suite import STAGES, SuiteReport

COLOURS = {"recording": "#7f7f7f", "fp32": "#1f77b4", "build": "#d62728"}
_RAMP = np.array([[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]], float)  # viridis


def headline_rows(report: SuiteReport) -> list[list[str]]:
    rows = []
    for b in report.builds:
        v, r = b.vs_fp32, b.vs_recording
        met = ("–" if not b.targets_met else
               ("all met" if all(b.targets_met.values()) else
                "missed: " + ", ".join(k for k, ok in b.targets_met.items() if not ok)))
        rows.append([b.name, b.backends, summary_cell(v["tone_band_db"], ".3f"), summary_cell(v["f0_cents"], ".1f"),
                     summary_cell(v["mel_l1"], ".3f"), f"{100 * r['tone_accuracy']:.1f} %",
                     summary_cell(r["f0_cents"], ".1f"),
                     f"{100 * r['vuv_error']:.1f} %", f"{b.latency['cold_start_s']:.2f}",
                     f"{b.latency['ttfb_ms']['median']:.0f}", f"{b.latency['rtf']['median']:.4f} / "
                     f"{b.latency['rtf']['p95']:.4f}", f"{sum(b.sizes.values()) / 1e6:.1f}", met])
    return rows


HEADLINE = ["build", "backends (enc/dec/voc)", "tone-band vs FP32 (dB)", "F0 vs FP32 (cents)", "mel L1 vs FP32",
            "tone accuracy", "F0 vs recording (cents)", "V/UV error", "cold start (s)", "TTFB (ms)",
            "RTF p50 / p95", "size (MB)", "INT8 targets"]


def markdown(report: SuiteReport) -> str:
    ref = report.reference
    lines = [f"# Regression report: {report.utterances} utterances ({report.bundle})", "",
             f"Tone accuracy of the recordings {100 * ref['recording']['accuracy']:.1f} %, of the FP32 voice "
             f"{100 * ref['fp32']['accuracy']:.1f} % (the ceilings). Medians (p95); accuracy end to end with the "
             "recordings' durations.", "", *_gate_lines(report), _table(HEADLINE, headline_rows(report)), "",
             "## Each graph alone", ""]
    lines.append(_table(["build", "encoder: durations equal to FP32", "encoder: hidden error (rel.)",
                         "decoder: F0 vs FP32 (cents)", "decoder: mel L1", "vocoder: SNR (dB; min)"],
                        [[b.name, f"{100 * b.graphs['encoder']['duration_agreement']:.1f} %",
                          summary_cell(b.graphs["encoder"]["hidden_rel_error"], ".2e"),
                          summary_cell(b.graphs["decoder"]["f0_cents"], ".2f"),
                          summary_cell(b.graphs["decoder"]["mel_l1"], ".4f"),
                          f"{b.graphs['vocoder']['snr_db']['median']:.1f}; {b.graphs['vocoder']['snr_min_db']:.1f}"]
                         for b in report.builds]))
    lines += ["", "## Tone accuracy per tone", ""]
    tones = [str(t) for t in range(1, 7)]
    per = [["recording", *_pct(ref["recording"]["per_tone"], tones)], ["fp32 (reference)",
                                                                       *_pct(ref["fp32"]["per_tone"], tones)]]
    per += [[b.name, *_pct(b.vs_recording["per_tone"], tones)] for b in report.builds]
    lines.append(_table(["", *[f"tone {t}" for t in tones]], per))
    lines += ["", "## Where the time goes (median ms per utterance, whole text at once)", ""]
    lines.append(_table(["build", *STAGES, "load (s)"],
                        [[b.name, *[f"{b.latency['stages_ms'][s]:.1f}" for s in STAGES], f"{b.latency['load_s']:.2f}"]
                         for b in report.builds]))
    lines += ["", f"Threads: {report.machine['threads']}. Peak RSS of this regress process, all builds together: "
              f"{report.machine['peak_rss_mb']:.0f} MB (score one build per run for its own). Latency is reported, "
              "never gated: these machines are shared and noisy. Cold start is in process (imports done): load, "
              "warm nothing, first chunk."]
    return "\n".join(lines) + "\n"


def gate_status(report: SuiteReport) -> str:
    g = report.gate
    if g is None:
        return ""
    skipped = f"; not run here, so not gated: {', '.join(g['not_run'])}" if g["not_run"] else ""
    if g["passed"]:
        return f"Gate against {g['baseline']}: PASSED, all {g['checked']} gated metrics within tolerance{skipped}."
    return (f"Gate against {g['baseline']}: FAILED, {len(g['regressed'])} of {g['checked']} gated metrics moved past "
            f"their tolerance{skipped}.")


def _gate_lines(report: SuiteReport) -> list[str]:
    if report.gate is None:
        return []
    return [f"**{gate_status(report)}**", "", *([report.gate["table"]] if report.gate["table"] else [])]


def _table(head: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def _pct(per_tone: dict, tones: list[str]) -> list[str]:
    return [f"{100 * per_tone[t]:.0f} %" if t in per_tone else "–" for t in tones]


# --- the HTML page -------------------------------------------------------------------------------------------

def html_page(report: SuiteReport) -> str:
    """One file, no network: every plot is inline SVG or a PNG data URI."""
    parts = [f"<h1>cantoedge regression report</h1><p>{report.utterances} utterances from "
             f"{html.escape(report.bundle)}; {report.machine['threads']} thread(s).</p>",
             *_html_gate(report), "<h2>Headline</h2>", _html_table(HEADLINE, headline_rows(report)),
             "<h2>Tone accuracy per tone</h2>", _figure("per-tone", _svg_tone_bars(report), "Share of syllables whose "
                                                         "tone the classifier hears as asked, per tone.")]
    parts.append("<h2>Latency</h2>")
    parts.append(_figure("rtf", _svg_strips({b.name: b.latency["rtf_all"] for b in report.builds}, "RTF"),
                         "Real-time factor per utterance (lower is faster)."))
    parts.append(_figure("ttfb", _svg_strips({b.name: b.latency["ttfb_ms_all"] for b in report.builds}, "TTFB ms"),
                         "Time to the first audio chunk per utterance."))
    parts.append(_figure("stages", _svg_stages(report), "Median time per stage, whole utterance."))
    for b in report.builds:
        parts.append(f"<h2>{html.escape(b.name)}</h2>")
        for u in b.plots.get("utterances", []):
            title = html.escape(f"{u['id']}: {u['text']}")
            parts.append(_figure("f0", _svg_f0(u), f"F0 of {title}: recording (grey), FP32 (blue), "
                                                   f"{html.escape(b.name)} (red); syllables with their tones."))
            diff = u["mel"] - u["fp32_mel"]
            lo, hi = float(u["fp32_mel"].min()), float(u["fp32_mel"].max())
            imgs = "".join(f"<div><div>{label}</div><img alt='{label} mel' src='{_png_uri(_colour(m, a, z))}'></div>"
                           for label, m, a, z in (("FP32", u["fp32_mel"], lo, hi), (b.name, u["mel"], lo, hi),
                                                  ("difference", np.abs(diff), 0.0, max(float(np.abs(diff).max()),
                                                                                         1e-6))))
            parts.append(f"<figure class='plot mel'><div class='mels'>{imgs}</div><figcaption>Log-mel of {title}: "
                         "FP32, this build, and their absolute difference (own scale).</figcaption></figure>")
    style = ("body{font-family:sans-serif;max-width:1100px;margin:auto;padding:1em}table{border-collapse:collapse;"
             "font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px}figure{margin:1em 0}.mels{display:flex;"
             "gap:8px}.mels img{width:340px;height:120px;image-rendering:pixelated}svg text{font-size:11px}")
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>cantoedge regression report</title>"
            f"<style>{style}</style></head><body>{''.join(parts)}</body></html>\n")


def _html_gate(report: SuiteReport) -> list[str]:
    g = report.gate
    if g is None:
        return []
    colour = "#2ca02c" if g["passed"] else "#d62728"
    rows = [[r["build"], r["metric"], "missing" if r["baseline"] is None else f"{r['baseline']:.4g}",
             "missing" if r["now"] is None else f"{r['now']:.4g}",
             "–" if r["change"] is None else f"{r['change']:+.4g}", f"{r['tolerance']:g} ({r['better']} is better)"]
            for r in g["regressed"]]
    table = _html_table(["build", "metric", "baseline", "now", "change", "tolerance"], rows) if rows else ""
    return [f"<p class='gate' style='font-weight:bold;color:{colour}'>{html.escape(gate_status(report))}</p>", table]


def _figure(kind: str, svg: str, caption: str) -> str:
    return f"<figure class='plot {kind}'>{svg}<figcaption>{caption}</figcaption></figure>"


def _html_table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _svg(width: int, height: int, body: str) -> str:
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}'>{body}</svg>")


def _svg_f0(u: dict, width: int = 900, height: int = 220) -> str:
    n = len(u["f0"])
    tracks = [("recording", u["rec_f0"]), ("fp32", u["fp32_f0"]), ("build", u["f0"])]
    voiced = np.concatenate([t[t > 0] for _, t in tracks] or [np.array([100.0])])
    lo, hi = (float(voiced.min()) * 0.9, float(voiced.max()) * 1.1) if voiced.size else (50.0, 300.0)
    x = lambda i: 40 + (width - 50) * i / max(n - 1, 1)  # noqa: E731
    y = lambda hz: height - 20 - (height - 50) * (np.log(hz) - np.log(lo)) / max(np.log(hi / lo), 1e-9)  # noqa: E731
    body = [f"<text x='2' y='{y(hi) + 4:.0f}'>{hi:.0f} Hz</text><text x='2' y='{y(lo):.0f}'>{lo:.0f}</text>"]
    for (a, b), syl in zip(u["spans"], u["jyutping"]):
        body.append(f"<line x1='{x(a):.1f}' x2='{x(a):.1f}' y1='22' y2='{height - 20}' stroke='#ddd'/>"
                    f"<text x='{(x(a) + x(b)) / 2:.1f}' y='14' text-anchor='middle'>{html.escape(syl)}</text>")
    for name, track in tracks:
        for seg in _voiced_runs(track):
            pts = " ".join(f"{x(i):.1f},{y(track[i]):.1f}" for i in seg)
            body.append(f"<polyline class='f0 {name}' fill='none' stroke='{COLOURS[name]}' stroke-width='1.5' "
                        f"points='{pts}'/>")
    return _svg(width, height, "".join(body))


def _voiced_runs(track: np.ndarray) -> list[range]:
    runs, start = [], None
    for i, v in enumerate(np.append(track > 0, False)):
        if v and start is None:
            start = i
        elif not v and start is not None:
            if i - start > 1:
                runs.append(range(start, i))
            start = None
    return runs


def _svg_tone_bars(report: SuiteReport, width: int = 900, height: int = 220) -> str:
    series = [("recording", report.reference["recording"]["per_tone"], COLOURS["recording"]),
              ("fp32", report.reference["fp32"]["per_tone"], COLOURS["fp32"])]
    palette = ["#d62728", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b"]
    series += [(b.name, b.vs_recording["per_tone"], palette[i % len(palette)]) for i, b in enumerate(report.builds)]
    group = (width - 40) / 6
    bar = group * 0.8 / len(series)
    body = []
    for t in range(1, 7):
        gx = 40 + group * (t - 1)
        body.append(f"<text x='{gx + group * 0.4:.0f}' y='{height - 4}' text-anchor='middle'>tone {t}</text>")
        for k, (name, per, colour) in enumerate(series):
            value = per.get(str(t), 0.0)
            h = (height - 40) * value
            body.append(f"<rect class='bar' x='{gx + k * bar:.1f}' y='{height - 20 - h:.1f}' width='{bar - 1:.1f}' "
                        f"height='{h:.1f}' fill='{colour}'><title>{html.escape(name)}: {100 * value:.0f} %</title>"
                        "</rect>")
    legend = "".join(f"<rect x='{40 + 150 * k}' y='2' width='10' height='10' fill='{c}'/><text x='{54 + 150 * k}' "
                     f"y='11'>{html.escape(n)}</text>" for k, (n, _, c) in enumerate(series))
    return _svg(width, height, legend + "".join(body))


def _svg_strips(values: dict[str, list[float]], unit: str, width: int = 900, row: int = 30) -> str:
    height = 30 + row * len(values)
    allv = [v for vs in values.values() for v in vs] or [1.0]
    hi = max(allv) * 1.05 or 1.0
    x = lambda v: 160 + (width - 180) * v / hi  # noqa: E731
    body = [f"<text x='{width - 20}' y='{height - 4}' text-anchor='end'>{hi:.4g} {html.escape(unit)}</text>"
            f"<text x='160' y='{height - 4}'>0</text>"]
    for k, (name, vs) in enumerate(values.items()):
        cy = 20 + row * k
        body.append(f"<text x='4' y='{cy + 4}'>{html.escape(name)}</text>")
        body += [f"<circle class='point' cx='{x(v):.1f}' cy='{cy}' r='3' fill='#d62728' fill-opacity='0.6'/>"
                 for v in vs]
        if vs:
            body.append(f"<line x1='{x(float(np.median(vs))):.1f}' x2='{x(float(np.median(vs))):.1f}' "
                        f"y1='{cy - 10}' y2='{cy + 10}' stroke='black' stroke-width='2'/>")
    return _svg(width, height, "".join(body))


def _svg_stages(report: SuiteReport, width: int = 900, row: int = 26) -> str:
    palette = ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462"]
    height = 40 + row * len(report.builds)
    hi = max((sum(b.latency["stages_ms"].values()) for b in report.builds), default=1.0) or 1.0
    body = ["".join(f"<rect x='{160 + 120 * k}' y='2' width='10' height='10' fill='{palette[k]}'/>"
                    f"<text x='{174 + 120 * k}' y='11'>{s}</text>" for k, s in enumerate(STAGES))]
    for i, b in enumerate(report.builds):
        cy, x0 = 24 + row * i, 160.0
        body.append(f"<text x='4' y='{cy + 14}'>{html.escape(b.name)}</text>")
        for k, s in enumerate(STAGES):
            w = (width - 180) * b.latency["stages_ms"][s] / hi
            body.append(f"<rect class='stage' x='{x0:.1f}' y='{cy}' width='{w:.1f}' height='{row - 6}' "
                        f"fill='{palette[k]}'><title>{s}: {b.latency['stages_ms'][s]:.1f} ms</title></rect>")
            x0 += w
    return _svg(width, height, "".join(body))


def _colour(image: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """(rows, cols) values to RGB rows top-down (low mel bins at the bottom), through the viridis ramp."""
    t = np.clip((image[::-1] - lo) / max(hi - lo, 1e-9), 0, 1) * (len(_RAMP) - 1)
    i = np.minimum(t.astype(int), len(_RAMP) - 2)
    f = (t - i)[..., None]
    return (_RAMP[i] * (1 - f) + _RAMP[i + 1] * f).astype(np.uint8)


def _png_uri(rgb: np.ndarray) -> str:
    """An 8-bit RGB PNG as a data URI (the format's three chunks, zlib from the standard library)."""
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[r].tobytes() for r in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    return "data:image/png;base64," + base64.b64encode(png).decode()
