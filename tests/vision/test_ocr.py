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


def test_two_renderings_with_the_same_marked_region_read_its_crop_once(celebrity, monkeypatch):
    """A face blackout and a faces-and-text blackout mark the same face: its crop is read
    once, and both renderings get the same reading of it."""
    scene = celebrity.scenes[0]
    rgb = np.asarray(scene.image).copy()
    marked = rgb.copy()
    marked[10:40, 10:40] = 0
    other_text = marked.copy()
    other_text[-20:, -30:] = 0  # a second mark far from the first: its own crop
    calls = []
    real = ocr._read_pixels
    monkeypatch.setattr(ocr, "_read_pixels", lambda px, scale=None: calls.append(px.shape) or real(px, scale))
    ocr._CROP_MEMO.clear()
    ocr.read_text(rgb)  # the original's reading (from the disk cache or OCR)
    calls.clear()
    first = ocr.read_rendering(rgb, marked)
    assert len(calls) == 1
    second = ocr.read_rendering(rgb, other_text)
    assert len(calls) == 2  # the shared crop from the memo, only the new one read
    near_first = [w for w in second if w.box[1] < 60 and w.box[0] < 60]
    assert [w.text for w in near_first] == [w.text for w in first if w.box[1] < 60 and w.box[0] < 60]
