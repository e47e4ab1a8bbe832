"""The README's two commands are the project's contract: CI runs the test one, setup.sh does the rest."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from cantoedge.scripts.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> dict[str, str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = re.search(r"<!-- setup -->\s*```(?:bash|sh)?\n(.+?)\n```", text, re.S)
    test = re.search(r"<!-- test -->\s*```(?:bash|sh)?\n(.+?)\n```", text, re.S)
    assert setup and test, "README.md must mark its setup and test commands"
    return {"setup": setup.group(1).strip(), "test": test.group(1).strip()}


def test_ci_runs_exactly_the_readme_test_command():
    cmds = readme_commands()
    ci_lines = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text().splitlines()
                if ln.strip() and not ln.startswith("#")]
    assert ci_lines[-1] == cmds["test"]
    assert "bash setup.sh --install-only" in ci_lines


def main_job() -> list[list[str]]:
    """setup.sh's main job: its commands after the install step."""
    lines = [ln for ln in (ROOT / "setup.sh").read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    start = lines.index('[ "$install_only" = 1 ] && exit 0')
    return [shlex.split(ln) for ln in lines[start + 1:]]


def test_setup_command_is_valid_and_its_main_job_is_the_pipeline_then_each_folder_speaks(tmp_path, monkeypatch):
    assert readme_commands()["setup"] == "bash setup.sh"
    subprocess.run(["bash", "-n", str(ROOT / "setup.sh")], check=True)
    job = main_job()
    assert job[0] == ["bash", "scripts/rknn_env.sh"]  # so the pipeline can build for RK3588 too
    cantoedge = [argv for argv in job if argv[0] == ".venv/bin/cantoedge"]
    assert len(cantoedge) == len(job) - 1 and [a[1] for a in cantoedge] == ["pipeline", "say", "say"]
    monkeypatch.chdir(tmp_path)
    out = cantoedge[0][cantoedge[0].index("--out") + 1]
    for folder in ("voice-ort", "voice-rknn"):  # what the pipeline leaves; the parser checks inputs exist
        (tmp_path / out / folder).mkdir(parents=True)
    parser = build_parser()
    for argv in cantoedge:
        parser.parse_args(argv[1:])
    spoken = {say[say.index("--voice") + 1] for say in cantoedge[1:]}
    assert spoken == {f"{out}/voice-ort", f"{out}/voice-rknn"}  # the folders the pipeline builds here
    help_text = subprocess.run(["bash", str(ROOT / "setup.sh"), "--help"], capture_output=True, text=True,
                               check=True).stdout
    assert "--install-only" in help_text


@pytest.mark.slow  # renders audio with espeak-ng
def test_main_job_runs_through_the_installed_entry_point(tmp_path):
    """setup.sh's first step, on a 3-utterance corpus: the console script works and resumes."""
    exe = Path(sys.executable).with_name("cantoedge")
    assert exe.exists(), "the cantoedge console script is not installed in this environment"
    out = tmp_path / "corpus"
    first = subprocess.run([str(exe), "corpus", "build", "--out", str(out), "--limit", "3", "--quiet"],
                           capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert "3 rendered now" in first.stdout
    again = subprocess.run([str(exe), "corpus", "build", "--out", str(out), "--limit", "3", "--quiet"],
                           capture_output=True, text=True, timeout=300)
    assert "0 rendered now, 3 resumed" in again.stdout
    assert len((out / "manifest.jsonl").read_text().splitlines()) == 3


def test_errors_and_limits_section_states_the_limits_the_code_enforces():
    from cantoedge.runtime.audio import LIMIT_CEILING, LIMIT_KNEE
    from cantoedge.runtime.limits import MAX_TEXT_CHARS, SPEED_MAX, SPEED_MIN

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Errors and limits"):]
    section = section[: section.index("\n## ", 4)]
    assert f"1 to {MAX_TEXT_CHARS:,} characters" in section
    assert f"{SPEED_MIN:g} to {SPEED_MAX:g}" in section and f"{SPEED_MIN:g}..{SPEED_MAX:g}" in section
    assert f"above {LIMIT_KNEE:g}" in section and f"towards {LIMIT_CEILING:g}" in section


def _anchors(markdown: str) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation but hyphens dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.+)$", markdown, re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_links_between_the_readme_and_docs_resolve():
    """The README sends readers to docs/ for the notes behind each section: every relative link lands on a file
    that exists and, where it names one, on a heading that file has."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    assert len(pages) > 1, "docs/ holds the notes the README links to"
    checked = 0
    for page in pages:
        for target in re.findall(r"\]\(([^)#:]*)(?:#([^)]*))?\)", page.read_text(encoding="utf-8")):
            path, anchor = target
            linked = (page.parent / path).resolve() if path else page
            assert linked.is_file(), f"{page.name} links to a missing {path}"
            if anchor:
                headings = _anchors(linked.read_text(encoding="utf-8"))
                assert anchor in headings, f"{page.name}: no #{anchor} in {linked.name}"
            checked += 1
    assert checked >= 8
