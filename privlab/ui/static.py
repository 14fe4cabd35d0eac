"""Executed notebooks without a browser: the panels' outputs as ordinary cell outputs.

A :class:`~privlab.ui.panel.StudyPanel` draws its result into an output widget. Run
headless (``make demo``, the notebook tests), the executed notebook keeps those outputs
in its widget state, where neither a static HTML report nor a reader of cell outputs
looks. :func:`inline_widget_outputs` moves them into the cell that displays the widget,
right after it, so the report shows the tables and figures and the headline is read
from the cell's outputs like any other. :func:`write_html` writes the HTML copy with its
math typeset by a local MathJax copied beside it (no CDN: it renders with the network off).
"""

from __future__ import annotations

import shutil
from pathlib import Path
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


#: Where the HTML copies find MathJax 2, relative to their folder.
MATHJAX_FOLDER = "mathjax"
#: The MathJax configuration file the copy ships (the wheel holds this one and Safe).
MATHJAX_CONFIG = "TeX-AMS-MML_HTMLorMML-full,Safe"
# The fonts the wheel ships (STIX-Web), no image fonts; set before MathJax loads.
_MATHJAX_OPTIONS = ('<script>window.MathJax = {"HTML-CSS": {availableFonts: [], '
                    'preferredFont: null, webFont: "STIX-Web", imageFont: null}, '
                    'SVG: {font: "STIX-Web"}, showMathMenu: false};</script>')


def copy_mathjax(folder: str | Path) -> str:
    """Copy MathJax 2 (from the ``jupyter-server-mathjax`` wheel) into ``folder/mathjax``.

    Copied once per folder; an HTML page in ``folder`` loads it by the returned relative
    URL, so the folder can be moved or opened offline as a whole.

    Args:
        folder: the folder that holds (or will hold) the HTML copies.

    Returns:
        The relative URL of ``MathJax.js`` with its configuration, for ``mathjax_url``.

    Raises:
        MissingDependencyError: the wheel is not installed (the message says how).

    Example:
        >>> import tempfile
        >>> folder = Path(tempfile.mkdtemp())
        >>> copy_mathjax(folder), (folder / "mathjax" / "MathJax.js").is_file()
        ('mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe', True)
    """
    from privlab.errors import require

    wheel = require("jupyter_server_mathjax", "jupyter-server-mathjax==0.2.6",
                    "Typesetting math in the HTML copies without the network")
    target = Path(folder) / MATHJAX_FOLDER
    if not (target / "MathJax.js").is_file():
        shutil.copytree(Path(wheel.__file__).parent / "static", target, dirs_exist_ok=True)
    return f"{MATHJAX_FOLDER}/MathJax.js?config={MATHJAX_CONFIG}"


def write_html(nb: Any, path: str | Path) -> Path:
    """Write ``nb`` as HTML at ``path``, its math typeset by a MathJax copied beside it.

    Nothing is loaded from the network: no widget renderer (the panels' outputs are
    already cell outputs, see :func:`inline_widget_outputs`) and no require.js.

    Args:
        nb: a notebook (``nbformat.NotebookNode``), usually executed.
        path: the ``.html`` file to write; MathJax goes to ``mathjax/`` in its folder.

    Returns:
        ``path``.
    """
    import copy

    from nbconvert import HTMLExporter

    path = Path(path)
    url = copy_mathjax(path.parent)
    # The panels' outputs are already the cells' own (inline_widget_outputs): the widget
    # state would only ask a CDN for a renderer (and require.js) that a copy cannot use.
    nb = copy.deepcopy(nb)
    nb.get("metadata", {}).pop("widgets", None)
    body, _ = HTMLExporter(mathjax_url=url, require_js_url="").from_notebook_node(nb)
    body = body.replace('<script src=""></script>', "", 1)
    tag = f'<script src="{url}">'
    body = body.replace(tag, _MATHJAX_OPTIONS + "\n" + tag, 1)
    path.write_text(body, encoding="utf-8")
    return path


__all__ = ["MATHJAX_CONFIG", "copy_mathjax", "inline_widget_outputs", "plain_texts",
           "write_html"]
