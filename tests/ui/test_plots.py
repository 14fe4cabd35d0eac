"""The shared figures: bars per audited item, the privacy-utility scatter, the witness gallery."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

from privlab.contrastive import Witness, audit, audit_many  # noqa: E402
from privlab.datasets import quickstart  # noqa: E402
from privlab.encoders import LexicalEncoder  # noqa: E402
from privlab.encoders.image import ImageEncoder  # noqa: E402
from privlab.resolution import resolution  # noqa: E402
from privlab.sanitizers import ConceptListSanitizer, Identity  # noqa: E402
from privlab.ui import plots  # noqa: E402

RED, GREY = to_rgba(plots.FLAGGED), to_rgba(plots.PASSED)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _bar_colors(ax) -> list[tuple]:
    return [tuple(p.get_facecolor()) for p in ax.patches]


# ---------------------------------------------------------------------------------------
# per_item_violations
# ---------------------------------------------------------------------------------------
def _known_resolution():
    # Unit rows of S are the basis vectors, so a_ij = T[j, i] exactly.
    S = np.eye(4)
    T = np.array([[0.5, -0.25, 0.0, 0.125],
                  [0.0, -0.5, 0.25, 0.125]])
    return resolution(S, T, dtype="float64", device="cpu")


def test_per_item_violations_bars_match_per_audited_and_delta():
    res = _known_resolution()
    np.testing.assert_array_equal(res.per_audited, [0.5, -0.25, 0.25, 0.125])

    ax = plots.per_item_violations(res.per_audited, ["a", "b", "c", "d"], delta=0.25,
                                   title="known trials")
    assert len(ax.patches) == 4
    assert [p.get_height() for p in ax.patches] == [0.5, -0.25, 0.25, 0.125]
    assert [p.get_x() + p.get_width() / 2 for p in ax.patches] == [0, 1, 2, 3]
    # Red exactly where the item is flagged at this delta (0.25 itself counts).
    assert _bar_colors(ax) == [RED, GREY, RED, GREY]
    assert [i for i, c in enumerate(_bar_colors(ax)) if c == RED] == res.flagged(0.25).tolist()
    # The dashed delta line and its legend entry.
    (line,) = ax.lines
    assert list(line.get_ydata()) == [0.25, 0.25] and line.get_linestyle() == "--"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["delta = 0.25"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c", "d"]
    assert all(t.get_rotation() == 0 for t in ax.get_xticklabels())
    assert ax.get_xlabel() == "audited item"
    assert ax.get_ylabel() == "largest signed difference"
    assert ax.get_title(loc="left") == "known trials"
    # A new figure sized to the items: at least 4 inches wide, 3 high.
    assert tuple(ax.figure.get_size_inches()) == (4.0, 3.0)


def test_per_item_violations_default_delta_flags_positive_items_only():
    res = _known_resolution()
    ax = plots.per_item_violations(res.per_audited)
    assert _bar_colors(ax) == [RED, GREY, RED, RED]
    assert [i for i, c in enumerate(_bar_colors(ax)) if c == RED] == res.flagged().tolist()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "2", "3"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["delta = 0"]
    assert ax.get_title(loc="left") == ""
    # An item at exactly 0 is not red at delta 0.
    ax = plots.per_item_violations(np.array([0.0, 0.1]))
    assert _bar_colors(ax) == [GREY, RED]


def test_per_item_violations_on_a_real_audit_into_a_given_axes():
    texts = list(quickstart.TEXTS)
    weak = ConceptListSanitizer(list(quickstart.WEAK_CONCEPTS), name="weak")
    member = audit(texts, weak, encoders=[LexicalEncoder(256)]).members[0]
    values = member.resolution.per_audited
    assert values.shape == (12,)

    fig, (left, right) = plt.subplots(1, 2)
    delta = float(np.median(values))
    returned = plots.per_item_violations(values, [f"t{i}" for i in range(12)], delta=delta,
                                         ax=right)
    assert returned is right and len(left.patches) == 0
    assert len(right.patches) == 12
    np.testing.assert_allclose([p.get_height() for p in right.patches], values)
    red = [i for i, c in enumerate(_bar_colors(right)) if c == RED]
    assert red == member.resolution.flagged(delta).tolist()
    assert red == [i for i, v in enumerate(values) if v >= delta and v > 0]
    assert all(t.get_rotation() == 0 for t in right.get_xticklabels())  # 12 is not > 12
    assert len(fig.axes) == 2


def test_per_item_violations_rotates_many_labels_and_widens_the_figure():
    values = np.linspace(-0.2, 0.4, 20)
    ax = plots.per_item_violations(values, delta=0.1)
    assert len(ax.patches) == 20
    assert all(t.get_rotation() == 90 for t in ax.get_xticklabels())
    assert tuple(ax.figure.get_size_inches()) == pytest.approx((9.0, 3.0))
    assert sum(c == RED for c in _bar_colors(ax)) == int((values >= 0.1).sum()) == 10


# ---------------------------------------------------------------------------------------
# privacy_utility_scatter
# ---------------------------------------------------------------------------------------
def _overlaps(ax) -> list[tuple[str, str]]:
    """Pairs of labels whose drawn boxes intersect."""
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in ax.texts if t.get_text()]
    return [(a, b) for i, (a, box_a) in enumerate(boxes) for b, box_b in boxes[i + 1:]
            if box_a.overlaps(box_b)]


def test_labels_of_points_at_the_same_place_are_one_label_and_the_others_move_apart():
    # Study 03's case: identity and regex-pii both change nothing (utility 1, resolution
    # 0), and three list sanitizers sit close together.
    frame = pd.DataFrame({
        "sanitizer": ["identity", "regex-pii", "concept-list", "concept-list-broad",
                      "presidio", "entity-types"],
        "encoder": ["minilm"] * 6,
        "resolution": [0.0, 0.0, 0.072, 0.110, 0.480, 0.437],
        "utility": [1.0, 1.0, 0.77, 0.73, 0.80, 0.79],
    })
    ax = plots.privacy_utility_scatter(frame, title="comments")
    assert sorted(t.get_text() for t in ax.texts) == sorted(
        ["identity, regex-pii", "concept-list", "concept-list-broad", "presidio", "entity-types"])
    assert _overlaps(ax) == []
    # Every label stays inside the axes, readable.
    ax.figure.canvas.draw()
    inside = ax.get_window_extent()
    for text in ax.texts:
        box = text.get_window_extent()
        assert inside.x0 - 1 <= box.x0 and box.x1 <= inside.x1 + 1, text.get_text()


def test_labels_at_one_height_do_not_overlap():
    # Study 01's case: every sanitizer at resolution 0 under a member.
    names = [f"sanitizer number {i}" for i in range(8)]
    frame = pd.DataFrame({"sanitizer": names, "encoder": ["sface"] * 8,
                          "resolution": [0.0] * 8,
                          "utility": np.linspace(0.90, 0.97, 8)})
    ax = plots.privacy_utility_scatter(frame)
    assert _overlaps(ax) == []


def test_projector_switches_to_large_print_and_back():
    import matplotlib as mpl

    plots.projector(True)
    assert plots.projecting()
    large = mpl.rcParams["font.size"]
    _, ax = plt.subplots()
    assert ax.xaxis.label.get_size() >= large
    plots.projector(False)
    assert not plots.projecting() and mpl.rcParams["font.size"] < large
    cycle = mpl.rcParams["axes.prop_cycle"].by_key()["color"]
    assert [to_rgba(c) for c in cycle[:3]] == [to_rgba(c) for c in plots.PALETTE[:3]]


def test_the_delta_legend_sits_above_the_bars():
    values = np.array([0.2, 0.05, 0.21, 0.2, 0.0, 0.21, 0.06, 0.0, 0.04, 0.2, 0.0, 0.0])
    ax = plots.per_item_violations(values, delta=0.0, title="weak list")
    ax.figure.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert legend.y0 >= ax.get_window_extent().y1 - 1  # above the plotting area
def test_privacy_utility_scatter_from_a_real_audit_table():
    texts = list(quickstart.TEXTS)
    sanitizers = [Identity(),
                  ConceptListSanitizer(list(quickstart.WEAK_CONCEPTS), name="weak"),
                  ConceptListSanitizer(list(quickstart.STRONG_CONCEPTS),
                                       name="strong list of thirty-one concepts")]
    table = audit_many(texts, sanitizers, encoders=[LexicalEncoder(64), LexicalEncoder(512)])
    frame = table.to_frame()
    assert len(frame) == 6

    ax = plots.privacy_utility_scatter(frame, title="quickstart")
    # One marker set per member, in the order they appear, three sanitizers each.
    assert len(ax.collections) == 2
    for collection, name in zip(ax.collections, ["lexical-64", "lexical-512"]):
        rows = frame[frame["encoder"] == name]
        np.testing.assert_allclose(collection.get_offsets(),
                                   rows[["utility", "resolution"]].to_numpy())
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["lexical", "lexical"]
    # Identity removes nothing: resolution 0 and utility 1 for both members.
    ident = frame[frame["sanitizer"] == "identity"]
    np.testing.assert_allclose(ident[["utility", "resolution"]].to_numpy(), [[1, 0], [1, 0]])
    # Names in full; identity's two points (both at utility 1, resolution 0) share one
    # label, and no label overlaps another.
    labels = [t.get_text().replace("\n", " ") for t in ax.texts]
    assert labels.count("identity") == 1
    assert labels.count("weak") == 2 and labels.count("strong list of thirty-one concepts") == 2
    assert _overlaps(ax) == []
    assert ax.get_xlabel() == "utility: cosine(original, sanitized), per member"
    assert ax.get_ylabel() == "resolution δ* (lower is more private)"
    assert ax.get_title(loc="right") == "quickstart"
    assert any(list(line.get_ydata()) == [0, 0] for line in ax.lines)


def test_privacy_utility_scatter_known_frame_into_a_given_axes():
    frame = pd.DataFrame({
        "sanitizer": ["a", "b", "c", "a", "b"],
        "encoder": ["m1", "m1", "m1", "m2" * 30, "m2" * 30],
        "resolution": [0.0, 0.1, 0.3, 0.2, 0.05],
        "utility": [1.0, 0.8, 0.5, 0.9, 0.7],
    })
    fig, ax = plt.subplots()
    returned = plots.privacy_utility_scatter(frame, ax=ax)
    assert returned is ax
    assert [len(c.get_offsets()) for c in ax.collections] == [3, 2]
    np.testing.assert_array_equal(ax.collections[0].get_offsets(),
                                  [[1.0, 0.0], [0.8, 0.1], [0.5, 0.3]])
    np.testing.assert_array_equal(ax.collections[1].get_offsets(), [[0.9, 0.2], [0.7, 0.05]])
    # Long member names are never cut short.
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["m1", "m2" * 30]
    # Members use different markers.
    paths = [c.get_paths()[0].vertices.tolist() for c in ax.collections]
    assert paths[0] != paths[1]
    assert len([t for t in ax.texts if t.get_text()]) == 5 and ax.get_title(loc="right") == ""


# ---------------------------------------------------------------------------------------
# witness_gallery
# ---------------------------------------------------------------------------------------
class _Thumbnail(ImageEncoder):
    """Grey 8 x 8 thumbnail, centred: a small offline image encoder."""

    name = "test-thumbnail-8"

    def _encode(self, items):
        out = []
        for item in items:
            grey = np.asarray(item, dtype=float).mean(axis=2)
            h, w = grey.shape
            thumb = grey[: h - h % 8, : w - w % 8].reshape(8, h // 8, 8, w // 8).mean(axis=(1, 3))
            out.append(thumb.ravel() - thumb.mean())
        return np.array(out)


def _photos() -> list[np.ndarray]:
    from skimage import data

    return [np.ascontiguousarray(img[::8, ::8, :3]) for img in
            (data.astronaut(), data.chelsea(), data.coffee())]


def test_witness_gallery_shows_a_real_image_witness():
    from privlab.sanitizers.image import RegionSanitizer, UserRegions

    photos = _photos()
    boxes = [[(16, 8, 48, 40)], [(20, 10, 40, 30)], [(0, 0, 30, 30)]]
    sanitizer = RegionSanitizer(UserRegions(boxes), dilate=0, name="boxes")
    result = audit(photos, sanitizer, encoders=[_Thumbnail()])
    w = result.members[0].witness
    assert (w.audited, w.reference) == result.members[0].resolution.witness

    fig = plots.witness_gallery(w)
    assert len(fig.axes) == 3
    expected = [w.audited_sanitized, w.reference_original, w.reference_sanitized]
    for ax, label, img in zip(fig.axes, ["sanitized x", "original y", "sanitized y"], expected):
        (shown,) = ax.images
        np.testing.assert_array_equal(shown.get_array(), img)
        assert ax.get_xlabel() == label
        assert list(ax.get_xticks()) == [] and list(ax.get_yticks()) == []
    # The sanitized panel carries the blacked-out box, the original does not.
    assert result.unchanged == 0
    assert not np.array_equal(fig.axes[1].images[0].get_array(),
                              fig.axes[2].images[0].get_array())
    assert fig._suptitle.get_text() == (f"x = {w.audited}, y = {w.reference}: signed difference "
                                        f"{w.difference:+.4f}")


def test_witness_gallery_words_and_title():
    rng = np.random.default_rng(0)
    imgs = [rng.integers(0, 256, size=(6, 5, 3), dtype=np.uint8) for _ in range(3)]
    w = Witness(2, 5, -0.03125, None, imgs[0], imgs[1], imgs[2])
    words = {"sanitized x": "a man in a spacesuit " * 5, "original y": "a cat"}

    fig = plots.witness_gallery(w, words=words)
    labels = [ax.get_xlabel() for ax in fig.axes]
    # The words are wrapped, never cut mid-word; past four lines an ellipsis says so.
    assert labels == ["sanitized x\n“a man in a spacesuit a man in a spacesuit\n"
                      "a man in a spacesuit a man in a spacesuit\na man in a spacesuit”",
                      "original y\n“a cat”",
                      "sanitized y\n“”"]
    assert max(len(line) for line in labels[0].split("\n")) <= 43  # 42 wide, and a quote
    assert fig._suptitle.get_text() == "x = 2, y = 5: signed difference -0.0312"
    for ax, img in zip(fig.axes, imgs):
        np.testing.assert_array_equal(ax.images[0].get_array(), img)

    fig = plots.witness_gallery(Witness(0, 1, 0.25, None, imgs[0], imgs[1], imgs[2]),
                                title="custom")
    assert fig._suptitle.get_text() == "custom"
    assert [ax.get_xlabel() for ax in fig.axes] == ["sanitized x", "original y", "sanitized y"]
    assert tuple(fig.get_size_inches()) == pytest.approx((9.6, 3.3))  # the width shown


def _study_frame(sanitizers: list[str], seed: int) -> pd.DataFrame:
    """Six sanitizers under the four members of studies 01 and 02, many at resolution 0."""
    rng = np.random.default_rng(seed)
    members = ["sface", "describe[ocr+faces]-minilm-ge3b0c442-m0.363-f0.8",
               "describe[ocr]-minilm", "efficientnet-lite0-imagenet"]
    rows = []
    for member in members:
        for name in sanitizers:
            zero = rng.random() < 0.4
            rows.append({"sanitizer": name, "encoder": member,
                         "resolution": 0.0 if zero else round(rng.uniform(0, 0.3), 3),
                         "utility": 0.95 if zero else round(rng.uniform(0.6, 1.0), 2)})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("sanitizers", [
    ["cues:every cue", "cues:faces only", "cues:second face left", "face-blackout-yunet",
     "faces-and-text-blackout", "face-blur-yunet"],
    ["cues:logos and food (name tags)", "cues:logos only", "cues:food only", "cues:every cue",
     "cues:name tags only", "text-blackout-ocr"]])
def test_many_points_are_numbered_with_a_key_that_names_each_in_full(sanitizers):
    ax = plots.privacy_utility_scatter(_study_frame(sanitizers, seed=2))
    *labels, key = ax.texts
    assert _overlaps(ax) == []
    for k, name in enumerate(sanitizers, start=1):
        assert f"{k} {name}" in key.get_text().replace("\n", "   ")  # never cut short
    numbers = {int(n) for t in labels for n in t.get_text().split(", ")}
    assert numbers == set(range(1, len(sanitizers) + 1))
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    inside = ax.get_window_extent(renderer)
    for text in labels:
        box = text.get_window_extent(renderer)
        assert inside.x0 - 1 <= box.x0 and box.x1 <= inside.x1 + 1, text.get_text()
    assert not key.get_window_extent(renderer).overlaps(ax.xaxis.label.get_window_extent(renderer))


def test_every_cost_curve_the_notebook_names_is_drawn_with_its_seconds():
    import dataclasses
    import re
    from pathlib import Path

    from privlab.studies import scale

    config = dataclasses.replace(scale.Config.smoke(), cost_sizes=(40, 80))
    cost = scale.ScaleResult(config, cost=scale._cost_curve(config)).cost_frame()
    ax = plots.cost_curve(cost)
    drawn = {line.get_label(): line for line in ax.get_lines()}
    # Each column of seconds is a curve, point for point.
    assert plots.seconds_columns(cost) == ["plain s", "certified s (none)",
                                           "certified s (planted)"]
    for column in plots.seconds_columns(cost):
        line = drawn[plots.series_label(column)]
        np.testing.assert_allclose(line.get_xdata(), cost["trials"])
        np.testing.assert_allclose(line.get_ydata(), cost[column])
    # What the notebook says of the curve names only paths the figure draws.
    text = Path(__file__).resolve().parents[2].joinpath("notebooks", "11_scale.py").read_text()
    paragraph = re.search(r"\*\*The cost curve\.\*\*(.*?)\n\n", text, re.S).group(1)
    paragraph = " ".join(line.lstrip("# ") for line in paragraph.splitlines())
    named = [path for path in ("plain kernel", "certified path", "screen", "cluster")
             if path in paragraph]
    assert named == ["plain kernel", "certified path"]
    for path in named:
        assert any(label.startswith(path) for label in drawn), path
    # "follows it without a leak and stays far below it with one": both cases drawn.
    assert {"certified path (no leak)", "certified path (planted leak)"} <= set(drawn)
