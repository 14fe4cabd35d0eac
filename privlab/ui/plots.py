"""Figures shared by the notebooks (matplotlib / seaborn), each returning its Axes.

Every figure has axis labels and a title, uses a colour-blind-safe palette (Okabe and
Ito's eight colours) and places its labels so they do not overlap (``adjustText``).
:func:`projector` switches every later figure to seaborn's ``talk`` context: larger
fonts and thicker lines for a room, one call for the whole notebook.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

import numpy as np

from privlab.errors import invalid

#: Okabe and Ito's colour-blind-safe palette (black last).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442",
           "#000000")
#: Bars at or above the required resolution, and the others.
FLAGGED, PASSED = "#D55E00", "#999999"
MARKERS = "osD^vP*X"

_PROJECTOR = {"on": False}


def projector(on: bool = True) -> None:
    """Switch every later figure to large print for a projector (seaborn ``talk``), or back.

    Figures already drawn are not changed; both contexts use :data:`PALETTE`.

    Args:
        on: large print on (True) or off.

    Example:
        >>> import matplotlib
        >>> projector(True); matplotlib.rcParams["font.size"] > 12, projecting()
        (True, True)
        >>> projector(False); matplotlib.rcParams["font.size"] > 12, projecting()
        (False, False)
    """
    import seaborn as sns

    sns.set_theme(context="talk" if on else "notebook", style="whitegrid", palette=list(PALETTE))
    _PROJECTOR["on"] = bool(on)


def projecting() -> bool:
    """Whether :func:`projector` large print is on."""
    return _PROJECTOR["on"]


#: Above this many labels (after merging those at one place) points are numbered, with a
#: key under the axes naming each number in full.
MAX_NAMED_LABELS = 8


def _merged(xs: Sequence[float], ys: Sequence[float], labels: Sequence[str], ax,
            colors: Sequence[Any] | None) -> list[tuple[float, float, list[str], Any]]:
    """Points at one place (within 1% of the axes' spans) as one label naming each once."""
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    tol_x, tol_y = 0.01 * abs(x1 - x0) or 1e-9, 0.01 * abs(y1 - y0) or 1e-9
    groups: list[tuple[float, float, list[str], Any]] = []
    for i, (x, y, label) in enumerate(zip(xs, ys, labels)):
        color = colors[i] if colors is not None else "#333333"
        for gx, gy, names, gcolor in groups:
            if abs(gx - x) <= tol_x and abs(gy - y) <= tol_y:
                if str(label) not in names:
                    names.append(str(label))
                break
        else:
            groups.append((float(x), float(y), [str(label)], color))
    return [(x, y, names, color if len(names) == 1 or colors is None else "#333333")
            for x, y, names, color in groups]


def label_points(ax, xs: Sequence[float], ys: Sequence[float], labels: Sequence[str], *,
                 fontsize: float | None = None, colors: Sequence[Any] | None = None) -> list:
    """Label points so that no two labels overlap or hide a point; none is cut short.

    Points at one place share one label. Above :data:`MAX_NAMED_LABELS` labels the points
    carry numbers and a key under the axes names them (long names side by side overlap).

    Args:
        ax: the Axes.
        xs, ys: the points, in data coordinates.
        labels: one text per point.
        fontsize: the labels' size (default: matplotlib's small size).
        colors: one colour per label (default: dark grey).

    Returns:
        The matplotlib Text objects (the key, when there is one, is the last).
    """
    import textwrap

    from adjustText import adjust_text

    groups = _merged(xs, ys, labels, ax, colors)
    numbered = len(groups) > MAX_NAMED_LABELS
    numbers = {name: k + 1 for k, name in enumerate(dict.fromkeys(str(v) for v in labels))}
    texts = []
    for x, y, names, color in groups:
        text = (", ".join(str(k) for k in sorted(numbers[n] for n in names)) if numbered
                else "\n".join(textwrap.wrap(", ".join(names), 34, break_long_words=False)))
        texts.append(ax.text(x, y, text, fontsize=fontsize or "small", color=color, zorder=5))
    if len(texts) > 1:
        ax.figure.canvas.draw()  # adjustText measures the texts as drawn
        adjust_text(texts, x=list(xs), y=list(ys), ax=ax, expand=(1.2, 1.5),
                    force_text=(0.5, 0.8), force_static=(0.3, 0.5), ensure_inside_axes=True,
                    iter_lim=800, arrowprops={"arrowstyle": "-", "color": "#777777", "lw": 0.6})
    if numbered:
        entries = [f"{k} {name}" for name, k in numbers.items()]
        lines = textwrap.wrap("   ".join(e.replace(" ", "\u00a0") for e in entries), 96,
                              break_long_words=False)
        ax.figure.canvas.draw()  # the key goes under the axis label, wherever that is
        below = min(ax.xaxis.label.get_window_extent().y0,
                    ax.xaxis.get_tightbbox().y0 if ax.xaxis.get_tightbbox() else 0)
        bottom = ax.transAxes.inverted().transform((0, below))[1]
        texts.append(ax.annotate("\n".join(line.replace("\u00a0", " ") for line in lines),
                                 xy=(0, bottom), xycoords="axes fraction", xytext=(0, -6),
                                 textcoords="offset points", va="top", ha="left",
                                 fontsize=fontsize or "small", color="#333333",
                                 annotation_clip=False))
    return texts


def per_item_violations(per_audited: np.ndarray, labels: Sequence[str] | None = None, *,
                        delta: float = 0.0, ax=None, title: str | None = None):
    """Bar chart of each audited item's largest signed difference, with the delta line.

    Items at or above ``delta`` (the ones to withhold or sanitize further) are flagged.

    Args:
        per_audited: ``Resolution.per_audited``.
        labels: one label per item (default the index).
        delta: the resolution a release requires.
        ax: an existing Axes.
        title: figure title.

    Returns:
        The Axes.
    """
    import matplotlib.pyplot as plt

    values = np.asarray(per_audited, dtype=float)
    labels = list(labels) if labels is not None else [str(i) for i in range(values.size)]
    if ax is None:
        _, ax = plt.subplots(figsize=(min(9.6, max(4, 0.45 * values.size)), 3))
    colors = [FLAGGED if v >= delta and v > 0 else PASSED for v in values]
    ax.bar(range(values.size), values, color=colors)
    ax.axhline(delta, color="black", lw=1, ls="--", label=f"delta = {delta:g}")
    ax.set_xticks(range(values.size), labels, rotation=90 if values.size > 12 else 0)
    ax.set_ylabel("largest signed difference")
    ax.set_xlabel("audited item")
    ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), frameon=False, borderaxespad=0.1)
    if title:
        ax.set_title(title, loc="left")
    return ax


def privacy_utility_scatter(frame, *, ax=None, title: str | None = None):
    """Privacy–utility scatter (the paper's Figures 1 and 4): one point per sanitizer and member.

    Labels never overlap, even where sanitizers share a point (:func:`label_points`).

    Args:
        frame: rows with ``sanitizer``, ``encoder``, ``resolution`` and ``utility`` (e.g.
            ``ImageStudyResult.to_frame()`` or ``AuditTable.to_frame()``).
        ax: a matplotlib axis (a new figure if None).
        title: the axis title.

    Returns:
        The matplotlib axis; one marker per member, as their scales differ.
    """
    import matplotlib.pyplot as plt

    from privlab.ui.tables import display_name

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 5.5))
    xs, ys, names, colors = [], [], [], []
    for k, (member, rows) in enumerate(frame.groupby("encoder", sort=False)):
        color = PALETTE[k % len(PALETTE)]
        ax.scatter(rows["utility"], rows["resolution"], marker=MARKERS[k % len(MARKERS)],
                   s=80, alpha=0.85, color=color, label=str(display_name(member)),
                   zorder=4)
        xs += rows["utility"].tolist()
        ys += rows["resolution"].tolist()
        names += [str(v) for v in rows["sanitizer"]]
        colors += [color] * len(rows)
    ax.set_xlabel("utility: cosine(original, sanitized), per member")
    ax.set_ylabel("resolution δ* (lower is more private)")
    ax.axhline(0, color="grey", lw=0.5)
    low_x, high_x = (min(xs), max(xs)) if xs else (0.0, 1.0)
    low_y, high_y = (min(ys), max(ys)) if ys else (0.0, 1.0)
    pad_x, pad_y = max(0.08, 0.15 * (high_x - low_x)), max(0.03, 0.2 * (high_y - low_y))
    ax.set_xlim(low_x - pad_x, high_x + pad_x)
    ax.set_ylim(min(low_y, 0.0) - pad_y, high_y + pad_y)
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), frameon=False, ncol=3,
              borderaxespad=0.1)
    if title:
        ax.set_title(title, loc="right")
    label_points(ax, xs, ys, names, colors=colors)
    return ax


def witness_gallery(witness, *, words: dict | None = None, title: str | None = None):
    """A decisive witness as images: sanitized x | original y | sanitized y.

    Args:
        witness: a :class:`privlab.contrastive.Witness` over images.
        words: optional ``{"sanitized x", "original y", "sanitized y": text}`` shown under
            each panel (the describe-then-embed member's reading).
        title: figure title (default: the indices and the signed difference).

    Returns:
        The matplotlib figure, titled with the signed difference
        ``cos(X_c(x), y) - cos(X_c(x), X_c(y))``.
    """
    import matplotlib.pyplot as plt

    panels = [("sanitized x", witness.audited_sanitized), ("original y", witness.reference_original),
              ("sanitized y", witness.reference_sanitized)]
    fig, axes = plt.subplots(1, 3, figsize=(9.6, 3.3))
    for ax, (label, img) in zip(axes, panels):
        ax.imshow(np.asarray(img))
        ax.set_xticks([])
        ax.set_yticks([])
        read = words.get(label, "") if words else ""
        text = f"{label}" + (f"\n“{_wrap(read)}”" if words else "")
        ax.set_xlabel(text, fontsize="small")
    fig.suptitle(title or (f"x = {witness.audited}, y = {witness.reference}: signed difference "
                           f"{witness.difference:+.4f}"), fontsize="medium")
    fig.tight_layout()
    return fig


def concept_renderings(sets: dict, *, dilate: int = 0, per_concept: int = 2):
    """Renderings of each concept and their blackouts: what every image member is shown.

    Args:
        sets: ``{concept: ConceptImageSet}`` (``privlab.studies.calibration.load_image_sets``).
        dilate: the blackout's dilation, as in the study.
        per_concept: renderings shown per concept.

    Returns:
        The matplotlib Figure (one row per concept: renderings, then their blackouts).
    """
    import matplotlib.pyplot as plt

    rows = max(len(sets), 1)
    fig, axes = plt.subplots(rows, 2 * per_concept, figsize=(2.4 * 2 * per_concept, 2.4 * rows),
                             squeeze=False)
    for row, (concept, concept_set) in zip(axes, sets.items()):
        shown = list(concept_set.images[:per_concept])
        blacked = concept_set.sanitizer(dilate=dilate).sanitize(shown)
        labels = ["rendering"] * len(shown) + ["blacked out"] * len(blacked)
        for ax, img, label in zip(row, [*shown, *blacked], labels):
            ax.imshow(np.asarray(img))
            ax.set_axis_off()
            ax.set_title(f"{concept}: {label}", fontsize="small")
    fig.suptitle("what every image member is shown", fontsize="medium")
    fig.tight_layout()
    return fig


def _wrap(text: str, width: int = 42, lines: int = 4) -> str:
    """``text`` wrapped to a few lines (the words a member read under an image)."""
    import textwrap

    wrapped = textwrap.wrap(text, width) or [""]
    if len(wrapped) > lines:
        wrapped = wrapped[:lines]
        wrapped[-1] = wrapped[-1].rstrip() + " …"
    return "\n".join(wrapped)


def image_witness_galleries(result, *, min_value: float = 0.0) -> int:
    """Draw the :func:`witness_gallery` of every (sanitizer, member) above ``min_value``.

    Args:
        result: a :class:`privlab.studies._images.ImageStudyResult`.
        min_value: only trials whose resolution exceeds it are drawn.

    Returns:
        How many galleries were drawn.
    """
    drawn = 0
    for sanitizer in result.members().index:
        for member in result.table[sanitizer].members:
            if member.value > min_value:
                witness_gallery(
                    member.witness, words=result.explain(sanitizer, member.encoder),
                    title=result.witness_title(sanitizer, member.encoder))
                drawn += 1
    return drawn


#: A column of seconds: "plain s", "certified s (planted)", "screen seconds".
_SECONDS = re.compile(r"(^|\s)(s|seconds)(\s|$|\s?\()")


def seconds_columns(frame) -> list[str]:
    """The columns of seconds in a cost frame, in order (every path the curve draws).

    Example:
        >>> import pandas as pd
        >>> seconds_columns(pd.DataFrame(columns=["m = n", "trials", "plain s",
        ...                                       "certified s (none)", "certified s (planted)"]))
        ['plain s', 'certified s (none)', 'certified s (planted)']
    """
    return [str(c) for c in frame.columns if _SECONDS.search(str(c))]


def series_label(column: str) -> str:
    """A seconds column as the curve's name in words.

    Example:
        >>> series_label("plain s"), series_label("certified s (planted)")
        ('plain kernel', 'certified path (planted leak)')
        >>> series_label("certified s (none)")
        'certified path (no leak)'
    """
    found = re.match(r"^(.*?)\s(?:s|seconds)(?:\s*\((.*)\))?$", column)
    if not found:
        return column
    path, case = found.group(1), found.group(2)
    path = {"plain": "plain kernel", "certified": "certified path",
            "screen": "screen"}.get(path, path)
    case = {"none": "no leak", "planted": "planted leak"}.get(case or "", case)
    return f"{path} ({case})" if case else path


def cost_curve(frame, *, ax=None, title: str = "seconds against the number of trials m·n"):
    """Seconds of each exact path against the number of trials (log–log), study 11.

    Args:
        frame: :meth:`privlab.studies.scale.ScaleResult.cost_frame`: a ``trials`` column
            and one column of seconds per path (:func:`seconds_columns`).
        ax: the Axes to draw on (default: a new figure).
        title: the figure's title.

    Returns:
        The Axes.

    Raises:
        PrivlabValueError: ``frame`` has no column of seconds.

    Example:
        >>> import pandas as pd
        >>> ax = cost_curve(pd.DataFrame({"trials": [10, 100], "plain s": [0.1, 1.0],
        ...                               "certified s (planted)": [0.01, 0.02]}))
        >>> ax.get_xscale(), [t.get_text() for t in ax.get_legend().get_texts()]
        ('log', ['plain kernel', 'certified path (planted leak)'])
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.2))
    paths = seconds_columns(frame)
    if not paths:
        raise invalid("frame", "cost_curve", "a column of seconds (a name ending in ' s' or "
                      "' s (case)')", list(frame.columns))
    for index, column in enumerate(paths):
        ax.plot(frame["trials"], frame[column], marker=MARKERS[index % len(MARKERS)],
                color=PALETTE[index % len(PALETTE)], label=series_label(column),
                ls="-" if index == 0 else "--")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("trials m·n")
    ax.set_ylabel("seconds (this machine)")
    ax.set_title(title)
    ax.legend(loc="upper left", frameon=False)
    return ax


def sample_size_curve(plan, *, ax=None, title: str | None = None):
    """Predicted certified bound against n per method (log n), study 05's planner.

    Solid: the bound reached with the planned probability; thin: its median; dotted: the
    target, marked at the planned n; black: the exact ε when ``settings`` hold one.

    Args:
        plan: a :class:`privlab.epsilon.planner.SamplePlan`.
        ax: the Axes to draw on (default: a new figure).
        title: the figure's title (default: the pilot's size and the level).

    Returns:
        The Axes.

    Example:
        >>> import pandas as pd
        >>> from privlab.epsilon.planner import SamplePlan
        >>> p = SamplePlan(pd.DataFrame({"method": ["m"], "target": [0.5], "n": [100.0]}),
        ...                pd.DataFrame({"method": ["m", "m"], "n": [10, 1000],
        ...                              "median": [0.0, 1.0], "reached": [0.0, 0.8]}),
        ...                {"probability": 0.8, "alpha": 0.025, "pilot_n_a": 50, "exact": 1.0})
        >>> ax = sample_size_curve(p)
        >>> ax.get_xscale(), ax.get_ylabel()
        ('log', 'certified lower bound on ε')
    """
    import math

    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.2))
    settings = plan.settings
    for index, (method, g) in enumerate(plan.curve.groupby("method", sort=False)):
        color = PALETTE[index % len(PALETTE)]
        ax.plot(g["n"], g["reached"], color=color,
                label=f"{method} (reached with p = {settings.get('probability')})")
        ax.plot(g["n"], g["median"], color=color, linewidth=0.8, alpha=0.6)
        row = plan.plan[plan.plan["method"] == method].iloc[0]
        ax.axhline(row["target"], color=color, linestyle=":", linewidth=1)
        if math.isfinite(row["n"]):
            ax.plot([row["n"]], [row["target"]], marker=MARKERS[index % len(MARKERS)],
                    color=color, linestyle="none")
    exact = settings.get("exact")
    if exact is not None and math.isfinite(exact):
        ax.axhline(exact, color="#000000", linewidth=1.2, label=f"exact ε = {exact:.3g}")
    ax.set_xscale("log")
    ax.set_xlabel("rows per identity n")
    ax.set_ylabel("certified lower bound on ε")
    ax.set_title(title or f"planned from a pilot of {settings.get('pilot_n_a')} rows "
                          f"(α = {settings.get('alpha'):g} per bound)")
    ax.legend(loc="lower right", frameon=False, fontsize="small")
    return ax

