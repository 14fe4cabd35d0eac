"""logo-blackout on skimage's logo pasted in perspective into scikit-learn's china.jpg."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from skimage import data

from privlab.sanitizers import registry
from privlab.sanitizers.logos import LogoRegions
from tests.sanitizers.photos import black_share, changed_share, china, jpeg

GALLERY = {"scikit-image": [data.logo()]}
# where the logo's corners land (clockwise from its top left): a tilted, foreshortened
# view over the temple and a smaller one over the trees
TILTED = [(380, 60), (560, 90), (550, 260), (370, 240)]
SMALL = [(60, 250), (200, 240), (210, 380), (70, 400)]


def paste_logo(photo, quad):
    """The RGBA logo warped onto ``quad`` of the photo (its transparent corners show the
    photo); returns the image and the quad's bounding box."""
    import cv2

    logo = data.logo()
    h, w = logo.shape[:2]
    homography = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [w, 0], [w, h], [0, h]]), np.float32(quad))
    size = (photo.shape[1], photo.shape[0])
    colour = cv2.warpPerspective(logo[..., :3], homography, size, flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(logo[..., 3], homography, size).astype(float)[..., None] / 255
    xs, ys = zip(*quad)
    box = (min(xs), min(ys), max(xs), max(ys))
    return np.round(photo * (1 - alpha) + colour * alpha).astype(np.uint8), box


@lru_cache(maxsize=None)
def _sanitizer():
    return registry.create("logo-blackout", logos=GALLERY)


@pytest.mark.parametrize("quad", [TILTED, SMALL], ids=["tilted", "small"])
def test_logo_blackout_removes_the_logo_that_text_blackout_leaves(quad):
    image, box = paste_logo(china(), quad)
    out = _sanitizer().sanitize([image])[0]
    assert black_share(out, box) > 0.97
    x0, y0, x1, y1 = box
    keep = np.ones(image.shape[:2], dtype=bool)
    keep[max(0, y0 - 8):y1 + 8, max(0, x0 - 8):x1 + 8] = False
    assert (out[keep] == image[keep]).all()  # nothing else is touched
    text = registry.create("text-blackout-ocr").sanitize([image])[0]
    assert black_share(text, box) < 0.01 and changed_share(text, image) == 0.0


def test_logo_blackout_with_two_logos_jpeg_and_none():
    photo = china()
    assert (_sanitizer().sanitize([photo])[0] == photo).all()  # no logo, no change
    image, first = paste_logo(photo, TILTED)
    image, second = paste_logo(image, SMALL)
    for version in (image, jpeg(image, 60)):
        out = _sanitizer().sanitize([version])[0]
        assert black_share(out, first) > 0.97 and black_share(out, second) > 0.97
        assert black_share(out, (0, 0, 640, 427)) < 0.3


def test_the_threshold_asks_for_more_matches():
    image, box = paste_logo(china(), TILTED)
    [region] = LogoRegions(GALLERY).regions(image)
    inliers = region.score * 12 / (1 - region.score)  # score = inliers / (inliers + 12)
    assert region.source == "scikit-image" and 20 < round(inliers) < 200
    strict = registry.create("logo-blackout", logos=GALLERY, threshold=min(1.0, region.score + 0.01))
    assert (strict.sanitize([image])[0] == image).all()
    fewer = registry.create("logo-blackout", logos=GALLERY, min_inliers=round(inliers) + 1)
    assert (fewer.sanitize([image])[0] == image).all()


def test_the_gallery_is_required_and_checked():
    with pytest.raises(ValueError, match="'logos'"):
        registry.create("logo-blackout")
    with pytest.raises(TypeError, match="'gallery'"):
        registry.create("logo-blackout", logos=[data.logo()])
    with pytest.raises(ValueError, match="'gallery'"):
        registry.create("logo-blackout", logos={})
    with pytest.raises(ValueError, match="'min_inliers'"):
        registry.create("logo-blackout", logos=GALLERY, min_inliers=3)
    s = registry.create("logo-blackout", logos=GALLERY, dilate=0)
    assert s.name == "logo blackout (scikit-image)" and s.describe()["detectors"][0]["min_inliers"] == 12
