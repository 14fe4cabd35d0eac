"""The known-ε figures: panels, titles and axis labels on small benchmark summaries."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from privlab.ui.figures import plot_method_curves, plot_power  # noqa: E402


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
    assert tuple(fig.get_size_inches()) == (13.0, 9.5)
    legend_sizes = {t.get_fontsize() for ax in axes for t in ax.get_legend().get_texts()}
    assert min(legend_sizes) >= 9
    assert all(ax.get_xscale() == "symlog" for ax in axes)
    # MMD-TV is drawn for the pure-DP Laplace family only, with its tighter value
    mmd_labels = [t.get_text() for t in axes[2].get_legend().get_texts()]
    assert mmd_labels == ["laplace", "tighter 2·artanh(MMD/√2)"]
    roc_labels = [t.get_text() for t in axes[3].get_legend().get_texts()]
    assert "laplace optimal AUC" in roc_labels and "gaussian optimal AUC" in roc_labels


def test_power_has_fraction_and_bound_rows_per_mechanism():
    fig = plot_power(_power(), geometry="dispersed")
    axes = fig.axes
    assert len(axes) == 4  # 2 rows x 2 mechanisms
    top, bottom = axes[:2], axes[2:]
    assert [ax.get_title() for ax in top] == ["gaussian (dispersed)", "laplace (dispersed)"]
    assert {ax.get_ylabel() for ax in top} == {"fraction of pairs with bound > 0"}
    assert {ax.get_ylabel() for ax in bottom} == {"median certified lower bound"}
    assert {ax.get_xlabel() for ax in axes} == {"exact median pairwise ε"}
    labels = [t.get_text() for t in top[0].get_legend().get_texts()]
    assert labels == ["n=30 learned", "n=30 exact LR", "n=100 learned", "n=100 exact LR"]


@pytest.mark.filterwarnings("ignore:No artists with labels")
def test_power_for_an_absent_geometry_is_an_empty_panel():
    fig = plot_power(_power(), geometry="clustered")
    assert len(fig.axes) == 2 and fig.axes[0].get_title() == "(none) (clustered)"


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
