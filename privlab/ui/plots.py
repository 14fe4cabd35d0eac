"""Figures shared by the notebooks (matplotlib / seaborn), each returning its Axes."""

from __future__ import annotations

from typing import Sequence

import numpy as np


def per_item_violations(per_audited: np.ndarray, labels: Sequence[str] | None = None, *,
                        delta: float = 0.0, ax=None, title: str | None = None):
    """Bar chart of each audited item's largest signed difference, with the delta line.

    Items at or above ``delta`` are the ones to withhold or sanitize further.

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
        _, ax = plt.subplots(figsize=(max(4, 0.45 * values.size), 3))
    colors = ["#c0392b" if v >= delta and v > 0 else "#7f8c8d" for v in values]
    ax.bar(range(values.size), values, color=colors)
    ax.axhline(delta, color="black", lw=1, ls="--", label=f"delta = {delta:g}")
    ax.set_xticks(range(values.size), labels, rotation=90 if values.size > 12 else 0)
    ax.set_ylabel("largest signed difference")
    ax.set_xlabel("audited item")
    ax.legend(loc="best")
    if title:
        ax.set_title(title)
    return ax


def privacy_utility_scatter(frame, *, ax=None, title: str | None = None):
    """Privacy–utility scatter (the paper's Figures 1 and 4): one point per sanitizer and member.

    Args:
        frame: rows with ``sanitizer``, ``encoder``, ``resolution`` and ``utility`` (e.g.
            ``ImageStudyResult.to_frame()`` or ``AuditTable.to_frame()``).
        ax: a matplotlib axis (a new figure if None).
        title: the axis title.

    Returns:
        The matplotlib axis. Lower resolution is more private, higher utility keeps more;
        members are separate markers because their scales differ (never averaged).
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.5))
    markers = "osD^vP*X"
    for k, (member, rows) in enumerate(frame.groupby("encoder", sort=False)):
        ax.scatter(rows["utility"], rows["resolution"], marker=markers[k % len(markers)],
                   s=60, alpha=0.8, label=str(member)[:40])
        for _, row in rows.iterrows():
            ax.annotate(str(row["sanitizer"])[:24], (row["utility"], row["resolution"]),
                        fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel("utility: cosine(original, sanitized), per member")
    ax.set_ylabel("resolution δ* (lower is more private)")
    ax.axhline(0, color="grey", lw=0.5)
    ax.legend(fontsize=7, loc="best")
    if title:
        ax.set_title(title)
    return ax


def witness_gallery(witness, *, words: dict | None = None, title: str | None = None):
    """A decisive witness as images: sanitized x | original y | sanitized y.

    Args:
        witness: a :class:`privlab.contrastive.Witness` over images.
        words: optional ``{"sanitized x", "original y", "sanitized y": text}`` shown under
            each panel (the describe-then-embed member's reading).
        title: figure title (default: the indices and the signed difference).

    Returns:
        The matplotlib figure. The signed difference ``cos(X_c(x), y) - cos(X_c(x), X_c(y))``
        is in the title: positive means the released x is closer to what was removed from y.
    """
    import matplotlib.pyplot as plt

    panels = [("sanitized x", witness.audited_sanitized), ("original y", witness.reference_original),
              ("sanitized y", witness.reference_sanitized)]
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.4))
    for ax, (label, img) in zip(axes, panels):
        ax.imshow(np.asarray(img))
        ax.set_xticks([])
        ax.set_yticks([])
        text = f"{label}" + (f"\n“{words.get(label, '')[:60]}”" if words else "")
        ax.set_xlabel(text, fontsize=8)
    fig.suptitle(title or (f"x = {witness.audited}, y = {witness.reference}: signed difference "
                           f"{witness.difference:+.4f}"), fontsize=10)
    fig.tight_layout()
    return fig


def image_witness_galleries(result, *, min_value: float = 0.0) -> int:
    """Draw the decisive-witness gallery of every (sanitizer, member) of an image study above ``min_value``.

    Each gallery shows the released image, the original reference and its sanitized
    version with the signed difference, and the describe-then-embed member's words.

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
