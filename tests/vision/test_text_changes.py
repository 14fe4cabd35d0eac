"""Text really removed vs OCR jitter, on captions read off real photos."""

from __future__ import annotations

import pytest

import real_photos as rp
from privlab.sanitizers import registry as sanitizers
from privlab.vision.ocr import OCRWord, filter_words, read_text
from privlab.vision.text_changes import (ReadingBook, align_readings, carry_readings,
                                         names_in_text, same_reading, text_changes)

CAPTIONS = [("Martin SCORSESE", 11), ("Leonardo DiCaprio", 12), ("Leonardo DiCaprio", 14)]


@pytest.fixture(scope="session")
def captioned():
    """Captions touching a face; the face blacked out, the result saved as JPEG again."""
    originals = [rp.captioned(text, size) for text, size in CAPTIONS]
    blackout = sanitizers.create("face-blackout-yunet")
    return originals, [rp.jpeg(x, 80) for x in blackout.sanitize(originals)]


def test_a_face_blackout_moves_the_reading_but_removes_no_text(captioned):
    originals, sanitized = captioned
    jitter = 0
    for (text, _), before, after in zip(CAPTIONS, originals, sanitized):
        a, b = read_text(before), read_text(after)
        assert [w.text.replace(" ", "") for w in a] == [text.replace(" ", "")]
        jitter += [w.text for w in a] != [w.text for w in b]
        changes = text_changes(a, b)
        assert changes.removed == () and changes.added == ()
        assert changes.kept == tuple(w.text for w in a)
        assert [w.text for w in carry_readings(a, b)] == [w.text for w in a]
    assert jitter >= 2  # measured: 'MartinSCORSESE' -> 'Martin SCORSESE' and the like


def test_a_text_blackout_is_a_removal(captioned):
    originals, _ = captioned
    removed = sanitizers.create("text-blackout-ocr").sanitize(originals)
    for before, after in zip(originals, removed):
        changes = text_changes(read_text(before), read_text(after))
        assert changes.removed == tuple(w.text for w in read_text(before)) and changes.kept == ()


def test_same_reading_and_groups():
    assert same_reading("MvtinSCORSESE", "Martin SCORSESE")
    assert same_reading("EILEEN COLLINS", "eileen collins.")
    assert not same_reading("EILEEN", "COLLINS") and not same_reading("", "A")
    line = [OCRWord("EILEENCOLLINS", (10, 10, 200, 30), 0.99)]
    split = [OCRWord("COLLINS", (110, 11, 200, 30), 0.98), OCRWord("EILEEN", (10, 10, 100, 30), 0.97)]
    assert [(a.reference, a.observed) for a in align_readings(line, split)] == [((0,), (1, 0))]
    assert [(a.reference, a.observed) for a in align_readings(split, line)] == [((1, 0), (0,))]
    far = [OCRWord("EILEENCOLLINS", (300, 200, 490, 220), 0.99)]  # same text elsewhere
    assert align_readings(line, far) == []
    with pytest.raises(ValueError, match="'min_overlap' parameter of align_readings"):
        align_readings(line, split, min_overlap=0)


def test_reading_book_carries_the_first_reading_to_the_same_photo_only(captioned):
    originals, sanitized = captioned
    book = ReadingBook()
    firsts = [book.read(str(k), x.shape, read_text(x)) for k, x in enumerate(originals)]
    for k, after in enumerate(sanitized):
        carried = book.read(f"s{k}", after.shape, read_text(after))
        assert [w.text for w in carried] == [w.text for w in firsts[k]]
    assert book.read("0", (1, 1), []) == firsts[0]  # an image read again: its first reading
    other = book.read("x", (10, 10), read_text(sanitized[0]))  # another size: nothing carried
    assert [w.text for w in other] == [w.text for w in read_text(sanitized[0])]
    small = ReadingBook(limit=1)
    small.read("a", (5, 5), [])
    small.read("b", (5, 5), [])
    assert len(small) == 1


def test_names_in_text_on_a_real_name_card():
    frame = rp.backgrounds()[0].copy()
    rp.paste(frame, rp.card("EILEEN COLLINS"), 40, 340)
    rp.paste(frame, rp.card("Commander Collins", 18), 300, 60)
    words = [w.text for w in filter_words(read_text(rp.jpeg(frame)))]
    assert names_in_text(words, [rp.TARGET, rp.OTHER]) == [rp.TARGET]
    assert names_in_text(["Commander Collins"], [rp.TARGET]) == [rp.TARGET]  # surname only
    assert names_in_text(["ROLLINS BAND"], [rp.TARGET]) == []
    assert names_in_text([], [rp.TARGET]) == []
