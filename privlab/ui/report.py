"""One rendering of a study result: headings, tables, figures, witnesses and the headline.

A :class:`Report` collects what a study shows, in order, as notebook outputs (mime
bundles). A :class:`~privlab.ui.panel.StudyPanel` puts them into its one output area at
once, so a new result replaces the old one whole (tables, plots, witnesses and headline
together); displayed on its own, a report shows the same outputs in the cell::

    report = Report()
    report.heading("Scores per strategy")
    report.table(result.to_frame())
    report.figure(fig)
"""

from __future__ import annotations

import base64
import html
import warnings
from typing import Any, Iterable, Mapping

from privlab.errors import invalid
from privlab.ui.tables import Table, headline_html, key_values, present, witness_html


#: The width, in pixels, at which a notebook's output area shows a figure without
#: shrinking it: figures are drawn at this width or narrower, so their text is read at
#: the size it was set.
DISPLAY_WIDTH_PX = 980


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height in pixels of a PNG, from its header.

    Example:
        >>> import base64
        >>> png_size(base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAC0lEQVR4nGNgwAIA"
        ...                           "ABUAAapll8QAAAAASUVORK5CYII="))
        (2, 3)
    """
    import struct

    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise invalid("png", "png_size", "the bytes of a PNG image", png[:8])
    return struct.unpack(">II", png[16:24])


def _bundle(data: Mapping[str, Any], metadata: Mapping[str, Any] | None = None) -> dict:
    return {"output_type": "display_data", "data": dict(data), "metadata": dict(metadata or {})}


class Report:
    """An ordered list of notebook outputs that render one result.

    Example:
        >>> import pandas as pd
        >>> r = Report()
        >>> r.heading("Scores")
        >>> r.table(pd.DataFrame({"resolution": [0.25]}))
        >>> [sorted(o["data"]) for o in r.outputs()]
        [['text/html', 'text/plain'], ['text/html', 'text/plain']]
    """

    def __init__(self) -> None:
        self._outputs: list[dict] = []
        #: The part each output belongs to ("" before the first :meth:`part`).
        self._owners: list[str] = []
        self._part = ""

    def _add(self, bundle: dict) -> None:
        self._outputs.append(bundle)
        self._owners.append(self._part)

    # ------------------------------------------------------------------ building blocks
    def html(self, markup: str, plain: str = "") -> None:
        """Raw HTML (with a plain-text fallback)."""
        self._add(_bundle({"text/html": markup, "text/plain": plain or " "}))

    def heading(self, text: str, level: int = 3) -> None:
        """A section heading inside the output area."""
        self.html(f"<h{level} style='margin:1.1em 0 .3em'>{html.escape(text)}</h{level}>", text)

    def text(self, text: str, *, markup: bool = False) -> None:
        """A short paragraph (escaped unless ``markup``)."""
        body = text if markup else html.escape(text)
        self.html(f"<p style='margin:.3em 0;max-width:60em;line-height:1.45'>{body}</p>", text)

    def markdown(self, text: str) -> None:
        """A paragraph written in Markdown (rendered by the notebook)."""
        self._add(_bundle({"text/markdown": text, "text/plain": text}))

    def table(self, frame: Any, **options: Any) -> None:
        """A DataFrame or Series through :func:`privlab.ui.tables.present` (or a ready Table)."""
        table = frame if isinstance(frame, Table) else present(frame, **options)
        self.html(table.to_html(), repr(table))

    def settings(self, values: Mapping[str, Any], caption: str = "Settings of this run") -> None:
        """The choices a run was made with, folded."""
        table = key_values(values)
        self.html(f"<details><summary style='cursor:pointer'>{html.escape(caption)}</summary>"
                  f"{table.to_html()}</details>", repr(table))

    def details(self, summary: str, markup: str) -> None:
        """A closed ``<details>`` block with ``markup`` inside."""
        self.html(f"<details><summary style='cursor:pointer'>{html.escape(summary)}</summary>"
                  f"{markup}</details>", summary)

    def witness(self, sanitized_x: str, original_y: str, sanitized_y: str, **options: Any) -> None:
        """A decisive witness (see :func:`privlab.ui.tables.witness_html`)."""
        self.html(witness_html(sanitized_x, original_y, sanitized_y, **options),
                  f"{sanitized_x}\n{original_y}\n{sanitized_y}")

    def headline(self, headline: Any) -> None:
        """The study's headline, styled; its plain text is the form ``make demo`` reads."""
        self.html(headline_html(headline), headline.lines())

    def problem(self, problem: Any) -> None:
        """A :class:`privlab.ui.problems.Problem` as its styled message."""
        self.html(problem.html(), problem.lines())

    def figure(self, figure: Any = None, *, close: bool = True) -> None:
        """A matplotlib figure (or the Axes of one; default: the current figure) as a PNG.

        A figure wider than :data:`DISPLAY_WIDTH_PX` (with everything around its axes) is
        drawn again at that width, its text at the same size, instead of being shown
        shrunk. The figure is closed afterwards so the notebook does not draw it a
        second time.
        """
        import matplotlib.pyplot as plt
        from IPython.core.pylabtools import print_figure

        if figure is None:
            figure = plt.gcf()
        figure = getattr(figure, "figure", figure)  # an Axes -> its Figure
        if hasattr(figure, "flat") and len(figure.flat):  # an array of Axes
            figure = figure.flat[0].figure
        png = print_figure(figure, "png", bbox_inches="tight")
        for _ in range(3):  # redrawn narrower until it fits (the tight box moves a little)
            width = png_size(png)[0]
            if width <= DISPLAY_WIDTH_PX:
                break
            scale = DISPLAY_WIDTH_PX / width * 0.97
            inches = figure.get_size_inches()
            figure.set_size_inches(inches[0] * scale, inches[1] * max(scale, 0.8))
            if figure.get_layout_engine() is None:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    figure.tight_layout()
            png = print_figure(figure, "png", bbox_inches="tight")
        title = figure.get_suptitle() if hasattr(figure, "get_suptitle") else ""
        self._add(_bundle({"image/png": base64.b64encode(png).decode("ascii"),
                                      "text/plain": f"<Figure {title}>".replace(" >", ">")}))
        if close:
            plt.close(figure)

    def extend(self, outputs: Iterable[dict]) -> None:
        """Append outputs made elsewhere (e.g. another report's)."""
        for output in outputs:
            self._add(output)

    def part(self, name: str) -> None:
        """Start part ``name``: what is added next, until the next part, belongs to it.

        A notebook can show a part in its own cell, beside its reading guide (see
        :meth:`privlab.ui.panel.StudyPanel.part`).
        """
        self._part = name

    def parts(self) -> list[str]:
        """The names of the parts, in order."""
        return list(dict.fromkeys(n for n in self._owners if n))

    def split(self, moved: Iterable[str]) -> tuple[tuple[dict, ...], dict[str, tuple[dict, ...]]]:
        """The outputs left in place and the outputs of each part in ``moved``.

        Where a moved part began, a line says it is shown below, beside its reading guide.

        Example:
            >>> r = Report()
            >>> r.text("kept")
            >>> r.part("figure")
            >>> r.text("moved")
            >>> kept, parts = r.split(["figure"])
            >>> [o["data"]["text/plain"] for o in kept], len(parts["figure"])
            (['kept', 'figure: shown below, beside its reading guide.'], 1)
        """
        moved = set(moved)
        kept: list[dict] = []
        parts: dict[str, list[dict]] = {}
        for output, owner in zip(self._outputs, self._owners):
            if owner not in moved:
                kept.append(output)
                continue
            if owner not in parts:
                note = f"{owner}: shown below, beside its reading guide."
                kept.append(_bundle({"text/html": f"<p class='privlab-moved' style='margin:.3em 0;"
                                                  f"color:#555'>&#8595; {html.escape(note)}</p>",
                                     "text/plain": note}))
            parts.setdefault(owner, []).append(output)
        return tuple(kept), {name: tuple(o) for name, o in parts.items()}

    # ------------------------------------------------------------------ reading it back
    def previous(self, outputs: Iterable[Mapping[str, Any]], choices: Mapping[str, Any]) -> None:
        """The last good result's outputs, dimmed, under a line saying they are kept.

        Shown under a failed run's message so that an unavailable choice costs nothing
        already computed: HTML and figures are dimmed, plain text is kept as it was.
        """
        made = ", ".join(f"{k}={v}" for k, v in choices.items())
        self.html("<div class='privlab-previous-note' style='margin:.8em 0 .2em;color:#555'>"
                  "<b>The previous result, kept below (dimmed) until a run succeeds</b>; it was "
                  f"made with: {html.escape(made)}</div>", "The previous result, kept below.")
        for output in outputs:
            data = dict(output.get("data", {}))
            if "image/png" in data:
                png = data.pop("image/png")
                data["text/html"] = (f"<img class='privlab-previous' style='opacity:.45' "
                                     f"src='data:image/png;base64,{png}'>")
            elif "text/html" in data:
                data["text/html"] = (f"<div class='privlab-previous' style='opacity:.45'>"
                                     f"{data['text/html']}</div>")
            data.setdefault("text/plain", " ")
            self._add(_bundle(data, output.get("metadata")))

    def outputs(self) -> tuple[dict, ...]:
        """The outputs, in order, as nbformat ``display_data`` dicts."""
        return tuple(self._outputs)

    def text_plain(self) -> str:
        """Every output's plain-text form, one per line (what a terminal would show)."""
        return "\n".join(o["data"].get("text/plain", "") for o in self._outputs)

    def __len__(self) -> int:
        return len(self._outputs)

    def _ipython_display_(self) -> None:
        from IPython.display import publish_display_data

        for output in self._outputs:
            publish_display_data(output["data"], output["metadata"])


__all__ = ["DISPLAY_WIDTH_PX", "Report", "png_size"]
