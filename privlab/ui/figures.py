"""Figures of the known-ε benchmark (matplotlib): method curves and certificate power."""

from __future__ import annotations

import pandas as pd

_PANELS = [("gaussmech", "GaussMech (diagnostic)", "GaussMech ε estimate"),
           ("kde-lr-0.01", "KDE-LR α=0.01 (diagnostic)", "KDE log-ratio ε estimate"),
           ("mmd-tv", "MMD-TV sample value (uncertified)", "MMD-TV ε value"),
           ("roc-ht", "ROC-HT out-of-fold AUC (descriptive)", "out-of-fold AUC")]


def plot_method_curves(curves: pd.DataFrame):
    """Figure 2: each method's output against the exact median pairwise ε.

    Four panels in a 2 × 2 grid, large enough for a projector: each has its title, both
    axis labels (what the method outputs, in its own units) and a legend of readable
    size; bands span geometries and repetitions.

    Args:
        curves: output of :func:`privlab.epsilon.benchmark.method_curves`.

    Returns:
        The matplotlib Figure.
    """
    import matplotlib.pyplot as plt

    from privlab.ui.plots import PALETTE

    fig, grid = plt.subplots(2, 2, figsize=(9.6, 7.6))
    axes = grid.ravel()
    colours: dict = {}
    for ax, (method, title, ylabel) in zip(axes, _PANELS):
        for mech, g in curves[curves["method"] == method].groupby("mechanism"):
            if method == "mmd-tv" and mech != "laplace":
                continue  # MMD-TV's population bound is for pure DP only
            colour = colours.setdefault(mech, PALETTE[len(colours) % len(PALETTE)])
            g = g.sort_values("exact_median")
            line, = ax.plot(g["exact_median"], g["mean"], marker="o", label=mech, color=colour)
            ax.fill_between(g["exact_median"], g["low"], g["high"], alpha=0.2,
                            color=line.get_color())
            if method == "roc-ht" and g["reference"].notna().any():
                ax.plot(g["exact_median"], g["reference"], ls=":", color=line.get_color(),
                        label=f"{mech} optimal AUC")
        if method == "mmd-tv":
            t = curves[(curves["method"] == "mmd-tv (tighter)")
                       & (curves["mechanism"] == "laplace")].sort_values("exact_median")
            if len(t):
                ax.plot(t["exact_median"], t["mean"], ls="--", color=PALETTE[3],
                        label="tighter 2·artanh(MMD/√2)")
        ax.set_xscale("symlog", linthresh=0.1)
        ax.set_xlabel("exact median pairwise ε")
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize="large", loc="left")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="medium", loc="best", framealpha=0.85)
    fig.tight_layout()
    return fig


#: Line style and legend name of the certificate methods drawn by :func:`plot_power`;
#: any other certificate is drawn dash-dotted or dotted under its registry name.
_CERTIFICATE_STYLE = {"reserved": ("-", "learned"), "reserved-exact": ("--", "exact LR")}
_OTHER_STYLES = ("-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)))


def _certificate_style(method: str, others: list[str]) -> tuple:
    if method in _CERTIFICATE_STYLE:
        return _CERTIFICATE_STYLE[method]
    if method not in others:
        others.append(method)
    return _OTHER_STYLES[others.index(method) % len(_OTHER_STYLES)], method


def plot_power(power: pd.DataFrame, geometry: str = "dispersed"):
    """Figure 3: fraction of pairs with a positive certified bound, and the median bound.

    Solid lines: learned logistic test; dashed: exact likelihood-ratio (oracle) test; any
    other certificate auditor in ``power`` is drawn dash-dotted or dotted under its name,
    so every certificate can be read side by side. Colours tell the sample sizes apart.

    Args:
        power: output of :func:`privlab.epsilon.benchmark.power_curves`.
        geometry: which prototype set to draw.

    Returns:
        The matplotlib Figure (rows: mechanism; columns: fraction positive, median bound),
        drawn at the width it is shown (:data:`privlab.ui.report.DISPLAY_WIDTH_PX`),
        growing downwards with more mechanisms, under one legend of readable size.
    """
    import matplotlib.pyplot as plt

    sel = power[power["geometry"] == geometry]
    mechanisms = sorted(sel["mechanism"].unique()) or ["(none)"]
    fig, axes = plt.subplots(len(mechanisms), 2, figsize=(9.6, 1.2 + 2.9 * len(mechanisms)),
                             squeeze=False)
    colors: dict = {}
    others: list[str] = []
    for row, mech in enumerate(mechanisms):
        for (n, method), g in sel[sel["mechanism"] == mech].groupby(["n", "method"]):
            g = g.sort_values("exact_median")
            color = colors.setdefault(n, f"C{len(colors)}")
            ls, name = _certificate_style(method, others)
            label = f"n={n} {name}"
            axes[row, 0].plot(g["exact_median"], g["fraction_positive"], ls=ls, color=color,
                              marker="o", label=label)
            axes[row, 1].plot(g["exact_median"], g["median_bound"], ls=ls, color=color,
                              marker="o", label=label)
        axes[row, 0].set_title(f"{mech} ({geometry}): pairs certified", loc="left")
        axes[row, 1].set_title(f"{mech} ({geometry}): median bound", loc="left")
        axes[row, 0].set_ylabel("fraction with bound > 0")
        axes[row, 1].set_ylabel("median certified bound")
        for ax in axes[row]:
            ax.set_xscale("symlog", linthresh=0.1)
            ax.set_xlabel("exact median pairwise ε")
    legend: dict = {}
    for ax in axes[:, 0]:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(label, handle)
    handles, labels = list(legend.values()), list(legend)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.9 / fig.get_size_inches()[1]))
    if handles:
        fig.legend(handles, labels, loc="upper center", ncol=min(4, len(labels)),
                   fontsize="medium", frameon=False, bbox_to_anchor=(0.5, 1.0))
    return fig


def plot_appendix_table(table: pd.DataFrame, paper: pd.DataFrame | None = None,
                        title: str = ""):
    """Table 6 as lines: fraction of pairs certified > 0 against the requested ε.

    Args:
        table: output of :func:`privlab.epsilon.summaries.appendix_table` (index (test, n)).
        paper: the paper's table of the same layout, drawn dotted with hollow markers.
        title: the axes title.

    Returns:
        The matplotlib Figure.
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    for k, ((test, n), row) in enumerate(table.iterrows()):
        line, = ax.plot(row.index.astype(float), row.to_numpy(), marker="o",
                        label=f"{test}, n={n}", color=f"C{k}")
        if paper is not None and (test, n) in paper.index:
            ref = paper.loc[(test, n)]
            ax.plot(ref.index.astype(float), ref.to_numpy(), ls=":", marker="o",
                    mfc="none", color=line.get_color(), label=f"{test}, n={n} (paper)")
    ax.set_xscale("symlog", linthresh=0.5)
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel("requested global ε")
    ax.set_ylabel("fraction of pairs with bound > 0")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig
