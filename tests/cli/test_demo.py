"""``privlab demo`` prints one headline per notebook and reports failures plainly."""

from __future__ import annotations

import nbformat

from privlab.cli import main


def _notebook(path, source):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source)]
    nbformat.write(nb, path)


def test_demo_prints_headlines_and_writes_reports(tmp_path, capsys):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    _notebook(folder / "00_ok.ipynb",
              "from privlab.studies import Headline\n"
              "Headline('00 ok', 'resolution 0.250', 'diagnostic',\n"
              "         ('12 texts written by privlab', 'minilm'), details=('witness x1/y2',),\n"
              "         status_note='model-relative').show()")
    _notebook(folder / "01_broken.ipynb", "raise ValueError('the corpus is empty')")
    code = main(["demo", "--notebooks", str(folder), "--out", str(tmp_path / "out"), "--smoke"])
    out = capsys.readouterr().out
    assert code == 1  # one notebook failed
    assert "00 ok" in out and "resolution 0.250" in out
    assert "details: witness x1/y2" in out  # beneath the first line, before the status
    assert out.index("resolution 0.250") < out.index("details: witness x1/y2") \
        < out.index("status: diagnostic — model-relative")
    import json
    record = json.loads((tmp_path / "out" / "headlines-smoke.json").read_text())
    (h,) = record["notebooks"][0]["headlines"]
    assert (h["text"], h["status"], h["status_note"], h["details"]) == (
        "resolution 0.250", "diagnostic", "model-relative", ["witness x1/y2"])
    assert "rests on: 12 texts written by privlab; minilm" in out
    assert "FAILED  01_broken.ipynb" in out and "ValueError: the corpus is empty" in out
    assert "\x1b[" not in out
    assert (tmp_path / "out" / "00_ok.html").stat().st_size > 0
    assert (tmp_path / "out" / "00_ok.ipynb").is_file()


def test_demo_only_runs_the_chosen_numbers(tmp_path, capsys):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    _notebook(folder / "00_a.ipynb",
              "from privlab.studies import Headline\nHeadline('00 a', 'x', 'descriptive').show()")
    _notebook(folder / "05_b.ipynb",
              "from privlab.studies import Headline\nHeadline('05 b', 'y', 'descriptive').show()")
    assert main(["demo", "--notebooks", str(folder), "--out", str(tmp_path), "--only", "05"]) == 0
    out = capsys.readouterr().out
    assert "05 b" in out and "00 a" not in out


def test_demo_runs_each_profile_and_prints_wall_times(tmp_path, capsys):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    _notebook(folder / "00_profile.ipynb",
              "from privlab.config import profile\nfrom privlab.studies import Headline\n"
              "Headline('00 p', 'profile ' + profile(), 'descriptive').show()")
    for flags, expected in (([], "demo"), (["--full"], "full"), (["--smoke"], "smoke")):
        assert main(["demo", "--notebooks", str(folder), "--out", str(tmp_path / "o"),
                     *flags]) == 0
        out = capsys.readouterr().out
        assert f"profile {expected}" in out, (flags, out)
        assert "Wall time per notebook: 00_profile " in out and "total " in out


def test_demo_refuses_full_and_smoke_together(tmp_path, capsys):
    import pytest

    with pytest.raises(SystemExit) as stop:
        main(["demo", "--notebooks", str(tmp_path), "--full", "--smoke"])
    assert stop.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
