"""Study 01's ladder and detector-miss runs, on generated scenes and on real-photo compositions.

Measured on the smoke corpus (4 celebrity scenes, seed 0), ladder with placebo:
describe-then-embed reads 0.879 at the face rung (the captions are still there; its
placebo 0) and 0 from the face + text rung on; every other member reads 0 at every rung
(plain OCR for the structural reason: a face blackout leaves every caption as it was);
the full-image rung reads 0 under every member, placebo included. The face blackout
removes none of the caption pixels, the face + text rung 0.89 of them.

Detector miss on the same 4 scenes with scenes 1 and 3 tilted 30°: the Haar blackout
leaves the tilted portraits; dlib-face 0.986, sface 0.265 (placebos 0 and 0.0001); the
YuNet blackout finds every tilted face, both members 0. On the real-photo compositions
of :mod:`real_photos` (six frames, PNG): Haar leaves frame 4's tilted astronaut and
frame 5's Grace Hopper turned 40°; dlib-face 0.921, sface 0.610. The YuNet blackout
leaves frame 5's Grace Hopper (YuNet score under 0.5): sface, which detects with YuNet,
reads 0; dlib-face 0.908 with frame 5 as the released image of its witness.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import real_photos as rp
from smoke_results import smoke_result
from privlab.datasets.scenes import celebrity_scenes
from privlab.encoders import registry as encoders
from privlab.sanitizers.image import HaarFaces
from privlab.sanitizers.ladder import LADDER, LADDER_LABELS
from privlab.sanitizers.people import mediapipe_available
from privlab.studies import Status, StudyResult, dicaprio
from privlab.studies.contract import first_line_problems

# The module's shared fixtures are built once, and study 01's corpus is audited by the
# contract and notebook 01's exercises too: one worker (tests/smoke_results.py's GROUPS).
pytestmark = pytest.mark.xdist_group("studies.dicaprio")

needs_mediapipe = pytest.mark.skipif(not mediapipe_available(),
                                     reason="MediaPipe is not installed (make venv installs it)")
needs_dlib = pytest.mark.skipif(not encoders.available("dlib-face"),
                                reason="dlib is not installed (make venv installs it)")
READERS = ("describe-then-embed", "ocr-text")
FACE_MEMBERS = ("sface", "dlib-face")


@pytest.fixture(scope="session")
def ladder():
    if not (mediapipe_available() and encoders.available("dlib-face")):
        pytest.skip("the ladder needs MediaPipe and dlib")
    return smoke_result("dicaprio.ladder")  # LadderConfig.smoke(): the corpus of Config.smoke()


@pytest.fixture(scope="session")
def miss():
    if not encoders.available("dlib-face"):
        pytest.skip("the dlib member is not installed")
    return smoke_result("dicaprio.detector_miss")


# --------------------------------------------------------------------------- the ladder
def test_ladder_config_takes_the_study_corpus_and_its_own_rungs(tmp_path):
    study = dicaprio.Config.smoke(seed=3, delta=0.1, placebo=False, top_k=2)
    config = dicaprio.LadderConfig.like(study)
    assert (config.n_images, config.seed, config.delta, config.placebo, config.top_k) == \
        (4, 3, 0.1, False, 2)
    assert config.sanitizers == LADDER and config.encoders == dicaprio.LADDER_MEMBERS
    assert config.leak_table is False
    on_folder = dicaprio.LadderConfig.like(dicaprio.Config(data=str(tmp_path)))
    assert on_folder.data == str(tmp_path) and on_folder.sanitizers == LADDER
    assert dicaprio.LadderConfig.like(study, encoders=("sface",)).encoders == ("sface",)
    with pytest.raises(TypeError, match="'config' parameter of LadderConfig.like"):
        dicaprio.LadderConfig.like({"n_images": 4})
    with pytest.raises(ValueError, match="'config' parameter of run_ladder"):
        dicaprio.run_ladder(study)


def test_cue_removal_known_answer():
    corpus = celebrity_scenes(2)
    sanitized = [im.copy() for im in corpus.images]
    for scene, out in zip(corpus.scenes, sanitized):
        for x0, y0, x1, y1 in scene.boxes(["caption"]):
            out[y0:y1, x0:x1] = 0
        x0, y0, x1, y1 = scene.boxes(["target_face"])[0]
        out[y0:y1, x0:(x0 + x1) // 2] = 0  # the left half of the portrait
    shares = dicaprio.cue_removal(corpus, sanitized)
    assert list(shares) == list(corpus.kinds)
    assert shares["caption"] == 1.0  # scene 0 has a caption, scene 1 none
    assert shares["target_face"] == pytest.approx(0.5, abs=0.02)
    assert shares["other_face"] == 0.0  # scene 1's second person, left alone
    assert np.isnan(shares["poster"])  # neither scene has a poster
    assert dicaprio.cue_removal(corpus, corpus.images)["target_face"] == 0.0
    with pytest.raises(ValueError, match="'sanitized' parameter of cue_removal"):
        dicaprio.cue_removal(corpus, sanitized[:1])


def test_full_image_rung_reads_zero_under_every_member(ladder):
    table, floors = ladder.table(), ladder.table("placebo")
    assert list(table.index) == [LADDER_LABELS[name] for name in LADDER]
    assert list(table.columns) == list(dicaprio.LADDER_MEMBERS)
    assert table.loc["full image"].tolist() == [0.0] * len(dicaprio.LADDER_MEMBERS)
    assert floors.loc["full image"].tolist() == [0.0] * len(dicaprio.LADDER_MEMBERS)
    assert ladder.control_passed is True


def test_face_rung_leaves_the_caption_and_the_member_that_reads_it_flags_it(ladder):
    table, floors, cues = ladder.table(), ladder.table("placebo"), ladder.cues_removed()
    assert cues.loc["face", "caption"] < 0.05  # the face blackout leaves every caption
    assert table.loc["face", "describe-then-embed"] > 0.5  # measured 0.879
    reader_floor = floors.loc["face", "describe-then-embed"]
    assert table.loc["face", "describe-then-embed"] > reader_floor + 0.5  # not the marks
    # plain OCR reads the same caption before and after a face blackout: T_j = 0 for it
    assert table.loc["face", "ocr-text"] == 0.0
    # the face members find no face in a face blackout's output
    assert table.loc["face", list(FACE_MEMBERS)].tolist() == [0.0, 0.0]
    witness = ladder.run.audit("face blackout (YuNet)").member(
        ladder.run._long("describe-then-embed")).witness
    assert "caption" in ladder.run.labels[witness.audited]


def test_resolution_falls_to_zero_where_the_cues_are_gone(ladder):
    cues, excess = ladder.cues_removed(), ladder.table("excess")
    assert cues.loc["face + text", "caption"] > 0.8  # measured 0.89
    assert cues.loc["whole person + text", "target_face"] > 0.85  # measured 0.91
    assert cues.loc["face", "target_face"] < cues.loc["whole person + text", "target_face"]
    assert (cues.loc[["face", "face + text", "whole person + text"], "poster"] < 0.05).all()
    assert cues.loc["full image"].tolist() == [1.0] * len(cues.columns)
    assert ladder.first_zero()["describe-then-embed"] == "face + text"
    assert excess.loc["face + text":].to_numpy().max() == 0.0
    assert ladder.non_increasing("excess").all()
    assert ladder.non_increasing("resolution")[list(FACE_MEMBERS + READERS)].all()


def test_ladder_frame_provenance_and_headline(ladder):
    assert isinstance(ladder, StudyResult) and "<table" in ladder._repr_html_()
    frame = ladder.to_frame()
    assert len(frame) == 4 * len(dicaprio.LADDER_MEMBERS)
    assert frame["step"].tolist() == sorted(frame["step"]) and set(frame["step"]) == {1, 2, 3, 4}
    assert set(frame["rung"]) == set(LADDER_LABELS.values())
    np.testing.assert_allclose(frame["excess"],
                               np.maximum(0, frame["resolution"] - frame["placebo"]))
    assert ladder.provenance["ladder"] == list(LADDER)
    assert ladder.provenance["corpus"]["n"] == 4
    headline = ladder.headline()
    assert headline.study == "01 DiCaprio · ladder"
    assert ladder.summary().startswith(
        "excess over placebo along the ladder (face → face + text → whole person + text → "
        "full image): sface 0.000 → 0.000")
    assert "; describe-then-embed 0.8" in ladder.summary()
    assert "full image: resolution 0 under every member" in ladder.summary()
    # the first line: the worst value, where every member reaches 0, and the control
    assert headline.text.startswith("worst excess over placebo 0.8")
    assert "at face (describe-then-embed), 0 from " in headline.text
    assert headline.text.endswith("; full-image control reads 0")
    assert first_line_problems(headline.text) == [] and headline.status is Status.DESCRIPTIVE
    assert headline.details[0] == ("rungs: face → face + text → whole person + text → "
                                   "full image")
    assert any(d.startswith("describe-then-embed: 0.8") for d in headline.details)
    assert any("control" in c for c in headline.caveats)


# --------------------------------------------------------------------------- detector miss
def test_tilt_faces_turns_every_other_portrait_inside_its_box():
    upright = celebrity_scenes(4)
    tilted = dicaprio.tilt_faces(upright, 30)
    assert tilted.provenance["tilted"] == [1, 3] and tilted.provenance["tilt"] == 30.0
    assert tilted.provenance["pixels_sha256"] != upright.provenance["pixels_sha256"]
    haar = HaarFaces()
    for before, after in zip(upright.scenes, tilted.scenes):
        assert [c.box for c in after.cues] == [c.box for c in before.cues]
        x0, y0, x1, y1 = before.boxes(["target_face"])[0]
        outside = np.ones(before.image.shape[:2], bool)
        outside[y0:y1, x0:x1] = False
        assert (after.image[outside] == before.image[outside]).all()
        in_box = [r for r in haar.regions(after.image)
                  if r.mask[y0:y1, x0:x1].sum() > 0.5 * r.mask.sum()]
        if before.index in (1, 3):
            assert in_box == []  # the cascade misses the tilted head
            assert not (after.image[y0:y1, x0:x1] == before.image[y0:y1, x0:x1]).all()
        else:
            assert len(in_box) == 1 and (after.image == before.image).all()
    with pytest.raises(ValueError, match="'angle' parameter of tilt_faces"):
        dicaprio.tilt_faces(upright, 90)
    with pytest.raises(ValueError, match="'every' parameter of tilt_faces"):
        dicaprio.tilt_faces(upright, 30, every=0)
    with pytest.raises(ValueError, match="'tilt' parameter of MissConfig"):
        dicaprio.MissConfig(tilt=-95)


@needs_dlib
def test_haar_misses_tilted_heads_and_both_other_families_flag_them(miss):
    frame = miss.to_frame().set_index(["sanitizer", "member"])
    haar = frame.loc["face blackout (Haar)"]
    assert not haar["shares detector"].any()
    assert haar.loc["dlib-face", "excess"] > 0.5  # measured 0.986
    assert haar.loc["sface", "excess"] > 0.1  # measured 0.265
    assert haar.loc["dlib-face", "placebo"] < 0.02 and haar.loc["sface", "placebo"] < 0.02
    tilted = miss.run.corpus.provenance["tilted"]
    witness = miss.witness("face blackout (Haar)", "dlib-face")
    assert witness.audited in tilted and witness.reference not in tilted
    assert haar.loc["dlib-face", "faces in witness x"] == 1
    left = miss.left()
    assert [i for i, n in enumerate(left["face blackout (Haar) | dlib-face"]) if n] == tilted
    # YuNet still finds the tilted heads: its blackout leaves nothing for either member
    yunet = frame.loc["face blackout (YuNet)"]
    assert yunet["resolution"].tolist() == [0.0, 0.0]
    assert yunet.loc["sface", "shares detector"] and not yunet.loc["dlib-face", "shares detector"]
    assert (left.filter(like="(YuNet)") == 0).all().all()
    assert isinstance(miss, StudyResult) and "<table" in miss._repr_html_()
    headline = miss.headline()
    assert headline.text.startswith("face blackout (Haar): face left in 2/4 images, worst excess ")
    assert headline.details[0].startswith("face blackout (Haar) left a face in 2 of 4 images: "
                                          "excess ")
    assert "sface 0.000 (same detector)" in " ".join(headline.details)
    assert first_line_problems(headline.text) == [] and headline.status is Status.DESCRIPTIVE
    assert any("turned 30° in 2 of 4 scenes (1, 3; tilt_faces)" in c for c in headline.caveats)
    assert miss.provenance["detector_families"] == {
        "face blackout (Haar)": "haar", "face blackout (YuNet)": "yunet",
        "sface": "yunet", "dlib-face": "dlib"}


@pytest.fixture(scope="session")
def photo_miss(tmp_path_factory):
    from PIL import Image

    if not encoders.available("dlib-face"):
        pytest.skip("the dlib member is not installed")
    root = tmp_path_factory.mktemp("detector-miss")
    for k, image in enumerate(rp.face_corpus()[0]):
        Image.fromarray(image).save(root / f"frame{k}.png")
    return dicaprio.run_detector_miss(dicaprio.MissConfig(data=str(root)))


def test_on_real_photos_only_the_other_family_sees_the_face_yunet_missed(photo_miss):
    frame = photo_miss.to_frame().set_index(["sanitizer", "member"])
    yunet = frame.loc["face blackout (YuNet)"]
    assert yunet.loc["sface", "shares detector"]
    assert yunet.loc["sface", "resolution"] == 0.0  # same detector: it cannot see the miss
    assert yunet.loc["dlib-face", "excess"] > 0.5  # measured 0.908
    assert yunet.loc["dlib-face", "witness_x"] == "frame5.png"  # Grace Hopper turned 40°
    assert yunet.loc["dlib-face", "faces in witness x"] == 1
    haar = frame.loc["face blackout (Haar)"]
    assert haar.loc["dlib-face", "excess"] > 0.5 and haar.loc["sface", "excess"] > 0.3
    assert {haar.loc[m, "witness_x"] for m in FACE_MEMBERS} <= {"frame4.png", "frame5.png"}
    left = photo_miss.left()
    assert Path(photo_miss.config.data).is_dir() and list(left.index) == [
        f"frame{k}.png" for k in range(6)]
    assert left.loc["frame5.png", "face blackout (YuNet) | sface"] == 0
    assert left.loc["frame5.png", "face blackout (YuNet) | dlib-face"] == 1
    assert "(same detector)" in " ".join(photo_miss.headline().details)


def test_ladder_quoted_figures_are_its_tables_as_printed(ladder):
    figures = ladder.quoted_figures()
    rungs = ("face", "face-text", "whole-person-text", "full-image")
    assert all(name.startswith("ladder.") for name in figures)
    table, placebo, excess = ladder.table(), ladder.table("placebo"), ladder.table("excess")
    for key, label in zip(rungs, table.index):
        for member in dicaprio.LADDER_MEMBERS:
            assert figures[f"ladder.{key}.{member}.resolution"] == f"{table.loc[label, member]:.3f}"
            assert figures[f"ladder.{key}.{member}.placebo"] == f"{placebo.loc[label, member]:.3f}"
            assert figures[f"ladder.{key}.{member}.excess"] == f"{excess.loc[label, member]:.3f}"
    # the prose's figures: the reader at the face rung, the captions and portraits blacked out
    assert float(figures["ladder.face.describe-then-embed.excess"]) > 0.5  # measured 0.879
    assert figures["ladder.full-image.efficientnet-lite0.resolution"] == "0.000"
    assert figures["ladder.face.removed.caption"] == "0%"
    cues = ladder.cues_removed()
    assert figures["ladder.face-text.removed.caption"] == f"{cues.loc['face + text', 'caption']:.0%}"
    assert figures["ladder.face.removed.target_face"] == f"{cues.loc['face', 'target_face']:.0%}"
    assert figures["ladder.face.removed.poster"] == "0%"  # the poster stays to the last rung
    assert figures["ladder.full-image.removed.poster"] == "100%"
    coverage = [a.placebo_coverage for a in ladder.run.table]
    for key, share in zip(rungs, coverage):
        assert figures[f"ladder.{key}.placebo_coverage"] == f"{share:.0%}"
    # nothing else: rung x member values, placebo coverage, removed shares (4 cue kinds)
    assert len(figures) == 4 * len(dicaprio.LADDER_MEMBERS) * 3 + 4 + 4 * 4


@needs_dlib
def test_detector_miss_quoted_figures_are_its_table_as_printed(miss):
    figures = miss.quoted_figures()
    assert all(name.startswith("miss.") for name in figures)
    assert (figures["miss.images"], figures["miss.tilted"], figures["miss.tilt"]) == ("4", "2", "30")
    frame = miss.to_frame().set_index(["sanitizer", "member"])
    for key, sanitizer in (("face-blackout-haar", "face blackout (Haar)"),
                           ("face-blackout-yunet", "face blackout (YuNet)")):
        for member in FACE_MEMBERS:
            row = frame.loc[(sanitizer, member)]
            for value in ("resolution", "placebo", "excess"):
                assert figures[f"miss.{key}.{member}.{value}"] == f"{row[value]:.3f}"
            assert figures[f"miss.{key}.{member}.left"] == str(row["images with a face left"])
    # the Haar blackout leaves both tilted portraits to dlib; the YuNet blackout none
    assert figures["miss.face-blackout-haar.dlib-face.left"] == "2"
    assert figures["miss.face-blackout-yunet.dlib-face.left"] == "0"
    assert figures["miss.face-blackout-yunet.sface.excess"] == "0.000"
