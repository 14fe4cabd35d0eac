"""``progress.bar``: privlab's reports drawn by ``tqdm.auto``, as text in a terminal and as
an ipywidgets bar in a notebook, and the bar ``privlab audit`` draws on a terminal."""

from __future__ import annotations

import io

import pytest

from privlab import progress
from privlab.cli import main
from privlab.datasets.quickstart import TEXTS


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _lines(text: str) -> list[str]:
    """The bar's successive drawings (tqdm rewrites one line with carriage returns)."""
    return [line.rstrip() for line in text.replace("\r", "\n").splitlines() if line.strip()]


def test_a_text_bar_shows_the_fraction_and_the_label_of_every_level():
    out = io.StringIO()
    with progress.bar("audit", file=out, disable=False) as drawn:
        progress.step("auditing presidio", 1, 4)
        with progress.within():
            progress.substep("sanitized", 50, 100)
        assert progress.listening()
    assert not progress.listening()
    last = _lines(out.getvalue())[-1]
    assert last.startswith("audit:  38%|")
    assert last.endswith("auditing presidio: 1 of 4 · sanitized: 50 of 100")
    assert drawn.n == pytest.approx(0.375)


def test_a_bar_on_a_file_that_is_no_terminal_draws_nothing_when_asked_so():
    out, seen = io.StringIO(), []
    with progress.bar(file=out, disable=None):
        with progress.reporting(seen.append):  # an inner listener still hears the reports
            progress.step("encoding", 1, 2)
    assert out.getvalue() == ""
    assert seen == [progress.Step("encoding", 1, 2)]
    with pytest.raises(ValueError, match="'desc' parameter of progress.bar"):
        with progress.bar(3):
            pass


def test_in_a_notebook_tqdm_auto_draws_a_widget_with_the_fraction_and_the_label(monkeypatch):
    pytest.importorskip("ipywidgets")
    import tqdm.auto
    from tqdm.notebook import tqdm as notebook_tqdm

    monkeypatch.setattr(tqdm.auto, "tqdm", notebook_tqdm)  # what tqdm.auto picks in a kernel
    with progress.bar("quickstart") as drawn:
        progress.step("encoding", 3, 4)
        progress.note("loading all-MiniLM-L6-v2 …")
        drawn.refresh()
        label, widget, text = drawn.container.children
        assert type(widget).__name__ == "FloatProgress"
        assert widget.value == pytest.approx(0.75) and widget.max == 1.0
        assert "quickstart" in label.value
        shown = text.value.replace("\u2007", " ")  # tqdm's widget spaces its text with U+2007
        assert shown.endswith("encoding: 3 of 4 · loading all-MiniLM-L6-v2 …")


def test_privlab_audit_draws_its_phases_on_a_terminal_and_nothing_in_a_pipe(tmp_path,
                                                                             monkeypatch):
    texts = list(TEXTS)
    (tmp_path / "orig.txt").write_text("\n".join(texts) + "\n", encoding="utf-8")
    (tmp_path / "san.txt").write_text(
        "\n".join(t.replace("Einstein", "[NAME]") for t in texts) + "\n", encoding="utf-8")
    argv = ["audit", str(tmp_path / "orig.txt"), str(tmp_path / "san.txt"),
            "--encoder", "lexical", "--no-placebo"]
    terminal, pipe, stdout = Terminal(), io.StringIO(), io.StringIO()
    monkeypatch.setattr("sys.stdout", stdout)
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(argv) == 0
    drawn = _lines(terminal.getvalue())
    assert drawn[-1].startswith("privlab audit: 100%|")
    assert "encoding with lexical" in drawn[-1]
    monkeypatch.setattr("sys.stderr", pipe)
    assert main(argv) == 0
    assert pipe.getvalue() == ""
    printed = stdout.getvalue().splitlines()
    assert "resolution" in printed[0] and printed.count(printed[0]) == 2  # the bar changed none


def test_in_a_real_kernel_tqdm_auto_picks_the_widget_bar():
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from privlab import progress\n"
        "with progress.bar('quickstart') as drawn:\n"
        "    progress.step('encoding', 1, 2)\n"
        "print(drawn.container.children[1].value)")])
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    outputs = nb.cells[0].outputs
    assert "application/vnd.jupyter.widget-view+json" in outputs[0]["data"]
    assert outputs[-1]["text"].strip() == "0.5"
