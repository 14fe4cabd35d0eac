"""``privlab quote`` writes README's headline block from a demo record, and checks it."""

from __future__ import annotations

import json

from privlab.cli import main
from privlab.cli.quote import BEGIN, END, write_record


def _record(tmp_path, text="resolution 0.217 (witness x6/y5)"):
    runs = [{"notebook": "00_quickstart", "seconds": 11.6, "ok": True,
             "headlines": [{"study": "00 quickstart", "text": text, "status": "diagnostic",
                            "caveats": ["12 short texts written by privlab"]}]},
            {"notebook": "01_broken", "seconds": 3.0, "ok": False, "headlines": []}]
    return write_record(tmp_path / "headlines-demo.json", "demo", runs)


def test_quote_writes_the_block_between_the_markers_and_check_finds_a_hand_edit(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text(f"# title\n\nbefore\n{BEGIN}\nold figures\n{END}\nafter\n")
    record = _record(tmp_path)
    assert json.loads(record.read_text())["total_seconds"] == 14.6
    assert main(["quote", str(record), "--readme", str(readme)]) == 0
    text = readme.read_text()
    assert "old figures" not in text and text.startswith("# title\n\nbefore\n")
    assert text.endswith(f"{END}\nafter\n")
    assert "00 quickstart      resolution 0.217 (witness x6/y5)" in text
    assert "01_broken          FAILED" in text
    assert "2 notebooks in 15 s" in text and "00_quickstart 12 s, 01_broken 3 s" in text
    assert main(["quote", str(record), "--readme", str(readme), "--check"]) == 0
    readme.write_text(text.replace("0.217", "0.300"))               # a figure typed by hand
    capsys.readouterr()
    assert main(["quote", str(record), "--readme", str(readme), "--check"]) == 1
    diff = capsys.readouterr().out
    assert "-00 quickstart      resolution 0.300" in diff and "+00 quickstart      resolution 0.217" in diff


def test_quote_refuses_a_readme_without_markers_and_a_file_that_is_no_record(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text("no markers here\n")
    assert main(["quote", str(_record(tmp_path)), "--readme", str(readme)]) == 2
    assert "markers" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["quote", str(bad), "--readme", str(readme)]) == 2
    assert "'record' parameter of privlab quote" in capsys.readouterr().err
    assert readme.read_text() == "no markers here\n"          # nothing lost


def test_readme_quotes_the_committed_record_of_a_run():
    """README's headline block is the rendering of the record a run left, not hand-typed."""
    from pathlib import Path

    from privlab.cli.quote import read_record, render_block

    root = Path(__file__).resolve().parents[2]
    record = read_record(root / "benchmarks" / "records" / "headlines-demo.json")
    assert record["profile"] == "demo" and all(run["ok"] for run in record["notebooks"])
    assert render_block(record) in (root / "README.md").read_text(encoding="utf-8")
