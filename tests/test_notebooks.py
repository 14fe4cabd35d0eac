"""Every study notebook: paired, stripped, narrative-only, and runs headless on smoke settings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from privlab.cli.run_notebooks import SharedKernel, notebook_paths, run_notebook

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = notebook_paths(ROOT / "notebooks")


def test_there_are_notebooks():
    assert [p.name for p in NOTEBOOKS][:1] == ["00_quickstart.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_paired_stripped_and_has_no_definitions(path):
    import jupytext

    source = path.with_suffix(".py")
    assert source.is_file(), f"{path.name} has no jupytext source {source.name}"
    nb = json.loads(path.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in code), \
        f"{path.name} is committed with outputs"
    text = "\n".join("".join(c["source"]) for c in code)
    assert not re.search(r"^\s*(def|class)\s", text, re.M), f"{path.name} defines a function"
    assert "sys.path" not in text and not re.search(r"^\s*%cd\b", text, re.M)
    paired = jupytext.read(source)
    assert [("".join(c["source"]) if isinstance(c["source"], list) else c["source"]).strip()
            for c in nb["cells"]] == [c.source.strip() for c in paired.cells], \
        f"{path.name} is out of sync with {source.name}: run `make notebooks`"


@pytest.fixture(scope="session")
def shared_kernel():
    """One kernel per worker for the smoke runs, as ``privlab demo`` runs its notebooks:
    modules and models load once, and each notebook starts from an empty namespace."""
    with SharedKernel() as kernel:
        yield kernel


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_headless_on_smoke_settings(path, tmp_path, shared_kernel):
    run = run_notebook(path, tmp_path, smoke=True, timeout=600, kernel=shared_kernel)
    assert run.ok, run.error
    assert run.headlines, f"{path.name} printed no headline"
    for headline in run.headlines:
        assert headline.status != "unstated" and headline.caveats, \
            f"{path.name}: the headline must carry its status and what it rests on"
    assert run.html is not None and run.html.stat().st_size > 0
    executed = json.loads(run.executed.read_text())
    images = sum("image/png" in output.get("data", {}) for cell in executed["cells"]
                 for output in cell.get("outputs", []))
    if "plots." in path.with_suffix(".py").read_text():
        assert images > 0, f"{path.name} plots, but no figure reached the executed notebook"
