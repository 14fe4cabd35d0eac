"""Text in images: rapidocr readings, cached on disk by the image's pixels, and their filter.

:func:`read_text` reads (the text sanitizer blacks out what it finds), :func:`filter_words`
keeps the words describe-then-embed embeds, :func:`read_rendering` re-reads a sanitized
rendering near its marks only, and :func:`read_text_with` reads with a named engine
(``"easyocr"``: a second reader for checks). See ``docs/methods/images-readers.md``.
"""

from __future__ import annotations

import json
import math
import os
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from privlab.errors import require
from privlab.hashing import content_hash
from privlab.progress import note
from privlab.vision.images import as_rgb


@dataclass(frozen=True)
class OCRWord:
    """One line or word read by OCR: its text, box ``(x0, y0, x1, y1)`` and confidence."""

    text: str
    box: tuple[int, int, int, int]
    confidence: float


@lru_cache(maxsize=1)
def _rapidocr():
    note("loading the OCR model (RapidOCR) …")
    module = require("rapidocr_onnxruntime", "--no-deps rapidocr-onnxruntime==1.4.4",
                     "Reading text in images (OCR)")
    from privlab.config import threads

    n = threads()
    return module.RapidOCR() if n is None else module.RapidOCR(
        intra_op_num_threads=n, inter_op_num_threads=1)


# Readings already made in this process, by content hash (the disk cache's front).
_OCR_MEMO: dict[str, list[OCRWord]] = {}


#: The engines :func:`read_text_with` knows: the study's own reader first.
ENGINES = ("rapidocr", "easyocr")


@lru_cache(maxsize=1)
def _easyocr():
    note("loading the second OCR model (EasyOCR) …")
    from privlab.fixes import install_arguments

    module = require("easyocr", install_arguments("easyocr"), "The second OCR engine (EasyOCR)")
    weights = require("easyocr_en_models", install_arguments("easyocr"),
                      "The second OCR engine's English weights")
    folder = Path(weights.__file__).parent / "models"
    with warnings.catch_warnings():  # its CPU path quantizes with a deprecated torch call
        warnings.filterwarnings("ignore", message=".*quantize.*")
        return module.Reader(["en"], gpu=False, model_storage_directory=str(folder),
                             download_enabled=False, verbose=False)


def _read_pixels_easyocr(rgb: np.ndarray) -> list[OCRWord]:
    """EasyOCR on an RGB array, uncached: one word per line it reads."""
    reader = _easyocr()
    with warnings.catch_warnings():  # its data loader asks for pinned memory on CPU
        warnings.filterwarnings("ignore", message=".*pin_memory.*")
        found = reader.readtext(np.ascontiguousarray(rgb))
    words = []
    for quad, text, conf in found:
        xs = [float(p[0]) for p in quad]
        ys = [float(p[1]) for p in quad]
        words.append(OCRWord(str(text), (int(min(xs)), int(min(ys)), int(np.ceil(max(xs))),
                                         int(np.ceil(max(ys)))), float(conf)))
    return words


def _ocr_cache_file(key: str, engine: str = "rapidocr") -> Path:
    from privlab.config import cache_dir

    return cache_dir() / "ocr" / f"{engine}-{key[:40]}.json"


def _cached_word(entry: Any) -> OCRWord:
    """One stored reading, refusing anything :func:`read_text` would not have written."""
    if not isinstance(entry, dict):
        raise ValueError(f"a {type(entry).__name__} where a word was expected")
    text, box, confidence = entry["text"], entry["box"], entry["confidence"]
    if not isinstance(text, str):
        raise ValueError(f"text {text!r} is not a string")
    if (not isinstance(box, list) or len(box) != 4
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in box)):
        raise ValueError(f"box {box!r} is not four integers")
    if (not isinstance(confidence, (int, float)) or isinstance(confidence, bool)
            or not math.isfinite(confidence)):
        raise ValueError(f"confidence {confidence!r} is not a finite number")
    return OCRWord(text, tuple(box), float(confidence))


def _read_cached(path: Path) -> list[OCRWord] | None:
    """The readings stored at ``path``; None when absent or damaged (then deleted)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        entries = json.loads(raw.decode("utf-8"))
        if not isinstance(entries, list):
            raise ValueError(f"a {type(entries).__name__} where a list of words was expected")
        return [_cached_word(entry) for entry in entries]
    except (ValueError, KeyError, TypeError) as exc:
        problem = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        path.unlink(missing_ok=True)
        warnings.warn(f"Dropped the damaged OCR cache file {path} ({problem}); the image is "
                      "read again.", RuntimeWarning, stacklevel=3)
        return None


#: rapidocr's text detector scales an image so that its shorter side is this long.
DET_SHORT_SIDE = 736


def _read_pixels(rgb: np.ndarray, scale: float | None = None) -> list[OCRWord]:
    """rapidocr on an RGB array, uncached.

    ``scale``: read a crop at this fixed scale instead of rapidocr's own (which brings the
    shorter side to :data:`DET_SHORT_SIDE`: a small crop would be enlarged far beyond
    the size its text has in the whole image, and cost as much as the whole image).
    """
    import cv2

    bgr = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2BGR)
    engine = _rapidocr()
    if scale is None:
        result, _ = engine(bgr, use_cls=False)
    else:
        bgr = cv2.resize(bgr, (max(1, round(bgr.shape[1] * scale)),
                               max(1, round(bgr.shape[0] * scale))),
                         interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA)
        det = engine.text_det
        saved = det.limit_type, det.limit_side_len
        det.limit_type, det.limit_side_len = "max", 1 << 16  # no further resizing
        try:
            result, _ = engine(bgr, use_cls=False)
        finally:
            det.limit_type, det.limit_side_len = saved
    words = []
    factor = 1.0 if scale is None else 1.0 / scale
    for quad, text, conf in result or []:
        xs = [p[0] * factor for p in quad]
        ys = [p[1] * factor for p in quad]
        words.append(OCRWord(str(text), (int(min(xs)), int(min(ys)), int(np.ceil(max(xs))),
                                         int(np.ceil(max(ys)))), float(conf)))
    return words


def read_text(image: Any) -> list[OCRWord]:
    """Every text line rapidocr finds, cached on disk by the image's pixels.

    Args:
        image: PIL image or uint8 array.

    Returns:
        Unfiltered :class:`OCRWord` list (see :func:`filter_words` for the kept words).

    Raises:
        MissingDependencyError: rapidocr-onnxruntime is not installed.
    """
    rgb = as_rgb(image, "image", "read_text")
    return _cached_reading(rgb, "rapidocr", _read_pixels, _OCR_MEMO)


# Readings of the second engine made in this process, by content hash.
_SECOND_MEMO: dict[str, list[OCRWord]] = {}


def read_text_with(image: Any, engine: str = "rapidocr") -> list[OCRWord]:
    """Every text line ``engine`` reads, cached on disk by the image's pixels.

    ``"rapidocr"`` is :func:`read_text` (a sanitized rendering then shares its
    original's readings away from the marks, :func:`read_rendering`); ``"easyocr"``
    reads the whole image afresh with EasyOCR, whatever it is a rendering of.

    Args:
        image: PIL image or uint8 array.
        engine: one of :data:`ENGINES`.

    Raises:
        ValueError: an unknown engine.
        MissingDependencyError: the engine is not installed (the message gives the
            pip command).

    Example:
        >>> read_text_with(np.full((60, 80, 3), 255, np.uint8), "rapidocr")
        []
    """
    from privlab.errors import invalid

    if engine not in ENGINES:
        raise invalid("engine", "read_text_with", f"one of {ENGINES}", engine,
                      "Use 'rapidocr' (the study's reader) or 'easyocr' (a second, "
                      "independent one).")
    if engine == "rapidocr":
        return read_text(image)
    rgb = as_rgb(image, "image", "read_text_with")
    return _cached_reading(rgb, engine, _read_pixels_easyocr, _SECOND_MEMO)


def _cached_reading(rgb: np.ndarray, engine: str, read, memo: dict) -> list[OCRWord]:
    """``read(rgb)``, from the process memo, else the disk cache, else read and stored."""
    key = content_hash(rgb)
    if key in memo:
        return memo[key]
    path = _ocr_cache_file(key, engine)
    words = _read_cached(path)
    if words is None:
        words = read(rgb)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Write then rename, so a reader in another process never sees half a file.
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps([{"text": w.text, "box": list(w.box),
                                    "confidence": w.confidence} for w in words]))
        tmp.replace(path)
    memo[key] = words
    return words


#: Pixels around a mark that are read again in a rendering (a word touching the mark
#: is re-read whole: every original line the grown mark touches joins the crop).
RENDERING_MARGIN = 24


@dataclass(frozen=True)
class Rendering:
    """Where a rendering came from: its original's content hash, the marked region and the
    original's readings."""

    original: str
    marks: np.ndarray
    original_words: tuple[OCRWord, ...] = ()


# Renderings read by read_rendering, by content hash (bounded; oldest forgotten first).
_RENDERINGS: dict[str, Rendering] = {}
_RENDERINGS_LIMIT = 4096
# Readings of crops by their pixels and scale: two sanitizers that mark the same region
# (a face blackout and a faces-and-text blackout) give the same crop, read once.
_CROP_MEMO: dict[tuple[str, float], list[OCRWord]] = {}
_CROP_MEMO_LIMIT = 8192


def _read_crop(crop: np.ndarray, scale: float) -> list[OCRWord]:
    """:func:`_read_pixels` of a crop at ``scale``, memoised by the crop's pixels."""
    key = (content_hash(crop), float(scale))
    if key not in _CROP_MEMO:
        if len(_CROP_MEMO) >= _CROP_MEMO_LIMIT:
            _CROP_MEMO.pop(next(iter(_CROP_MEMO)))
        _CROP_MEMO[key] = _read_pixels(crop, scale)
    return _CROP_MEMO[key]


def rendering_of(image: Any) -> Rendering | None:
    """The original and marks of a rendering read by :func:`read_rendering` (else None)."""
    key = image if isinstance(image, str) else content_hash(as_rgb(image, "image", "rendering_of"))
    return _RENDERINGS.get(key)


def _overlaps(box: tuple[int, int, int, int], crop: tuple[int, int, int, int]) -> bool:
    return not (box[2] <= crop[0] or crop[2] <= box[0] or box[3] <= crop[1] or crop[3] <= box[1])


def _inside(box: tuple[int, int, int, int], other: tuple[int, int, int, int]) -> float:
    """The share of ``box`` that lies inside ``other``."""
    ix = max(0, min(box[2], other[2]) - max(box[0], other[0]))
    iy = max(0, min(box[3], other[3]) - max(box[1], other[1]))
    area = max(1, (box[2] - box[0]) * (box[3] - box[1]))
    return ix * iy / area


def _crops(marks: np.ndarray, words: Sequence[OCRWord], margin: int
           ) -> list[tuple[int, int, int, int]]:
    """Boxes to read again: each mark grown by ``margin``, joined with the original lines it
    touches, overlapping boxes merged."""
    import cv2

    h, w = marks.shape
    count, _, stats, _ = cv2.connectedComponentsWithStats(marks.astype(np.uint8), connectivity=8)
    boxes = [[max(0, int(x) - margin), max(0, int(y) - margin), min(w, int(x + bw) + margin),
              min(h, int(y + bh) + margin)] for x, y, bw, bh, _ in stats[1:count]]
    changed = True
    while changed:
        changed = False
        for box in boxes:
            for word in words:
                if _overlaps(word.box, tuple(box)):
                    grown = [min(box[0], max(0, word.box[0] - margin // 2)),
                             min(box[1], max(0, word.box[1] - margin // 2)),
                             max(box[2], min(w, word.box[2] + margin // 2)),
                             max(box[3], min(h, word.box[3] + margin // 2))]
                    if grown != box:
                        box[:] = grown
                        changed = True
        merged: list[list[int]] = []
        for box in boxes:
            for other in merged:
                if _overlaps(tuple(box), tuple(other)):
                    other[:] = [min(box[0], other[0]), min(box[1], other[1]),
                                max(box[2], other[2]), max(box[3], other[3])]
                    changed = True
                    break
            else:
                merged.append(box)
        boxes = merged
    return [tuple(b) for b in boxes]


def read_rendering(original: Any, rendering: Any, marks: np.ndarray | None = None, *,
                   margin: int = RENDERING_MARGIN) -> list[OCRWord]:
    """The readings of a rendering of ``original``, read near its marks only.

    Readings away from the marks are the original's; crops around each mark are read
    again. The result becomes what :func:`read_text` returns for the rendering, and
    :func:`rendering_of` gives its original and marks (``docs/methods/images-readers.md``).

    Args:
        original: the image the rendering was made from.
        rendering: the sanitized (or placebo) rendering, of the same size.
        marks: boolean ``(H, W)`` region that was marked (default: changed pixels).
        margin: pixels around a mark read again.

    Returns:
        The rendering's :class:`OCRWord` readings, in the original's coordinates.

    Raises:
        ValueError: the two images differ in size, or ``marks`` has another shape.

    Example:
        >>> from privlab.vision.images import as_rgb
        >>> plain = np.full((60, 80, 3), 200, np.uint8)
        >>> read_rendering(plain, plain)
        []
    """
    from privlab.errors import invalid

    caller = "read_rendering"
    rgb = as_rgb(original, "original", caller)
    out = as_rgb(rendering, "rendering", caller)
    if rgb.shape != out.shape:
        raise invalid("rendering", caller, f"an image of the original's size {rgb.shape}",
                      f"shape {out.shape}", given_is_text=True)
    if marks is None:
        marks = np.any(rgb != out, axis=2)
    marks = np.asarray(marks, dtype=bool)
    if marks.shape != rgb.shape[:2]:
        raise invalid("marks", caller, f"a boolean mask of shape {rgb.shape[:2]}",
                      f"shape {marks.shape}", given_is_text=True)
    base = read_text(rgb)
    key = content_hash(out)
    if key == content_hash(rgb) or not marks.any():
        words = list(base)
    else:
        crops = _crops(marks, base, int(margin))
        h, w = marks.shape
        # an original line that no mark touches has the same pixels: it keeps its reading
        # (a re-reading in a new context would only add OCR jitter)
        words = [wd for wd in base if not marks[max(0, wd.box[1] - 2):min(h, wd.box[3] + 2),
                                                 max(0, wd.box[0] - 2):min(w, wd.box[2] + 2)].any()]
        kept = list(words)
        # the scale the whole-image reading had, so text is read at the same size
        scale = max(1.0, DET_SHORT_SIDE / min(rgb.shape[:2]))
        for x0, y0, x1, y1 in crops:
            for word in _read_crop(np.ascontiguousarray(out[y0:y1, x0:x1]), scale):
                b = word.box
                box = (b[0] + x0, b[1] + y0, b[2] + x0, b[3] + y0)
                if any(_inside(box, k.box) >= 0.5 for k in kept):
                    continue  # unchanged text, read again
                words.append(OCRWord(word.text, box, word.confidence))
        words.sort(key=lambda w: (w.box[1] // 8, w.box[0]))
    _OCR_MEMO[key] = words
    if len(_RENDERINGS) >= _RENDERINGS_LIMIT:
        _RENDERINGS.pop(next(iter(_RENDERINGS)))
    _RENDERINGS[key] = Rendering(content_hash(rgb), marks, tuple(base))
    return words


def filter_words(words: Sequence[OCRWord], min_confidence: float = 0.8,
                 min_chars: int = 3) -> list[OCRWord]:
    """Drop OCR fragments: low confidence or fewer than ``min_chars`` letters/digits.

    A stray letter read off the edge of a black box would otherwise move the text
    embedding far from the empty description.

    Args:
        words: readings from :func:`read_text`.
        min_confidence: the recognition confidence a reading needs.
        min_chars: the letters or digits a reading needs.

    Returns:
        The kept readings, in order.

    Example:
        >>> w = [OCRWord("EILEEN", (0, 0, 1, 1), 0.99), OCRWord("l", (0, 0, 1, 1), 0.99)]
        >>> [x.text for x in filter_words(w)]
        ['EILEEN']
    """
    return [w for w in words if w.confidence >= min_confidence
            and sum(ch.isalnum() for ch in w.text) >= min_chars]


__all__ = ["DET_SHORT_SIDE", "ENGINES", "OCRWord", "RENDERING_MARGIN", "Rendering", "filter_words",
           "read_rendering", "read_text", "read_text_with", "rendering_of"]
