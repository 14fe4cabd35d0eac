"""Face members on real-photo compositions: blind spots, a second family, and marks ignored."""

from __future__ import annotations

import numpy as np
import pytest

import real_photos as rp
from privlab.contrastive import audit
from privlab.encoders import registry
from privlab.encoders.face_identity import DlibFaceEncoder, SFaceEncoder
from privlab.sanitizers import registry as sanitizers

# The module's shared fixtures are built once: its tests stay on one xdist worker.
pytestmark = pytest.mark.xdist_group("encoders.test_face_identity")


@pytest.fixture(scope="session")
def corpus():
    return rp.face_corpus()


@pytest.fixture(scope="session")
def members():
    return {"sface": SFaceEncoder(), "dlib": DlibFaceEncoder()}


def _values(originals, sanitized, members):
    result = audit(originals, sanitized=sanitized, encoders=list(members.values()))
    return {k: m for k, m in zip(members, result.members)}


def test_yunet_blackout_is_a_blind_spot_of_sface_that_dlib_reports(corpus, members):
    images, _, _ = corpus
    sanitized = sanitizers.create("face-blackout-yunet").sanitize(images)
    out = _values(images, sanitized, members)
    assert out["sface"].value == 0.0  # same detector: it cannot see what the blackout missed
    assert out["dlib"].value > 0.5  # measured 0.91
    witness = out["dlib"].witnesses[0]
    assert witness.audited == 5  # frame 5: Grace Hopper rotated 40 degrees, YuNet score 0.45
    assert members["dlib"].faces(witness.audited_sanitized)


def test_haar_blackout_misses_rotated_faces_both_families_see(corpus, members):
    images, _, _ = corpus
    sanitized = sanitizers.create("face-blackout-haar").sanitize(images)
    out = _values(images, sanitized, members)
    assert out["dlib"].value > 0.5 and out["sface"].value > 0.3  # measured 0.99, 0.62
    assert out["dlib"].witnesses[0].audited in (4, 5)  # the rotated faces Haar missed
    assert out["sface"].witnesses[0].audited in (4, 5)


def test_placebo_boxes_move_neither_member(corpus, members):
    images, faces, texts = corpus
    placebo = rp.placebo_of(images, sanitizers.create("face-blackout-yunet"),
                            [f + t for f, t in zip(faces, texts)])
    out = _values(images, placebo, members)
    assert out["dlib"].value < 0.02 and out["sface"].value < 0.03  # measured 0.0 and 0.012


def test_a_blurred_smudge_of_a_too_small_face_is_not_a_face():
    frame = rp.face_corpus([rp.BLUR_FRAME])[0][0]
    blurred = sanitizers.create("face-blur-yunet", blur=6).sanitize([frame])[0]
    old = SFaceEncoder(min_detail=0)
    assert old.faces(frame) == [] and SFaceEncoder().faces(frame) == []  # all under 24 px
    smudge = old.faces(blurred)
    assert len(smudge) == 1 and smudge[0].score >= 0.8  # measured 26 x 31 at 0.85
    assert SFaceEncoder().faces(blurred) == []  # the member's rule: no detail, no face
    E = SFaceEncoder().encode([frame, blurred])
    assert E[0, -1] == 1.0 and E[1, -1] == 1.0  # both renderings: the no-face coordinate
    assert old.encode([blurred])[0, -1] == 0.0


def test_members_are_registered_with_their_metadata():
    entry = registry.entry("dlib-face")
    assert entry.factory is DlibFaceEncoder
    assert entry.meta["requires"] == "dlib" and entry.meta["offline"] is True
    assert "dlib-bin==20.0.1.post1" in entry.meta["install"]
    assert registry.available("dlib-face")
    enc = registry.create("dlib-face")
    assert enc.name == "dlib-face-t0.3-u1-m24-b0.2-d1-k0.4x2048"
    assert enc.describe()["no_face"] == "e_2048"
    E = enc.encode([np.full((120, 160, 3), 90, np.uint8)])
    assert E.shape == (1, 2049) and E[0, -1] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="'upsample' parameter of DlibFaceEncoder"):
        DlibFaceEncoder(upsample=5)
    with pytest.raises(ValueError, match="'min_detail' parameter of SFaceEncoder"):
        SFaceEncoder(min_detail=-1)
