"""Faces: YuNet on the shipped photos, the blackout guard, SFace vectors and their pooling."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.datasets.scenes import CELEBRITY_TARGET, OTHER_PERSON, shipped_faces
from privlab.vision import faces as vf
from image_helpers import canvas


def test_detect_faces_on_the_astronaut_photo():
    from skimage import data

    photo = data.astronaut()
    found = vf.detect_faces(photo)
    assert len(found) == 1
    x0, y0, x1, y1 = found[0].box
    assert 0 <= x0 < x1 <= photo.shape[1] and 0 <= y0 < y1 <= photo.shape[0]
    assert 0.6 <= found[0].score <= 1
    assert vf.detect_faces(data.coffee()) == []
    assert vf.detect_faces(photo, min_size=photo.shape[0]) == []
    with pytest.raises(ValueError, match="'threshold' parameter of detect_faces"):
        vf.detect_faces(photo, threshold=1.0)


def test_face_features_match_the_same_person_only():
    faces = shipped_faces()
    collins, hopper = canvas(faces[CELEBRITY_TARGET]), canvas(faces[OTHER_PERSON])
    mirrored = canvas(faces[CELEBRITY_TARGET][:, ::-1].copy())
    vectors = [vf.face_features(img, vf.detect_faces(img)[:1])[0]
               for img in (collins, mirrored, hopper)]
    assert all(v.shape == (vf.FACE_DIM,) for v in vectors)
    np.testing.assert_allclose([np.linalg.norm(v) for v in vectors], 1.0, atol=1e-9)
    assert vectors[0] @ vectors[1] > vf.SFACE_MATCH_THRESHOLD
    assert vectors[0] @ vectors[2] < vf.SFACE_MATCH_THRESHOLD
    assert vf.face_features(collins, []).shape == (0, vf.FACE_DIM)


def test_guard_ignores_faces_on_a_blackout_edge():
    collins = shipped_faces()[CELEBRITY_TARGET]
    img = canvas(collins)
    face = vf.detect_faces(img, 0.6)[0]
    x0, y0, x1, y1 = face.box
    half = img.copy()
    half[(y0 + y1) // 2 - 10:y1, x0:x1] = 0  # the lower part of the face blacked out
    seen = vf.detect_faces(half, 0.3)
    assert seen, "the detector must still fire on the half-covered face for this test"
    assert all(vf.black_fraction(half, f.box) > 0.2 for f in seen)
    assert vf.usable_faces(half, threshold=0.3) == []


def test_face_coordinates_pool_and_keep_the_no_face_coordinate():
    none = vf.face_coordinates(np.zeros((0, vf.FACE_DIM)))
    assert none[-1] == 1.0 and not none[:-1].any()
    e = np.eye(vf.FACE_DIM)
    opposite = vf.face_coordinates(np.stack([e[0], -e[0]]))  # cancelling faces keep the first
    assert opposite[0] == 1.0 and opposite[-1] == 0.0
    one = vf.face_coordinates(e[3:4])
    assert one[3] == 1.0 and np.linalg.norm(one) == pytest.approx(1.0)


def test_model_paths_are_the_shipped_onnx_files():
    det, rec = vf.face_model_paths()
    assert "yunet" in det and "sface" in rec
