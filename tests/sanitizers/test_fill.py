"""The four fills on a real photo: black, blur, Telea and Navier-Stokes inpainting."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.sanitizers.fill import FILLS, feathered, fill_region
from tests.sanitizers.photos import astronaut

BOX = (175, 70, 245, 150)  # inside Eileen Collins's face in astronaut() (512 x 512)


def _mask(shape, box=BOX):
    x0, y0, x1, y1 = box
    m = np.zeros(shape[:2], dtype=bool)
    m[y0:y1, x0:x1] = True
    return m


def _ring(shape, box=BOX, width=6):
    x0, y0, x1, y1 = box
    m = np.zeros(shape[:2], dtype=bool)
    m[y0 - width:y1 + width, x0 - width:x1 + width] = True
    m[y0:y1, x0:x1] = False
    return m


@pytest.mark.parametrize("mode", FILLS)
def test_every_fill_changes_the_region_and_nothing_else(mode):
    photo = astronaut()
    region = _mask(photo.shape)
    out = fill_region(photo, region, mode, blur=5 if mode == "blur" else 0)
    assert out.dtype == np.uint8 and out.shape == photo.shape and out is not photo
    assert (out[~region] == photo[~region]).all()
    inside = np.abs(out[region].astype(int) - photo[region].astype(int)).max(axis=1)
    assert (inside > 0).mean() > 0.5
    assert (photo == astronaut()).all()  # the input is not modified


def test_inpainting_fills_from_the_border_where_black_does_not():
    photo = astronaut()
    region, ring = _mask(photo.shape), _ring(photo.shape)
    border = photo[ring].mean(axis=0)
    gaps = {}
    for mode in FILLS:
        out = fill_region(photo, region, mode, blur=5 if mode == "blur" else 0)
        gaps[mode] = float(np.abs(out[region].mean(axis=0) - border).mean())
    assert gaps["blackout"] > 100 and gaps["blur"] > 15
    assert gaps["inpaint-telea"] < 10 and gaps["inpaint-ns"] < 10
    # inpainting keeps no pixel of the face: the blur keeps its layout, inpainting does not
    out = fill_region(photo, region, "inpaint-telea")
    blurred = fill_region(photo, region, "blur", blur=5)
    corr = [np.corrcoef(x[region][:, 0].astype(float), photo[region][:, 0].astype(float))[0, 1]
            for x in (out, blurred)]
    assert corr[1] > 0.9 and corr[0] < 0.6


def test_feathering_spreads_outside_the_region_only():
    photo = astronaut()
    region, ring = _mask(photo.shape), _ring(photo.shape, width=3)
    hard = fill_region(photo, region, "blackout")
    soft = fill_region(photo, region, "blackout", blur=6)
    assert (hard[region] == 0).all() and (soft[region] == 0).all()
    assert (hard[ring] == photo[ring]).all()
    assert soft[ring].mean() < 0.8 * photo[ring].mean()  # the ring just outside darkens
    alpha = feathered(region, 6)
    assert alpha[region].min() == 1.0 and 0 < alpha[ring].mean() < 1
    far = np.ones(photo.shape[:2], dtype=bool)
    far[BOX[1] - 20:BOX[3] + 20, BOX[0] - 20:BOX[2] + 20] = False
    assert (soft[far] == photo[far]).all()
    inpainted = fill_region(photo, region, "inpaint-ns", blur=6)
    assert (inpainted[far] == photo[far]).all()


def test_an_empty_region_returns_the_image():
    photo = astronaut()
    for mode in FILLS:
        assert fill_region(photo, np.zeros(photo.shape[:2], dtype=bool), mode, blur=3) is photo
