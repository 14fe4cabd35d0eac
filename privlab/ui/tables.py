"""Tables, witnesses and headlines for people: readable headers, three decimals, no reprs.

:func:`present` turns a study's DataFrame into a styled table a class can read from the
back row: short headers (``name_matches`` → "name matches", encoder fingerprints such as
``describe[ocr+faces]-minilm-ge3b0c442-m0.363-f0.8`` → "describe-then-embed"), three
decimals, "—" and "+∞" with a legend under the table instead of NaN and inf, long texts
wrapped between words while numbers never wrap, a table wider than :data:`WIDE` columns
scrolling in its own box with its first column fixed, and a table longer than
:data:`FOLD` rows folded after a screenful with a count of what is hidden.
:func:`witness_html` shows a decisive witness as three wrapped texts with the retained
phrases highlighted, and :func:`headline_html` the headline once, with its status and
what it rests on.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

from privlab.errors import invalid

#: Columns wider than this get a sticky first column and a horizontal scroll bar.
WIDE = 8
_DASH, _INF, _NINF = "—", "+∞", "−∞"


@lru_cache(maxsize=1)
def _fingerprints() -> dict[str, str]:
    """Encoder ``name`` (fingerprint) -> registry name, for the members built cheaply."""
    from privlab.encoders import registry

    out = {}
    for entry in registry.entries():
        if entry.meta.get("deprecated"):  # an old name: the current one is shown
            continue
        name = entry.name
        try:
            out[registry.create(name).name] = name
        except Exception:  # a member that needs a package, a path or a download
            continue
    return out


def display_name(value: Any) -> Any:
    """The registry name a person knows for an encoder fingerprint; other values unchanged.

    Example:
        >>> display_name("all-MiniLM-L6-v2"), display_name("lexical-2048")
        ('minilm', 'lexical')
        >>> display_name("describe[ocr+faces+labels]-minilm-g3e26b6d4-m0.363-f0.8-l0.5")
        'describe-then-embed (ocr+faces+labels)'
        >>> display_name("describe[ocr]-minilm"), display_name("sface-t0.8-m24-b0.2-d1")
        ('ocr-text', 'sface')
        >>> display_name("presidio")
        'presidio'
    """
    if not isinstance(value, str):
        return value
    if " | " in value:
        return " | ".join(str(display_name(part)) for part in value.split(" | "))
    known = _fingerprints().get(value)
    if known:
        return known
    found = re.match(r"^describe\[([^\]]+)\]", value)
    if found:
        parts = found.group(1)
        if parts == "ocr":
            return "ocr-text"
        return "describe-then-embed" + ("" if parts == "ocr+faces" else f" ({parts})")
    for pattern, name in ((r"^sface-t", "sface"), (r"^dlib-face-t", "dlib-face"),
                          (r"^lexical-\d+$", "lexical"),
                          (r"^efficientnet-lite0", "efficientnet-lite0")):
        if re.match(pattern, value):
            return name
    found = re.match(r"^adapter:([^:]+):", value)
    if found:
        return f"adapter on {display_name(found.group(1))}"
    found = re.match(r"^open_clip:([^:]+):(.+)$", value)
    if found:
        for fingerprint, name in _fingerprints().items():
            if fingerprint == value:
                return name
        return f"open_clip {found.group(1)}"
    return value


def header(label: Any) -> str:
    """A readable column header: snake_case to words, fingerprints to registry names.

    Example:
        >>> header("name_matches"), header("mean utility"), header(("weak", "all-MiniLM-L6-v2"))
        ('name matches', 'mean utility', 'weak | minilm')
    """
    if isinstance(label, tuple):
        return " | ".join(header(part) for part in label)
    text = str(display_name(str(label)))
    if "_" in text and " " not in text and not re.search(r"[\[\]:/]", text):
        text = text.replace("_", " ")
    return text


def number(value: Any, decimals: int = 3, *, percent: bool = False) -> str:
    """One cell as text: rounded floats, "—" for a missing value, "+∞" / "−∞" for infinities.

    Example:
        >>> number(0.1234567), number(float("nan")), number(float("inf")), number(7)
        ('0.123', '—', '+∞', '7')
        >>> number(0.0123, percent=True), number(None), number(True), number((3, 4))
        ('1.2%', '—', 'yes', '3, 4')
    """
    import pandas as pd

    if value is None or value is pd.NA or value is pd.NaT:
        return _DASH
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (tuple, list)):
        return ", ".join(number(v, decimals) for v in value)
    try:
        import numpy as np

        if isinstance(value, np.generic):
            value = value.item()
    except ImportError:  # pragma: no cover - numpy is a dependency
        pass
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return _DASH
        if math.isinf(value):
            return _INF if value > 0 else _NINF
        if percent:
            return f"{value:.{max(decimals - 2, 1)}%}"
        text = f"{value:.{decimals}f}"
        return "0." + "0" * decimals if text == "-0." + "0" * decimals else text
    try:
        if pd.isna(value):  # NaN-likes of other types
            return _DASH
    except (TypeError, ValueError):  # an array-like value
        pass
    return str(display_name(value))


def _counts(column: Any) -> bool:
    """Whether a float column holds counts: every finite value whole, some at least 2 (a
    column of 0.0 and 1.0 may be shares or resolutions, and keeps its decimals)."""
    import numpy as np
    import pandas as pd

    if not pd.api.types.is_float_dtype(column):
        return False
    values = column.to_numpy(dtype=float)
    finite = values[np.isfinite(values)]
    return bool(finite.size) and bool(np.all(finite == np.round(finite))) and \
        bool(np.any(np.abs(finite) >= 2)) and not np.any(np.isinf(values))


def _is_witness_column(name: str) -> bool:
    return "witness" in name.lower()


#: Rows shown before a long table folds the rest away (about a screenful).
FOLD = 20
#: A table folds only when at least this many rows would be hidden.
FOLD_MIN_HIDDEN = 5
#: A cell that reads as a number, an interval, a count or a witness: never wrapped.
_NUMERIC_CELL = re.compile(r"^[\s\d.,:;%/()+\-−–—→×·e∞xy<>=≤≥]+$")
_CELL = "padding:.3em .7em;border-bottom:1px solid #ddd;vertical-align:top"
_TEXT = "text-align:left;white-space:normal;overflow-wrap:break-word;max-width:34em"
_NUMBER = "text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums"
_HEAD = ("padding:.35em .7em;border-bottom:2px solid #888;vertical-align:bottom;"
         "background:var(--jp-layout-color1,#f6f6f6);white-space:normal;"
         "overflow-wrap:normal;min-width:4em;max-width:16em")
_STICKY = ("position:sticky;left:0;z-index:1;background:var(--jp-layout-color0,white);"
           "border-right:2px solid #bbb;min-width:8em;max-width:18em")


def numeric_text(cell: str) -> bool:
    """Whether a cell's text reads as a number (never to be wrapped): a value, a count, a
    percentage, an interval, "—", "+∞" or a witness "x3 → y7".

    Example:
        >>> [numeric_text(t) for t in ("0.473", "1,552", "12.5%", "0.41 – 0.62", "x3 → y7",
        ...                            "—", "presidio", "n = 100")]
        [True, True, True, True, True, True, False, False]
    """
    text = str(cell).strip()
    return bool(text) and len(text) <= 32 and bool(_NUMERIC_CELL.match(text)) and \
        any(ch.isdigit() or ch in "—∞" for ch in text)


@dataclass
class Table:
    """A presented table: the text cells, the Styler, the legend, and its HTML.

    Its HTML (:meth:`to_html`) never wraps a number, scrolls a wide table with its first
    column fixed, turns a single row into one line per column, and folds a long one.

    Attributes:
        frame: the cells as text, with readable headers.
        styler: a pandas Styler over ``frame`` (CSS only).
        legend: notes shown under the table ("— no value", "+∞ unbounded").
        caption: a line above the table.
        numeric: the headers of the numeric columns (right-aligned, never wrapped).
        colours: background colours of cells by their text.
        wide: above this many columns the table scrolls with its first column fixed.
        fold: rows shown before the rest is folded away.
    """

    frame: Any
    styler: Any
    legend: tuple[str, ...] = ()
    caption: str = ""
    numeric: tuple[str, ...] = ()
    colours: Mapping[str, str] | None = None
    wide: int = WIDE
    fold: int = FOLD

    @property
    def is_wide(self) -> bool:
        """Whether the table has more columns than fit (it scrolls, first column fixed)."""
        return len(self.frame.columns) > self.wide

    def _cell(self, text: str, column: str, first: bool, sticky: bool, tag: str = "td") -> str:
        numeric = column in self.numeric or numeric_text(text)
        style = [_CELL, _NUMBER if numeric else _TEXT]
        if sticky and first:
            style.append(_STICKY)
        if self.colours and text in self.colours:
            style.append(f"background-color:{self.colours[text]}")
        kind = "privlab-num" if numeric else "privlab-text"
        return (f"<{tag} class='{kind}' style='{';'.join(style)}'>"
                f"{html.escape(text)}</{tag}>")

    def _table(self, frame: Any, sticky: bool, head: bool = True) -> str:
        columns = [str(c) for c in frame.columns]
        header = ""
        if head:
            cells = []
            for k, column in enumerate(columns):
                style = _HEAD + (";text-align:right" if column in self.numeric else
                                 ";text-align:left")
                if sticky and k == 0:
                    style += ";" + _STICKY + ";z-index:2;background:var(--jp-layout-color1," \
                                             "#f6f6f6)"
                cells.append(f"<th style='{style}'>{html.escape(column.strip())}</th>")
            header = f"<thead><tr>{''.join(cells)}</tr></thead>"
        rows = "".join(
            "<tr>" + "".join(self._cell(str(value), column, k == 0, sticky)
                             for k, (column, value) in enumerate(zip(columns, row))) + "</tr>"
            for row in frame.itertuples(index=False, name=None))
        return ("<table style='border-collapse:separate;border-spacing:0;font-size:105%;"
                f"width:max-content;max-width:none;margin:0'>{header}<tbody>{rows}</tbody>"
                "</table>")

    def _box(self, inner: str, sticky: bool) -> str:
        kind = "privlab-table-scroll" + (" privlab-wide" if sticky else "")
        return (f"<div class='{kind}' style='overflow-x:auto;max-width:100%;"
                f"padding-bottom:2px'>{inner}</div>")

    def to_html(self) -> str:
        """The table in its own horizontally scrolling box, with caption, fold and legend."""
        import pandas as pd

        frame = self.frame
        caption = (f"<div style='font-weight:600;margin:.6em 0 .2em'>{html.escape(self.caption)}"
                   "</div>" if self.caption else "")
        legend = ("<div style='font-size:90%;color:#555;margin-top:.2em'>"
                  + " · ".join(html.escape(x) for x in self.legend) + "</div>"
                  if self.legend else "")
        if len(frame) == 1 and self.is_wide:  # one record: one line per column
            turned = Table(pd.DataFrame({"column": [c.strip() for c in frame.columns],
                                         "value": [str(v) for v in frame.iloc[0]]}),
                           None, (), "", colours=self.colours, wide=self.wide, fold=10 ** 9)
            body = self._box(turned._table(turned.frame, sticky=False), False)
            return f"<div class='privlab-table privlab-turned'>{caption}{body}{legend}</div>"
        sticky = self.is_wide
        hidden = len(frame) - self.fold
        if hidden >= FOLD_MIN_HIDDEN:
            shown = self._box(self._table(frame.iloc[:self.fold], sticky), sticky)
            rest = self._box(self._table(frame.iloc[self.fold:], sticky), sticky)
            body = (f"{shown}<details class='privlab-fold'><summary style='cursor:pointer;"
                    f"color:#2166ac;margin:.3em 0'>{hidden} more rows hidden (rows "
                    f"{self.fold + 1}–{len(frame)} of {len(frame)}): show them</summary>"
                    f"{rest}</details>")
        else:
            body = self._box(self._table(frame, sticky), sticky)
        return f"<div class='privlab-table'>{caption}{body}{legend}</div>"

    def _repr_html_(self) -> str:
        return self.to_html()

    def __repr__(self) -> str:
        return self.frame.to_string(index=False)


def present(frame: Any, *, names: Mapping[str, str] | None = None,
            columns: Sequence[str] | None = None, decimals: int = 3,
            percent: Iterable[str] = (), caption: str = "", index: bool | None = None,
            wide: int = WIDE, notes: Iterable[str] = (),
            colours: Mapping[str, str] | None = None, fold: int = FOLD) -> Table:
    """A DataFrame (or Series) as a table for people.

    Args:
        frame: a DataFrame, or a Series (shown as a two-column table).
        names: header renames, applied before the automatic ones (``{"name_matches":
            "name kept in"}``).
        columns: keep and order only these columns (original names; missing ones skipped).
        decimals: digits after the point for floats.
        percent: columns shown as percentages (original names; columns whose name ends in
            "share" are shown so too).
        caption: a line above the table.
        index: show the index (default: only when it is not a plain 0..n-1 range).
        wide: above this many columns the first column sticks while the rest scrolls.
        fold: rows shown before the rest of a long table is folded away (with a count).
        notes: extra legend lines.
        colours: background colours of cells by their text (e.g. ``{"missed": "#f4a582"}``).

    Returns:
        A :class:`Table`; a notebook displays it directly.

    Example:
        >>> import pandas as pd
        >>> t = present(pd.DataFrame({"name_matches": [2], "resolution": [0.12345],
        ...                           "witness": [(1, 4)], "gap": [float("nan")]}))
        >>> t.frame.iloc[0].tolist(), list(t.frame.columns)
        (['2', '0.123', 'x1 → y4', '—'], ['name matches', 'resolution', 'witness', 'gap'])
        >>> t.legend
        ('— no value (not applicable or not measured)',)
    """
    import pandas as pd

    for label, value in (("wide", wide), ("fold", fold)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise invalid(label, "present", "a positive whole number of "
                          + ("columns" if label == "wide" else "rows"), value)
    if isinstance(frame, pd.Series):
        frame = frame.rename(frame.name if frame.name is not None else "value").to_frame()
    if not isinstance(frame, pd.DataFrame):
        frame = pd.DataFrame(frame)
    if columns is not None:
        frame = frame[[c for c in columns if c in frame.columns]]
    show_index = index if index is not None else not (
        isinstance(frame.index, pd.RangeIndex) and frame.index.start == 0
        and frame.index.step == 1)
    if show_index:
        levels = frame.index.names
        frame = frame.rename_axis([n if n is not None else ("" if len(levels) == 1 else
                                                             f"level {i}")
                                   for i, n in enumerate(levels)])
        frame = frame.reset_index()
    percent = set(percent) | {c for c in frame.columns if str(c).endswith("share")}
    names = dict(names or {})
    numeric: list[str] = []
    text = pd.DataFrame(index=range(len(frame)))
    legend: list[str] = []
    seen_nan = seen_inf = False
    headers = []
    for column in frame.columns:
        values = frame[column].tolist()
        label = names.get(column, header(column))
        while label in headers:
            label += " "
        headers.append(label)
        if _is_witness_column(str(column)) and all(
                isinstance(v, tuple) and len(v) == 2 for v in values if v is not None):
            cells = [f"x{v[0]} → y{v[1]}" if v is not None else _DASH for v in values]
        elif _counts(frame[column]) and column not in percent:
            cells = [number(int(v)) if v == v else _DASH for v in values]
        else:
            cells = [number(v, decimals, percent=column in percent) for v in values]
        if pd.api.types.is_numeric_dtype(frame[column]) and \
                not pd.api.types.is_bool_dtype(frame[column]):
            numeric.append(label)
        seen_nan |= any(c == _DASH for c in cells)
        seen_inf |= any(c in (_INF, _NINF) for c in cells)
        text[label] = cells
    if seen_nan:
        legend.append(f"{_DASH} no value (not applicable or not measured)")
    if seen_inf:
        legend.append(f"{_INF} unbounded (no finite value)")
    legend += list(notes)
    styler = text.style.hide(axis="index")
    styles = [
        {"selector": "", "props": "border-collapse:collapse;font-size:105%"},
        {"selector": "th", "props": "text-align:left;padding:.35em .7em;border-bottom:2px solid "
                                    "#888;white-space:nowrap;background:var(--jp-layout-color1,"
                                    "#f6f6f6)"},
        {"selector": "td", "props": "padding:.3em .7em;border-bottom:1px solid #ddd;"
                                    "vertical-align:top;max-width:34em;white-space:normal;"
                                    "overflow-wrap:anywhere"},
    ]
    if len(text.columns) > wide:
        sticky = ("position:sticky;left:0;z-index:1;background:var(--jp-layout-color0,white);"
                  "border-right:2px solid #bbb")
        styles += [{"selector": "td:first-child", "props": sticky},
                   {"selector": "th:first-child", "props": sticky + ";z-index:2"}]
    styler = styler.set_table_styles(styles)
    if colours:
        styler = styler.map(lambda v: f"background-color:{colours[v]}" if v in colours else "")
    others = [label for label in text.columns if label not in numeric]
    if others:
        styler = styler.set_properties(subset=others, **{"text-align": "left"})
    if numeric:
        styler = styler.set_properties(subset=numeric, **{
            "text-align": "right", "font-variant-numeric": "tabular-nums",
            "white-space": "nowrap"})
    return Table(text, styler, tuple(legend), caption, tuple(numeric), dict(colours or {}),
                 wide, fold)


def witness_html(sanitized_x: str, original_y: str, sanitized_y: str, *,
                 terms: Sequence[str] = (), title: str = "", difference: float | None = None,
                 labels: Sequence[str] = ("released: sanitized x", "reference y as written",
                                          "reference y sanitized")) -> str:
    """A decisive witness as three wrapped texts, the retained phrases highlighted.

    Args:
        sanitized_x: the released (sanitized) audited text.
        original_y: the reference as written.
        sanitized_y: the reference after sanitizing.
        terms: phrases the released text shares with the reference (highlighted in the
            first two texts).
        title: a line above, e.g. "concept-list under minilm".
        difference: the signed difference of the trial, shown with the title.
        labels: the three column labels.

    Example:
        >>> "<mark>sequel</mark>" in witness_html("a sequel", "the sequel", "the ██", terms=["sequel"])
        True
    """
    from privlab.names import highlight

    head = html.escape(title)
    if difference is not None:
        head += (" · " if head else "") + f"signed difference {number(float(difference))}"
    cells = [highlight(sanitized_x, terms), highlight(original_y, terms),
             html.escape(sanitized_y).replace("\n", "<br>")]
    shown = [(label, cell) for label, cell in zip(labels, cells) if label or cell]
    columns = "".join(
        f"<div style='flex:1 1 16em;min-width:14em;padding:.5em .7em;border:1px solid #ccc;"
        f"border-radius:6px'><div style='font-size:85%;color:#555;margin-bottom:.3em'>"
        f"{html.escape(label)}</div><div style='white-space:normal;line-height:1.45;"
        f"max-height:22em;overflow-y:auto'>{cell}"
        "</div></div>" for label, cell in shown)
    return (f"<div class='privlab-witness' style='margin:.5em 0 .9em'>"
            + (f"<div style='font-weight:600;margin-bottom:.3em'>{head}</div>" if head else "")
            + f"<div style='display:flex;flex-wrap:wrap;gap:.6em'>{columns}</div></div>")


def _status_colour(status: str) -> str:
    text = status.lower()
    if "fail" in text:
        return "#b2182b"
    if "certificate" in text and "uncertified" not in text:
        return "#1a7837"
    if "diagnostic" in text:
        return "#b35806"
    return "#4d4d4d"


def _folded(label: str, items: Sequence[str]) -> str:
    """``items`` as a list folded under ``label`` (a click opens it)."""
    if not items:
        return ""
    listed = "".join(f"<li>{html.escape(item)}</li>" for item in items)
    return (f"<details style='margin-top:.35em;color:#444'><summary>{label} ({len(items)})"
            f"</summary><ul style='margin:.2em 0 0 1.2em;padding:0'>{listed}</ul></details>")


def headline_html(headline: Any) -> str:
    """The headline once, styled: study, the first line, its status, then the details and
    what it rests on folded beneath.

    Example:
        >>> from privlab.studies import Headline
        >>> page = headline_html(Headline("00 quickstart", "resolution 0.2", "diagnostic",
        ...                               ("12 texts",), details=("witness x6/y5",)))
        >>> page.index("resolution 0.2") < page.index("<details") < page.index("rests on")
        True
    """
    status = str(headline.status)
    note = getattr(headline, "status_note", "")
    colour = _status_colour(status)
    accent = "#b2182b" if re.search(r"\bFAILS?\b", headline.text) else "#2166ac"
    rests = (_folded("details", getattr(headline, "details", ()))
             + _folded("rests on", headline.caveats))
    return (f"<div class='privlab-headline' style='border-left:6px solid {accent};"
            "padding:.6em .9em;margin:.3em 0 .8em;background:rgba(33,102,172,.06)'>"
            f"<div style='font-size:85%;color:#2166ac;font-weight:600'>"
            f"{html.escape(headline.study)}</div>"
            f"<div style='font-size:125%;font-weight:600;margin:.15em 0'>"
            f"{html.escape(headline.text)}</div>"
            f"<span style='display:inline-block;padding:.05em .55em;border-radius:1em;"
            f"background:{colour};color:white;font-size:85%'>{html.escape(status)}"
            f"</span>" + (f" <span style='color:#444;font-size:85%'>{html.escape(note)}</span>"
                          if note else "") + f"{rests}</div>")


def numbered(items: Sequence[str], *, name: str = "text", start: int = 0,
             caption: str = "") -> Table:
    """A list of texts as a numbered table (the numbers witnesses refer to).

    Example:
        >>> numbered(["Einstein in Bern", "relativity"]).frame.values.tolist()
        [['0', 'Einstein in Bern'], ['1', 'relativity']]
    """
    import pandas as pd

    frame = pd.DataFrame({f"{name} #": range(start, start + len(items)), name: list(items)})
    return present(frame, caption=caption)


def key_values(pairs: Mapping[str, Any] | Iterable[tuple[str, Any]], *,
               caption: str = "") -> Table:
    """A short two-column table (setting, value) instead of a raw dict or Series repr.

    Example:
        >>> key_values({"encoder": "minilm", "top_k": 3}).frame.values.tolist()
        [['encoder', 'minilm'], ['top k', '3']]
    """
    import pandas as pd

    items = list(pairs.items()) if isinstance(pairs, Mapping) else list(pairs)
    frame = pd.DataFrame({"setting": [header(k) for k, _ in items],
                          "value": [number(v) if not isinstance(v, str) else v
                                    for _, v in items]})
    return present(frame, caption=caption, names={"setting": "setting", "value": "value"})


__all__ = ["FOLD", "Table", "WIDE", "display_name", "header", "headline_html", "key_values",
           "number", "numbered", "numeric_text", "present", "witness_html"]
