"""Placebo twins: the same marks, moved where no cue is, on real photos and real texts."""

from __future__ import annotations

import re
from functools import lru_cache, partial
from pathlib import Path

import numpy as np
import pytest

from privlab.contrastive import audit, audit_many
from privlab.contrastive.placebo import ImagePlacebo, TextPlacebo, placebo_of
from privlab.sanitizers import ConceptListSanitizer, Identity
from privlab.sanitizers import registry as sanitizers
from privlab.sanitizers.image import RegionSanitizer, UserRegions
from privlab.sanitizers.text import BOX, RegexPIISanitizer
from privlab.vision.faces import detect_faces


# --------------------------------------------------------------------------- real photos
@lru_cache(maxsize=None)
def _astronaut() -> np.ndarray:
    from skimage import data

    return data.astronaut()


@lru_cache(maxsize=None)
def _hopper() -> np.ndarray:
    import matplotlib
    from PIL import Image

    path = Path(matplotlib.get_data_path()) / "sample_data" / "grace_hopper.jpg"
    return np.asarray(Image.open(path).convert("RGB"))


@lru_cache(maxsize=None)
def _china() -> np.ndarray:
    from sklearn.datasets import load_sample_images

    return load_sample_images().images[0]


def _jpeg(rgb: np.ndarray, quality: int = 70) -> np.ndarray:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, "JPEG", quality=quality)
    return np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))


def _resized(rgb: np.ndarray, scale: float) -> np.ndarray:
    from PIL import Image

    h, w = rgb.shape[:2]
    return np.asarray(Image.fromarray(rgb).resize((int(w * scale), int(h * scale)),
                                                  Image.LANCZOS))


def _face_mask(rgb: np.ndarray) -> np.ndarray:
    mask = np.zeros(rgb.shape[:2], bool)
    for face in detect_faces(rgb, 0.5):
        x0, y0, x1, y1 = face.box
        mask[y0:y1, x0:x1] = True
    return mask


# The astronaut as shipped, mirrored and JPEG-compressed, and downscaled: one face each.
VARIANTS = {
    "astronaut": lambda: _astronaut(),
    "mirrored jpeg": lambda: _jpeg(_astronaut()[:, ::-1].copy()),
    "downscaled": lambda: _resized(_astronaut(), 0.6),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_face_blackout_placebo_moves_the_box_off_the_face_keeping_its_size(variant):
    image = VARIANTS[variant]()
    real = sanitizers.create("face-blackout-yunet")
    twin = placebo_of(real)
    out = twin.sanitize([image])[0]
    plan = twin.placements[0]
    face = _face_mask(image)
    assert face.sum() > 2000  # the face is found in every variant
    assert plan.pieces == 1 and plan.area > 0.9 * face.sum()
    assert plan.placebo_area == plan.area and twin.coverage == 1.0  # same size, found room
    assert not (plan.placebo & face).any() and not (plan.placebo & plan.real).any()
    assert plan.overlap == 0.0
    assert (out[plan.placebo] == 0).all()  # blackout stays blackout, pixel for pixel
    assert not (np.any(out != image, axis=2) & ~plan.placebo).any()  # and nothing else
    np.testing.assert_array_equal(out[face], image[face])  # the face is left as it was
    assert len(detect_faces(out, 0.5)) == 1


def test_placement_is_seeded_and_changes_with_the_seed():
    image = _astronaut()
    real = sanitizers.create("face-blackout-yunet")
    first = ImagePlacebo(real, seed=0).sanitize([image])[0]
    again = ImagePlacebo(real, seed=0).sanitize([image])[0]
    other = ImagePlacebo(real, seed=7).sanitize([image])[0]
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)


def test_blur_placebo_blurs_and_never_blacks_out():
    image = _astronaut()
    twin = placebo_of(sanitizers.create("face-blur-yunet"))
    out = twin.sanitize([image])[0]
    plan = twin.placements[0]
    changed = np.any(out != image, axis=2)
    assert changed.sum() > 0.5 * plan.area and not (changed & ~plan.placebo).any()
    assert (out[plan.placebo] > 0).mean() > 0.95  # blurred pixels, not a black box
    # a blur smooths: the region's pixel-to-pixel variation drops
    ys, xs = np.nonzero(plan.placebo)
    box = (slice(ys.min(), ys.max() + 1), slice(xs.min(), xs.max() + 1))
    assert np.abs(np.diff(out[box].astype(int), axis=1)).mean() < np.abs(
        np.diff(image[box].astype(int), axis=1)).mean()


def test_a_portrait_with_no_cue_free_room_gets_fewer_marks_never_the_face():
    image = _hopper()  # the face fills most of the frame
    twin = placebo_of(sanitizers.create("face-blackout-yunet"))
    twin.sanitize([image])
    plan = twin.placements[0]
    assert plan.area > 0 and twin.coverage < 1.0
    assert not (plan.placebo & _face_mask(image)).any()
    overlap = ImagePlacebo(sanitizers.create("face-blackout-yunet"), room="overlap")
    overlap.sanitize([image])
    assert overlap.coverage == 1.0 and overlap.mean_overlap > 0  # same area, partly on cues


def test_text_blackout_placebo_keeps_clear_of_every_text_line():
    from PIL import Image, ImageDraw, ImageFont

    from privlab.vision.ocr import read_text

    canvas = Image.fromarray(_china().copy())
    draw = ImageDraw.Draw(canvas)
    try:
        font = ImageFont.truetype("DejaVuSans-Bold.ttf", 40)
    except OSError:
        font = ImageFont.load_default(size=40)
    draw.rectangle((40, 30, 420, 90), fill=(255, 255, 255))
    draw.text((50, 35), "GREAT WALL TOURS", fill=(0, 0, 0), font=font)
    image = np.asarray(canvas)
    lines = read_text(image)
    assert any("GREAT" in w.text.upper() for w in lines)
    twin = placebo_of(sanitizers.create("text-blackout-ocr"))
    twin.sanitize([image])
    plan = twin.placements[0]
    assert plan.area > 0 and plan.placebo_area == plan.area
    for word in lines:
        x0, y0, x1, y1 = word.box
        assert not plan.placebo[y0:y1, x0:x1].any(), word


def _left_half(rgb):
    return [(0, 0, rgb.shape[1] // 2, rgb.shape[0])]


def test_any_sanitizer_through_its_outputs_and_an_avoid_detector():
    image = _china()
    boxes = [[(300, 100, 380, 160)]]
    real = RegionSanitizer(UserRegions(boxes), dilate=0)  # positional: read off the pixels
    sanitized = real.sanitize([image])
    twin = ImagePlacebo(None, avoid=[_left_half], avoid_faces=False, avoid_text=False)
    out = twin.apply([image], sanitized)[0]
    plan = twin.placements[0]
    assert plan.area == 80 * 60 and plan.placebo_area == plan.area
    assert not plan.placebo[:, : image.shape[1] // 2].any()  # the avoided half stays clean
    assert ((out == 0).all(axis=2) & plan.placebo).sum() == plan.area
    with pytest.raises(ValueError, match="sanitizer"):
        twin.sanitize([image])


def test_identity_has_an_identity_placebo_and_bad_inputs_are_refused():
    image = _china()
    twin = placebo_of(Identity(modality="image"))
    np.testing.assert_array_equal(twin.sanitize([image])[0], image)
    assert twin.coverage == 1.0
    with pytest.raises(TypeError):
        ImagePlacebo(ConceptListSanitizer(["x"]))
    with pytest.raises(ValueError, match="room"):
        ImagePlacebo(None, room="anywhere")
    with pytest.raises(ValueError, match="modality"):
        placebo_of(None)
    with pytest.raises(ValueError, match="one output per original"):
        ImagePlacebo(None).apply([image, image], [image])


# --------------------------------------------------------------------------- texts
EMAILS = [
    "Ken Lay told the board that the merger would close before the quarterly earnings call.",
    "Please forward the revised pipeline schedule to Ken Lay before Friday afternoon.",
    "The trading desk reported strong margins while the chairman stayed quiet about losses.",
]


def test_text_placebo_boxes_as_many_letters_elsewhere():
    real = ConceptListSanitizer(["Ken Lay", "chairman"])
    twin = placebo_of(real, names=["Kenneth Lay"])
    sanitized = real.sanitize(EMAILS)
    out = twin.apply(EMAILS, sanitized)
    for original, real_out, placebo_out in zip(EMAILS, sanitized, out):
        runs = [len(r) for r in re.findall(BOX + "+", real_out)]
        placebo_runs = [len(r) for r in re.findall(BOX + "+", placebo_out)]
        assert len(placebo_runs) == len(runs)  # as many words boxed
        # of the closest lengths: "Ken Lay" has 3 + 3 letters, the second email's only
        # lowercase 3-letter word is "the", so "to" (2) stands for the other
        assert abs(sum(placebo_runs) - sum(runs)) <= 1
        assert len(placebo_out) == len(original)
        assert placebo_out.count("Ken Lay") == original.count("Ken Lay")  # the concept stays
        assert ("chairman" in placebo_out) == ("chairman" in original)
        for before, after in zip(original.split(), placebo_out.split()):
            if BOX in after:  # a boxed word was lowercase, no concept and no name
                assert before[0].islower() and before.lower() not in ("ken", "lay", "kenneth")
    assert twin.marked == 5 and twin.shortfall == 0  # Ken, Lay, Ken, Lay, chairman


def test_text_placebo_copies_tags_and_never_picks_numbers():
    real = RegexPIISanitizer()
    texts = ["Call the desk at 713-853-6773 about the delayed shipment of turbines tomorrow.",
             "Nothing sensitive in this one at all."]
    twin = TextPlacebo(real)
    out = twin.sanitize(texts)
    assert out[0].count("<PHONE>") == 1 and "713-853-6773" in out[0]
    assert out[1] == texts[1]  # nothing removed, nothing marked
    assert not any(ch.isdigit() for ch in out[0].replace("713-853-6773", ""))


def test_text_placebo_is_seeded():
    real = ConceptListSanitizer(["Ken Lay"])
    a = TextPlacebo(real, seed=0).sanitize(EMAILS * 2)
    b = TextPlacebo(real, seed=0).sanitize(EMAILS * 2)
    assert a == b
    choices = {tuple(TextPlacebo(real, seed=s).sanitize(EMAILS[:1])) for s in range(12)}
    assert len(choices) > 1  # words of equal length are chosen at random


# --------------------------------------------------------------------------- in the audit
def test_text_audit_reports_placebo_and_excess():
    from privlab.encoders import LexicalEncoder

    enc = LexicalEncoder(256)
    table = audit_many(EMAILS, [Identity(), ConceptListSanitizer(["Ken Lay"])],
                       encoders=[enc], placebo=True)
    frame = table.to_frame()
    assert {"placebo", "excess"} <= set(frame.columns)
    for a in table:
        m = a.members[0]
        assert m.placebo is not None and m.excess == pytest.approx(max(0.0, m.value - m.placebo))
        assert a.excess == m.excess and a.placebo == m.placebo
    ident = table["identity"].members[0]
    assert ident.value == 0.0 and ident.placebo == 0.0
    plain = audit(EMAILS, ConceptListSanitizer(["Ken Lay"]), encoders=[enc])
    assert plain.members[0].placebo is None and "placebo" not in plain.to_frame()
    with pytest.raises(TypeError, match="placebo"):
        audit(EMAILS, Identity(), encoders=[enc], placebo="yes")
    with pytest.raises(ValueError, match="one twin"):
        audit_many(EMAILS, [Identity(), Identity()], encoders=[enc], placebo=TextPlacebo())


def test_image_audit_placebo_floor_is_small_where_the_real_leak_is_large():
    """Faces-only blackout on generated scenes: the caption is left.

    describe-then-embed catches it (large raw resolution); its placebo, the same boxes
    moved off every cue, is exactly 0, so the whole resolution is excess. Measured floors
    on these 6 scenes: every member 0 except efficientnet-lite0 (about 0.04); the
    thresholds below leave a wide margin.
    """
    from privlab.datasets.scene_cues import CueRegions, cue_blackout
    from privlab.datasets.scenes import celebrity_scenes
    from privlab.encoders import registry

    corpus = celebrity_scenes(6, seed=0)
    members = [registry.create("describe-then-embed", gallery=corpus.gallery),
               registry.create("ocr-text")]
    twin = partial(ImagePlacebo, avoid=[CueRegions(corpus, corpus.kinds)])
    result = audit(corpus.images, cue_blackout(corpus, ["target_face", "other_face"]),
                   encoders=members, placebo=twin)
    dte, ocr = result.members
    assert dte.value > 0.5 and dte.placebo <= 0.02 and dte.excess > 0.5
    assert ocr.value == 0.0 and ocr.placebo == 0.0
    assert result.placebo_overlap == 0.0 and 0 < result.placebo_coverage <= 1
    cues = CueRegions(corpus, corpus.kinds)
    for image, placebo in zip(corpus.images, result.placebo_sanitized):
        for region in cues.regions(image):
            np.testing.assert_array_equal(placebo[region.mask], image[region.mask])
