"""The command line prints what the API returns."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import privlab
from privlab.cli import main


def _write(tmp_path):
    rng = np.random.default_rng(0)
    S = rng.standard_normal((25, 6))
    S /= np.linalg.norm(S, axis=1, keepdims=True)
    T = rng.standard_normal((30, 6)) * 0.2
    np.save(tmp_path / "S.npy", S)
    np.save(tmp_path / "T.npy", T)
    return S, T


def test_json_equals_the_api(tmp_path, capsys):
    S, T = _write(tmp_path)
    code = main(["resolution", "--audited", str(tmp_path / "S.npy"), "--references",
                 str(tmp_path / "T.npy"), "--top-k", "5", "--json"])
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(privlab.resolution(S, T, top_k=5).to_dict()))
    assert printed["witness"] == list(printed["top"][0][:2])


def test_python_dash_m_runs_the_same_command(tmp_path):
    S, T = _write(tmp_path)
    out = subprocess.run([sys.executable, "-m", "privlab", "resolution", "--audited",
                          str(tmp_path / "S.npy"), "--references", str(tmp_path / "T.npy"),
                          "--json"], capture_output=True, text=True, check=True).stdout
    assert json.loads(out)["value"] == privlab.resolution(S, T).value


def test_references_can_be_built_from_two_embedding_files(tmp_path, capsys):
    E = np.eye(4)
    E_san = np.roll(np.eye(4), 1, axis=1)
    np.save(tmp_path / "E.npy", E)
    np.save(tmp_path / "Es.npy", E_san)
    code = main(["resolution", "--audited", str(tmp_path / "Es.npy"), "--reference-originals",
                 str(tmp_path / "E.npy"), "--reference-sanitized", str(tmp_path / "Es.npy"),
                 "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["value"] == privlab.symmetric_resolution(E, E_san).value


def test_bad_input_exits_2_with_the_parameter_named(tmp_path, capsys):
    np.save(tmp_path / "S.npy", np.ones((3, 4)) * 2)
    np.save(tmp_path / "T.npy", np.ones((2, 4)))
    code = main(["resolution", "--audited", str(tmp_path / "S.npy"), "--references",
                 str(tmp_path / "T.npy")])
    err = capsys.readouterr().err
    assert code == 2 and "'S'" in err and "normalize=True" in err


def test_missing_file_is_named(tmp_path, capsys):
    code = main(["resolution", "--audited", str(tmp_path / "nope.npy"), "--references",
                 str(tmp_path / "nope.npy")])
    assert code == 2 and "nope.npy" in capsys.readouterr().err


def test_a_fault_in_privlab_keeps_its_traceback(tmp_path, monkeypatch):
    # Only refusals of input are turned into one line; anything else is a bug to see.
    import importlib

    kernel = importlib.import_module("privlab.resolution")
    _write(tmp_path)

    def broken(*args, **kwargs):
        raise ValueError("an internal fault")

    monkeypatch.setattr(kernel, "resolution", broken)
    with pytest.raises(ValueError, match="an internal fault"):
        main(["resolution", "--audited", str(tmp_path / "S.npy"), "--references",
              str(tmp_path / "T.npy")])


def test_os_errors_are_one_line_only_on_paths_the_user_gave(tmp_path, monkeypatch, capsys):
    import privlab.cli.resolution as verb

    _write(tmp_path)
    argv = ["resolution", "--audited", str(tmp_path / "S.npy"), "--references",
            str(tmp_path / "T.npy")]

    def fails_on(path):
        def run(args):
            raise PermissionError(13, "Permission denied", str(path))
        return run

    monkeypatch.setattr(verb, "run", fails_on(tmp_path / "S.npy"))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Permission denied" in err and "S.npy" in err
    monkeypatch.setattr(verb, "run", fails_on("/elsewhere/state.db"))
    with pytest.raises(PermissionError):
        main(argv)


def test_usage_errors_are_one_line_under_the_verb(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["resolution", "--audited", "S.npy", "--references", "T.npy", "--top-k", "-1"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1
    assert err.startswith("privlab resolution: error: argument --top-k: must be an integer >= 0")


def test_text_output_shows_a_tiny_resolution(tmp_path, capsys):
    np.save(tmp_path / "S.npy", np.eye(2))
    np.save(tmp_path / "T.npy", np.array([[3e-170, 0.0], [0.0, -1e-170]]))
    assert main(["resolution", "--audited", str(tmp_path / "S.npy"), "--references",
                 str(tmp_path / "T.npy"), "--top-k", "1"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "resolution 3e-170 (max difference +3e-170); decisive witness: audited 0 vs reference 0",
        "  audited      0  reference      0  difference +3e-170"]
