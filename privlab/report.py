"""The face every "bring your own" result shows: a headline, a table, witnesses, a report.

A result of ``privlab.audit``, ``privlab.epsilon.audit``, ``privlab.spia.score`` or
``privlab.redacbench.score`` derives from :class:`ResultFace` and fills a few hooks;
the face is then the same everywhere::

    print(result.headline())      # one plain line: number, control, excess, status, caveats
    result.to_frame()             # one row per member (pandas)
    print(result.face_text())     # headline, how to read it, the table, the witnesses
    result                        # a notebook shows the HTML face (_repr_html_)
    result.report("audit.html")   # standalone HTML (or .md) plus audit.json beside it

The hooks a result fills are listed on :class:`ResultFace`.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import io
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from privlab.errors import invalid, wrong_type
from privlab.status import Status

#: Report formats by file suffix.
REPORT_SUFFIXES = (".html", ".htm", ".md")


def _number(value: float | None, digits: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.{digits}f}"


@dataclass(frozen=True)
class Finding:
    """A result's headline as data.

    Attributes:
        measure: what the number is, e.g. ``"resolution"``.
        value: the number (None when it could not be computed).
        status: the kind of claim (:class:`~privlab.status.Status` or its value).
        rests_on: the data and model the number rests on, one phrase each.
        subject: whose number it is, e.g. ``"sanitizer 'redact' under minilm"``.
        control: the control's name (``"placebo"``, ``"unredacted"``, ``"null"``), or "".
        control_value: the control's number (None without a control).
        caveats: what should make a reader doubt the number, one phrase each.
        ruler: how to read the number, e.g. ``"0 = says nothing, 1 = always identifies"``.
        status_note: what the status means here, e.g. ``"model-relative"``.
        digits: decimals printed.

    Example:
        >>> f = Finding("resolution", 0.30, "diagnostic", ("12 texts",), control="placebo",
        ...             control_value=0.05)
        >>> round(f.excess, 2), f.line()
        (0.25, 'resolution 0.300 (placebo 0.050, excess +0.250) — diagnostic; rests on 12 texts')
    """

    measure: str
    value: float | None
    status: Status
    rests_on: tuple[str, ...] = ()
    subject: str = ""
    control: str = ""
    control_value: float | None = None
    caveats: tuple[str, ...] = ()
    ruler: str = ""
    status_note: str = ""
    digits: int = 3

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "status", Status(self.status))
        except ValueError:
            raise invalid("status", "Finding", "a privlab.status.Status", self.status) from None
        for name in ("rests_on", "caveats"):
            value = getattr(self, name)
            items = (value,) if isinstance(value, str) else tuple(value)
            if any(not isinstance(v, str) or "\n" in v for v in items):
                raise invalid(name, "Finding", "single-line strings", value)
            object.__setattr__(self, name, tuple(v for v in items if v.strip()))

    @property
    def excess(self) -> float | None:
        """The value minus the control's (None without both)."""
        if self.value is None or self.control_value is None:
            return None
        return float(self.value) - float(self.control_value)

    def line(self) -> str:
        """The headline: one plain line (see the class example)."""
        text = f"{self.subject}: " if self.subject else ""
        text += f"{self.measure} {_number(self.value, self.digits)}"
        if self.control:
            excess = self.excess
            more = "" if excess is None else f", excess {excess:+.{self.digits}f}"
            text += f" ({self.control} {_number(self.control_value, self.digits)}{more})"
        text += f" — {self.status.value}"
        if self.status_note:
            text += f" ({self.status_note})"
        if self.rests_on:
            text += "; rests on " + ", ".join(self.rests_on)
        text += "".join(f"; caveat: {c}" for c in self.caveats)
        return text


@dataclass(frozen=True)
class Witness:
    """Items that show what a number means: ``(caption, item)`` pairs, an item a text or
    an image (PIL image or uint8 array), and a sentence saying what they witness.

    Example:
        >>> Witness("closest wrong original", (("sanitized", "[NAME] won"),)).texts()
        ['sanitized: [NAME] won']
    """

    label: str
    items: tuple[tuple[str, Any], ...]
    note: str = ""

    def __post_init__(self) -> None:
        items = tuple(self.items)
        if any(not isinstance(p, tuple) or len(p) != 2 or not isinstance(p[0], str)
               for p in items):
            raise invalid("items", "Witness", "(caption, item) pairs", self.items)
        object.__setattr__(self, "items", items)

    def texts(self) -> list[str]:
        """Each item as ``caption: text`` (an image as its size)."""
        return [f"{caption}: {_item_text(item)}" for caption, item in self.items]


def _item_text(item: Any) -> str:
    if isinstance(item, str):
        return item
    size = getattr(item, "size", None)
    shape = getattr(item, "shape", None)
    if shape is not None:
        return f"<image {shape[1]}x{shape[0]}>"
    if isinstance(size, tuple):
        return f"<image {size[0]}x{size[1]}>"
    return repr(item)


def image_png(item: Any) -> bytes | None:
    """A PIL image or an ``(H, W[, C])`` array as PNG bytes (None for anything else).

    Example:
        >>> import numpy as np
        >>> image_png(np.zeros((2, 3, 3), np.uint8))[:4], image_png("text")
        (b'\\x89PNG', None)
    """
    if isinstance(item, str):
        return None
    if hasattr(item, "shape") and len(getattr(item, "shape")) in (2, 3):
        import numpy as np
        from PIL import Image

        array = np.asarray(item)
        if array.dtype != np.uint8:
            array = np.clip(array * (255 if array.max() <= 1 else 1), 0, 255).astype(np.uint8)
        item = Image.fromarray(array)
    if hasattr(item, "save") and hasattr(item, "mode"):
        buffer = io.BytesIO()
        item.convert("RGB" if item.mode not in ("RGB", "L") else item.mode).save(buffer, "PNG")
        return buffer.getvalue()
    return None


def jsonable(value: Any) -> Any:
    """``value`` with every part JSON can write: NaN as None, NumPy scalars as numbers,
    anything else as its ``str``.

    Example:
        >>> jsonable({"a": (1, float("nan"))})
        {'a': [1, None]}
    """
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    if isinstance(value, float):
        return None if math.isnan(value) else value
    if hasattr(value, "item") and getattr(value, "shape", None) == ():
        return jsonable(value.item())
    if isinstance(value, Status):
        return value.value
    return str(value)


class ResultFace:
    """Mixin: ``headline``, ``to_frame``, ``show``, ``_repr_html_`` and ``report`` from hooks.

    Hooks (public, prefixed ``face_`` so they never clash with a field): ``face_finding()``
    (required: the headline as a :class:`Finding`), ``face_rows()`` (required: the rows
    of :meth:`to_frame`, one per member, keyed by the user's names), ``face_witnesses()``
    (texts or images, PIL or ``(H, W[, C])`` uint8, embedded whole), ``face_formula()``
    (the definition as MathML, rendered offline), ``face_figures()`` (``(caption, PNG
    bytes)`` pairs), ``face_record()`` (the JSON record; default: finding, rows and
    ``provenance``) and the class attribute ``face_title``.

    Example:
        >>> class Demo(ResultFace):
        ...     face_title = "Demo"
        ...     def face_finding(self):
        ...         return Finding("score", 0.5, "descriptive", ("3 items",),
        ...                        control="null", control_value=0.1)
        ...     def face_rows(self):
        ...         return [{"member": "a", "score": 0.5}]
        >>> Demo().headline()
        'score 0.500 (null 0.100, excess +0.400) — descriptive; rests on 3 items'
        >>> Demo().to_frame().shape
        (1, 2)
    """

    face_title = "privlab result"

    # ------------------------------------------------------------------ hooks
    def face_finding(self) -> Finding:
        """The headline as data (required)."""
        raise NotImplementedError(f"{type(self).__qualname__} must define face_finding()")

    def face_rows(self) -> list[dict]:
        """The rows of :meth:`to_frame` (required)."""
        raise NotImplementedError(f"{type(self).__qualname__} must define face_rows()")

    def face_witnesses(self) -> list[Witness]:
        """Witness items (none by default)."""
        return []

    def face_formula(self) -> str:
        """The quantity's definition as MathML (none by default)."""
        return ""

    def face_figures(self) -> list[tuple[str, bytes]]:
        """``(caption, PNG bytes)`` figures for the HTML report (none by default)."""
        return []

    def face_record(self) -> dict:
        """The JSON record written beside a report."""
        finding = self.face_finding()
        record = {"title": self.face_title, "headline": finding.line(),
                  "finding": {**dataclasses.asdict(finding), "excess": finding.excess},
                  "rows": self.face_rows(),
                  "witnesses": [{"label": w.label, "note": w.note, "items": w.texts()}
                                for w in self.face_witnesses()],
                  "provenance": getattr(self, "provenance", {})}
        return jsonable(record)

    # ------------------------------------------------------------------ the face
    def headline(self) -> str:
        """One plain line: the number, its control and the excess, the status, what it
        rests on and every caveat."""
        return self.face_finding().line()

    def to_frame(self) -> Any:
        """The rows as a pandas DataFrame."""
        import pandas as pd

        return pd.DataFrame(self.face_rows())

    def face_text(self) -> str:
        """The plain-text face: headline, how to read it, the table, the witnesses."""
        finding = self.face_finding()
        out = [finding.line()]
        if finding.ruler:
            out.append(f"  how to read it: {finding.ruler}")
        out.append(self.to_frame().to_string(index=False))
        for witness in self.face_witnesses():
            out.append(f"witness — {witness.label}" + (f" ({witness.note})" if witness.note
                                                       else ""))
            out += [f"    {line}" for line in witness.texts()]
        return "\n".join(out)

    def show(self) -> None:
        """Show the face: as HTML in a notebook, as text elsewhere.

        In a running notebook ``IPython.display`` is already loaded; it is looked up, not
        imported, so this base module keeps no dependency on IPython (only ``privlab.ui``
        imports it).
        """
        display = getattr(sys.modules.get("IPython.display"), "display", None)
        shell = getattr(sys.modules.get("IPython"), "get_ipython", lambda: None)()
        if display is not None and shell is not None and hasattr(shell, "kernel"):
            display(self)
        else:
            print(self.face_text())

    def _repr_html_(self) -> str:
        return self._html_body(embed=False)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.headline()}>"

    # ------------------------------------------------------------------ report
    def report(self, path: str | Path) -> Path:
        """Write a standalone report (``.html`` or ``.md``) and a JSON record beside it.

        The HTML embeds the witness images, the tables, the figures and the formula
        (MathML, which browsers render offline); nothing is fetched to view it.

        Returns:
            The report's path; the record is the same path with ``.json``.
        """
        if not isinstance(path, (str, Path)):
            raise wrong_type("path", "report", "a file path ending in .html or .md", path)
        path = Path(path)
        if path.suffix.lower() not in REPORT_SUFFIXES:
            raise invalid("path", "report", "a file name ending in " + ", ".join(
                REPORT_SUFFIXES), str(path), "Name the report e.g. 'audit.html'.")
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix.lower() == ".md":
            body = self._markdown()
        else:
            body = ("<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
                    f"<title>{html.escape(self.face_title)}</title><style>{_CSS}</style>"
                    f"</head><body>{self._html_body(embed=True)}</body></html>\n")
        path.write_text(body, encoding="utf-8")
        path.with_suffix(".json").write_text(
            json.dumps(self.face_record(), indent=2, ensure_ascii=False) + "\n",
            encoding="utf-8")
        return path

    def _html_body(self, embed: bool) -> str:
        finding = self.face_finding()
        parts = [f"<h2>{html.escape(self.face_title)}</h2>",
                 f"<p class='headline'><b>{html.escape(finding.line())}</b></p>",
                 f"<p><i>status</i>: {html.escape(finding.status.value)} — "
                 f"{html.escape(finding.status.description)}</p>"]
        if finding.caveats:
            parts.append("<ul class='caveats'>" + "".join(
                f"<li>⚠ {html.escape(c)}</li>" for c in finding.caveats) + "</ul>")
        if finding.ruler:
            parts.append(f"<p><i>how to read it</i>: {html.escape(finding.ruler)}</p>")
        formula = self.face_formula()
        if formula:
            parts.append(f"<div class='formula'>{formula}</div>")
        parts.append(self.to_frame().to_html(index=False, float_format=lambda v: f"{v:.3f}"))
        for caption, png in self.face_figures() if embed else ():
            parts.append(f"<figure><img alt='{html.escape(caption)}' src='data:image/png;"
                         f"base64,{base64.b64encode(png).decode()}'><figcaption>"
                         f"{html.escape(caption)}</figcaption></figure>")
        for witness in self.face_witnesses():
            parts.append(_witness_html(witness))
        return "<div class='privlab-result'>" + "".join(parts) + "</div>"

    def _markdown(self) -> str:
        finding = self.face_finding()
        out = [f"# {self.face_title}", "", f"**{finding.line()}**", "",
               f"*status*: {finding.status.value} — {finding.status.description}", ""]
        out += [f"- caveat: {c}" for c in finding.caveats]
        if finding.ruler:
            out += ["", f"*how to read it*: {finding.ruler}"]
        out += ["", _markdown_table(self.face_rows()), ""]
        for witness in self.face_witnesses():
            out += [f"## Witness: {witness.label}", ""] + ([witness.note, ""] if witness.note
                                                          else [])
            for caption, item in witness.items:
                png = image_png(item)
                if png is None:
                    out.append(f"- *{caption}*: {_item_text(item)}")
                else:
                    out.append(f"- *{caption}*: ![{caption}](data:image/png;base64,"
                               f"{base64.b64encode(png).decode()})")
            out.append("")
        return "\n".join(out)


def _witness_html(witness: Witness) -> str:
    cells = []
    for caption, item in witness.items:
        png = image_png(item)
        body = (html.escape(_item_text(item)) if png is None else
                f"<img alt='{html.escape(caption)}' "
                f"src='data:image/png;base64,{base64.b64encode(png).decode()}'>")
        cells.append(f"<td><div class='caption'>{html.escape(caption)}</div>{body}</td>")
    note = f"<p>{html.escape(witness.note)}</p>" if witness.note else ""
    return (f"<h3>Witness: {html.escape(witness.label)}</h3>{note}"
            f"<table class='witness'><tr>{''.join(cells)}</tr></table>")


def _markdown_table(rows: Sequence[dict]) -> str:
    if not rows:
        return "(no rows)"
    columns = list(dict.fromkeys(k for row in rows for k in row))

    def cell(value: Any) -> str:
        text = f"{value:.3f}" if isinstance(value, float) else str(value)
        return text.replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(row.get(c, "")) for c in columns) + " |" for row in rows]
    return "\n".join(lines)


_CSS = ("body{font-family:sans-serif;max-width:60em;margin:2em auto;line-height:1.45}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;"
        "vertical-align:top}.caveats{color:#8a4b00}.witness img{max-width:18em}"
        ".caption{font-size:.8em;color:#555}.formula{font-size:1.2em;margin:1em 0}")

__all__ = ["Finding", "REPORT_SUFFIXES", "ResultFace", "Witness", "image_png", "jsonable"]
