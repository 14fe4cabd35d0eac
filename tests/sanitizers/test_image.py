"""Image sanitizers: the region knobs, the detectors and the registered members."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.sanitizers import registry
from privlab.sanitizers import image as si


def _grey(h=40, w=60, v=200):
    return np.full((h, w, 3), v, dtype=np.uint8)


def test_region_knobs_dilate_coverage_and_blur():
    img = _grey()
    small = [(10, 10, 12, 12)]  # 4 px = 1/600 of the image
    big = [(0, 0, 60, 30)]  # half the image
    out = si.RegionSanitizer(si.UserRegions([small]), dilate=2).sanitize([img])[0]
    assert int((out[..., 0] == 0).sum()) == 36  # 2x2 grown by 2 on each side -> 6x6
    out = si.RegionSanitizer(si.UserRegions([small + big]), dilate=0, min_coverage=0.01).sanitize([img])[0]
    assert int((out[..., 0] == 0).sum()) == 60 * 30  # the tiny region is dropped
    out = si.RegionSanitizer(si.UserRegions([small + big]), dilate=0, max_coverage=0.4).sanitize([img])[0]
    assert int((out[..., 0] == 0).sum()) == 4  # the big one is dropped
    ramp = np.tile(np.arange(60, dtype=np.uint8)[None, :, None] * 4, (40, 1, 3))
    out = si.RegionSanitizer(si.UserRegions([big]), mode="blur", blur=5, dilate=0).sanitize([ramp])[0]
    assert (out[30:] == ramp[30:]).all() and not (out[:30] == ramp[:30]).all()
    with pytest.raises(ValueError, match="'mode'"):
        si.RegionSanitizer(si.UserRegions([small]), mode="paint")
    with pytest.raises(ValueError, match="min_coverage"):
        si.RegionSanitizer(si.UserRegions([small]), min_coverage=0.5, max_coverage=0.1)


def test_threshold_drops_low_scores():
    class Scored(si.Detector):
        name = "scored"

        def regions(self, rgb):
            return [si.Region(si.box_mask(rgb.shape[:2], (0, 0, 5, 5)), 0.4, "x")]

    img = _grey()
    assert (si.RegionSanitizer(Scored(), threshold=0.5).sanitize([img])[0] == img).all()
    assert (si.RegionSanitizer(Scored(), threshold=0.3, dilate=0).sanitize([img])[0] == 0).sum() == 75


def test_face_blackout_removes_every_face_sface_sees(celebrity):
    from privlab.encoders.image import SFaceEncoder

    sanitized = registry.create("face-blackout-yunet").sanitize(celebrity.images[:4])
    enc = SFaceEncoder()
    assert all(enc.faces(x) == [] for x in sanitized)
    assert all(len(enc.faces(x)) >= 1 for x in celebrity.images[:4])


def test_haar_and_ocr_detectors(celebrity):
    haar = registry.create("face-blackout-haar").sanitize(celebrity.images[:1])[0]
    assert (haar == 0).all(axis=2).mean() > 0.05
    text = registry.create("text-blackout-ocr")
    out = text.sanitize(celebrity.images[:1])[0]
    x0, y0, x1, y1 = celebrity.scenes[0].boxes(["caption"])[0]
    assert (out[y0 + 6:y1 - 6, x0 + 10:x1 - 10] == 0).mean() > 0.8


def test_mtcnn_is_optional():
    if si.mtcnn_available():
        pytest.skip("facenet-pytorch is installed here")
    from privlab.errors import MissingDependencyError

    with pytest.raises(MissingDependencyError, match="facenet-pytorch"):
        registry.create("face-blackout-mtcnn")


def test_registered_members_keep_their_knobs():
    blur = registry.create("face-blur-yunet", concepts=["ignored"])
    assert blur.mode == "blur" and blur.blur == 12 and blur.name == "face blur (YuNet)"
    assert registry.create("face-blur-yunet", blur=5).blur == 5
    sam = registry.create("sam3", dilate=3)
    assert (sam.threshold, sam.blur, sam.dilate, sam.min_coverage) == (0.2, 20, 3, 1e-5)
    assert sam.detectors[0].prompts == ["head", "skin"]
    assert registry.create("clipseg", concepts=["logo"]).detectors[0].prompts == ["logo"]
    identity = registry.create("image-identity", concepts=["x"])
    img = _grey()
    assert identity.modality == "image" and identity.sanitize([img])[0] is img


def test_inpaint_modes_and_their_radius():
    from tests.sanitizers.photos import astronaut

    photo = astronaut()
    box = [(175, 70, 245, 150)]  # inside the face
    outs = {}
    for radius in (1, 9):
        s = si.RegionSanitizer(si.UserRegions([box]), mode="inpaint-ns", dilate=0,
                               inpaint_radius=radius)
        assert s.describe()["inpaint_radius"] == radius and s.name.startswith("inpaint-ns[user]")
        outs[radius] = s.sanitize([photo])[0]
    x0, y0, x1, y1 = box[0]
    assert (outs[1][y0:y1, x0:x1] != outs[9][y0:y1, x0:x1]).any()  # the radius matters
    assert (outs[1][:y0] == photo[:y0]).all()
    with pytest.raises(ValueError, match="'mode'.*inpaint-telea"):
        si.RegionSanitizer(si.UserRegions([box]), mode="inpaint")
    for bad in (0, 2.5, True):
        with pytest.raises(ValueError, match="'inpaint_radius'"):
            si.RegionSanitizer(si.UserRegions([box]), mode="inpaint-telea", inpaint_radius=bad)
    face = registry.create("face-inpaint-yunet", dilate=6, blur=3)
    assert (face.mode, face.dilate, face.blur) == ("inpaint-telea", 6, 3.0)
    assert registry.create("text-inpaint-ocr", mode="inpaint-ns").mode == "inpaint-ns"
    assert registry.create("face-inpaint-yunet", name="mine").name == "mine"
