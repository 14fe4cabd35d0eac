"""The learned-feature logo finder on the contrastive-privacy paper's real photos.

Gallery: crops of the Golden Arches cut at run time from photos that are never
evaluated; positives: the held-out ('test') restaurant photos whose arches this project
labelled visible; negatives: the held-out photos without a logo (the paper's DiCaprio
photos and concept photos). Labels and split: benchmarks/data/mcdonalds_arches.json.
The learned head is fitted on the dev and gallery photos' boxes and on concept photos
outside both splits; its threshold is chosen by cross-validation on the dev photos, never
on these.

Slow (the head's fitting photos and about 50 held-out photos through EfficientNet-Lite0
at two sizes): run with ``-m slow``.
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
    head, chosen = bench.fit_head(data)
    return bench, data, head, chosen


@lru_cache(maxsize=1)
def _held_out():
    from privlab.vision.logos import find_logos

    bench, data, head, _ = _benchmark()
    gallery = data["gallery"]
    return bench.evaluate(lambda rgb: find_logos(rgb, gallery, head=head),
                          data["positives"]["test"], data["negatives"]["test"])


def test_the_threshold_is_chosen_on_dev_photos_only():
    bench, data, head, chosen = _benchmark()
    assert head.threshold == chosen["threshold"]
    assert chosen["dev_negatives_with_a_find"] == 0  # just above the best dev negative window
    test_files = {p.name for p in data["positives"]["test"] + data["negatives"]["test"]}
    fitted = {p.name for p, _ in data["examples"]["dev"] + data["examples"]["gallery"]}
    fitted |= {p.name for p in data["negatives"]["dev"] + data["train_negatives"]}
    assert not test_files & fitted


def test_at_most_one_false_find_per_20_photos_without_a_logo():
    result = _held_out()
    assert result["negatives"] == 29
    assert result["false_finds_per_photo"] <= 1 / 20, result


def test_a_blackout_of_the_found_boxes_removes_the_arches_in_80_percent_of_photos():
    result = _held_out()
    assert result["found_again_after_blackout"] <= 0.2, result


@pytest.mark.xfail(strict=True, reason="not reached: the head finds the arches in 12 of the 18 "
                   "held-out photos (0.67) at the threshold chosen on dev; the target is 0.8")
def test_finds_the_arches_in_80_percent_of_held_out_photos():
    result = _held_out()
    assert result["positives"] == 18
    assert result["recall"] >= 0.8, result


def test_finds_the_arches_in_far_more_held_out_photos_than_keypoint_matching():
    """The level reached (12 of 18) holds, and keypoint matching (SIFT + RANSAC, the
    baseline) with the same gallery finds far fewer."""
    from privlab.vision.logos import match_logos

    result = _held_out()
    assert result["recall"] >= 12 / 18, result
    bench, data, _, _ = _benchmark()
    baseline = bench.evaluate(lambda rgb: match_logos(rgb, data["gallery"]),
                              data["positives"]["test"], [])
    assert result["recall"] >= baseline["recall"] + 0.4, (result, baseline)
