"""``privlab quote`` writes README's headline block from a demo record, and checks it."""

from __future__ import annotations

import dataclasses
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


def test_marked_figures_in_notebooks_are_written_from_the_record_and_checked(tmp_path, capsys):
    from privlab.studies.contract import Headline

    printed = Headline("04 Enron", "19 leaks", "diagnostic", ("real emails",),
                       figures={"emails": "1,552", "leaks": "19"})
    parsed = Headline.parse("noise\n" + printed.lines() + "\nmore noise")
    assert parsed == [printed] and parsed[0].figures == {"emails": "1,552", "leaks": "19"}
    runs = [{"notebook": "04_enron", "seconds": 5.0, "ok": True,
             "headlines": [dataclasses.asdict(printed)]}]
    record = write_record(tmp_path / "headlines-demo.json", "demo", runs)
    readme = tmp_path / "README.md"
    readme.write_text(f"{BEGIN}\n{END}\nEnron: <!--q:04_enron:leaks-->0<!--/q--> leaks.\n")
    folder = tmp_path / "notebooks"
    folder.mkdir()
    source = ("# %% [markdown]\n# Presidio keeps the name in <!--q:leaks-->7<!--/q--> of\n"
              "# <!--q:emails-->9<!--/q--> emails.\n")
    (folder / "04_enron.py").write_text(source)
    cell = {"cell_type": "markdown", "id": "a", "metadata": {},
            "source": ["Presidio keeps the name in <!--q:leaks-->7<!--/q--> of\n",
                       "<!--q:emails-->9<!--/q--> emails."]}
    (folder / "04_enron.ipynb").write_text(json.dumps({"cells": [cell], "metadata": {},
                                                       "nbformat": 4, "nbformat_minor": 5},
                                                      indent=1, ensure_ascii=False) + "\n")
    args = [str(record), "--readme", str(readme), "--notebooks", str(folder)]
    assert main(["quote", *args, "--check"]) == 1                      # typed by hand: found
    assert "+# Presidio keeps the name in <!--q:leaks-->19<!--/q--> of" in capsys.readouterr().out
    assert main(["quote", *args]) == 0
    assert "<!--q:leaks-->19<!--/q--> of\n# <!--q:emails-->1,552<!--/q--> emails" in (
        folder / "04_enron.py").read_text()
    nb = json.loads((folder / "04_enron.ipynb").read_text())
    assert nb["cells"][0]["source"] == ["Presidio keeps the name in <!--q:leaks-->19<!--/q--> of\n",
                                        "<!--q:emails-->1,552<!--/q--> emails."]
    assert "<!--q:04_enron:leaks-->19<!--/q--> leaks" in readme.read_text()
    assert main(["quote", *args, "--check"]) == 0
    # A marker naming a figure the run did not print: refused with file and line; nothing written.
    (folder / "04_enron.py").write_text(source + "# and <!--q:surnames-->42<!--/q-->\n")
    before = readme.read_text()
    assert main(["quote", *args]) == 2
    err = capsys.readouterr().err
    assert "'surnames'" in err and "04_enron.py:4" in err and "emails, leaks" in err
    assert readme.read_text() == before


def test_the_docs_quote_the_committed_record_of_a_run():
    """The docs' headline block is the rendering of the record a run left, not hand-typed."""
    from pathlib import Path

    from privlab.cli.quote import read_record, render_block

    root = Path(__file__).resolve().parents[2]
    record = read_record(root / "benchmarks" / "records" / "headlines-demo.json")
    assert record["profile"] == "demo" and all(run["ok"] for run in record["notebooks"])
    assert render_block(record) in (root / "docs" / "headlines.md").read_text(encoding="utf-8")


def test_every_marked_figure_in_readme_docs_and_notebooks_is_the_committed_record_s():
    """Each figure the prose quotes between markers is the value the recorded run printed."""
    from pathlib import Path

    from privlab.cli.quote import (MARKER, fill_figures, quoted_files, quoted_pages, read_record,
                                   record_figures)

    root = Path(__file__).resolve().parents[2]
    records = sorted((root / "benchmarks" / "records").glob("*.json"))
    figures = record_figures(*(read_record(path) for path in records))
    marked = 0
    for page in quoted_pages(root, root / "docs" / "headlines.md") + [root / "docs" / "headlines.md"]:
        text = page.read_text(encoding="utf-8")
        assert fill_figures(text, figures, notebook=None, where=page.name) == text, page
        marked += len(MARKER.findall(text))
    assert marked >= 11   # the figures of docs/headlines.md
    for path in quoted_files(root / "notebooks"):
        if path.suffix == ".py":
            text = path.read_text(encoding="utf-8")
            assert fill_figures(text, figures, notebook=path.stem, where=path.name) == text, path
            marked += len(MARKER.findall(text))
    assert marked > 0
