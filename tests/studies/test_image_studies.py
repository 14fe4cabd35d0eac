"""The two image studies: generated scenes with placebo, and folder mode on real photos.

The folder is written into ``tmp_path`` from the photos that installed packages ship
(scikit-image's astronaut and coffee, matplotlib's Grace Hopper, scikit-learn's China
and flower), with realistic variations: PNG and JPEG files, a mirrored, recompressed
astronaut in a sub-folder, and a gallery folder cropped around the astronaut's face.

Placebo floors (the placebo twin's resolution, worst over the sanitizers) measured with
the default members on that folder at ``max_side=320``: sface 0.004, describe-then-embed
0, ocr-text 0, efficientnet-lite0 0.079 (from the near-duplicate pair astronaut /
mirrored astronaut: the same marks at unrelated places in two near-identical photos
move a generic CNN; without the mirrored copy, at 640 px, it is 0.007). On generated
scenes (8 celebrity and 8 brand scenes, every default sanitizer): sface 0.009,
describe-then-embed 0, ocr-text 0, efficientnet-lite0 0.077. The tests allow
:data:`REAL_FLOOR` and :data:`GENERATED_FLOOR`, about twice the measured values or 0.02
where they are 0; a placebo that hits a face or a caption reads 0.2 to 0.9 under these
members (measured with ``room="overlap"`` on the celebrity scenes).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from privlab.studies import dicaprio, mcdonalds
from privlab.studies._images import GROUND_TRUTH_REASON, check_fidelity, load_gallery

# The module's shared fixtures are built once, and study 01's corpus is audited by the
# contract and notebook 01's exercises too: one worker (tests/smoke_results.py's GROUPS).
pytestmark = pytest.mark.xdist_group("studies.dicaprio")

#: Largest placebo floor accepted per member on real photos (measured maxima x ~2).
REAL_FLOOR = {"sface": 0.02, "describe-then-embed": 0.02, "ocr-text": 0.02,
              "efficientnet-lite0": 0.15}
#: Largest placebo floor accepted per member on generated scenes (measured maxima x ~2).
GENERATED_FLOOR = {"sface": 0.02, "describe-then-embed": 0.02, "ocr-text": 0.02,
                   "efficientnet-lite0": 0.15}


def _sample_photos() -> dict[str, np.ndarray]:
    import matplotlib
    from PIL import Image
    from skimage import data
    from sklearn.datasets import load_sample_images

    hopper = Path(matplotlib.get_data_path()) / "sample_data" / "grace_hopper.jpg"
    china, flower = load_sample_images().images
    return {"astronaut": data.astronaut(), "coffee": data.coffee(), "china": china,
            "flower": flower, "grace_hopper": np.asarray(Image.open(hopper).convert("RGB"))}


@pytest.fixture(scope="session")
def photo_folder(tmp_path_factory) -> Path:
    from PIL import Image

    root = tmp_path_factory.mktemp("image-study")
    photos, gallery = root / "photos", root / "gallery"
    (photos / "more").mkdir(parents=True)
    (gallery / "Eileen Collins").mkdir(parents=True)
    samples = _sample_photos()
    for name, rgb in samples.items():
        if name == "coffee":
            Image.fromarray(rgb).save(photos / f"{name}.png")
        else:
            Image.fromarray(rgb).save(photos / f"{name}.jpg", quality=88)
    mirrored = samples["astronaut"][:, ::-1].copy()
    Image.fromarray(mirrored).save(photos / "more" / "astronaut_mirrored.jpg", quality=70)
    face = samples["astronaut"][10:250, 130:330]  # head and shoulders around the face
    Image.fromarray(face).save(gallery / "Eileen Collins" / "crop.jpg", quality=95)
    return root


@pytest.fixture(scope="session")
def folder_run(photo_folder):
    config = dicaprio.Config(data=str(photo_folder / "photos"), recursive=True, max_side=320,
                             gallery=str(photo_folder / "gallery"), top_k=2)
    return dicaprio.run(config)


# --------------------------------------------------------------------------- generated
def test_dicaprio_small_run_reports_excess_over_placebo():
    config = dicaprio.Config(n_images=4, sanitizers=("cues:every cue", "cues:faces only"),
                             encoders=("sface", "describe-then-embed"), leak_table=False)
    result = dicaprio.run(config)
    raw, excess, floors = result.members(), result.excess(), result.placebo_floors()
    assert list(raw.columns) == ["sface", "describe-then-embed"]
    assert raw.loc["cues:every cue"].tolist() == [0.0, 0.0]
    assert raw.loc["cues:faces only", "sface"] == 0.0
    assert raw.loc["cues:faces only", "describe-then-embed"] > 0.5
    assert excess.loc["cues:faces only", "describe-then-embed"] > 0.5  # not an artefact
    for member, floor in floors.items():
        assert floor <= GENERATED_FLOOR[member], (member, floor)
    np.testing.assert_allclose(excess.to_numpy(),
                               np.maximum(0, raw.to_numpy() - result.members("placebo").to_numpy()))
    assert "EILEEN COLLINS" in result.explain("cues:faces only")["sanitized x"]
    flags = result.flags()
    assert flags.shape == (4, 4) and (flags["cues:every cue | sface"] == 0).all()
    assert list(flags.index) == result.labels and result.labels[0].startswith("0: ")
    headline = result.headline()
    # faces only leaves the caption: it fails the operational condition, so the worst
    # values are taken over the control that met it; its violation stays in the tables
    assert headline.text == ("1 of 2 'cues:' controls leaves the concept in some image; among "
                             "the others, worst excess over placebo 0.000 (placebo floors up to "
                             f"{result.placebo_floors().max():.3f})")
    assert headline.details[0].startswith("operational condition: cues:faces only FAILS")
    assert result.summary().startswith(
        "operational condition: cues:faces only FAILS (concept still found in 2 of 4 images: "
        "name (OCR) 2, cue (ground truth) 2); met by cues:every cue. worst excess over "
        "placebo per member (over 1 that met the condition; 'cues:' controls only): sface "
        "0.000; describe-then-embed 0.000")
    assert result.condition("cues:faces only") == "failed: concept left in 2 of 4"
    assert result.marked(raw).index[1] == "cues:faces only (conditional: concept left in 2)"
    fidelity = result.fidelity().set_index(["sanitizer", "check"])
    assert fidelity.loc[("cues:faces only", "face · SFace cosine ≥ 0.363"), "still present"] == 0
    assert fidelity.loc[("cues:every cue", "face · SFace cosine ≥ 0.363"), "present before"] == 4
    assert "raw worst resolution" in result.summary() and "placebo floor" in result.summary()
    assert headline.details[1].startswith("worst excess over placebo per member (")
    assert headline.details[2].startswith("raw worst resolution: ")
    assert headline.details[3].startswith("placebo floor: ")
    assert headline.details[-1] == "4 images, 2 sanitizers"
    assert any("excess = max(0, resolution - placebo)" in c for c in headline.caveats)
    assert any("rests on 2 sanitizers" in c for c in headline.caveats)  # too few to rank
    assert set(result.agreement()["reading"]) == {"too few sanitizers (2 < 4): not to be read"}
    assert result.leak_matrix() is None and "leak_table=False" in result.leak_reason

    # A check that looks with the detector the sanitizer removes by: its silence after the
    # control that met the condition is no evidence, so that control is unverified and
    # nothing passes (the fidelity table says which check is not independent).
    import dataclasses

    sface = "face · SFace cosine ≥ 0.363"
    shared = dataclasses.replace(result, conditions=dataclasses.replace(
        result.conditions, blind={"cues:every cue": (sface,)}))
    assert shared.condition_failures() == {"cues:faces only": 2}
    assert shared.condition("cues:every cue") == (
        "unverified: the face (SFace) check looks with the detector this sanitizer removes "
        "by, so a copy that detector misses is neither removed nor flagged")
    assert shared.headline().text.startswith(
        "1 of 2 'cues:' controls leaves the concept in some image; 1 more cannot be verified "
        "to remove it (a check looks with the detector that placed the marks) (none passes); "
        "conditional worst excess over placebo")
    assert shared.summary().startswith(
        "operational condition: cues:every cue UNVERIFIED (no check found the concept after "
        "it, but the face (SFace) check looks with")
    assert "CONDITIONAL: no sanitizer here met the condition" in shared.summary()
    assert list(shared.marked(raw).index) == [
        "cues:every cue (conditional: removal unverified)",
        "cues:faces only (conditional: concept left in 2)"]
    independent = shared.fidelity().set_index(["sanitizer", "check"])["independent"]
    assert not independent[("cues:every cue", sface)]
    assert independent.drop(("cues:every cue", sface)).all()
    with pytest.raises(ValueError, match="blind"):  # a check the run did not make
        check_fidelity(result.images, {"cues:every cue": result.images}, [],
                       blind={"cues:every cue": (sface,)})
    assert result.provenance["corpus"]["n"] == 4 and result.provenance["placebo"] is True
    # the figures the notebook's prose quotes: the tables' values as printed
    figures = result.quoted_figures()
    assert figures["images"] == "4"
    assert figures["cues-faces-only.describe-then-embed.excess"] == \
        f"{excess.loc['cues:faces only', 'describe-then-embed']:.3f}"
    assert figures["cues-every-cue.sface.resolution"] == "0.000"
    assert figures["floor.describe-then-embed"] == f"{floors['describe-then-embed']:.3f}"
    assert not any(name.startswith("tools.") for name in figures)  # 'cues:' controls only
    assert len(figures) == 1 + 2 + 2 * 2 * 3  # images, 2 floors, 2 x 2 x 3 table values


def test_the_headline_is_never_taken_from_a_ground_truth_control():
    # cues:second face left leaves a face on purpose: EfficientNet-Lite0 reacts to it,
    # the real face blackout leaves nothing this member reads beyond its placebo.
    config = dicaprio.Config(n_images=4, sanitizers=("cues:second face left",
                                                     "face-blackout-yunet"),
                             encoders=("efficientnet-lite0",), leak_table=False)
    result = dicaprio.run(config)
    excess = result.excess()
    assert excess.loc["cues:second face left", "efficientnet-lite0"] > 0.1
    assert excess.loc["face blackout (YuNet)", "efficientnet-lite0"] == 0
    assert result.headline().text.startswith(
        "1 of 1 sanitizer leaves the concept in some image (none passes); conditional worst "
        "excess over placebo 0.000")
    text = result.summary()
    # the face blackout leaves the caption with the name: it fails, and nothing is a pass
    assert text.startswith("operational condition: face blackout (YuNet) FAILS (concept still "
                           "found in 2 of 4 images: name (OCR) 2, cue (ground truth) 2). worst "
                           "excess over placebo per member (CONDITIONAL: no sanitizer here met "
                           "the condition, so none of these is a pass; over 1 detector-based "
                           "sanitizer; 1 'cues:' control in the tables, not here): "
                           "efficientnet-lite0 0.000 (raw worst resolution: efficientnet-lite0 ")
    assert "second face" not in text


@pytest.mark.slow
@pytest.mark.parametrize("study", [dicaprio, mcdonalds], ids=["dicaprio", "mcdonalds"])
def test_placebo_floor_of_every_default_member_on_generated_scenes(study):
    result = study.run(study.Config(n_images=8, top_k=1))
    floors = result.placebo_floors()
    assert list(floors.index) == list(study.DEFAULT_ENCODERS)
    for member, floor in floors.items():
        assert floor <= GENERATED_FLOOR[member], (member, floor)
    assert result.leaks.placebo and "excess" in result.leaks.to_frame()


def test_without_placebo_the_headline_says_so():
    config = mcdonalds.Config(n_images=3, sanitizers=("cues:every cue",), encoders=("ocr-text",),
                              leak_table=False, placebo=False)
    result = mcdonalds.run(config)
    assert not result.has_placebo and result.placebo_floors().empty
    assert result.summary().startswith(
        "operational condition: met by cues:every cue. worst resolution per member ('cues:' "
        "controls only): ocr-text 0.000")
    assert result.headline().text == ("the one 'cues:' control removes the concept from every "
                                      "image; worst resolution 0.000 (no placebo run)")
    assert any("no placebo run" in c for c in result.caveats())
    assert "placebo" not in result.to_frame().columns


# --------------------------------------------------------------------------- folder mode
def test_folder_mode_refuses_ground_truth_sanitizers_with_the_reason(tmp_path):
    folder = str(tmp_path)
    with pytest.raises(ValueError, match="no ground truth") as info:
        mcdonalds.Config(data=folder, sanitizers=("cues:every cue", "text-blackout-ocr"))
    assert "cues:every cue" in str(info.value) and "clear 'data'" in str(info.value)
    assert mcdonalds.Config(data=folder).sanitizers == mcdonalds.FOLDER_SANITIZERS
    assert dicaprio.Config.smoke(data=folder).sanitizers == dicaprio.FOLDER_SANITIZERS
    assert dicaprio.Config.smoke().sanitizers[0].startswith("cues:")
    assert not any(s.startswith("cues:") for s in dicaprio.FOLDER_SANITIZERS)
    assert "ground truth" in GROUND_TRUTH_REASON
    with pytest.raises(ValueError, match="delta"):
        dicaprio.Config(delta=-0.1)
    with pytest.raises(ValueError, match="max_side"):
        dicaprio.Config(max_side=0)
    with pytest.raises(ValueError, match="sanitizers"):
        dicaprio.Config(sanitizers=())


def test_gallery_folder_layouts(tmp_path):
    from PIL import Image
    from skimage import data

    face = data.astronaut()[10:250, 130:330]
    (tmp_path / "a" / "Eileen Collins").mkdir(parents=True)
    Image.fromarray(face).save(tmp_path / "a" / "Eileen Collins" / "1.jpg")
    Image.fromarray(face[:, ::-1].copy()).save(tmp_path / "a" / "Eileen Collins" / "2.png")
    (tmp_path / "b").mkdir()
    Image.fromarray(face).save(tmp_path / "b" / "Eileen Collins.jpg")
    (tmp_path / "b" / ".hidden.jpg").write_bytes(b"not an image")
    by_folder, by_file = load_gallery(tmp_path / "a"), load_gallery(tmp_path / "b")
    assert list(by_folder) == ["Eileen Collins"] and len(by_folder["Eileen Collins"]) == 2
    assert list(by_file) == ["Eileen Collins"] and by_file["Eileen Collins"][0].shape == face.shape
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="gallery"):
        load_gallery(tmp_path / "empty")
    with pytest.raises(ValueError, match="gallery"):
        load_gallery(tmp_path / "missing")


def test_folder_run_names_files_and_uses_short_member_names(folder_run):
    result = folder_run
    assert result.folder_mode and result.corpus is None
    assert result.labels == ["astronaut.jpg", "china.jpg", "coffee.png", "flower.jpg",
                             "grace_hopper.jpg", "more/astronaut_mirrored.jpg"]
    assert max(max(im.shape[:2]) for im in result.images) == 320  # max_side applied
    short = list(dicaprio.DEFAULT_ENCODERS)
    assert list(result.members().columns) == short
    assert set(result.to_frame()["encoder"]) == set(short)
    assert {c.split(" | ")[1] for c in result.flags().columns} == set(short)
    assert list(result.flags().index) == result.labels
    witnesses = result.witnesses()
    assert set(witnesses["released x"]) | set(witnesses["reference y"]) <= set(result.labels)
    assert set(result.to_frame()["witness_x"]) <= set(result.labels)
    title = result.witness_title("face blackout (YuNet)", "sface")
    assert "x = " in title and ".jpg" in title and "placebo" in title
    assert result.provenance["corpus"]["files"] == result.labels
    assert result.provenance["gallery"] == ["Eileen Collins"]


def test_folder_run_explains_itself(folder_run):
    result = folder_run
    assert result.leak_matrix() is None and "no ground truth" in result.leak_reason
    headline = result.headline()
    summary = result.summary()
    assert summary.startswith("operational condition: ")
    assert ". worst excess over placebo per member" in summary
    assert "sface " in summary.split("per member")[1]
    assert summary.endswith("6 photos, 4 sanitizers)")
    assert "worst excess over placebo" in headline.text
    assert headline.details[-1] == "6 photos, 4 sanitizers"
    assert any("no ground truth" in c for c in headline.caveats)
    assert not any("rank agreement" in c for c in headline.caveats)  # 4 sanitizers: enough
    assert not any("too few" in r for r in result.agreement()["reading"])
    assert "folder run" in result.reading() and "leak table" in result.reading()


def test_folder_gallery_names_the_astronaut_and_face_blackout_hides_her(folder_run):
    result = folder_run
    describer = result.encoders[dicaprio.DEFAULT_ENCODERS.index("describe-then-embed")]
    astronaut, mirrored = result.images[0], result.images[-1]
    names = [d.names for d in describer.describe_images([astronaut, mirrored])]
    assert names == [("Eileen Collins",), ("Eileen Collins",)]
    blackout = result.audit("face blackout (YuNet)")
    assert describer.describe_images([blackout.sanitized[0]])[0].names == ()


def test_placebo_floor_of_every_default_member_on_real_photos(folder_run):
    floors = folder_run.placebo_floors()
    assert list(floors.index) == list(dicaprio.DEFAULT_ENCODERS)
    for member, floor in floors.items():
        assert floor <= REAL_FLOOR[member], (member, floor)
    comparison = folder_run.comparison()
    assert {"resolution", "placebo", "excess", "placebo_coverage"} <= set(comparison.columns)
    assert (comparison["excess"] <= comparison["resolution"] + 1e-12).all()
    # the portraits leave no face-free room for a face-sized box: the placebo marks less
    faces = comparison[comparison["sanitizer"] == "face blackout (YuNet)"]
    assert 0 < faces["placebo_coverage"].iloc[0] < 1
    assert any("lower estimate" in c for c in folder_run.caveats())


def test_quoted_figures_of_a_folder_run_are_its_tables_as_printed(folder_run):
    figures = folder_run.quoted_figures()
    raw, placebo, excess = (folder_run.members(), folder_run.members("placebo"),
                            folder_run.excess())
    assert figures["images"] == str(len(folder_run.images)) == "6"
    for member in dicaprio.DEFAULT_ENCODERS:
        assert figures[f"floor.{member}"] == f"{folder_run.placebo_floors()[member]:.3f}"
        # every sanitizer here is detector-based: the worst over all of them
        assert figures[f"tools.{member}.excess"] == f"{excess[member].max():.3f}"
        for registered, shown in zip(folder_run.config.sanitizers, raw.index):
            key = f"{registered}.{member}"  # registry names are already figure names
            assert figures[f"{key}.resolution"] == f"{raw.loc[shown, member]:.3f}"
            assert figures[f"{key}.placebo"] == f"{placebo.loc[shown, member]:.3f}"
            assert figures[f"{key}.excess"] == f"{excess.loc[shown, member]:.3f}"
    assert len(figures) == 1 + 4 + 4 + 4 * 4 * 3
