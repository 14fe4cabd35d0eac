"""Identity scenes: ground truth, determinism and refusals of the fine-tuning corpus."""

from __future__ import annotations

import hashlib

import pytest

from privlab.datasets.identity_scenes import IDENTITY_KINDS, SIGNATURES, identity_scenes
from privlab.datasets.scenes import CELEBRITY_TARGET, OTHER_PERSON
from privlab.errors import PrivlabValueError


def test_identity_scenes_ground_truth():
    corpus = identity_scenes("Grace Hopper", 3, seed=2)
    assert [sorted(s.kinds()) for s in corpus.scenes] == [["face", "signature"], ["face"],
                                                          ["face", "signature"]]
    assert corpus.scenes[0].cues[1].label == "coffee picture"
    assert corpus.kinds == IDENTITY_KINDS and corpus.target == OTHER_PERSON
    with pytest.raises(PrivlabValueError, match="'person' parameter of identity_scenes"):
        identity_scenes("John Doe", 2)


def test_boxes_lie_on_the_canvas_and_never_overlap():
    corpus = identity_scenes(CELEBRITY_TARGET, 6, seed=1, signature_every=3)
    assert [("signature" in s.kinds()) for s in corpus.scenes] == [True, False, False] * 2
    assert corpus.scenes[0].cues[1].label == SIGNATURES[CELEBRITY_TARGET]
    for scene in corpus.scenes:
        height, width = scene.image.shape[:2]
        boxes = [c.box for c in scene.cues]
        for x0, y0, x1, y1 in boxes:
            assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height
        if len(boxes) == 2:
            (a0, _, a1, _), (b0, _, b1, _) = boxes
            assert a1 <= b0 or b1 <= a0  # the portrait and the signature sit in opposite halves


def test_same_seed_same_pixels_and_provenance():
    one = identity_scenes(CELEBRITY_TARGET, 2, seed=4)
    two = identity_scenes(CELEBRITY_TARGET, 2, seed=4)
    assert all((a == b).all() for a, b in zip(one.images, two.images))
    digest = hashlib.sha256(b"".join(img.tobytes() for img in one.images)).hexdigest()[:16]
    assert one.provenance["pixels_sha256"] == two.provenance["pixels_sha256"] == digest
    other = identity_scenes(CELEBRITY_TARGET, 2, seed=5)
    assert other.provenance["pixels_sha256"] != one.provenance["pixels_sha256"]
    with pytest.raises(PrivlabValueError, match="'signature_every' parameter"):
        identity_scenes(CELEBRITY_TARGET, 2, signature_every=0)
