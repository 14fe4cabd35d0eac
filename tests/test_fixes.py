"""Every install or download command privlab suggests works here and breaks nothing.

Each entry of :data:`privlab.fixes.INSTALLS` runs as ``pip install --dry-run`` against
this environment: a command that would replace a package at another version than the
one installed (a bare ``pip install facenet-pytorch`` would put torch 2.2 and numpy 1
in place of the pinned ones) fails, and so does a command whose tool is not installed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from privlab.fixes import DOWNLOAD, INSTALLS, download_command, install_command
from pip_dry_runs import HEAVY, _normalise, _requirements, run_dry_runs, wait_for_prefetch

ROOT = Path(__file__).resolve().parents[1]
# One worker runs this file's dry runs once (make test runs with --dist loadgroup).
pytestmark = pytest.mark.xdist_group("pip-dry-runs")
BIN = Path(sys.executable).parent


@pytest.fixture(scope="session")
def dry_runs(tmp_path_factory, request):
    slow = "slow" in (request.config.getoption("-m") or "")
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # the controller may have started them
        prefetched = wait_for_prefetch(base.parent, slow)
        if prefetched is not None:
            return prefetched
    return run_dry_runs(tmp_path_factory.mktemp("dry-runs"), slow)


@pytest.mark.parametrize("module", [pytest.param(m, marks=pytest.mark.slow) if m in HEAVY else m
                                    for m in sorted(INSTALLS)])
def test_each_install_command_changes_no_installed_package(module, dry_runs):
    arguments = INSTALLS[module]
    outcome = dry_runs[arguments]
    if isinstance(outcome, str):
        if re.search(r"connection|resolve host|Network is unreachable|No matching distribution",
                     outcome, re.I):
            pytest.skip(f"the package index cannot be reached here: {outcome}")
        pytest.fail(f"pip install {arguments} fails: {outcome}")
    replaced = _replaced(arguments, outcome)
    assert not replaced, f"pip install {arguments} would replace: {', '.join(replaced)}"


def _replaced(arguments: str, outcome: list[tuple[str, str]]) -> list[str]:
    """Installed packages that a dry run's outcome would put at another version."""
    _, requirements = _requirements(arguments)
    named = {_normalise(re.split(r"[=<>\[]", r)[0]) for r in requirements}
    replaced = []
    for name, version in outcome:
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
        if installed != version and _normalise(name) not in named:
            replaced.append(f"{name} {installed} -> {version}")
    return replaced


def test_the_check_catches_a_command_that_would_replace_torch():
    """What ``pip install facenet-pytorch==2.6.0`` resolves to (its metadata pins torch<2.3)."""
    outcome = [("facenet-pytorch", "2.6.0"), ("numpy", "1.26.4"), ("torch", "2.2.2")]
    assert _replaced("facenet-pytorch==2.6.0", outcome) == [
        f"numpy {metadata.version('numpy')} -> 1.26.4", f"torch {metadata.version('torch')} -> 2.2.2"]
    assert _replaced("--no-deps facenet-pytorch==2.6.0", outcome[:1]) == []


def test_the_commands_name_tools_that_are_installed():
    assert (BIN / "pip").exists() or (BIN / "pip3").exists()
    tool = DOWNLOAD.split()[0]
    assert (BIN / tool).exists(), f"{tool} is not installed beside {sys.executable}"
    done = subprocess.run([str(BIN / tool), "download", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "repo_id" in (done.stdout + done.stderr).lower().replace("-", "_")
    assert install_command("mediapipe").startswith("pip install ")
    assert download_command("org/model") == "hf download org/model"


def test_no_message_names_a_command_outside_the_table():
    """Install commands are written once, in privlab.fixes; none is typed elsewhere."""
    allowed = {"fixes.py"}
    found = []
    for path in (ROOT / "privlab").rglob("*.py"):
        if path.name in allowed:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if "huggingface-cli download" in line or re.search(r"pip install [\w'.-]", line):
                if not re.search(r">>>|\.\.\. |pip install \{", line):   # doctests, templates
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
