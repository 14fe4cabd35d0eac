"""Image calibration: generated concept sets, their ground-truth masks and the study's boundaries."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from PIL import Image

from privlab.datasets.image_concepts import (
    PACKAGED_CONCEPTS,
    draw_placement,
    generate_concept_images,
    load_concept_image_folder,
    render_variation,
)
from privlab.encoders import get_encoder
from privlab.studies import calibration


def test_generation_is_deterministic_and_prefix_stable():
    a = generate_concept_images("coffee", 5, seed=3, size=64)
    b = generate_concept_images("coffee", 5, seed=3, size=64)
    short = generate_concept_images("coffee", 2, seed=3, size=64)
    other = generate_concept_images("coffee", 5, seed=4, size=64)
    assert a.provenance["pixels_sha256"] == b.provenance["pixels_sha256"]
    for x, y, mx, my in zip(a.images, b.images, a.masks, b.masks):
        np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(mx, my)
    for x, y in zip(short.images, a.images):
        np.testing.assert_array_equal(x, y)
    assert other.provenance["pixels_sha256"] != a.provenance["pixels_sha256"]
    # the variations differ from one another (placement, background, lighting)
    assert len({img.tobytes() for img in a.images}) == 5


@pytest.mark.parametrize("cutout", [False, True])
def test_ground_truth_mask_covers_exactly_the_object(cutout):
    # A magenta object inside a grey photo: after any placement, the magenta pixels of
    # the canvas must lie in the mask and the mask must be (almost all) magenta.
    photo = np.full((90, 120, 3), 128, np.uint8)
    obj = np.zeros((90, 120), bool)
    obj[20:70, 30:100] = True
    photo[obj] = (255, 0, 255)
    rng = np.random.default_rng(7)
    for _ in range(25):
        p = dataclasses.replace(draw_placement(rng), gain=1.0, gamma=1.0, background="gradient",
                                colors=((0, 60, 0), (0, 200, 0)))
        img, mask = render_variation(photo, obj, p, size=96, cutout=cutout)
        magenta = (img[..., 0] > 200) & (img[..., 1] < 60) & (img[..., 2] > 200)
        assert magenta.any()
        assert not (magenta & ~mask).any(), "object pixels outside the ground-truth mask"
        assert magenta[mask].mean() > 0.9, "mask pixels that are not the object"


def test_blackout_of_the_ground_truth_changes_only_the_mask_and_the_embedding():
    sets = {c: generate_concept_images(c, 3, seed=0) for c in ("cat", "horse")}
    enc = get_encoder("efficientnet-lite0")
    for s in sets.values():
        out = s.sanitizer().sanitize(list(s.images))
        for img, san, mask in zip(s.images, out, s.masks):
            assert (san[mask] == 0).all()
            np.testing.assert_array_equal(san[~mask], img[~mask])
        cos = np.sum(enc.encode(list(s.images)) * enc.encode(out), axis=1)
        assert (cos < 0.9).all(), cos


def test_study_boundaries_equal_a_pair_by_pair_loop():
    config = calibration.Config(image_pairs=(("cat", "coffee"),),
                                image_encoders=("efficientnet-lite0",), image_n=3)
    table = calibration.run_images(config)
    (pair,) = table.pairs
    sets = calibration.load_image_sets(config)
    enc = get_encoder("efficientnet-lite0")
    cats, cups = sets["cat"], sets["coffee"]
    cats_s, cups_s = cats.sanitizer().sanitize(list(cats.images)), cups.sanitizer().sanitize(list(cups.images))
    D = lambda a, b: 1.0 - float(enc.encode([a])[0] @ enc.encode([b])[0])  # noqa: E731
    expected = np.array([[min(D(cats_s[i], cups.images[j]), D(cats.images[i], cups_s[j]))
                          - D(cats.images[i], cups.images[j]) for j in range(3)] for i in range(3)])
    np.testing.assert_allclose(pair.values, expected, atol=1e-5)
    assert pair.kept == (3, 3)
    assert table.provenance["sets"]["cat"]["pixels_sha256"] == cats.provenance["pixels_sha256"]
    assert set(pair.percentiles) == set(calibration.DEFAULT_PERCENTILES)


def test_same_concept_boundaries_exceed_unrelated_ones_and_faceless_pairs_are_zero_for_sface():
    # Measured (n=8): efficientnet-lite0 cat/cat p5 0.31, cat/coffee p95 0.01.
    config = calibration.Config(image_pairs=(("cat", "cat"), ("cat", "coffee")),
                                image_encoders=("efficientnet-lite0", "sface"), image_n=4)
    table = calibration.run_images(config)
    by = {(p.encoder.split("-")[0], p.concept_c, p.concept_d): p for p in table.pairs}
    same, unrelated = by[("efficientnet", "cat", "cat")], by[("efficientnet", "cat", "coffee")]
    assert np.percentile(same.values, 5) > np.percentile(unrelated.values, 95) + 0.15
    # sface sees no face in cats or cups: every rendering and its blackout share the
    # no-face coordinate, so every boundary is exactly 0 under that member.
    for key in (("sface", "cat", "cat"), ("sface", "cat", "coffee")):
        np.testing.assert_allclose(by[key].values, 0.0, atol=1e-6)
    frame = table.to_frame()
    assert len(frame) == 4 and "p95" in frame.columns
    assert "images:" in calibration.headline(table, table)


def test_unknown_concepts_and_empty_members_are_refused():
    with pytest.raises(ValueError, match="'image_pairs' parameter of calibration.run_images"):
        calibration.run_images(calibration.Config(image_pairs=(("cat", "unicorn"),),
                                                  image_encoders=("sface",), image_n=1))
    with pytest.raises(ValueError, match="'image_encoders'"):
        calibration.run_images(calibration.Config(image_encoders=(), image_n=1))
    with pytest.raises(ValueError, match="one of"):
        generate_concept_images("unicorn", 1)
    assert "cat" in PACKAGED_CONCEPTS


def _save(path, array):
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(array).save(path)


def test_folder_loader_reads_masks_and_names_every_bad_file(tmp_path):
    img = np.full((40, 60, 3), 90, np.uint8)
    mask = np.zeros((40, 60), np.uint8)
    mask[10:20, 10:40] = 255
    _save(tmp_path / "images" / "mug" / "a.png", img)
    _save(tmp_path / "images" / "mug" / "b.jpg", img)
    _save(tmp_path / "masks" / "mug" / "a.png", mask)
    sets = load_concept_image_folder(tmp_path, max_side=30)
    mug = sets["mug"]
    assert mug.names == ("a.png", "b.jpg") and mug.provenance["masked"] == 1
    assert mug.images[0].shape == (20, 30, 3) and mug.masks[0].shape == (20, 30)
    assert mug.coverage()[0] == pytest.approx(10 * 30 / (40 * 60), abs=0.02) and mug.coverage()[1] == 1.0

    # a mask of another size names the mask file
    _save(tmp_path / "masks" / "mug" / "b.png", np.full((10, 10), 255, np.uint8))
    with pytest.raises(ValueError, match=r"b\.png of size"):
        load_concept_image_folder(tmp_path)
    # an all-black mask names the file
    _save(tmp_path / "masks" / "mug" / "b.png", np.zeros((40, 60), np.uint8))
    with pytest.raises(ValueError, match=r"b\.png, which is all black"):
        load_concept_image_folder(tmp_path)
    (tmp_path / "masks" / "mug" / "b.png").unlink()
    # a mask without an image names the mask
    _save(tmp_path / "masks" / "mug" / "zebra.png", mask)
    with pytest.raises(ValueError, match=r"zebra\.png without an image"):
        load_concept_image_folder(tmp_path)
    (tmp_path / "masks" / "mug" / "zebra.png").unlink()
    # an unreadable image names the image
    (tmp_path / "images" / "mug" / "c.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(ValueError, match=r"c\.jpg"):
        load_concept_image_folder(tmp_path)
    with pytest.raises(ValueError, match="images/<concept>"):
        load_concept_image_folder(tmp_path / "nowhere")


def test_the_study_keeps_its_ceiling_and_renderings_in_the_result():
    import dataclasses

    config = calibration.Config.smoke(pairs=(("dogs", "cats"),), encoders=("lexical",),
                                      per_concept=3, image_pairs=(("cat", "horse"),),
                                      image_n=3)
    result = calibration.run(config)
    assert sorted(result.renderings) == ["cat", "horse"]
    assert len(result.renderings["cat"]) == 3
    ceiling = result.ceiling
    assert [(p.concept_c, p.concept_d) for p in ceiling.pairs] == list(calibration.CEILING_PAIRS)
    assert result.provenance["ceiling"]["members"] == ["efficientnet-lite0"]
    direct = calibration.run_images(dataclasses.replace(
        config, image_pairs=calibration.CEILING_PAIRS, image_encoders=("efficientnet-lite0",)))
    for mine, theirs in zip(ceiling.pairs, direct.pairs):
        np.testing.assert_allclose(mine.values, theirs.values, atol=1e-6)
    same, unrelated = ceiling.pairs
    assert np.percentile(same.values, 5) > np.percentile(unrelated.values, 95)
    # No ceiling for a folder of the user's own images, nor without the image part.
    assert calibration.run_ceiling(dataclasses.replace(config, image_data="photos")) is None
    assert calibration.run(dataclasses.replace(config, images=False)).ceiling is None

