"""Describe-then-embed on real-photo compositions: names on cards, logos, jitter, marks."""

from __future__ import annotations

import numpy as np
import pytest

import real_photos as rp
from privlab.contrastive import audit
from privlab.encoders import registry
from privlab.encoders.describe import LABELS_OFF_REASON, DescribeThenEmbedEncoder
from privlab.sanitizers import registry as sanitizers

# The module's shared fixtures are built once: its tests stay on one xdist worker.
pytestmark = pytest.mark.xdist_group("encoders.test_describe")


@pytest.fixture(scope="session")
def gallery():
    return {rp.TARGET: [rp.heads()[rp.TARGET]]}  # one crop of the person's face


@pytest.fixture(scope="session")
def logos():
    from skimage import data

    return {rp.BRAND: [data.logo()]}


@pytest.fixture(scope="session")
def people():
    images, faces, texts = rp.face_corpus(rp.FRAMES[:4])  # three frames with a name card
    return images, [f + t for f, t in zip(faces, texts)]


@pytest.fixture(scope="session")
def storefronts():
    images, logo_boxes, sign_boxes = rp.brand_corpus()
    return images, logo_boxes, [lb + sb for lb, sb in zip(logo_boxes, sign_boxes)]


def test_name_card_left_after_a_face_blackout_names_the_person_in_the_witness(people, gallery):
    images, cues = people
    enc = DescribeThenEmbedEncoder(gallery)
    blackout = sanitizers.create("face-blackout-yunet")
    result = audit(images, blackout, encoders=[enc]).members[0]
    assert result.value > 0.3  # measured 0.77
    witness = result.witnesses[0]
    assert witness.audited in (0, 3)  # the frames whose card names her
    left = enc.describe_images([witness.audited_sanitized])[0]
    assert left.names == () and left.read_names == (rp.TARGET,)  # no face, a name card
    assert rp.TARGET in left.text
    removed = enc.describe_images([witness.reference_original, witness.reference_sanitized])
    assert rp.TARGET in removed[0].names and rp.TARGET not in removed[1].text
    placebo = rp.placebo_of(images, blackout, cues)
    assert audit(images, sanitized=placebo, encoders=[enc]).members[0].value == 0.0


@pytest.mark.slow  # about 30 s on two idle cores: 24 OCR readings
def test_logo_left_after_a_text_blackout_is_found_by_the_logo_gallery(storefronts, logos):
    images, logo_boxes, cues = storefronts
    text_blackout = sanitizers.create("text-blackout-ocr")
    sanitized = text_blackout.sanitize(images)
    plain = DescribeThenEmbedEncoder()
    branded = DescribeThenEmbedEncoder(logos=logos)
    result = audit(images, sanitized=sanitized, encoders=[plain, branded])
    blind, seen = result.members
    assert blind.value == 0.0  # without the logo gallery: the false pass
    assert seen.value > 0.3
    witness = seen.witnesses[0]
    assert logo_boxes[witness.audited] and not logo_boxes[witness.reference]
    left, (named, gone) = (branded.describe_images([witness.audited_sanitized])[0],
                           branded.describe_images([witness.reference_original,
                                                    witness.reference_sanitized]))
    assert left.words == () and left.brands == (rp.BRAND,)  # the logo, nothing else
    assert named.brands == (rp.BRAND,) and gone.text == ""  # the name on a sign, removed
    placebo = rp.placebo_of(images, text_blackout, cues)
    assert audit(images, sanitized=placebo, encoders=[branded]).members[0].value == 0.0
    both = [rp.blackout(x, boxes) for x, boxes in zip(sanitized, logo_boxes)]
    assert audit(images, sanitized=both, encoders=[branded]).members[0].value == 0.0


def test_ocr_jitter_is_not_a_removal():
    originals = [rp.captioned(*spec) for spec in (("Martin SCORSESE", 11, 0, 200),
                                                  ("Leonardo DiCaprio", 12, 1, 150),
                                                  ("Leonardo DiCaprio", 14, 0, 380),
                                                  ("Martin SCORSESE", 12, 1, 330))]
    sanitized = [rp.jpeg(x, 80) for x in
                 sanitizers.create("face-blackout-yunet").sanitize(originals)]
    careful, naive = registry.create("ocr-text"), registry.create("ocr-text", carry_readings=False)
    result = audit(originals, sanitized=sanitized, encoders=[careful, naive])
    assert result.members[0].value == 0.0
    assert result.members[1].value > 0.05  # jitter alone (measured 0.21)
    assert np.array_equal(careful.encode(originals), careful.encode(sanitized))  # T_j = 0
    words = careful.describe_images(sanitized)
    assert [d.words for d in words] == [d.words for d in careful.describe_images(originals)]
    read = naive.describe_images(originals + sanitized)  # what the readings alone say
    assert sum(a.text != b.text for a, b in zip(read[:4], read[4:])) >= 2  # jitter is real
    # a caption really removed from one photo (the second), left in another with the same name
    removed = sanitizers.create("text-blackout-ocr").sanitize(originals[1:2])
    mixed = [sanitized[0], removed[0], sanitized[2], sanitized[3]]
    found = audit(originals, sanitized=mixed, encoders=[careful]).members[0]
    assert found.value > 0.3 and (found.witnesses[0].audited, found.witnesses[0].reference) == (2, 1)


def test_ocr_runs_once_per_image_for_every_member_and_the_sanitizer(storefronts, monkeypatch):
    from privlab.vision import ocr

    images = [rp.jpeg(x, 70) for x in storefronts[0][:2]]  # pixels no test has read yet
    engine, calls = ocr._rapidocr(), []

    def counting():
        def call(*args, **kwargs):
            calls.append(1)
            return engine(*args, **kwargs)
        return call

    monkeypatch.setattr(ocr, "_rapidocr", counting)
    DescribeThenEmbedEncoder().encode(images)
    assert len(calls) == 2
    registry.create("ocr-text").encode(images)
    sanitizers.create("text-blackout-ocr").sanitize(images)
    DescribeThenEmbedEncoder(use_labels=True).describe_images(images)
    assert len(calls) == 2


def test_labels_are_off_by_default_and_read_with_marks_inpainted_when_on():
    enc = DescribeThenEmbedEncoder()
    assert enc.use_labels is False and enc.describe()["labels"] == LABELS_OFF_REASON
    on = DescribeThenEmbedEncoder(use_labels=True)
    assert on.name.endswith("-l0.5-inpaint") and on.inpaint_marks
    from skimage import data

    coffee = data.coffee()
    boxed = rp.blackout(coffee, [(20, 20, 140, 140), (420, 250, 560, 380)])
    labels = on.describe_images([coffee, boxed])
    assert labels[0].labels == ("espresso",) == labels[1].labels
    with pytest.raises(ValueError, match="at least one"):
        DescribeThenEmbedEncoder(use_ocr=False, use_faces=False)
    with pytest.raises(ValueError, match="'logos' parameter"):
        DescribeThenEmbedEncoder(logos={"brand": []})
    assert np.isfinite(on.encode([coffee])).all()
