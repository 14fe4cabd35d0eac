"""Stored benchmark tables: marker written last, checked reads, workers that die with the sweep."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import pandas as pd
import pytest

from privlab.epsilon.store import exit_with_parent, marker_path, read_stored, store_table
from privlab.hashing import bytes_hash


def test_marker_records_rows_columns_and_checksum(tmp_path):
    frame = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "z"]})
    path = store_table(frame, tmp_path / "t.csv")
    meta = json.loads(marker_path(path).read_text())
    assert meta == {"rows": 3, "columns": ["a", "b"], "sha256": bytes_hash(path.read_bytes())}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv", "t.csv.done"]  # no temp left


def test_the_caller_check_can_refuse_a_table(tmp_path):
    path = store_table(pd.DataFrame({"a": [1, 2]}), tmp_path / "t.csv")
    with pytest.warns(RuntimeWarning, match=r"stored demo .*t\.csv is damaged: wrong a\. Rec"):
        assert read_stored(path, lambda f: "wrong a" if f["a"].sum() != 4 else None,
                           "demo") is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert read_stored(path, lambda f: None, "demo")["a"].tolist() == [1, 2]


def test_a_table_without_its_file_is_reported(tmp_path):
    path = store_table(pd.DataFrame({"a": [1]}), tmp_path / "t.csv")
    path.unlink()
    with pytest.warns(RuntimeWarning, match=r"t\.csv is damaged: it cannot be read "
                                            r"\(FileNotFoundError"):
        assert read_stored(path, lambda f: None, "demo") is None


def test_nothing_is_watched_in_the_sweep_process():
    assert exit_with_parent(os.getpid()) is False


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self/stat").exists(),
                    reason="forks and reads /proc")
def test_a_worker_exits_soon_after_its_parent_dies():
    # The parent forks a worker that would sleep for a minute, then dies at once.
    script = textwrap.dedent("""
        import os, time
        from privlab.epsilon.store import exit_with_parent
        parent = os.getpid()
        child = os.fork()
        if child == 0:
            exit_with_parent(parent, interval=0.05)
            time.sleep(60)
            os._exit(0)
        print(child, flush=True)
        time.sleep(0.5)
        os._exit(0)
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60)
    worker = int(run.stdout)
    deadline = time.monotonic() + 5
    while _running(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(worker), "the worker outlived its parent"
