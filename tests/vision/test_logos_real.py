"""The learned-feature logo finder on the contrastive-privacy paper's real photos.

Gallery: crops of the Golden Arches cut at run time from photos that are never
evaluated; positives: the held-out ('test') restaurant photos whose arches this project
labelled visible; negatives: the held-out photos without a logo (the paper's DiCaprio
photos and concept photos). Labels and split: benchmarks/data/mcdonalds_arches.json.
The threshold was chosen on the 'dev' photos, never on these.

Slow (about 50 photos through EfficientNet-Lite0 at two sizes): run with ``-m slow``.
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
    return bench, bench.load_labels(PHOTOS)


@lru_cache(maxsize=1)
def _held_out():
    from privlab.vision.logos import find_logos

    bench, data = _benchmark()
    gallery = data["gallery"]
    return bench.evaluate(lambda rgb: find_logos(rgb, gallery),
                          data["positives"]["test"], data["negatives"]["test"])


def test_at_most_one_photo_in_20_without_a_logo_has_a_find():
    result = _held_out()
    assert result["negatives"] == 29
    assert result["negatives_with_a_find"] / result["negatives"] <= 1 / 20, result


@pytest.mark.xfail(strict=True, reason="not reached: the one held-out photo without a logo "
                   "that has a find has 4 boxes, 0.14 false finds per photo; the target is 0.05")
def test_at_most_one_false_find_per_20_photos_without_a_logo():
    result = _held_out()
    assert result["false_finds_per_photo"] <= 1 / 20, result


@pytest.mark.xfail(strict=True, reason="not reached: after blacking out the found boxes (grid "
                   "windows, coarser than the mark) the arches are found again in 2 of 11 photos")
def test_a_blackout_of_the_found_boxes_removes_the_arches():
    result = _held_out()
    assert result["found_again_after_blackout"] == 0.0, result


@pytest.mark.xfail(strict=True, reason="not reached: the arches are found in 11 of the 18 "
                   "held-out photos (0.61) at the development threshold; the target is 0.8")
def test_finds_the_arches_in_80_percent_of_held_out_photos():
    result = _held_out()
    assert result["positives"] == 18
    assert result["recall"] >= 0.8, result


def test_finds_the_arches_in_far_more_held_out_photos_than_keypoint_matching():
    """The level reached (0.61) holds, and keypoint matching (SIFT + RANSAC, the
    baseline) with the same gallery finds far fewer."""
    from privlab.vision.logos import match_logos

    result = _held_out()
    assert result["recall"] >= 0.6, result
    bench, data = _benchmark()
    baseline = bench.evaluate(lambda rgb: match_logos(rgb, data["gallery"]),
                              data["positives"]["test"], [])
    assert result["recall"] >= baseline["recall"] + 0.4, (result, baseline)
