"""The concept checks, renderings read near their marks, sanitizer-induced text, and a
placebo that keeps clear of logos: on compositions of the photos packages ship."""

from __future__ import annotations

import numpy as np
import pytest

from real_photos import BRAND, TARGET, backgrounds, brand_corpus, card, face_corpus, \
    heads, jpeg, paste


def _captioned_photo():
    """A photo with two text cards far apart: a caption and a sign."""
    frame = backgrounds()[0].copy()
    caption = paste(frame, card("EILEEN COLLINS", 24), 40, 60)
    sign = paste(frame, card("OPEN DAILY", 24), 360, 280)
    return jpeg(frame), caption, sign


def test_read_rendering_reads_near_the_marks_and_keeps_the_rest():
    from privlab.vision.ocr import read_rendering, read_text, rendering_of
    from privlab.hashing import content_hash

    photo, caption, sign = _captioned_photo()
    before = [w.text for w in read_text(photo)]
    assert any("EILEEN" in t for t in before) and any("OPEN" in t for t in before)
    boxed = photo.copy()
    x0, y0, x1, y1 = caption
    boxed[y0:y1, x0:x1] = 0
    after = read_rendering(photo, boxed)
    texts = [w.text for w in after]
    assert not any("EILEEN" in t for t in texts)
    # the sign, far from the box, keeps the original's reading (the same object)
    sign_before = [w for w in read_text(photo) if "OPEN" in w.text]
    assert [w for w in after if "OPEN" in w.text] == sign_before
    assert read_text(boxed) == after  # every later reader gets this reading
    origin = rendering_of(boxed)
    assert origin.original == content_hash(photo) and origin.marks.sum() == (x1 - x0) * (y1 - y0)
    with pytest.raises(ValueError, match="rendering"):
        read_rendering(photo, boxed[:10])


def test_text_a_sanitizer_makes_is_induced_and_left_out_of_the_words():
    from privlab.encoders.image import DescribeThenEmbedEncoder
    from privlab.vision.ocr import read_rendering

    photo, caption, sign = _captioned_photo()
    released = photo.copy()
    x0, y0, x1, y1 = sign
    # a box 12 px left of the sign, and new text appearing beside it (within the margin
    # read again, not under the box): what an OCR re-reading near a mark can produce
    released[y0:y1, x0 - 60:x0 - 12] = 0
    marks = np.zeros(photo.shape[:2], bool)
    marks[y0:y1, x0 - 60:x0 - 12] = True
    paste(released, card("SAMSUNG", 14), x0 - 50, y1 + 2)
    read_rendering(photo, released, marks)
    member = DescribeThenEmbedEncoder(use_faces=False)
    made = member.induced_text(released)
    assert len(made) == 1 and made[0][0].text.startswith("SAMS")  # as OCR reads it
    new, why = made[0][0].text, made[0][1]
    assert why == "not in the original"
    described = member.describe_images([released])[0]
    assert new in described.raw_words and new not in described.words
    assert described.induced == (f"{new!r} (not in the original)",)
    assert any("OPEN" in w for w in described.words)  # the real sign stays
    # an original has no induced text
    assert member.induced_text(photo) == []


def test_sface_and_dlib_checks_find_a_blurred_face_but_not_a_blacked_out_one():
    import cv2

    from privlab.vision.concepts import concept_checks

    images, faces, _ = face_corpus()
    photo, box = images[3], faces[3][0]  # a 52-pixel target face
    checks, notes = concept_checks(faces={TARGET: [heads()[TARGET]]}, names=[TARGET])
    kinds = [c.name.split(" · ")[0] for c in checks]
    assert kinds[0] == "face" and "name" in kinds
    sface = checks[0]
    assert sface.find(photo) and sface.find(photo)[0].startswith(TARGET)
    x0, y0, x1, y1 = box
    blurred, black = photo.copy(), photo.copy()
    blurred[y0:y1, x0:x1] = cv2.GaussianBlur(photo[y0:y1, x0:x1], (0, 0), 2.0)
    black[y0:y1, x0:x1] = 0
    assert sface.find(blurred), "a lightly blurred face still matches under SFace"
    assert not sface.find(black)
    name = next(c for c in checks if c.kind == "name")
    assert name.find(photo) and "Collins" in name.find(photo)[0]


def test_placebo_keeps_clear_of_gallery_logos_and_says_what_it_avoided():
    from skimage import data

    from privlab.contrastive.placebo import ImagePlacebo
    from privlab.studies._images import _LogoBoxes

    images, logo_boxes, _ = brand_corpus()
    photo, (logo,) = images[0], logo_boxes[0]
    sanitized = photo.copy()
    sanitized[10:130, 470:630] = 0  # a large box: its placebo has little room
    twin = ImagePlacebo(None, avoid=[_LogoBoxes({BRAND: [data.logo()]})], seed=3)
    out = twin.apply([photo], [sanitized])[0]
    plan = twin.placements[0]
    assert plan.avoided_parts["logos"] == 1
    assert "1 logos" in plan.avoided_text and "text lines" in plan.avoided_text
    x0, y0, x1, y1 = logo
    assert not plan.placebo[y0:y1, x0:x1].any()
    assert (out[y0:y1, x0:x1] == photo[y0:y1, x0:x1]).all()
