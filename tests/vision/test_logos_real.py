"""The logo finder the brand study uses, on the contrastive-privacy paper's real photos.

Gallery: crops of the Golden Arches cut at run time from photos that are never
evaluated; positives: the held-out ('test') restaurant photos whose arches this project
labelled visible; negatives: the held-out photos without a logo (the paper's DiCaprio
photos and concept photos). Labels and split: benchmarks/data/mcdonalds_arches.json.
The finder (:func:`privlab.vision.logo_finder.fit_logo_finder`, what the study fits
from a gallery folder with a finder.json) is fitted on the crops, the gallery photos'
boxes and, as backgrounds, concept photos outside both splits and the package photos;
its threshold is chosen
on those backgrounds by its own rule (chosen on the dev photos), never on these.

Also scored: 242 more concept photos without a logo that no choice was made on
(``unseen_negatives``), for the false-find rate.

Slow (about 80 fitting photos, 50 held-out and 242 unseen photos through
EfficientNet-Lite0 at two sizes): run with ``-m slow``.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = ROOT.parent / "shared" / "data" / "paper" / "images"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the paper's photos are not at {PHOTOS} "
                       "(third-party data, see ../shared/data/README.md)"),
]


@lru_cache(maxsize=1)
def _benchmark():
    spec = importlib.util.spec_from_file_location("benchmark_logos", ROOT / "benchmarks" / "logos.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    data = bench.load_labels(PHOTOS)
    return bench, data, bench.fit_finder(data)


@lru_cache(maxsize=1)
def _held_out():
    bench, data, finder = _benchmark()
    return bench.evaluate(finder.find, data["positives"]["test"], data["negatives"]["test"])


def test_the_finder_is_fitted_on_no_dev_or_test_photo():
    bench, data, finder = _benchmark()
    p = finder.provenance
    assert p["fitted_on"].startswith("4 gallery crops, 5 source photos with boxes, 72 given")
    assert "0.9 quantile" in p["threshold_rule"]
    evaluated = {p.name for p in data["positives"]["test"] + data["negatives"]["test"]
                 + data["positives"]["dev"] + data["negatives"]["dev"]}
    fitted = {p.name for p, _ in data["examples"]["gallery"]} | {p.name for p in data["train_negatives"]}
    assert not evaluated & fitted


@lru_cache(maxsize=1)
def _held_out_coverage():
    """Coverage by what the study's logo-blackout sanitizer paints (not the bare boxes)."""
    from privlab.sanitizers import registry

    bench, data, finder = _benchmark()
    sanitizer = registry.create("logo-blackout", logos=dict(data["gallery"]), finder=finder)
    return bench.coverage(finder.find, data["scoring_boxes"]["test"], paint=sanitizer.mask)


@pytest.mark.xfail(strict=True, reason="not reached: a find in 2 of the 29 held-out photos "
                   "without a logo (0.069) at the threshold the finder's rule chose on its "
                   "backgrounds (2 of 78 development photos, 0.026); the target is 0.05")
def test_at_most_one_false_find_per_20_photos_without_a_logo():
    """Counted in photos (a photo wrongly said to show the logo): the finder marks several
    boxes around one decision (its extension), so boxes are not separate finds; the
    boxes per photo are asserted below so they stay in view."""
    result = _held_out()
    assert result["negatives"] == 29
    assert result["photos_with_a_false_find"] <= 1 / 20, result


@lru_cache(maxsize=1)
def _unseen():
    bench, data, finder = _benchmark()
    return bench.evaluate(finder.find, [], data["negatives"]["unseen"])


@pytest.mark.xfail(strict=True, reason="not reached: a find in 27 of the 242 concept photos "
                   "without a logo that no choice was made on (0.112; at the 0.95 quantile 24, "
                   "0.099); the target is 0.05")
def test_at_most_one_false_find_per_20_unseen_photos_without_a_logo():
    """The concept photos after the development ones (``unseen_negatives`` in the label
    file), scored after logo-finder-5 was chosen: more photos than the 29 held out, so a
    rate of 1 in 20 can be told from 1 in 10 (objects, animals, rooms; no event photos)."""
    result = _unseen()
    assert result["photos_with_a_false_find"] <= 1 / 20, result


def test_the_unseen_photos_are_neither_fitted_on_nor_evaluated_elsewhere():
    bench, data, finder = _benchmark()
    unseen = {p.name for p in data["negatives"]["unseen"]}
    assert len(unseen) == 242
    others = {p.name for split in ("dev", "test") for p in data["negatives"][split]
              + data["positives"][split]}
    others |= {p.name for p in data["train_negatives"]}
    others |= {p.name for p, _ in data["examples"]["gallery"]}
    assert not unseen & others


def test_false_finds_on_the_unseen_photos_stay_where_they_were_measured():
    """27 of 242 photos (0.112), 177 boxes, when first measured; a regression guard, not
    the target (above)."""
    result = _unseen()
    assert result["negatives"] == 242 and result["positives"] == 0
    assert result["negatives_with_a_find"] <= 27, result["negatives_found"]
    assert len(result["negatives_found"]) == result["negatives_with_a_find"]


def test_false_finds_are_counted_in_photos_and_boxes():
    """Today: 2 of 29 photos, 7 boxes (the extension marks up to 16 around a find)."""
    result = _held_out()
    assert result["negatives_with_a_find"] == round(result["photos_with_a_false_find"] * 29)
    assert result["false_finds_per_photo"] * 29 >= result["negatives_with_a_find"]
    assert result["negatives_with_a_find"] <= 2, result


def test_finds_the_arches_in_80_percent_of_held_out_photos():
    """15 of 18 (0.83) with the recipe chosen on dev (10 of 10 there)."""
    result = _held_out()
    assert result["positives"] == 18
    assert result["recall"] >= 0.8, result


def test_a_blackout_of_the_found_boxes_covers_an_arch_in_80_percent_of_photos():
    """What the study's logo blackout paints, scored on the arches' boxes drawn in the
    held-out photos after the method was chosen (eval_boxes, never fitted on): at least
    80% of a box blacked out counts as covered. Today 15 of 18 photos have at least one
    arch covered, 27 of the 38 arches, every one in 12 (without the extension,
    logo-finder-3: 21 arches, every one in 7; the same when the sanitizer dropped the
    extension's boxes, which score below the threshold)."""
    c = _held_out_coverage()
    assert c["photos"] == 18 and c["boxes"] == 38
    assert c["photos_any"] >= 0.8 * c["photos"], c
    assert c["covered"] >= 27, c
    assert c["photos_covered"] >= 12, c


@pytest.mark.xfail(strict=True, reason="not reached: the logo blackout covers every "
                   "drawn arch in 12 of the 18 held-out photos (27 of the 38 arches); the "
                   "target is 80% of photos")
def test_a_blackout_of_the_found_boxes_removes_every_arch_in_80_percent_of_photos():
    c = _held_out_coverage()
    assert c["photos_covered"] >= 0.8 * c["photos"], c


@pytest.mark.xfail(strict=True, reason="not reached: after the logo blackout, a "
                   "second search by the same finder (the study's logo check) flags 0 of the 3 "
                   "found held-out photos with an arch left, and 2 of the 12 with every arch "
                   "covered")
def test_the_logo_check_flags_every_found_photo_with_an_arch_left():
    c = _held_out_coverage()
    assert c["left"] + c["cleared"] == 15, c
    assert c["left_flagged"] == c["left"], c


@lru_cache(maxsize=1)
def _placebo():
    bench, data, finder = _benchmark()
    return bench.placebo_on_arches(finder, data["gallery"], data["scoring_boxes"]["test"])


def test_the_placebo_marks_something_and_stays_off_nearly_every_drawn_arch():
    """Today the placebo of the text blackout marks none of the 38 drawn arches (it avoids
    the finder's possible logos; avoiding only its finds, it marked 1) and marks
    something in 15 of the 18 held-out photos; that of the logo blackout marks 2 arches,
    in 2 photos (arches the finder's boxes leave out in photos where it found others),
    and marks something in 8 (its pieces are large and often find no room)."""
    placebo = _placebo()
    assert set(placebo) == {"logo blackout (mcdonalds)", "text blackout (OCR)"}
    for r in placebo.values():
        assert r["photos"] == 18 and r["boxes"] == 38, r
    text, logo = placebo["text blackout (OCR)"], placebo["logo blackout (mcdonalds)"]
    # Placebos with marks, not empty ones.
    assert text["marked"] >= 15 and logo["marked"] >= 8, placebo
    assert text["touched"] == 0, placebo
    assert logo["photos_touched"] <= 2, placebo


@pytest.mark.xfail(strict=True, reason="not reached: the placebo of the logo blackout marks "
                   "2 of the 38 drawn arches (2 of 18 held-out photos): arches the finder's "
                   "boxes leave out in photos where it found others")
def test_the_placebo_marks_no_drawn_arch():
    for name, r in _placebo().items():
        assert r["touched"] == 0, (name, r)


def test_finds_the_arches_in_far_more_held_out_photos_than_keypoint_matching():
    """Keypoint matching (SIFT + RANSAC, the baseline) with the same gallery finds far
    fewer."""
    from privlab.vision.logos import match_logos

    result = _held_out()
    bench, data, _ = _benchmark()
    baseline = bench.evaluate(lambda rgb: match_logos(rgb, data["gallery"]),
                              data["positives"]["test"], [])
    assert result["recall"] >= baseline["recall"] + 0.4, (result, baseline)
