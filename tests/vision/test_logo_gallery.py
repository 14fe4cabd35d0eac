"""Logo galleries (folders, mappings) and the learned-feature logo finder on shipped photos."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from privlab.vision.logos import (DEFAULT_THRESHOLD, LogoGallery, LogoMatch, find_logos,
                                  load_logo_gallery, match_logos)
from privlab.vision.text_changes import box_iou


def _crop(seed: int, shape=(30, 40)) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (*shape, 3), dtype=np.uint8)


def test_a_folder_gives_one_brand_per_sub_folder_and_per_file_stem(tmp_path):
    (tmp_path / "acme").mkdir()
    Image.fromarray(_crop(1)).save(tmp_path / "acme" / "a.png")
    Image.fromarray(_crop(2)).save(tmp_path / "acme" / "b.png")
    Image.fromarray(_crop(3)).save(tmp_path / "globex.png")
    (tmp_path / "notes.txt").write_text("not an image")
    gallery = load_logo_gallery(tmp_path)
    assert isinstance(gallery, LogoGallery) and sorted(gallery) == ["acme", "globex"]
    assert len(gallery["acme"]) == 2 and len(gallery["globex"]) == 1
    assert (gallery["globex"][0] == _crop(3)).all()
    assert gallery.source == str(tmp_path)
    # the same pixels from a mapping of paths and arrays: the same fingerprint
    same = load_logo_gallery({"acme": [tmp_path / "acme" / "a.png", _crop(2)],
                              "globex": [Image.fromarray(_crop(3))]})
    assert same.fingerprint == gallery.fingerprint and same.source == "mapping"
    other = load_logo_gallery({"acme": [_crop(1)], "globex": [_crop(3)]})
    assert other.fingerprint != gallery.fingerprint
    assert load_logo_gallery(gallery) is gallery
    assert gallery.describe()["brands"] == {"acme": 2, "globex": 1}


def test_gallery_errors_name_the_parameter_and_the_fix(tmp_path):
    with pytest.raises(ValueError, match="'source' parameter of load_logo_gallery.*Check the path"):
        load_logo_gallery(tmp_path / "missing")
    with pytest.raises(ValueError, match="no image in"):
        load_logo_gallery(tmp_path)
    with pytest.raises(ValueError, match=r"Wrap a single crop in a list"):
        load_logo_gallery({"acme": _crop(1)})
    with pytest.raises(ValueError, match="non-empty list"):
        load_logo_gallery({"acme": []})
    with pytest.raises(ValueError, match="non-empty brand names"):
        load_logo_gallery({"": [_crop(1)]})
    with pytest.raises(TypeError, match="'source' parameter of load_logo_gallery"):
        load_logo_gallery(42)
    (tmp_path / "bad.png").write_bytes(b"not a png")
    with pytest.raises(ValueError, match="bad.png"):
        load_logo_gallery(tmp_path)


def test_finder_input_errors():
    gallery = {"acme": [_crop(1)]}
    image = np.zeros((64, 64, 3), np.uint8)
    with pytest.raises(ValueError, match="'threshold' parameter of find_logos"):
        find_logos(image, gallery, threshold=1.5)
    with pytest.raises(ValueError, match="'max_finds' parameter of find_logos"):
        find_logos(image, gallery, max_finds=0)
    with pytest.raises(ValueError, match="'method' parameter of match_logos"):
        match_logos(image, gallery, method="orb")
    with pytest.raises(TypeError, match="'source' parameter of load_logo_gallery"):
        find_logos(image, [_crop(1)])


def test_finds_a_logo_pasted_into_a_real_photo_and_nothing_once_it_is_blacked_out():
    """scikit-image's logo, from a crop of another size, pasted into scikit-learn's China
    photo: found where it is, with a box around it; gone after a blackout."""
    from skimage import data
    from sklearn.datasets import load_sample_image

    from privlab.vision.images import as_rgb

    logo = as_rgb(data.logo())
    photo = load_sample_image("china.jpg").copy()
    pasted = np.asarray(Image.fromarray(logo).resize((150, 150), Image.BILINEAR))
    photo[200:350, 380:530] = pasted
    truth = (380, 200, 530, 350)
    gallery = load_logo_gallery({"scikit-image": [logo]})
    found = find_logos(photo, gallery)
    assert found and all(isinstance(m, LogoMatch) and m.name == "scikit-image" for m in found)
    assert found[0].score >= DEFAULT_THRESHOLD and found[0].inliers == 0
    assert box_iou(found[0].box, truth) > 0.3, (found[0].box, truth)
    assert found == match_logos(photo, gallery, method="features")
    black = photo.copy()
    for m in found:
        x0, y0, x1, y1 = m.box
        black[y0:y1, x0:x1] = 0
    assert find_logos(black, gallery) == []
