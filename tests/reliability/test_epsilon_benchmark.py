"""Faults and bad input of the known-ε benchmark's store and its ``epsilon-benchmark`` verb.

The fault tables damage a stored setting (and the Laplace reference table) each way a
file is damaged in practice and check that the damage is detected, reported with a
warning naming the file, recomputed to the same numbers and the full row count, and that
nothing else is recomputed. The key tables check that cache keys are exact and carry the
code's version. The refusal tables check that every bad argument and every unusable
``--out`` ends the verb with exit status 2 and one line naming it, before any setting is
computed. The slow test kills a two-worker sweep and checks that no worker survives and
that the rerun resumes.
"""

from __future__ import annotations

import os
import re
import signal
import stat
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from processes import children, running

from privlab.cli import main
from privlab.epsilon import benchmark as B
from privlab.epsilon import mechanisms as M
from privlab.epsilon import reference as R
from privlab.epsilon.store import marker_path, read_stored, store_table
from privlab.errors import PrivlabValueError

METHODS = ("gaussmech", "reserved")
PAIRS = 3
SETTINGS = B.grid(["laplace"], ["dispersed"], [0.0, 2.0], [12], [0])
ROWS = len(SETTINGS) * PAIRS * len(METHODS)


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def computed(monkeypatch):
    """Counts the settings :func:`run_setting` computes in this process."""
    calls = []
    real = B.run_setting

    def counting(setting, *args, **kwargs):
        calls.append(setting)
        return real(setting, *args, **kwargs)

    monkeypatch.setattr(B, "run_setting", counting)
    return calls


def sweep(**kw):
    return B.run_sweep(SETTINGS, methods=METHODS, n_pairs=PAIRS, n_jobs=1, progress=False, **kw)


def no_warning_read(path, problem=lambda f: None):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return read_stored(path, problem, "table")


def _half(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _header_only(path):
    path.write_bytes(path.read_bytes().split(b"\n", 1)[0] + b"\n")


def _garbage(path):
    path.write_bytes(b"\x00\xff\xfe not a table \x13\n,,,\n" * 3)


def _zero(path):
    path.write_bytes(b"")


def _no_marker(path):
    marker_path(path).unlink()


def _bad_marker(path):
    marker_path(path).write_text("{ not json")


def _nan_seed_with_marker(path):
    frame = pd.read_csv(path)
    frame.loc[3, "seed"] = np.nan
    store_table(frame, path)  # a consistent marker: only the table check can tell


def _rows_dropped_with_marker(path):
    store_table(pd.read_csv(path).iloc[:-2], path)


def _other_setting_with_marker(path):
    other = next(p for p in path.parent.glob("*.csv") if p != path)
    store_table(pd.read_csv(other), path)


# (case, damage, regex of the reason in the warning)
SETTING_FAULTS = [
    ("half its bytes", _half, r"do not match the checksum"),
    ("header only", _header_only, r"do not match the checksum"),
    ("garbage", _garbage, r"do not match the checksum"),
    ("zero bytes", _zero, r"do not match the checksum"),
    ("marker missing", _no_marker, r"completion marker .*\.done is missing"),
    ("marker not JSON", _bad_marker, r"cannot be read \(JSONDecodeError"),
    ("NaN seed, marker rewritten", _nan_seed_with_marker, r"\['seed'\] have missing values"),
    ("rows dropped, marker rewritten", _rows_dropped_with_marker, r"has 4 rows, expected 6"),
    ("another setting's table", _other_setting_with_marker,
     r"not those of setting laplace-dispersed-eps0-n12-r0"),
]


@pytest.mark.parametrize("case, damage, reason", SETTING_FAULTS,
                         ids=[row[0] for row in SETTING_FAULTS])
def test_a_damaged_setting_is_detected_named_and_recomputed(computed, case, damage, reason):
    first = sweep()
    assert len(first) == ROWS and len(computed) == 2
    damaged = B.setting_path(SETTINGS[0], METHODS, PAIRS)
    intact = B.setting_path(SETTINGS[1], METHODS, PAIRS)
    original, intact_bytes = damaged.read_bytes(), intact.read_bytes()
    intact_time = intact.stat().st_mtime_ns
    damage(damaged)
    computed.clear()
    with pytest.warns(RuntimeWarning, match=re.escape(str(damaged)) + r" is damaged: .*" + reason):
        again = sweep()
    assert computed == [SETTINGS[0]]  # only the damaged setting, once
    assert len(again) == ROWS and again["seed"].notna().all()
    pd.testing.assert_frame_equal(first, again, check_dtype=False)
    assert damaged.read_bytes() == original  # rewritten whole, with a valid marker
    assert len(no_warning_read(damaged)) == ROWS // 2
    assert intact.read_bytes() == intact_bytes and intact.stat().st_mtime_ns == intact_time
    computed.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(sweep()) == ROWS and computed == []  # now read back silently


def test_a_zero_byte_setting_through_the_command_line(tmp_path, capsys):
    args = ["epsilon-benchmark", "--epsilon", "0", "2", "--n", "12", "--pairs", str(PAIRS),
            "--methods", *METHODS, "--jobs", "1", "--quiet", "--out", str(tmp_path / "t.csv")]
    assert main(args) == 0
    path = B.setting_path(SETTINGS[1], METHODS, PAIRS)
    path.write_bytes(b"")
    with pytest.warns(RuntimeWarning, match=re.escape(path.name)):
        assert main(args) == 0
    assert len(pd.read_csv(tmp_path / "t.csv")) == ROWS
    assert f"wrote {ROWS} rows" in capsys.readouterr().out


REFERENCE = dict(geometry="dispersed", epsilons=(0.0, 16.0), n_pairs=2, draws=200, seed=3,
                 n_jobs=1, cache=True)


def _reference_nan_with_marker(path):
    table = pd.read_csv(path)
    table.loc[1, "optimal_auc"] = np.nan
    store_table(table, path)


REFERENCE_FAULTS = [
    ("half its bytes", _half, r"do not match the checksum"),
    ("header only", _header_only, r"do not match the checksum"),
    ("garbage", _garbage, r"do not match the checksum"),
    ("zero bytes", _zero, r"do not match the checksum"),
    ("marker missing", _no_marker, r"\.done is missing"),
    ("NaN AUC, marker rewritten", _reference_nan_with_marker,
     r"\['optimal_auc'\] have missing values"),
    ("rows dropped, marker rewritten", _rows_dropped_with_marker, r"has 2 rows, expected 4"),
]


@pytest.mark.parametrize("case, damage, reason", REFERENCE_FAULTS,
                         ids=[row[0] for row in REFERENCE_FAULTS])
def test_a_damaged_reference_table_is_recomputed(monkeypatch, case, damage, reason):
    first, first_median = R.laplace_reference_auc(**REFERENCE)
    path = R.laplace_reference_path("dispersed", [0.0, 16.0], 2, 200, 3)
    original = path.read_bytes()
    damage(path)
    calls = []
    real = M.optimal_auc_monte_carlo
    monkeypatch.setattr(M, "optimal_auc_monte_carlo",
                        lambda *a, **k: calls.append(a) or real(*a, **k))
    with pytest.warns(RuntimeWarning, match=re.escape(str(path)) + r" is damaged: .*" + reason):
        again, median = R.laplace_reference_auc(**REFERENCE)
    assert len(calls) == 4 and len(again) == 4  # every (ε, pair), computed once
    pd.testing.assert_frame_equal(first, again, check_dtype=False)
    pd.testing.assert_series_equal(first_median, median)
    assert path.read_bytes() == original


# ------------------------------------------------------------------------------ cache keys


def test_keys_are_exact_and_values_recorded_exactly(computed):
    one = B.Setting("laplace", "dispersed", 1.0, 12)
    near = B.Setting("laplace", "dispersed", 1.0000001, 12)
    a = B.run_sweep([one], methods=METHODS, n_pairs=PAIRS, n_jobs=1, progress=False)
    b = B.run_sweep([near], methods=METHODS, n_pairs=PAIRS, n_jobs=1, progress=False)
    assert computed == [one, near]  # the second is computed, not read from the first
    assert B.setting_path(one, METHODS, PAIRS) != B.setting_path(near, METHODS, PAIRS)
    assert B.setting_path(near, METHODS, PAIRS).name.startswith(
        "laplace-dispersed-eps1.0000001-n12-r0__")
    assert (a["epsilon"] == 1.0).all() and (b["epsilon"] == 1.0000001).all()
    assert b["exact_epsilon"].max() > a["exact_epsilon"].max()
    stored = B.run_sweep([near], methods=METHODS, n_pairs=PAIRS, n_jobs=1, progress=False)
    assert (stored["epsilon"] == 1.0000001).all() and len(computed) == 2
    pd.testing.assert_frame_equal(b, stored, check_dtype=False)


def test_the_command_line_keeps_nearby_epsilons_apart(tmp_path, capsys):
    common = ["--n", "12", "--pairs", str(PAIRS), "--methods", *METHODS, "--jobs", "1",
              "--quiet"]
    assert main(["epsilon-benchmark", "--epsilon", "1", *common,
                 "--out", str(tmp_path / "a.csv")]) == 0
    assert main(["epsilon-benchmark", "--epsilon", "1.0000001", *common,
                 "--out", str(tmp_path / "b.csv")]) == 0
    assert (pd.read_csv(tmp_path / "a.csv")["epsilon"] == 1).all()
    assert (pd.read_csv(tmp_path / "b.csv")["epsilon"]
            == 1.0000001).all()
    assert "1.0000001" in capsys.readouterr().out
    assert len(list(B.cache_folder().glob("laplace-dispersed-eps1*.csv"))) == 2


def test_a_version_bump_invalidates_stored_settings(computed, monkeypatch):
    sweep()
    before = sorted(B.cache_folder().glob("*.csv"))
    monkeypatch.setattr(B, "BENCHMARK_VERSION", B.BENCHMARK_VERSION + 1)
    computed.clear()
    assert len(sweep()) == ROWS
    assert computed == list(SETTINGS)
    after = sorted(B.cache_folder().glob("*.csv"))
    assert len(after) == 4 and set(before) < set(after)
    computed.clear()
    sweep()
    assert computed == []  # the new version's files are read back


def test_a_reference_version_bump_invalidates(monkeypatch):
    old = R.laplace_reference_path("dispersed", [0.0], 2, 200, 3)
    monkeypatch.setattr(R, "_LAPLACE_REFERENCE_VERSION", "next")
    assert R.laplace_reference_path("dispersed", [0.0], 2, 200, 3) != old
    assert R.laplace_reference_path("dispersed", [1.0], 2, 200, 3) != \
        R.laplace_reference_path("dispersed", [1.0000001], 2, 200, 3)


# ------------------------------------------------------------------------------ refusals

# (case, call, error type, regex naming the parameter)
SWEEP_REFUSALS = [
    ("no settings", dict(settings=[]), PrivlabValueError, r"'settings' .* nonempty list"),
    ("not settings", dict(settings=["laplace"]), PrivlabValueError, r"'settings' parameter"),
    ("methods a string", dict(methods="gaussmech"), PrivlabValueError, r"'methods' .* list"),
    ("unknown method", dict(methods=["nope"]), PrivlabValueError, r"'methods' .* Got 'nope'"),
    ("one pair", dict(n_pairs=1), PrivlabValueError, r"'n_pairs' .* \[2, \d+\]. Got 1"),
    ("too many pairs", dict(n_pairs=10**6), PrivlabValueError, r"'n_pairs' .* Got 1000000"),
    ("pairs as text", dict(n_pairs="3"), PrivlabValueError, r"'n_pairs' .* Got '3'"),
    ("negative permutations", dict(mmd_permutations=-1), PrivlabValueError,
     r"'mmd_permutations' parameter of run_sweep must be an integer >= 0. Got -1"),
    ("family_alpha 0", dict(family_alpha=0.0), PrivlabValueError, r"'family_alpha' .* \(0, 1\)"),
    ("family_alpha 1.5", dict(family_alpha=1.5), PrivlabValueError, r"'family_alpha' .* 1.5"),
    ("n_jobs 0", dict(n_jobs=0), PrivlabValueError, r"'n_jobs' .* positive integer. Got 0"),
    ("n_jobs True", dict(n_jobs=True), PrivlabValueError, r"'n_jobs' .* Got True"),
]


@pytest.mark.parametrize("case, kw, error, pattern", SWEEP_REFUSALS,
                         ids=[row[0] for row in SWEEP_REFUSALS])
def test_run_sweep_refuses_before_computing(computed, case, kw, error, pattern):
    args = dict(settings=SETTINGS, methods=METHODS, n_pairs=PAIRS, n_jobs=1, progress=False)
    args.update(kw)
    with pytest.raises(error, match=pattern):
        B.run_sweep(**args)
    assert computed == [] and list(B.cache_folder().iterdir()) == []


# (case, arguments, regex naming the option)
VERB_REFUSALS = [
    ("--n 0", ["--n", "0"], r"'--n' option of privlab epsilon-benchmark must be an integer "
                            r">= 10. Got 0"),
    ("--n 5", ["--n", "12", "5"], r"'--n' option .* Got 5"),
    ("negative --epsilon", ["--epsilon", "1", "-0.5"],
     r"'--epsilon' option .* 0 \(the exact null\) or a number in \[1e-06, 1000\]. Got -0.5"),
    ("--epsilon nan", ["--epsilon", "nan"], r"'--epsilon' option .* \[1e-06, 1000\]. Got nan"),
    ("--epsilon inf", ["--epsilon", "inf"], r"'--epsilon' option .* \[1e-06, 1000\]. Got inf"),
    ("--epsilon text", ["--epsilon", "one"], r"argument --epsilon: invalid float value: 'one'"),
    ("--repetition -1", ["--repetition", "-1"],
     r"'--repetition' option .* nonnegative integer. Got -1"),
    ("unknown --mechanism", ["--mechanism", "laplace", "cauchy"],
     r"'--mechanism' option .* one of \('laplace'.*Got 'cauchy'"),
    ("unknown --geometry", ["--geometry", "ring"], r"'--geometry' option .* Got 'ring'"),
    ("unknown --methods", ["--methods", "gaussmech", "nope"], r"'--methods' option .* Got 'nope'"),
    ("--pairs 1", ["--pairs", "1"], r"'--pairs' option of privlab epsilon-benchmark .* Got 1 "
                                    r"instead"),
    ("--mmd-permutations -1", ["--mmd-permutations", "-1"],
     r"'--mmd-permutations' option .* Got -1"),
    ("--jobs 0", ["--jobs", "0"], r"'--jobs' option .* Got 0"),
]


def _refused(argv, capsys, pattern):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own refusals (text where a number belongs)
        code = exc.code
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert lines[0].startswith("privlab epsilon-benchmark: error: ")
    assert re.search(pattern, lines[0]), lines[0]


@pytest.fixture
def no_computing(monkeypatch):
    """Any computation fails the test: refusals must come first."""
    def fail(*args, **kwargs):
        raise AssertionError("a setting was computed before the input was checked")

    monkeypatch.setattr(B, "run_setting", fail)
    monkeypatch.setattr(B, "_run_and_store", fail)


@pytest.mark.parametrize("case, args, pattern", VERB_REFUSALS,
                         ids=[row[0] for row in VERB_REFUSALS])
def test_the_verb_refuses_bad_numbers_and_names_in_one_line(tmp_path, capsys, no_computing,
                                                            case, args, pattern):
    out = tmp_path / "t.csv"
    _refused(["epsilon-benchmark", "--quiet", "--n", "12", *args, "--out", str(out)],
             capsys, pattern)
    assert not out.exists() and not any(B.cache_folder().iterdir())


def _fifo(tmp):
    os.mkfifo(tmp / "pipe")
    return tmp / "pipe"


def _under_a_file(tmp):
    (tmp / "note.txt").write_text("a file")
    return tmp / "note.txt" / "deeper" / "t.csv"


def _read_only_folder(tmp):
    if os.geteuid() == 0:
        pytest.skip("root writes into a folder without write permission")
    (tmp / "ro").mkdir()
    (tmp / "ro").chmod(stat.S_IRUSR | stat.S_IXUSR)
    return tmp / "ro" / "new" / "t.csv"


def _proc(tmp):
    if not Path("/proc/self").is_dir():
        pytest.skip("no /proc file system")
    return Path("/proc/privlab-table.csv")


# (case, build the --out path in a temporary folder, regex naming --out and the fault)
OUT_REFUSALS = [
    ("a folder", lambda tmp: tmp, r"'--out' .* Got '.*' \(a folder\) instead. Name a file "
                                  r"inside it, e.g. --out .*table\.csv\."),
    ("a pipe", _fifo, r"'--out' .*pipe' \(an existing entry that is not a regular file\)"),
    ("below a file", _under_a_file, r"'--out' .*note\.txt is a file, not a folder\)"),
    ("a read-only folder", _read_only_folder, r"'--out' .*ro is not writable"),
    ("a folder nobody can write (/proc)", _proc, r"'--out' .*the folder /proc is not writable"),
]


@pytest.mark.parametrize("case, build, pattern", OUT_REFUSALS,
                         ids=[row[0] for row in OUT_REFUSALS])
def test_out_is_checked_before_computing(tmp_path, capsys, monkeypatch, no_computing, case,
                                         build, pattern):
    def fail(*args, **kwargs):
        raise AssertionError("the sweep started before --out was checked")

    monkeypatch.setattr(B, "run_sweep", fail)
    out = build(tmp_path)
    before = sorted(p.name for p in tmp_path.rglob("*") if "ro" not in p.parts)
    start = time.perf_counter()
    _refused(["epsilon-benchmark", "--quiet", "--n", "12", "--out", str(out)], capsys, pattern)
    assert time.perf_counter() - start < 5
    assert sorted(p.name for p in tmp_path.rglob("*") if "ro" not in p.parts) == before


def test_out_in_a_missing_folder_is_created(tmp_path, capsys):
    out = tmp_path / "new" / "deeper" / "t.csv"
    assert main(["epsilon-benchmark", "--quiet", "--n", "12", "--pairs", "2", "--methods",
                 "gaussmech", "--jobs", "1", "--out", str(out)]) == 0
    assert len(pd.read_csv(out)) == 2
    assert not list(out.parent.glob(".privlab-probe-*"))


# ------------------------------------------------------------------------------ a killed sweep


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists() or os.name != "posix",
                    reason="reads process parents from /proc")
def test_a_killed_sweep_leaves_no_worker_and_resumes(tmp_path):
    cache = tmp_path / "cache"
    env = dict(os.environ, PRIVLAB_CACHE=str(cache))
    epsilons = ["0", "1", "2", "4", "8", "16", "32", "64"]
    argv = [sys.executable, "-m", "privlab", "epsilon-benchmark", "--epsilon", *epsilons,
            "--n", "30", "--pairs", "4", "--methods", "reserved", "--jobs", "2", "--quiet",
            "--out", str(tmp_path / "t.csv")]
    folder = cache / "epsilon-benchmark"
    sweep_process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not list(folder.glob("*.done")) and time.monotonic() < deadline:
            assert sweep_process.poll() is None, "the sweep ended before it could be killed"
            time.sleep(0.05)
        workers = children(sweep_process.pid)
        assert len(workers) >= 2 and len(list(folder.glob("*.done"))) < len(epsilons)
    finally:
        sweep_process.send_signal(signal.SIGKILL)
        sweep_process.wait()
    deadline = time.monotonic() + 5
    while any(running(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [w for w in workers if running(w)], "workers outlived their killed sweep"
    finished = {p: p.stat().st_mtime_ns for p in folder.glob("*.csv")
                if marker_path(p).is_file()}
    assert 1 <= len(finished) < len(epsilons)
    rerun = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    assert len(pd.read_csv(tmp_path / "t.csv")) == len(epsilons) * 4
    assert all(p.stat().st_mtime_ns == t for p, t in finished.items())  # not recomputed
    assert len(list(folder.glob("*.done"))) == len(epsilons)


def test_reading_a_store_never_raises_on_a_folder_in_its_place(tmp_path):
    path = tmp_path / "x.csv"
    path.mkdir()
    marker_path(path).write_text("{}")
    with pytest.warns(RuntimeWarning, match=r"x\.csv is damaged: it cannot be read"):
        assert read_stored(path, lambda f: None, "table") is None


def test_the_store_reads_floats_back_exactly(tmp_path):
    frame = pd.DataFrame({"a": [0.1, 1.0000001, np.inf], "b": ["x", "y", "z"]})
    got = no_warning_read(store_table(frame, tmp_path / "t.csv"))
    assert got["a"].tolist() == [0.1, 1.0000001, np.inf] and got["b"].tolist() == ["x", "y", "z"]

