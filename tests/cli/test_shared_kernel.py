"""Notebooks run in turn in one kernel: names never carry over, the process does, and a
kernel left busy by a timeout or started on another profile is replaced."""

from __future__ import annotations

import json

import nbformat
import pytest

from privlab.cli.run_notebooks import SharedKernel, run_notebook

pytestmark = pytest.mark.xdist_group("cli.test_shared_kernel")


def _notebook(folder, name, *sources):
    path = folder / f"{name}.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources]),
                   path)
    return path


def _printed(run) -> str:
    executed = json.loads(run.executed.read_text())
    texts = [o.get("text", "") for c in executed["cells"] for o in c.get("outputs", [])]
    return "".join("".join(t) if isinstance(t, list) else t for t in texts)


PID = "import os, sys\nprint(os.getpid(), os.environ['PRIVLAB_PROFILE'], 'json' in sys.modules)"


def test_the_next_notebook_sees_the_same_process_but_none_of_the_last_ones_names(tmp_path):
    first = _notebook(tmp_path, "a", "import json\nsecret = 41", PID)
    second = _notebook(tmp_path, "b", PID, "print(secret)")
    with SharedKernel() as kernel:
        a = run_notebook(first, tmp_path / "out", smoke=True, html=False, kernel=kernel)
        b = run_notebook(second, tmp_path / "out", smoke=True, html=False, kernel=kernel)
        assert kernel.runs == 2
    assert a.ok, a.error
    pid_a, pid_b = _printed(a).split()[0], _printed(b).split()[0]
    assert pid_a == pid_b  # one kernel: modules imported once
    assert _printed(b).split()[1:3] == ["smoke", "True"]
    assert not b.ok and "NameError" in b.error and "secret" in b.error
    assert kernel.km is None  # closed on leaving the block


def test_a_timed_out_notebook_leaves_no_busy_kernel_and_another_profile_gets_its_own(tmp_path):
    slow = _notebook(tmp_path, "slow", "import time\ntime.sleep(30)")
    probe = _notebook(tmp_path, "probe", PID)
    with SharedKernel() as kernel:
        first = run_notebook(probe, tmp_path / "1", smoke=True, html=False, kernel=kernel)
        stuck = run_notebook(slow, tmp_path / "2", smoke=True, html=False, timeout=2, kernel=kernel)
        assert not stuck.ok and kernel.km is None  # shut down, not reused while busy
        after = run_notebook(probe, tmp_path / "3", smoke=True, html=False, kernel=kernel)
        demo = run_notebook(probe, tmp_path / "4", profile="demo", html=False, kernel=kernel)
    assert first.ok and after.ok and demo.ok, (first.error, after.error, demo.error)
    pids = [_printed(r).split()[0] for r in (first, after, demo)]
    assert len(set(pids)) == 3
    assert _printed(demo).split()[1] == "demo"
