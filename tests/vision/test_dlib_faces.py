"""dlib faces: another detector family on the shipped photos, its descriptor and its metric."""

from __future__ import annotations

import numpy as np
import pytest

import real_photos as rp
from privlab.vision import dlib_faces as dl
from privlab.vision.faces import detect_faces


def test_detects_the_shipped_faces_and_tells_the_two_people_apart():
    from skimage import data

    photo = data.astronaut()
    found = dl.detect_faces_dlib(photo, 0.3)
    assert len(found) == 1 and found[0].score > 1.0  # the mission patch (0.12) is dropped
    hopper = rp.heads()[rp.OTHER]
    mirrored = np.ascontiguousarray(photo[:, ::-1])
    vectors = [dl.dlib_face_features(x, dl.detect_faces_dlib(x, 0.3)[:1])[0]
               for x in (photo, mirrored, hopper)]
    same, other = np.linalg.norm(vectors[0] - vectors[1]), np.linalg.norm(vectors[0] - vectors[2])
    assert same < dl.DLIB_MATCH_DISTANCE / 2 and other > dl.DLIB_MATCH_DISTANCE  # 0.19, 0.70
    u = dl.identity_vectors(np.array(vectors))
    assert u[0] @ u[1] > 0.8 and u[0] @ u[2] < 0.35  # raw descriptors: cosine 0.99 and 0.88
    raw = np.array(vectors) / np.linalg.norm(vectors, axis=1, keepdims=True)
    assert raw[0] @ raw[2] > 0.8  # why the member does not use raw cosines
    assert dl.dlib_face_features(photo, []).shape == (0, dl.DLIB_DIM)


def test_rotated_face_that_yunet_scores_under_a_blackout_threshold_is_found():
    images, boxes, _ = rp.face_corpus(rp.FRAMES[5:6])
    rotated = boxes[0][0]  # Grace Hopper rotated 40 degrees
    yunet = [f.score for f in detect_faces(images[0], 0.3) if rp.overlaps(f.box, rotated, 0)]
    hog = [f.score for f in dl.detect_faces_dlib(images[0], 0.3) if rp.overlaps(f.box, rotated, 0)]
    assert max(yunet, default=0) < 0.5 and hog  # YuNet 0.45, dlib 0.43


def test_upsampling_finds_smaller_faces_and_errors():
    frame = rp.backgrounds()[0].copy()
    rp.paste(frame, rp.head(rp.TARGET, 26), 100, 100)
    assert dl.detect_faces_dlib(frame, 0.0, upsample=1) == []
    assert len(dl.detect_faces_dlib(frame, 0.0, upsample=2)) == 1
    with pytest.raises(ValueError, match="'upsample' parameter of detect_faces_dlib"):
        dl.detect_faces_dlib(frame, upsample=3)
    assert set(dl.dlib_model_paths()) == {"shape_predictor_5", "resnet", "mmod"}
