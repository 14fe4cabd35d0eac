"""Executed notebooks without a browser: the panels' outputs as ordinary cell outputs.

A :class:`~privlab.ui.panel.StudyPanel` draws its result into an output widget. Run
headless (``make demo``, the notebook tests), the executed notebook keeps those outputs
in its widget state, where neither a static HTML report nor a reader of cell outputs
looks. :func:`inline_widget_outputs` moves them into the cell that displays the widget,
right after it, so the report shows the tables and figures and the headline is read
from the cell's outputs like any other.
"""

from __future__ import annotations

from typing import Any

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _state(nb: Any) -> dict:
    widgets = nb.get("metadata", {}).get("widgets", {})
    return widgets.get(WIDGET_STATE, {}).get("state", {}) or {}


def _outputs_under(model_id: str, state: dict, seen: set[str]) -> list[dict]:
    """The outputs of every output widget inside ``model_id``, in display order; they are
    taken out of the widget state (so a report does not show them twice)."""
    if model_id in seen or model_id not in state:
        return []
    seen.add(model_id)
    model = state[model_id]
    inner = model.get("state", {})
    found: list[dict] = []
    if model.get("model_name") == "OutputModel":
        found += list(inner.get("outputs", []))
        inner["outputs"] = []
    for child in inner.get("children", []) or []:
        if isinstance(child, str) and child.startswith("IPY_MODEL_"):
            found += _outputs_under(child[len("IPY_MODEL_"):], state, seen)
    return found


def inline_widget_outputs(nb: Any) -> int:
    """Copy the outputs that output widgets hold into the cells displaying those widgets.

    Args:
        nb: an executed notebook (``nbformat.NotebookNode``) whose metadata holds the
            widget state (nbclient stores it by default).

    Returns:
        How many outputs were moved into cells.

    Example:
        >>> import nbformat
        >>> nb = nbformat.v4.new_notebook()
        >>> view = {"model_id": "box", "version_major": 2, "version_minor": 0}
        >>> nb.cells = [nbformat.v4.new_code_cell("panel")]
        >>> nb.cells[0].outputs = [nbformat.v4.new_output("display_data",
        ...                                               data={WIDGET_VIEW: view})]
        >>> out = {"output_type": "stream", "name": "stdout", "text": "hi"}
        >>> nb.metadata["widgets"] = {WIDGET_STATE: {"state": {
        ...     "box": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_o"]}},
        ...     "o": {"model_name": "OutputModel", "state": {"outputs": [out]}}}}}
        >>> inline_widget_outputs(nb), nb.cells[0].outputs[1]["text"]
        (1, 'hi')
    """
    import nbformat

    state = _state(nb)
    if not state:
        return 0
    moved = 0
    seen: set[str] = set()
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        outputs = []
        for output in cell.get("outputs", []):
            outputs.append(output)
            view = output.get("data", {}).get(WIDGET_VIEW)
            if isinstance(view, dict) and view.get("model_id"):
                found = _outputs_under(view["model_id"], state, seen)
                outputs += [nbformat.from_dict(o) for o in found]
                moved += len(found)
        cell["outputs"] = outputs
    return moved


def plain_texts(nb: Any) -> str:
    """Every stream text and every rich output's plain-text form, in order (one per line).

    Example:
        >>> import nbformat
        >>> nb = nbformat.v4.new_notebook()
        >>> nb.cells = [nbformat.v4.new_code_cell("x")]
        >>> nb.cells[0].outputs = [nbformat.v4.new_output("stream", text="a\\n"),
        ...     nbformat.v4.new_output("display_data", data={"text/plain": "b"})]
        >>> plain_texts(nb)
        'a\\nb\\n'
    """
    parts: list[str] = []
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                parts.append(output.get("text", ""))
            elif output.get("output_type") in ("display_data", "execute_result"):
                plain = output.get("data", {}).get("text/plain")
                if plain:
                    text = plain if isinstance(plain, str) else "".join(plain)
                    parts.append(text if text.endswith("\n") else text + "\n")
    return "".join(parts)


__all__ = ["inline_widget_outputs", "plain_texts"]
