"""``privlab audit``: the same number as ``privlab.audit``, a report, a CI gate, and
refusals that name the option typed."""

from __future__ import annotations

import json

import pytest

import privlab
from privlab.cli import main
from privlab.datasets.quickstart import TEXTS

TEXTS = list(TEXTS)
SANITIZER = '''def redact(text):
    return text.replace("Albert Einstein", "[NAME]").replace("Einstein", "[NAME]")


def explode(text):
    raise RuntimeError("model not loaded")
'''


def run_cli(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path):
    (tmp_path / "orig.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    namespace = {}
    exec(SANITIZER, namespace)
    sanitized = [namespace["redact"](t) for t in TEXTS]
    (tmp_path / "san.txt").write_text("\n".join(sanitized) + "\n", encoding="utf-8")
    (tmp_path / "anon.py").write_text(SANITIZER, encoding="utf-8")
    return tmp_path, sanitized, namespace["redact"]


def test_two_files_print_the_api_headline_and_write_the_report(files, capsys):
    folder, sanitized, _ = files
    code, out, err = run_cli(["audit", str(folder / "orig.txt"), str(folder / "san.txt"),
                              "--encoder", "lexical", "--report", str(folder / "a.html")],
                             capsys)
    assert code == 0, err
    expected = privlab.audit(TEXTS, sanitized=sanitized, encoders=["lexical"], name="san.txt")
    assert expected.value > 0
    assert out.splitlines()[0] == expected.headline()
    assert json.loads((folder / "a.json").read_text())["headline"] == expected.headline()
    assert "witness" in out and "<math" in (folder / "a.html").read_text()


def test_a_function_from_a_file_gives_the_same_number(files, capsys):
    folder, _, redact = files
    code, out, err = run_cli(["audit", str(folder / "orig.txt"), "--sanitizer",
                              f"{folder / 'anon.py'}:redact", "--encoder", "lexical"], capsys)
    assert code == 0, err
    expected = privlab.audit(TEXTS, redact, encoders=["lexical"])
    assert out.splitlines()[0] == expected.headline()
    assert out.startswith("'redact' under lexical: resolution ")


@pytest.mark.parametrize("limit, code", [("0", 1), ("1.5", 0)])
def test_fail_above_gates_on_the_resolution(files, capsys, limit, code):
    folder, _, _ = files
    got, out, _ = run_cli(["audit", str(folder / "orig.txt"), str(folder / "san.txt"),
                           "--encoder", "lexical", "--no-placebo", "--fail-above", limit],
                          capsys)
    assert got == code
    assert ("is above --fail-above" in out) == (code == 1)


@pytest.mark.parametrize("args, pattern", [
    ([], r"'SANITIZED' parameter of privlab audit must be given, or --sanitizer"),
    (["--sanitizer", "anon.py"], r"'--sanitizer' parameter of privlab audit must be "
                                 r"MODULE:FUNCTION"),
    (["--sanitizer", "{folder}/anon.py:nothing"], r"has no function 'nothing'"),
    (["--sanitizer", "{folder}/anon.py:explode"],
     r"'--sanitizer' option of privlab audit must be a function that accepts every item\. "
     r"explode raised RuntimeError: model not loaded"),
    (["{folder}/short.txt"], r"'SANITIZED' option of privlab audit must be one item per "
                             r"original \(12\)\. Got 2 items"),
    (["{folder}/san.txt", "--report", "{folder}/r.pdf"], r"'--report' parameter .* \.html"),
])
def test_refusals_name_what_the_user_typed(files, capsys, args, pattern):
    folder, _, _ = files
    (folder / "short.txt").write_text("a\nb\n", encoding="utf-8")
    argv = ["audit", str(folder / "orig.txt"), *[a.format(folder=folder) for a in args],
            "--encoder", "lexical"]
    code, out, err = run_cli(argv, capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("privlab audit: error: ")
    assert __import__("re").search(pattern, lines[0]), lines[0]
    assert "sanitize'" not in lines[0] and "privlab.audit" not in lines[0]


def test_epsilon_benchmark_names_pairs_not_n_pairs(tmp_path, capsys):
    code, out, err = run_cli(["epsilon-benchmark", "--no-cache", "--quiet", "--pairs", "1",
                              "--out", str(tmp_path / "t.csv")], capsys)
    assert code == 2
    assert "'--pairs' option of privlab epsilon-benchmark" in err and "n_pairs" not in err
