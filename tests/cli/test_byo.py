"""``privlab epsilon audit``, ``privlab spia score``, ``privlab redacbench score``: the
command line prints what the API returns, writes the report and gates on --fail-above."""

from __future__ import annotations

import json

import numpy as np
import pytest

from privlab.cli import main
from privlab.epsilon.byo import audit
from privlab.redaction.spia import write_spia
from privlab.redaction.spia.sample import sample_records


@pytest.fixture(scope="module")
def laplace(tmp_path_factory):
    """Laplace outputs (ε = 1) on two neighbouring inputs, saved as .npy files."""
    folder = tmp_path_factory.mktemp("eps")
    rng = np.random.default_rng(0)
    a, b = rng.laplace(0.0, 1.0, 1000), rng.laplace(1.0, 1.0, 1000)
    np.save(folder / "A.npy", a)
    np.save(folder / "B.npy", b)
    return folder, a, b


def test_epsilon_audit_prints_the_api_headline_and_gates(laplace, capsys):
    folder, a, b = laplace
    expected = audit(a, b, delta=0.0)
    assert 0 < expected.certificate < 1
    report = folder / "eps.html"
    args = ["epsilon", "audit", str(folder / "A.npy"), str(folder / "B.npy"), "--delta", "0",
            "--report", str(report)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert expected.headline() in out and "95% confidence" in out
    assert report.is_file()
    record = json.loads(report.with_suffix(".json").read_text(encoding="utf-8"))
    assert record["finding"]["value"] == pytest.approx(expected.certificate)
    # The gate: above the bound passes, below it fails with status 1.
    assert main(args + ["--fail-above", f"{expected.certificate + 0.01}"]) == 0
    assert main(args + ["--fail-above", f"{expected.certificate - 0.01}"]) == 1
    assert "is above --fail-above" in capsys.readouterr().out


def test_epsilon_audit_pairs_lower_the_level(laplace, capsys):
    folder, _, _ = laplace
    assert main(["epsilon", "audit", str(folder / "A.npy"), str(folder / "B.npy"),
                 "--pairs", "5", "--no-control"]) == 0
    assert "over 5 pairs" in capsys.readouterr().out


@pytest.mark.parametrize("extra, named", [
    (["--delta", "2"], "argument --delta"),
    (["--pairs", "0"], "argument --pairs"),
    (["--estimators", "reserved"], "'--estimators' option"),
    (["--report", "out.txt"], "'--report'"),
])
def test_epsilon_audit_errors_name_the_option(laplace, capsys, extra, named):
    folder, _, _ = laplace
    try:
        code = main(["epsilon", "audit", str(folder / "A.npy"), str(folder / "B.npy"), *extra])
    except SystemExit as exc:  # argparse's own refusals end the command
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and named in err and "privlab epsilon audit" in err


def test_epsilon_audit_refuses_a_missing_file_naming_it(laplace, capsys):
    folder, _, _ = laplace
    assert main(["epsilon", "audit", str(folder / "A.npy"), str(folder / "none.npy")]) == 2
    assert "'B'" in capsys.readouterr().err


def test_spia_score_on_files(tmp_path, capsys):
    gold = write_spia(sample_records(), tmp_path / "gold.jsonl")
    anonymized = tmp_path / "anonymized.jsonl"
    anonymized.write_text("".join(
        json.dumps({"metadata": {"data_id": r.data_id}, "text": r.text}) + "\n"
        for r in sample_records()), encoding="utf-8")
    args = ["spia", "score", str(gold), str(anonymized), "--adversary", "none"]
    assert main(args + ["--report", str(tmp_path / "spia.md"), "--fail-above", "0"]) == 0
    out = capsys.readouterr().out
    # The adversary that infers nothing recovers nothing: CPR 1, the gate at 0 holds.
    assert out.startswith("CPR 1.000: PIIs recovered (1 − CPR) 0.000 (text-blind guess")
    assert (tmp_path / "spia.md").is_file() and (tmp_path / "spia.json").is_file()
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "nonesuch", "text": "x"}) + "\n", encoding="utf-8")
    assert main(["spia", "score", str(gold), str(bad)]) == 2
    err = capsys.readouterr().err
    assert "'ANONYMIZED' option of privlab spia score" in err and "nonesuch" in err
    assert main(["spia", "score", str(tmp_path / "no.jsonl"), str(bad)]) == 2
    assert "'GOLD'" in capsys.readouterr().err


def test_redacbench_score_on_a_file_of_outputs(tmp_path, capsys, monkeypatch):
    from privlab.redaction.redacbench import Judge, load_redacbench, sample_path
    from privlab.redaction.redacbench import byo

    docs = load_redacbench(sample_path())
    originals = {d.text for d in docs}

    class Unchanged(Judge):  # scripted: nothing is inferable from a changed text
        name = "unchanged-text judge"

        def _judge(self, text, propositions):
            return [text in originals] * len(propositions)

    monkeypatch.setattr(byo, "_judge", lambda value: Unchanged())
    outputs = tmp_path / "outputs.jsonl"
    outputs.write_text("".join(json.dumps({"document": d.id, "redacted": "[REDACTED]"}) + "\n"
                               for d in docs), encoding="utf-8")
    assert main(["redacbench", "score", str(outputs), "--fail-above", "0.5"]) == 0
    out = capsys.readouterr().out
    # Everything removed: Security 1 against the unredacted texts' 0, Utility 0.
    assert out.startswith("your outputs (Utility 0.000): Security 1.000 (unredacted 0.000, "
                          "excess +1.000)")
    outputs.write_text(json.dumps({"document": docs[0].id, "redacted": "x"}) + "\n",
                       encoding="utf-8")
    assert main(["redacbench", "score", str(outputs)]) == 2
    assert "'OUTPUTS' option of privlab redacbench score" in capsys.readouterr().err


def test_epsilon_audit_refuses_a_second_array_appended(laplace, tmp_path, capsys):
    folder, a, _ = laplace
    appended = tmp_path / "two.npy"
    with open(appended, "wb") as handle:
        np.save(handle, a)
        np.save(handle, a)
    assert main(["epsilon", "audit", str(folder / "A.npy"), str(appended)]) == 2
    err = capsys.readouterr().err
    assert "'B'" in err and "privlab epsilon audit" in err and "second array" in err
