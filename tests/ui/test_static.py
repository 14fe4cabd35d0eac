"""Headless runs: a panel's outputs become the cell's own, and its headline is read back."""

from __future__ import annotations

import nbformat

from privlab.studies import Headline
from privlab.ui.static import WIDGET_STATE, WIDGET_VIEW, inline_widget_outputs, plain_texts


def _notebook(state: dict, views: list[str]):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("panel.show()")
    cell.outputs = [nbformat.v4.new_output("display_data", data={
        WIDGET_VIEW: {"model_id": v, "version_major": 2, "version_minor": 0},
        "text/plain": "VBox(...)"}) for v in views]
    nb.cells = [nbformat.v4.new_markdown_cell("# title"), cell]
    nb.metadata["widgets"] = {WIDGET_STATE: {"state": state, "version_major": 2,
                                             "version_minor": 0}}
    return nb


def test_outputs_of_nested_output_widgets_follow_the_widget_in_order():
    headline = Headline("00 quickstart", "resolution 0.217", "diagnostic", ("12 texts",))
    png = {"output_type": "display_data", "metadata": {},
           "data": {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}}
    head = {"output_type": "display_data", "metadata": {},
            "data": {"text/html": "<div class='privlab-headline'>…</div>",
                     "text/plain": headline.lines()}}
    state = {
        "panel": {"model_name": "VBoxModel",
                  "state": {"children": ["IPY_MODEL_controls", "IPY_MODEL_out"]}},
        "controls": {"model_name": "DropdownModel", "state": {"index": 0}},
        "out": {"model_name": "OutputModel", "state": {"outputs": [head, png]}},
    }
    nb = _notebook(state, ["panel"])
    assert inline_widget_outputs(nb) == 2
    outputs = nb.cells[1].outputs
    assert [sorted(o["data"]) for o in outputs] == [
        [WIDGET_VIEW, "text/plain"], ["text/html", "text/plain"], ["image/png", "text/plain"]]
    # Moved, not copied: a report shows them once.
    kept = nb.metadata["widgets"][WIDGET_STATE]["state"]
    assert kept["out"]["state"]["outputs"] == []
    assert Headline.parse(plain_texts(nb)) == [headline]
    # A second pass finds nothing left to move.
    assert inline_widget_outputs(nb) == 0


def test_a_notebook_without_widgets_is_left_alone():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("print(1)")
    cell.outputs = [nbformat.v4.new_output("stream", text="1\n")]
    nb.cells = [cell]
    assert inline_widget_outputs(nb) == 0 and nb.cells[0].outputs[0]["text"] == "1\n"
    assert plain_texts(nb) == "1\n"


def test_a_widget_shown_twice_gives_its_outputs_once():
    out = {"output_type": "stream", "name": "stdout", "text": "once\n"}
    state = {"out": {"model_name": "OutputModel", "state": {"outputs": [out]}}}
    nb = _notebook(state, ["out", "out"])
    assert inline_widget_outputs(nb) == 1
    assert plain_texts(nb).count("once") == 1
