"""The generated corpora's ground truth as a sanitizer: chosen cue kinds blacked out."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.datasets.scene_cues import CueRegions, cue_blackout


def _grey(h=40, w=60, v=200):
    return np.full((h, w, 3), v, dtype=np.uint8)


def test_cue_blackout_ignores_foreign_images_and_refuses_unknown_kinds(celebrity):
    s = cue_blackout(celebrity, ["caption"])
    other = _grey()
    assert (s.sanitize([other])[0] == other).all()
    with pytest.raises(ValueError, match="'kinds'"):
        cue_blackout(celebrity, ["logo"])


def test_cue_blackout_paints_exactly_the_chosen_boxes(celebrity):
    scene = celebrity.scenes[0]  # carries a caption
    out = cue_blackout(celebrity, ["caption"], dilate=0).sanitize([scene.image])[0]
    (x0, y0, x1, y1), = scene.boxes(["caption"])
    assert (out[y0:y1, x0:x1] == 0).all()
    outside = np.ones(out.shape[:2], dtype=bool)
    outside[y0:y1, x0:x1] = False
    assert np.array_equal(out[outside], scene.image[outside])


def test_cue_regions_name_and_regions(brand):
    det = CueRegions(brand, ["logo", "small_logo"])
    assert det.name == "cues[logo+small_logo]"
    scene = brand.scenes[0]
    assert len(det.regions(scene.image)) == len(scene.boxes(["logo", "small_logo"]))
    assert det.regions(_grey()) == []
    with pytest.raises(ValueError, match="'kinds' parameter of CueRegions"):
        CueRegions(brand, [])
