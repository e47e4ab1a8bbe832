"""scripts/rknn_env.sh installs rknn-toolkit2 with --no-deps after its requirements from
scripts/rknn-requirements.txt, so that list must stay the toolkit's own, torch excepted."""

import json
import subprocess
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from cantoedge.runtime.backends.rknn import rknn_python

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = ROOT / "scripts" / "rknn-requirements.txt"


def listed_requirements() -> dict[str, Requirement]:
    lines = [line.strip() for line in REQUIREMENTS.read_text().splitlines()]
    requirements = [Requirement(line) for line in lines if line and not line.startswith("#")]
    return {r.name.lower().replace("_", "-").replace(".", "-"): r for r in requirements}


def test_torch_comes_from_the_constraints_file_unpinned_here():
    torch = listed_requirements()["torch"]
    assert not torch.specifier, "torch's version belongs to constraints.txt, the CPU build both environments share"
    assert "torch==" in (ROOT / "constraints.txt").read_text()


@pytest.mark.skipif(rknn_python() is None, reason="rknn-toolkit2's environment is not here: create it with "
                                                  "`bash scripts/rknn_env.sh` (CI does)")
def test_the_list_is_the_toolkits_own_requirements_but_torch():
    probe = "import json, importlib.metadata as m; print(json.dumps(m.requires('rknn-toolkit2')))"
    declared = json.loads(subprocess.run([str(rknn_python()), "-c", probe], capture_output=True, text=True,
                                         check=True).stdout)
    toolkit = {r.name.lower().replace("_", "-").replace(".", "-"): r for r in map(Requirement, declared)}
    listed = listed_requirements()
    assert toolkit.keys() - {"torch"} <= listed.keys(), "a requirement of the toolkit is missing from the list"
    for name, requirement in toolkit.items():
        if name != "torch":
            assert listed[name].specifier == requirement.specifier, name
    assert listed.keys() - toolkit.keys() == {"setuptools"}  # only the toolkit's undeclared setuptools<80.1 pin
