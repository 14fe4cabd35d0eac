"""The ladder face -> face + text -> whole person -> full image on a real composition."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from privlab.sanitizers import ladder as sl
from privlab.sanitizers import registry
from privlab.sanitizers.people import mediapipe_available
from tests.sanitizers.photos import (astronaut, black_share, face_boxes, grace_hopper,
                                     people_scene, read_names, remaining_faces)

needs_mediapipe = pytest.mark.skipif(not mediapipe_available(),
                                     reason="MediaPipe is not installed (make venv installs it)")


@lru_cache(maxsize=None)
def _rungs():
    scene = people_scene()
    return scene, {name: registry.create(name).sanitize([scene.image])[0] for name in sl.LADDER}


def test_ladder_names_are_registered_image_members():
    assert len(sl.LADDER) == 4 and list(sl.LADDER_LABELS) == list(sl.LADDER)
    for name in sl.LADDER:
        entry = registry.entry(name)
        assert entry.meta["modality"] == "image"
    assert registry.entry("full-blackout").meta["offline"] is True


@needs_mediapipe
def test_each_rung_removes_what_it_says_and_no_less_than_the_one_before():
    scene, out = _rungs()
    face, face_text, person, full = (out[name] for name in sl.LADDER)
    assert len(face_boxes(scene.image)) == 2 and read_names(scene.image) == set(scene.names)
    # 1. faces only: the name cards still read, the bodies are there
    assert remaining_faces(face) == []
    assert read_names(face) == set(scene.names)
    assert all(black_share(face, b) < 0.05 for b in scene.bodies.values())
    # 2. faces and text: no name is read any more, the bodies are still there
    assert remaining_faces(face_text) == [] and read_names(face_text) == set()
    assert all(black_share(face_text, c) > 0.6 for c in scene.cards.values())
    assert all(black_share(face_text, b) < 0.05 for b in scene.bodies.values())
    # 3. whole people and text: the bodies are gone, the temple and the sky are not
    assert remaining_faces(person) == [] and read_names(person) == set()
    assert all(black_share(person, b) > 0.95 for b in scene.bodies.values())
    assert all(black_share(person, bg) < 0.02 for bg in scene.background)
    # 4. nothing left
    assert int(full.max()) == 0 and full.shape == scene.image.shape
    assert face_boxes(full, 0.3) == [] and read_names(full) == set()
    removed = [black_share(out[name], (0, 0, 960, 640)) for name in sl.LADDER]
    assert removed == sorted(removed) and removed[0] > 0.03 and removed[-1] == 1.0
    for lower, higher in zip(sl.LADDER, sl.LADDER[1:]):  # what a rung removes stays removed
        black = out[lower].max(axis=2) <= 8
        assert (out[higher].max(axis=2)[black] <= 8).mean() > 0.98, (lower, higher)


def test_full_blackout_keeps_only_the_size():
    photos = [astronaut(), grace_hopper()]
    outs = registry.create("full-blackout").sanitize(photos)
    assert [o.shape for o in outs] == [p.shape for p in photos]
    assert all(o.dtype == np.uint8 and not o.any() for o in outs)
    with pytest.raises(TypeError, match="items"):
        registry.create("full-blackout").sanitize(["not an image"])


def test_full_blackout_gives_every_member_resolution_zero():
    from privlab.contrastive import audit

    scene = people_scene()
    photos = [astronaut(), grace_hopper(), scene.image, scene.scaled(0.6, 70).image]
    members = ["efficientnet-lite0", "sface"]
    full = audit(photos, registry.create("full-blackout"), encoders=members)
    assert [m.value for m in full.members] == [0.0, 0.0]
    # the control is not trivially passed: faces alone leave a violation on this set
    face = audit(photos, registry.create("face-blackout-yunet"), encoders=members[:1])
    assert face.members[0].value > 0.005
