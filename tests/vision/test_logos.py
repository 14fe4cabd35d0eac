"""Logos: the scikit-image logo found in real photos by SIFT + RANSAC, and nowhere else."""

from __future__ import annotations

import numpy as np
import pytest

import real_photos as rp
from privlab.vision.logos import LogoMatch, match_logos
from privlab.vision.text_changes import box_iou


@pytest.fixture(scope="session")
def gallery():
    from skimage import data

    return {rp.BRAND: [data.logo()]}


@pytest.fixture(scope="session")
def storefronts():
    return rp.brand_corpus()


def test_finds_the_warped_logo_in_every_storefront_with_its_box(gallery, storefronts):
    images, logo_boxes, _ = storefronts
    assert sum(map(len, logo_boxes)) == 4
    for image, boxes in zip(images, logo_boxes):
        found = match_logos(image, gallery)
        assert [m.name for m in found] == [rp.BRAND] * len(boxes)
        if not boxes:
            continue  # the brand's name on a sign is not its logo
        truth = boxes[0]
        assert isinstance(found[0], LogoMatch) and found[0].inliers >= 12
        assert box_iou(found[0].box, truth) > 0.85, (found[0].box, truth)


def test_no_logo_in_real_photos_without_it_nor_after_a_blackout(gallery, storefronts):
    from skimage import data

    for photo in (*rp.backgrounds(), data.astronaut(), data.coffee(), data.chelsea(),
                  data.rocket(), data.camera()):
        assert match_logos(photo, gallery) == []
    images, logo_boxes, _ = storefronts
    for image, boxes in zip(images, logo_boxes):
        assert match_logos(rp.blackout(image, boxes), gallery) == []


def test_two_copies_in_one_frame_are_two_matches(gallery):
    frame = rp.backgrounds()[0].copy()
    first = rp.warp_logo(frame, 140, [[0, 0], [0, 10], [0, 0], [0, -6]], 40, 40)
    second = rp.warp_logo(frame, 120, [[4, 0], [-4, 4], [0, 0], [6, -4]], 430, 230)
    found = match_logos(rp.jpeg(frame), gallery)
    assert len(found) == 2
    for truth in (first, second):
        assert max(box_iou(m.box, truth) for m in found) > 0.85


def test_input_errors(gallery):
    image = np.zeros((50, 50, 3), np.uint8)
    with pytest.raises(ValueError, match="'min_inliers' parameter of match_logos"):
        match_logos(image, gallery, min_inliers=3)
    with pytest.raises(TypeError, match="'gallery' parameter of match_logos"):
        match_logos(image, [np.zeros((5, 5, 3), np.uint8)])
    with pytest.raises(ValueError, match="non-empty list"):
        match_logos(image, {"brand": []})
    assert match_logos(image, gallery) == []  # a blank photo has no keypoints
