"""The second OCR engine (EasyOCR): a name check that does not read with the text
sanitizers' own OCR, so a copy of the name that OCR misses is still looked for."""

from __future__ import annotations

import json

import numpy as np
import pytest

from privlab.sanitizers import registry
from privlab.vision import ocr
from privlab.vision.concepts import NameCheck, concept_checks

# One worker loads EasyOCR once, and each test reads the readings the one before cached
# (the same scenes and the same text blackout of them).
pytestmark = pytest.mark.xdist_group("vision.test_second_ocr")


def _easyocr():
    pytest.importorskip("easyocr", reason="EasyOCR is not installed (pip install -e '.[easyocr]')")
    pytest.importorskip("easyocr_en_models", reason="EasyOCR's English weights are not installed "
                                                    "(pip install -e '.[easyocr]')")


def test_an_unknown_engine_is_refused_by_name():
    with pytest.raises(ValueError, match="engine.*'rapidocr', 'easyocr'"):
        NameCheck(["Eileen Collins"], engine="tesseract")
    with pytest.raises(ValueError, match="engine"):
        ocr.read_text_with(np.zeros((8, 8, 3), np.uint8), "Tesseract")


def test_the_easyocr_name_check_shares_no_detector_with_the_text_sanitizers():
    [text] = registry.create("text-blackout-ocr").describe()["detectors"]
    assert NameCheck(["Eileen Collins"]).shares_detector(text)
    second = NameCheck(["Eileen Collins"], engine="easyocr")
    assert not second.shares_detector(text)
    assert second.describe()["engine"] == "easyocr" and second.name.startswith("name · EasyOCR")
    [check], _ = concept_checks(names=["Eileen Collins"], name_engine="easyocr")
    assert check.engine == "easyocr"


def test_easyocr_reads_the_caption_caches_it_and_sees_it_gone_after_the_text_blackout(
        celebrity, monkeypatch):
    _easyocr()
    from privlab.hashing import content_hash
    from privlab.vision.images import as_rgb

    image = as_rgb(celebrity.scenes[0].image, "image", "test")  # carries "EILEEN COLLINS"
    check = NameCheck(["Eileen Collins"], engine="easyocr")
    assert check.find(image), ocr.read_text_with(image, "easyocr")
    cached = ocr._ocr_cache_file(content_hash(image), "easyocr")
    assert "EILEEN" in " ".join(e["text"] for e in json.loads(cached.read_text())).upper()
    # The disk copy answers without loading EasyOCR again.
    ocr._SECOND_MEMO.clear()
    monkeypatch.setattr(ocr, "_easyocr", lambda: pytest.fail("EasyOCR ran despite the cache"))
    assert NameCheck(["Eileen Collins"], engine="easyocr").find(image) == check.find(image)
    monkeypatch.undo()
    [blacked] = registry.create("text-blackout-ocr").sanitize([image])
    assert not np.array_equal(np.asarray(blacked), image)  # the blackout marked something
    assert NameCheck(["Eileen Collins"], engine="easyocr").find(blacked) == ()


def test_an_unknown_name_ocr_is_refused_by_the_study():
    from privlab.studies import dicaprio

    with pytest.raises(ValueError, match="name_ocr"):
        dicaprio.Config(name_ocr="tesseract")


def test_the_study_checks_the_name_with_the_engine_it_is_given():
    _easyocr()
    from privlab.studies import dicaprio

    config = dicaprio.Config(n_images=2, sanitizers=("text-blackout-ocr",),
                             encoders=("sface",), placebo=False, leak_table=False,
                             name_ocr="easyocr")
    result = dicaprio.run(config)
    frame = result.fidelity()
    [row] = frame[frame["check"].str.startswith("name · EasyOCR")].to_dict("records")
    # The generated captions name the target; the blackout removes them, and the second
    # reader (not the one the blackout removes by) agrees.
    assert row["present before"] >= 1, result.fidelity_evidence("text blackout (OCR)")
    assert row["still present"] == 0 and row["independent"]
    assert not frame["check"].str.startswith("name · OCR").any()


def test_compare_name_readers_counts_each_engine_before_and_after(celebrity):
    _easyocr()
    from privlab.vision.concepts import compare_name_readers

    scenes = celebrity.scenes[:4]
    captioned = tuple(i for i, s in enumerate(scenes) if any(c.kind == "caption" for c in s.cues))
    assert 0 < len(captioned) < len(scenes)  # the ground truth: some scenes carry the name
    readers = compare_name_readers([s.image for s in scenes], ["Eileen Collins"],
                                   registry.create("text-blackout-ocr"))
    assert readers.before["rapidocr"] == captioned and readers.before["easyocr"] == captioned
    assert readers.after == {"rapidocr": (), "easyocr": ()}
    assert readers.only("easyocr") == () and readers.sanitizer == "text blackout (OCR)"
    table = readers.table()
    assert table.loc["easyocr", "name before"] == len(captioned)
    assert table.loc["easyocr", "still after"] == 0
    with pytest.raises(ValueError, match="images"):
        compare_name_readers([], ["Eileen Collins"])


def test_only_lists_the_copies_the_other_engines_miss():
    from privlab.vision.concepts import NameReaders

    readers = NameReaders(("X",), None, 5, {"rapidocr": (0, 2), "easyocr": (2, 4)}, {},
                          {"rapidocr": 0.1, "easyocr": 6.0})
    assert readers.only("easyocr") == (4,) and readers.only("rapidocr") == (0,)
