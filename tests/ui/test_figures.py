"""The known-ε figures: panels, titles and axis labels on small benchmark summaries."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from privlab.ui.figures import plot_method_curves, plot_power  # noqa: E402
from privlab.ui.report import DISPLAY_WIDTH_PX, Report, png_size  # noqa: E402


def _width_px(fig) -> int:
    """The figure's width in pixels as a notebook shows it (PNG, tight box)."""
    before = tuple(fig.get_size_inches())
    from IPython.core.pylabtools import print_figure

    width = png_size(print_figure(fig, "png", bbox_inches="tight"))[0]
    assert tuple(fig.get_size_inches()) == before
    return width


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _curves():
    rows = []
    for mech in ("laplace", "gaussian"):
        for eps, exact in ((0.0, 0.0), (8.0, 2.0), (64.0, 16.0)):
            for method, value in (("gaussmech", 15.0), ("kde-lr-0.01", 900.0),
                                  ("mmd-tv", 0.01 * exact), ("mmd-tv (tighter)", 0.02 * exact),
                                  ("roc-ht", 0.5 + exact / 40)):
                rows.append({"mechanism": mech, "epsilon": eps, "n": 100, "method": method,
                             "exact_median": exact, "mean": value, "low": value * 0.9,
                             "high": value * 1.1, "reference": 0.5 + exact / 35
                             if method == "roc-ht" else float("nan")})
    return pd.DataFrame(rows)


def _power():
    rows = []
    for mech in ("gaussian", "laplace"):
        for n in (30, 100):
            for method in ("reserved", "reserved-exact"):
                for exact, frac in ((0.0, 0.0), (16.0, 0.5), (256.0, 1.0)):
                    rows.append({"mechanism": mech, "geometry": "dispersed", "epsilon": exact,
                                 "n": n, "method": method, "exact_median": exact,
                                 "fraction_positive": frac, "median_bound": frac * 2})
    return pd.DataFrame(rows)


def test_method_curves_has_one_panel_per_route_with_its_status():
    fig = plot_method_curves(_curves())
    axes = fig.axes
    assert [ax.get_title(loc="left") for ax in axes] == [
        "GaussMech (diagnostic)", "KDE-LR α=0.01 (diagnostic)",
        "MMD-TV sample value (uncertified)", "ROC-HT out-of-fold AUC (descriptive)"]
    assert {ax.get_xlabel() for ax in axes} == {"exact median pairwise ε"}
    # Every panel says what its y axis is, and the grid is 2 x 2, big enough for a room.
    assert [ax.get_ylabel() for ax in axes] == [
        "GaussMech ε estimate", "KDE log-ratio ε estimate", "MMD-TV ε value", "out-of-fold AUC"]
    assert len({round(ax.get_position().y0, 2) for ax in axes}) == 2
    assert _width_px(fig) <= DISPLAY_WIDTH_PX  # drawn at the width it is shown
    legend_sizes = {t.get_fontsize() for ax in axes for t in ax.get_legend().get_texts()}
    assert min(legend_sizes) >= 9
    assert all(ax.get_xscale() == "symlog" for ax in axes)
    # MMD-TV is drawn for the pure-DP Laplace family only, with its tighter value
    mmd_labels = [t.get_text() for t in axes[2].get_legend().get_texts()]
    assert mmd_labels == ["laplace", "tighter 2·artanh(MMD/√2)"]
    roc_labels = [t.get_text() for t in axes[3].get_legend().get_texts()]
    assert "laplace optimal AUC" in roc_labels and "gaussian optimal AUC" in roc_labels


def test_power_has_a_row_per_mechanism_with_fraction_and_bound():
    fig = plot_power(_power(), geometry="dispersed")
    axes = fig.axes
    assert len(axes) == 4  # 2 mechanisms x (fraction, bound)
    fractions, bounds = axes[0::2], axes[1::2]
    assert [ax.get_title(loc="left") for ax in fractions] == [
        "gaussian (dispersed): pairs certified", "laplace (dispersed): pairs certified"]
    assert {ax.get_ylabel() for ax in fractions} == {"fraction with bound > 0"}
    assert {ax.get_ylabel() for ax in bounds} == {"median certified bound"}
    assert {ax.get_xlabel() for ax in axes} == {"exact median pairwise ε"}
    (legend,) = fig.legends  # one legend for every panel, of readable size
    labels = [t.get_text() for t in legend.get_texts()]
    assert labels == ["n=30 learned", "n=30 exact LR", "n=100 learned", "n=100 exact LR"]
    assert min(t.get_fontsize() for t in legend.get_texts()) >= 9


@pytest.mark.parametrize("mechanisms", [1, 2, 4])
def test_power_is_drawn_at_the_width_it_is_shown_with_its_legend_clear(mechanisms):
    power = _power()
    power = pd.concat([power.assign(mechanism=f"{m}-{k}") for k in range(mechanisms)
                       for m in ("gaussian",)], ignore_index=True)
    fig = plot_power(power, geometry="dispersed")
    assert len(fig.axes) == 2 * mechanisms
    assert _width_px(fig) <= DISPLAY_WIDTH_PX
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legend = fig.legends[0].get_window_extent(renderer)
    for ax in fig.axes:
        assert not legend.overlaps(ax.get_tightbbox(renderer)), ax.get_title(loc="left")


@pytest.mark.filterwarnings("ignore:No artists with labels")
def test_power_for_an_absent_geometry_is_an_empty_panel():
    fig = plot_power(_power(), geometry="clustered")
    assert len(fig.axes) == 2
    assert fig.axes[0].get_title(loc="left") == "(none) (clustered): pairs certified"


def test_power_draws_every_certificate_under_its_own_style():
    extra = _power()
    extra = pd.concat([extra, extra[extra["method"] == "reserved"].assign(method="dp-sniper")],
                      ignore_index=True)
    fig = plot_power(extra, geometry="dispersed")
    ax = fig.axes[0]
    styles = {line.get_label(): line.get_linestyle() for line in ax.get_lines()}
    assert styles["n=30 learned"] == "-" and styles["n=30 exact LR"] == "--"
    assert styles["n=30 dp-sniper"] == "-." and styles["n=100 dp-sniper"] == "-."


def test_appendix_table_figure_draws_ours_and_the_papers():
    from privlab.ui.figures import plot_appendix_table

    index = pd.MultiIndex.from_tuples([("exact", 30), ("learned", 30)], names=["test", "n"])
    ours = pd.DataFrame([[0.0, 1.0], [0.0, 0.5]], index=index, columns=[0.0, 32.0])
    paper = pd.DataFrame([[0.0, 0.85]], index=index[:1], columns=[0.0, 32.0])
    fig = plot_appendix_table(ours, paper, title="Table 6")
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["exact, n=30", "exact, n=30 (paper)", "learned, n=30"]
    lines = {line.get_label(): line for line in fig.axes[0].get_lines()}
    assert list(lines["exact, n=30 (paper)"].get_ydata()) == [0.0, 0.85]
    assert fig.axes[0].get_title() == "Table 6"


def test_a_figure_drawn_too_wide_is_drawn_again_at_the_display_width():
    import base64

    fig, axes = plt.subplots(1, 4, figsize=(19.8, 4))  # 1,980 px, as Figure 3 was
    for ax in axes:
        ax.plot([0, 1], [0, 1], label="a legend entry")
        ax.legend(fontsize="medium")
    size = axes[0].get_legend().get_texts()[0].get_fontsize()
    report = Report()
    report.figure(fig, close=False)
    (output,) = report.outputs()
    width, _ = png_size(base64.b64decode(output["data"]["image/png"]))
    assert DISPLAY_WIDTH_PX * 0.85 <= width <= DISPLAY_WIDTH_PX
    assert axes[0].get_legend().get_texts()[0].get_fontsize() == size  # text kept its size
