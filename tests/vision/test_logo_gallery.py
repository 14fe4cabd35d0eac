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


def _pasted(photo_name: str, side: int, x: int, y: int):
    from skimage import data
    from sklearn.datasets import load_sample_image

    from privlab.vision.images import as_rgb

    photo = load_sample_image(photo_name).copy()
    photo[y:y + side, x:x + side] = np.asarray(
        Image.fromarray(as_rgb(data.logo())).resize((side, side), Image.BILINEAR))
    return photo, (x, y, x + side, y + side)


def test_a_head_fitted_on_one_photo_finds_the_logo_in_another_and_not_in_a_clean_one():
    """A head fitted on the China photo with the logo pasted in one place (and the same
    photo with it blacked out, as a negative) finds it at another place and size in the
    flower photo, where the clean flower photo's best window scores far lower (over 2
    log-odds below; fitted on one photo, its log-odds of 0 is no calibrated threshold:
    the study's finder chooses one on photos without the logo). What a blackout leaves
    is measured on real photos in benchmarks/logos.py."""
    from skimage import data
    from sklearn.datasets import load_sample_image

    from privlab.vision.images import as_rgb
    from privlab.vision.logo_head import fit_logo_head, labelled_windows
    from privlab.vision.logos import LogoHead

    gallery = load_logo_gallery({"scikit-image": [as_rgb(data.logo())]})
    train, box = _pasted("china.jpg", 100, 60, 250)
    feats, labels = labelled_windows(train, [box])
    assert (labels == 1).sum() >= 2 and (labels == 0).sum() > 100
    blacked = train.copy()
    blacked[box[1]:box[3], box[0]:box[2]] = 0  # a blackout is not the logo
    head = fit_logo_head(gallery, {"scikit-image": [(feats, labels),
                                                    labelled_windows(blacked, [])]}, threshold=0.0)
    assert isinstance(head, LogoHead) and head.examples[0] == (labels == 1).sum() + 3
    photo, truth = _pasted("flower.jpg", 130, 420, 120)
    found = find_logos(photo, gallery, head=head)
    assert found and box_iou(found[0].box, truth) > 0.3, (found, truth)
    marks = np.zeros(photo.shape[:2], bool)  # what a blackout of the found boxes covers
    for m in found:
        marks[m.box[1]:m.box[3], m.box[0]:m.box[2]] = True
    assert marks[truth[1]:truth[3], truth[0]:truth[2]].mean() > 0.99, found  # the whole mark
    clean = find_logos(load_sample_image("flower.jpg"), gallery, head=head, threshold=-50.0)
    assert clean and clean[0].score < found[0].score - 2.0, (clean[:1], found[:1])


def test_a_head_refuses_bad_examples_and_find_logos_a_bad_head():
    from privlab.vision.logo_head import fit_logo_head

    gallery = load_logo_gallery({"acme": [_crop(1)]})
    none_positive = (np.zeros((5, 1280), np.float32), np.zeros(5))
    with pytest.raises(ValueError, match="'examples' parameter of fit_logo_head.*brands of the gallery"):
        fit_logo_head(gallery, {"globex": [none_positive]}, threshold=0.0)
    # features of another width (the cosine finder's, without colour) are refused
    with pytest.raises(ValueError, match="'examples' parameter of fit_logo_head.*width 1419.*labelled_windows"):
        fit_logo_head(gallery, {"acme": [none_positive]}, threshold=0.0)
    with pytest.raises(ValueError, match="'boxes' parameter of labelled_windows"):
        from privlab.vision.logo_head import labelled_windows

        labelled_windows(np.zeros((64, 64, 3), np.uint8), [(10, 10, 5, 20)])
    with pytest.raises(TypeError, match="'head' parameter of find_logos"):
        find_logos(np.zeros((64, 64, 3), np.uint8), gallery, head={"acme": 1})


def test_colour_cells_share_each_cell_out_between_hue_and_value_bins():
    """A cell of pure red falls in the first hue's saturated bin, a grey cell in the mid
    value bin, a half-amber cell half in amber's hue bin; every cell's shares sum to 1."""
    from privlab.vision.logos import COLOUR_BINS, HUE_BINS, colour_cells

    rgb = np.zeros((64, 96, 3), np.uint8)
    rgb[:32, :32] = (255, 0, 0)
    rgb[:32, 32:64] = (128, 128, 128)
    rgb[:32, 64:] = (250, 250, 250)
    rgb[32:, :32] = (255, 191, 0)  # amber, hue 45 degrees
    rgb[32:48, 32:64] = (255, 191, 0)  # the top half of this cell amber, the rest black
    cells = colour_cells(rgb)
    assert cells.shape == (COLOUR_BINS, 2, 3) == (27, 2, 3)
    assert np.allclose(cells.sum(axis=0), 1.0)
    assert cells[1, 0, 0] == 1.0  # red: hue bin 0, saturation over SATURATION_SPLIT
    assert cells[HUE_BINS * 2 + 1, 0, 1] == 1.0  # grey: the mid value bin
    assert cells[HUE_BINS * 2 + 2, 0, 2] == 1.0  # near white: the light bin
    amber = 1 * 2 + 1  # hue 45 degrees is the second of 12 hue bins (30-60), saturated
    assert cells[amber, 1, 0] == 1.0
    assert cells[amber, 1, 1] == 0.5 and cells[HUE_BINS * 2, 1, 1] == 0.5  # half dark


def test_a_head_scores_windows_with_their_mid_level_features_and_colour():
    """The head's windows carry the mid-level features and the colour histogram
    (1280 + 112 + 27 features; those parts have lengths MID_WEIGHT and COLOUR_WEIGHT),
    the cosine finder's do not."""
    from sklearn.datasets import load_sample_image

    from privlab.vision.logo_head import HEAD_FEATURES, labelled_windows
    from privlab.vision.logos import COLOUR_WEIGHT, MID_WEIGHT, feature_maps, window_features

    photo = load_sample_image("china.jpg")
    feats, labels = labelled_windows(photo, [])
    assert feats.shape[1] == HEAD_FEATURES == 1419 and (labels == 0).all()
    assert np.allclose(np.linalg.norm(feats[:, :1280], axis=1), 1.0, atol=1e-4)
    assert np.allclose(np.linalg.norm(feats[:, 1280:1392], axis=1), MID_WEIGHT, atol=1e-4)
    assert np.allclose(np.linalg.norm(feats[:, 1392:], axis=1), COLOUR_WEIGHT, atol=1e-4)
    # The mid-level part is not a copy of the last one: its own 112 channels, at 16 pixels.
    [(last, _, _, _, mid), _] = feature_maps(photo)
    assert mid.shape == (112,) + last.shape[1:] and last.shape[0] == 1280
    plain, _ = window_features(feature_maps(photo))
    assert plain.shape[1] == 1280
