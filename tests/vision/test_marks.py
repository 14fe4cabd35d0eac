"""Sanitization marks on real photos: blurred faces lose their detail, black boxes are blank."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import real_photos as rp
from privlab.sanitizers import registry as sanitizers
from privlab.vision.faces import detect_faces
from privlab.vision.marks import BLUR_DETAIL, blank_mask, detail, inpaint_marks, is_blurred


def _faces_at_every_size():
    """Real faces from 16 to about 340 pixels wide, sharp, JPEG re-encoded and enlarged."""
    from skimage import data

    out = [data.astronaut(), rp.heads()[rp.OTHER]]
    out.append(cv2.resize(rp.heads()[rp.OTHER], None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC))
    out.append(cv2.resize(data.astronaut(), None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC))
    for px in (16, 20, 24, 40, 60):
        frame = rp.backgrounds()[1].copy()
        rp.paste(frame, rp.head(rp.TARGET, px), 60, 80)
        rp.paste(frame, rp.head(rp.OTHER, px), 300, 90)
        out += [frame, rp.jpeg(frame, 60)]
    return out


def test_sharp_faces_keep_detail_and_blurred_faces_lose_it():
    blur = sanitizers.create("face-blur-yunet")
    sharp, blurred = [], []
    for image in _faces_at_every_size():
        faces = detect_faces(image, 0.5)
        assert faces
        sharp += [detail(image, f.box) for f in faces]
        if max(f.box[2] - f.box[0] for f in faces) > 100:
            continue  # a 12-pixel blur leaves a 180-pixel face its detail (and identity)
        smudged = rp.jpeg(blur.sanitize([image])[0], 75)
        # what a detector still finds where the faces were blurred
        blurred += [detail(smudged, f.box) for f in detect_faces(smudged, 0.5)
                    if any(rp.overlaps(f.box, g.box, 0) for g in faces)]
    # measured: sharp 1.74 (16-pixel faces on flowers) to 16; blurred 0.25 to 0.71
    assert min(sharp) > 1.5 * BLUR_DETAIL, sorted(sharp)[:3]
    assert len(blurred) >= 8 and max(blurred) < 0.8 * BLUR_DETAIL, sorted(blurred)[-3:]


def test_blank_mask_finds_black_boxes_and_little_else_in_real_photos():
    from skimage import data

    for photo in (*rp.backgrounds(), data.astronaut(), data.coffee(), data.chelsea()):
        natural = blank_mask(rp.jpeg(photo, 85)).mean()
        boxed = rp.jpeg(rp.blackout(photo, [(40, 40, 140, 120), (250, 200, 330, 260)]), 85)
        mask = blank_mask(boxed)
        assert mask[45:115, 45:135].mean() > 0.95 and mask[205:255, 255:325].mean() > 0.95
        assert mask.mean() - natural == pytest.approx((100 * 80 + 80 * 60) / mask.size, abs=0.01)
        assert natural < 0.2  # smooth sky may count; textured scenes do not


def test_inpainting_removes_the_box_and_keeps_the_photo():
    photo = rp.backgrounds()[0]
    boxed = rp.blackout(photo, [(200, 150, 300, 250)])
    filled = inpaint_marks(boxed)
    assert filled.shape == (256, 384, 3)
    scale = 256 / photo.shape[0]
    y0, y1, x0, x1 = (int(v * scale) for v in (150, 250, 200, 300))
    assert filled[y0 + 3:y1 - 3, x0 + 3:x1 - 3].max(axis=2).min() > 20  # no black left
    small = cv2.resize(photo, (384, 256), interpolation=cv2.INTER_AREA)
    outside = np.ones(small.shape[:2], bool)
    outside[y0 - 3:y1 + 3, x0 - 3:x1 + 3] = False
    assert np.abs(filled.astype(int) - small)[outside].mean() < 0.2  # the rest is (nearly) untouched


def test_is_blurred_and_input_errors():
    photo = rp.backgrounds()[0]
    assert not is_blurred(photo, (100, 100, 200, 200))
    assert is_blurred(cv2.GaussianBlur(photo, (25, 25), 0), (100, 100, 200, 200))
    assert detail(photo, (10, 10, 11, 11)) == 0.0  # too small to measure
    with pytest.raises(ValueError, match="'inner' parameter of detail"):
        detail(photo, (0, 0, 10, 10), inner=0)
    with pytest.raises(ValueError, match="'mask' parameter of inpaint_marks"):
        inpaint_marks(photo, np.zeros((3, 3), bool))
