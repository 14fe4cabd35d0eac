"""OCR: rapidocr reads drawn captions, the disk cache answers again, the filter drops fragments."""

from __future__ import annotations

import json

import numpy as np
import pytest

from privlab.vision import ocr


def test_ocr_reads_caption_and_caches(celebrity, monkeypatch):
    scene = celebrity.scenes[0]  # index 0 carries a caption
    words = [w.text for w in ocr.filter_words(ocr.read_text(scene.image))]
    assert words == ["EILEEN", "COLLINS"]
    from privlab.hashing import content_hash
    from privlab.vision.images import as_rgb

    # This image's own cache file (other tests in the session cache other images).
    cached = ocr._ocr_cache_file(content_hash(as_rgb(scene.image, "image", "test")))
    assert [entry["text"] for entry in json.loads(cached.read_text())] == ["EILEEN", "COLLINS"]
    ocr._OCR_MEMO.clear()  # the disk copy answers without running OCR again
    monkeypatch.setattr(ocr, "_rapidocr", lambda: pytest.fail("OCR ran despite the cache"))
    assert [w.text for w in ocr.filter_words(ocr.read_text(scene.image))] == words


def test_no_text_on_a_sample_photo():
    from skimage import data

    assert ocr.filter_words(ocr.read_text(data.coffee())) == []
    blank = np.full((60, 80, 3), 255, dtype=np.uint8)
    assert ocr.read_text(blank) == []


def test_filter_words_thresholds():
    words = [ocr.OCRWord("EILEEN", (0, 0, 9, 9), 0.99), ocr.OCRWord("COLLINS", (0, 0, 9, 9), 0.5),
             ocr.OCRWord("a-1", (0, 0, 9, 9), 0.95), ocr.OCRWord("l", (0, 0, 9, 9), 0.99)]
    assert [w.text for w in ocr.filter_words(words)] == ["EILEEN"]
    assert [w.text for w in ocr.filter_words(words, 0.4)] == ["EILEEN", "COLLINS"]
    assert [w.text for w in ocr.filter_words(words, 0.0, 1)] == ["EILEEN", "COLLINS", "a-1", "l"]
