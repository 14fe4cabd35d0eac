"""Which text a sanitizer really removed: OCR readings compared with tolerance for jitter.

Two readings are the same text when their boxes overlap and their letters agree up to case,
spacing, punctuation and a small edit distance (:func:`same_reading`); :func:`text_changes`,
:func:`carry_readings`, :func:`names_in_text` and :class:`ReadingBook` build on that. See
``docs/methods/images-readers.md``.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Sequence

from privlab.errors import invalid
from privlab.vision.ocr import OCRWord

JITTER_SIMILARITY = 0.75  # normalised edit similarity of two readings of the same text
MIN_OVERLAP = 0.5  # intersection over union of their boxes
Box = tuple[int, int, int, int]


def normalise(text: str) -> str:
    """Letters and digits only, case-folded: what OCR jitter leaves alone.

    Example:
        >>> normalise("Martin  SCORSESE!")
        'martinscorsese'
    """
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def same_reading(a: str, b: str, *, min_similarity: float = JITTER_SIMILARITY) -> bool:
    """Whether two readings are the same text up to OCR jitter.

    Case, spacing and punctuation are ignored; what remains must agree to a normalised
    Levenshtein similarity of at least ``min_similarity``.

    Example:
        >>> same_reading("MvtinSCORSESE", "Martin SCORSESE"), same_reading("SCORSESE", "DiCAPRIO")
        (True, False)
    """
    from rapidfuzz.distance import Levenshtein

    na, nb = normalise(a), normalise(b)
    if not na or not nb:
        return na == nb
    return Levenshtein.normalized_similarity(na, nb) >= min_similarity


def _area(box: Box) -> int:
    return max(0, box[2] - box[0]) * max(0, box[3] - box[1])


def _inter(a: Box, b: Box) -> int:
    return _area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def box_iou(a: Box, b: Box) -> float:
    """Intersection over union of two ``(x0, y0, x1, y1)`` boxes.

    Example:
        >>> box_iou((0, 0, 10, 10), (5, 0, 15, 10))
        0.3333333333333333
    """
    inter = _inter(a, b)
    union = _area(a) + _area(b) - inter
    return inter / union if union > 0 else 0.0


def _union(boxes: Sequence[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


def _reading_order(words: Sequence[OCRWord], index: Sequence[int]) -> list[int]:
    return sorted(index, key=lambda k: (words[k].box[1] // 8, words[k].box[0]))


@dataclass(frozen=True)
class Alignment:
    """Readings of the same text in two renderings: indices into each list."""

    reference: tuple[int, ...]
    observed: tuple[int, ...]


def align_readings(reference: Sequence[OCRWord], observed: Sequence[OCRWord], *,
                   min_similarity: float = JITTER_SIMILARITY,
                   min_overlap: float = MIN_OVERLAP) -> list[Alignment]:
    """Pairs (or groups) of readings, one from each rendering, of the same printed text.

    One-to-one pairs first (best overlap first), then a line read as several pieces
    (``docs/methods/images-readers.md``).

    Args:
        reference: the readings of one rendering (e.g. the original).
        observed: the readings of the other (e.g. the sanitized one).
        min_similarity: see :func:`same_reading`.
        min_overlap: the IoU two aligned boxes need.

    Returns:
        The alignments; a reading appears in at most one.

    Example:
        >>> a = [OCRWord("MvtinSCORSESE", (10, 10, 130, 30), 0.9)]
        >>> b = [OCRWord("Martin", (10, 10, 60, 30), 0.95), OCRWord("SCORSESE", (66, 10, 130, 30), 0.97)]
        >>> align_readings(a, b)
        [Alignment(reference=(0,), observed=(0, 1))]
    """
    if not 0 < min_overlap <= 1:
        raise invalid("min_overlap", "align_readings", "in (0, 1]", min_overlap)
    if not 0 < min_similarity <= 1:
        raise invalid("min_similarity", "align_readings", "in (0, 1]", min_similarity)
    out: list[Alignment] = []
    free_r = set(range(len(reference)))
    free_o = set(range(len(observed)))
    pairs = []
    for i, r in enumerate(reference):
        for j, o in enumerate(observed):
            iou = box_iou(r.box, o.box)
            if iou >= min_overlap and same_reading(r.text, o.text, min_similarity=min_similarity):
                pairs.append((-iou, i, j))
    for _, i, j in sorted(pairs):
        if i in free_r and j in free_o:
            free_r.discard(i)
            free_o.discard(j)
            out.append(Alignment((i,), (j,)))

    def groups(big: Sequence[OCRWord], small: Sequence[OCRWord], free_big: set, free_small: set):
        found = []
        for i in sorted(free_big):
            members = [j for j in sorted(free_small)
                       if _area(small[j].box) and _inter(big[i].box, small[j].box)
                       >= 0.6 * _area(small[j].box)]
            if len(members) < 2:
                continue
            members = _reading_order(small, members)
            joined = "".join(small[j].text for j in members)
            if (box_iou(big[i].box, _union([small[j].box for j in members])) >= min_overlap
                    and same_reading(big[i].text, joined, min_similarity=min_similarity)):
                free_big.discard(i)
                free_small.difference_update(members)
                found.append((i, tuple(members)))
        return found

    out += [Alignment((i,), js) for i, js in groups(reference, observed, free_r, free_o)]
    out += [Alignment(js, (i,)) for i, js in groups(observed, reference, free_o, free_r)]
    return out


@dataclass(frozen=True)
class TextChanges:
    """Text compared between two renderings, up to OCR jitter.

    Attributes:
        kept: readings of the original still present in the sanitized rendering.
        removed: readings of the original with no counterpart (text really removed).
        added: readings of the sanitized rendering with no counterpart in the original.
    """

    kept: tuple[str, ...]
    removed: tuple[str, ...]
    added: tuple[str, ...]


def text_changes(original: Sequence[OCRWord], sanitized: Sequence[OCRWord], *,
                 min_similarity: float = JITTER_SIMILARITY,
                 min_overlap: float = MIN_OVERLAP) -> TextChanges:
    """What text a sanitizer kept, removed and added, with jitter not counted as change.

    Args:
        original: readings of the original (e.g. :func:`privlab.vision.ocr.read_text`).
        sanitized: readings of the sanitized rendering.
        min_similarity, min_overlap: see :func:`align_readings`.

    Returns:
        A :class:`TextChanges` (texts in reading order).

    Example:
        >>> before = [OCRWord("MvtinSCORSESE", (10, 10, 130, 30), 0.9),
        ...           OCRWord("LEONARDO DiCAPRIO", (10, 50, 200, 70), 0.95)]
        >>> after = [OCRWord("Martin SCORSESE", (10, 10, 131, 30), 0.97)]
        >>> text_changes(before, after)
        TextChanges(kept=('MvtinSCORSESE',), removed=('LEONARDO DiCAPRIO',), added=())
    """
    aligned = align_readings(original, sanitized, min_similarity=min_similarity,
                             min_overlap=min_overlap)
    used_r = {i for a in aligned for i in a.reference}
    used_o = {j for a in aligned for j in a.observed}
    kept = _reading_order(original, sorted(used_r))
    removed = _reading_order(original, [i for i in range(len(original)) if i not in used_r])
    added = _reading_order(sanitized, [j for j in range(len(sanitized)) if j not in used_o])
    return TextChanges(tuple(original[i].text for i in kept),
                       tuple(original[i].text for i in removed),
                       tuple(sanitized[j].text for j in added))


def carry_readings(reference: Sequence[OCRWord], observed: Sequence[OCRWord], *,
                   min_similarity: float = JITTER_SIMILARITY,
                   min_overlap: float = MIN_OVERLAP) -> list[OCRWord]:
    """``observed`` with each word box still present replaced by ``reference``'s reading.

    Aligned readings (see :func:`align_readings`) take the reference's text, box and
    confidence; readings without a counterpart stay as read. The result is in reading
    order (top to bottom in 8-pixel bands, then left to right).

    Example:
        >>> before = [OCRWord("MvtinSCORSESE", (10, 10, 130, 30), 0.9)]
        >>> after = [OCRWord("Martin SCORSESE", (10, 10, 131, 30), 0.97),
        ...          OCRWord("l", (300, 10, 304, 30), 0.6)]
        >>> [w.text for w in carry_readings(before, after)]
        ['MvtinSCORSESE', 'l']
    """
    aligned = align_readings(reference, observed, min_similarity=min_similarity,
                             min_overlap=min_overlap)
    used_o = {j for a in aligned for j in a.observed}
    words = [reference[i] for a in aligned for i in a.reference]
    words += [w for j, w in enumerate(observed) if j not in used_o]
    return [words[k] for k in _reading_order(words, range(len(words)))]


def names_in_text(texts: Sequence[str], names: Sequence[str], *,
                  min_similarity: float = 0.85) -> list[str]:
    """The names (e.g. a gallery's people or brands) that the texts spell, fuzzily.

    A name counts when the joined, normalised texts spell it (or its surname of five
    letters or more) up to OCR jitter (``docs/methods/images-readers.md``).

    Args:
        texts: OCR readings.
        names: candidate names.
        min_similarity: in (0, 1].

    Returns:
        The names found, in the order given.

    Example:
        >>> names_in_text(["LEONARDO DiCAPRlO", "Cannes 2016"], ["Leonardo DiCaprio", "Kate Winslet"])
        ['Leonardo DiCaprio']
        >>> names_in_text(["Mr. DICAPRIO"], ["Leonardo DiCaprio"]), names_in_text(["ROLLINS"], ["Eileen Collins"])
        (['Leonardo DiCaprio'], [])
    """
    if not 0 < min_similarity <= 1:
        raise invalid("min_similarity", "names_in_text", "in (0, 1]", min_similarity)
    text = normalise(" ".join(texts))
    found: list[str] = []
    if not text:
        return found
    for name in names:
        full = normalise(name)
        last = normalise(name.split()[-1]) if name.split() else ""
        if not full:
            continue
        hit = _spelled(full, text) >= min_similarity
        if not hit and len(last) >= 5 and last != full:
            hit = _spelled(last, text) >= 0.9
        if hit and name not in found:
            found.append(name)
    return found


def _spelled(needle: str, text: str) -> float:
    """The best normalised Levenshtein similarity of ``needle`` to a stretch of ``text``."""
    from rapidfuzz.distance import Levenshtein

    n = len(needle)
    best = 0.0
    for width in (n - 1, n, n + 1):
        if width < 1:
            continue
        for start in range(max(1, len(text) - width + 1)):
            best = max(best, Levenshtein.normalized_similarity(needle, text[start:start + width]))
            if best == 1.0:
                return best
    return best


class ReadingBook:
    """Readings of the images already read, carried to later renderings of the same photo.

    A member reads originals before their renderings, so a rendering gets the readings of
    the best-aligned remembered image of its size (``docs/methods/images-readers.md``).

    Args:
        limit: images remembered (the oldest are forgotten first).
        min_similarity, min_overlap: see :func:`align_readings`.

    Example:
        >>> book = ReadingBook()
        >>> _ = book.read("original", (480, 640), [OCRWord("MvtinSCORSESE", (10, 10, 130, 30), 0.9)])
        >>> [w.text for w in book.read("sanitized", (480, 640),
        ...                            [OCRWord("Martin SCORSESE", (10, 10, 131, 30), 0.97)])]
        ['MvtinSCORSESE']
    """

    def __init__(self, limit: int = 4096, *, min_similarity: float = JITTER_SIMILARITY,
                 min_overlap: float = MIN_OVERLAP):
        if not isinstance(limit, int) or limit < 1:
            raise invalid("limit", "ReadingBook", "a positive int", limit)
        self.limit = limit
        self.min_similarity = float(min_similarity)
        self.min_overlap = float(min_overlap)
        self._pages: OrderedDict[str, tuple[tuple[int, ...], list[OCRWord]]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._pages)

    def read(self, key: str, shape: Sequence[int], words: Sequence[OCRWord]) -> list[OCRWord]:
        """The readings to use for an image: carried from the best remembered page.

        Args:
            key: the image's identity (its content hash).
            shape: its ``(height, width)``; only pages of the same size are compared.
            words: what OCR read in it.

        Returns:
            The readings, carried where they align with a remembered image.
        """
        if key in self._pages:
            self._pages.move_to_end(key)
            return list(self._pages[key][1])
        shape = tuple(int(v) for v in shape[:2])
        best, best_count = None, 0
        for page_shape, page_words in reversed(self._pages.values()):  # most recent first
            if page_shape != shape or not page_words or not words:
                continue
            count = sum(len(a.observed) for a in align_readings(
                page_words, words, min_similarity=self.min_similarity,
                min_overlap=self.min_overlap))
            if count > best_count:
                best, best_count = page_words, count
        result = (carry_readings(best, words, min_similarity=self.min_similarity,
                                 min_overlap=self.min_overlap) if best is not None else list(words))
        self._pages[key] = (shape, result)
        if len(self._pages) > self.limit:
            self._pages.popitem(last=False)
        return list(result)


__all__ = ["Alignment", "JITTER_SIMILARITY", "MIN_OVERLAP", "ReadingBook", "TextChanges",
           "align_readings", "box_iou", "carry_readings", "names_in_text", "normalise",
           "same_reading", "text_changes"]
