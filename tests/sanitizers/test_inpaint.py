"""Inpainting members on real photos: the face or the text is gone and no black box is left."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from privlab.sanitizers import registry
from privlab.vision.faces import SFACE_MATCH_THRESHOLD, detect_faces, face_features
from tests.sanitizers.photos import (astronaut, black_share, changed_share, grace_hopper,
                                     people_scene, read_names)


@lru_cache(maxsize=None)
def _photos():
    scene = people_scene()
    return {"collins": astronaut(), "hopper": grace_hopper(), "scene": scene.image,
            "scene-small-jpeg": scene.scaled(0.6, 70).image}


def _grown(box, d, shape):
    x0, y0, x1, y1 = box
    return max(0, x0 - d), max(0, y0 - d), min(shape[1], x1 + d), min(shape[0], y1 + d)


def _edge_contrast(rgb, box, ring=6):
    """Mean colour difference between a region's inside and the ring just outside it:
    how visible the mark is (a black box on a photo: 70 or more)."""
    x0, y0, x1, y1 = box
    inside = rgb[y0 + ring:y1 - ring, x0 + ring:x1 - ring].reshape(-1, 3).mean(axis=0)
    around = np.zeros(rgb.shape[:2], dtype=bool)
    around[max(0, y0 - ring):y1 + ring, max(0, x0 - ring):x1 + ring] = True
    around[y0:y1, x0:x1] = False
    return float(np.abs(inside - rgb[around].mean(axis=0)).mean())


def _max_identity(before, after):
    """Largest SFace cosine between a face of ``before`` and anything YuNet calls a face
    in ``after`` (down to score 0.3); -1 when nothing is found."""
    faces = detect_faces(after, 0.3)
    if not faces:
        return -1.0
    return float((face_features(before, detect_faces(before, 0.6))
                  @ face_features(after, faces).T).max())


@pytest.mark.parametrize("mode", ["inpaint-telea", "inpaint-ns"])
def test_face_inpaint_removes_identity_without_a_black_box(mode):
    inpaint = registry.create("face-inpaint-yunet", mode=mode)
    blackout = registry.create("face-blackout-yunet")
    for label, photo in _photos().items():
        boxes = [_grown(f.box, 4, photo.shape) for f in detect_faces(photo, 0.5)]
        assert boxes, label
        out = inpaint.sanitize([photo])[0]
        black = blackout.sanitize([photo])[0]
        for box in boxes:
            assert black_share(out, box) < 0.05 and black_share(black, box) > 0.95, label
            assert _edge_contrast(out, box) < 25 < 70 < _edge_contrast(black, box), label
        # whatever YuNet still calls a face is nobody SFace would match to the original
        assert _max_identity(photo, out) < SFACE_MATCH_THRESHOLD, label
        outside = np.ones(photo.shape[:2], dtype=bool)
        for x0, y0, x1, y1 in boxes:
            outside[y0:y1, x0:x1] = False
        assert (out[outside] == photo[outside]).all(), label


def test_blur_keeps_identity_where_inpainting_does_not():
    # the measure above can fail: a blurred Grace Hopper is still Grace Hopper to SFace
    hopper = _photos()["hopper"]
    blurred = registry.create("face-blur-yunet").sanitize([hopper])[0]
    assert _max_identity(hopper, blurred) > 0.6


def test_text_inpaint_removes_the_names_and_keeps_the_cards_white():
    scene = people_scene()
    for image, cards in [(scene.image, scene.cards), (scene.scaled(0.6, 70).image,
                                                      scene.scaled(0.6, 70).cards)]:
        assert read_names(image) == set(scene.names)
        out = registry.create("text-inpaint-ocr").sanitize([image])[0]
        assert read_names(out) == set()
        for card in cards.values():
            x0, y0, x1, y1 = card
            assert black_share(out, card) < 0.01
            assert out[y0:y1, x0:x1].mean() > 225  # the card is blank, not boxed
        outside = np.ones(image.shape[:2], dtype=bool)
        for card in cards.values():
            x0, y0, x1, y1 = _grown(card, 8, image.shape)
            outside[y0:y1, x0:x1] = False
        assert (out[outside] == image[outside]).all()


def test_faces_and_text_inpaint_does_both():
    scene = people_scene()
    out = registry.create("faces-and-text-inpaint").sanitize([scene.image])[0]
    assert read_names(out) == set() and detect_faces(out, 0.5) == []
    whole = (0, 0, 960, 640)  # no new black: the helmet and the shadows were black before
    assert black_share(out, whole) <= black_share(scene.image, whole) + 0.001
    assert 0.02 < changed_share(out, scene.image) < 0.15
