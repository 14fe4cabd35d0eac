"""What must be true on the generated corpora, measured with the offline members."""

from __future__ import annotations

import pytest

from privlab.contrastive import audit
from privlab.datasets.scene_cues import cue_blackout
from privlab.datasets.scenes import CELEBRITY_KINDS
from privlab.encoders import registry

# The module's shared fixtures are built once: its tests stay on one xdist worker.
pytestmark = pytest.mark.xdist_group("contrastive.test_image_audits")


@pytest.fixture(scope="session")
def members(celebrity):
    return {"sface": registry.create("sface"),
            "dte": registry.create("describe-then-embed", gallery=celebrity.gallery),
            "ocr": registry.create("ocr-text")}


def _run(corpus, kinds, members):
    return audit(corpus.images, cue_blackout(corpus, kinds), encoders=list(members.values()))


def test_removing_every_cue_gives_zero(celebrity, members):
    result = _run(celebrity, CELEBRITY_KINDS, members)
    for m in result.members:
        assert m.value == 0.0, (m.encoder, m.value, m.resolution.witness)


def test_face_only_blackout_false_pass_caught_by_describe_then_embed(celebrity, members):
    result = _run(celebrity, ["target_face", "other_face"], members)
    sface, dte, ocr = result.members
    assert sface.value == 0.0  # the paper's false pass: no face is left anywhere
    assert ocr.value == 0.0  # structural: OCR reads the same words before and after
    assert dte.value > 0.5
    i, j = dte.resolution.witness
    assert "caption" in celebrity.scenes[i].kinds()  # the caption is in the decisive witness
    words = members["dte"].describe_images([dte.witness.audited_sanitized])[0]
    assert words.words == ("EILEEN", "COLLINS") and words.names == ()


def test_second_face_left_is_a_positive_violation_with_that_face_in_the_witness(celebrity, members):
    result = _run(celebrity, ["target_face", "caption", "poster"], members)
    sface = result.members[0]
    assert sface.value > 0.05
    i, j = sface.resolution.witness
    assert "other_face" in celebrity.scenes[i].kinds()
    assert "other_face" not in celebrity.scenes[j].kinds()


def test_brand_every_cue_removed_gives_zero(brand):
    members = [registry.create("describe-then-embed"), registry.create("sface")]
    result = audit(brand.images, cue_blackout(brand, brand.kinds), encoders=members)
    assert [m.value for m in result.members] == [0.0, 0.0]


def test_leak_table_marks_the_caption_and_the_blind_spot(celebrity, members):
    from privlab.contrastive.ensemble import leak_detection

    table = leak_detection(celebrity, list(members.values()), kinds=["caption", "poster"])
    m = table.matrix()
    names = [e.name for e in members.values()]
    assert m.loc["(none)"].tolist() == ["-", "-", "-"]
    assert m.loc["caption", names[1]] == "flag*" and m.loc["caption", names[0]] == "-"
    assert m.loc["caption", names[2]] == "-"  # plain OCR: never removed, never seen
    assert m.loc["poster"].tolist() == ["-", "-", "-"]  # a shared blind spot of this ensemble


def test_blackout_does_not_cut_text_into_stray_letters(celebrity):
    from privlab.vision.ocr import filter_words, read_text

    sanitized = cue_blackout(celebrity, ["target_face", "other_face", "poster"]).sanitize(
        celebrity.images)
    for scene, image in zip(celebrity.scenes, sanitized):
        words = [w.text for w in filter_words(read_text(image))]
        assert words == (["EILEEN", "COLLINS"] if "caption" in scene.kinds() else []), scene.index


@pytest.mark.slow
def test_leak_table_with_placebo_flags_on_the_excess(celebrity, members):
    """The caption left: describe-then-embed's excess over its placebo is the whole
    resolution (the placebo's boxes stay off every cue, so they move it by 0)."""
    from privlab.contrastive.ensemble import leak_detection

    dte = members["dte"]
    table = leak_detection(celebrity, [dte], kinds=["caption"], placebo=True)
    frame = table.to_frame().set_index("left")
    assert table.placebo and {"placebo", "excess"} <= set(frame.columns)
    assert frame.loc["caption", "placebo"] == 0.0
    assert frame.loc["caption", "excess"] == frame.loc["caption", "resolution"] > 0.5
    assert table.matrix().loc["caption", dte.name] == "flag*"
    assert table.matrix().loc["(none)", dte.name] == "-"
    assert "excess over placebo" in table._repr_html_()
    audit_none = table.audits["(none)"]
    assert audit_none.placebo_sanitizer["avoid"] == ["cues[" + "+".join(celebrity.kinds) + "]"]
