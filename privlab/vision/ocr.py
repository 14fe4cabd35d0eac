"""Text in images: rapidocr readings, cached on disk by the image's pixels, and their filter.

The text sanitizer blacks out what :func:`read_text` finds; the describe-then-embed
member embeds the words :func:`filter_words` keeps.

A cached reading that is not a well-formed list of words (a truncated or overwritten
JSON file) is deleted with a warning naming the file, and the image is read again.
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
from privlab.vision.images import as_rgb


@dataclass(frozen=True)
class OCRWord:
    """One line or word read by OCR: its text, box ``(x0, y0, x1, y1)`` and confidence."""

    text: str
    box: tuple[int, int, int, int]
    confidence: float


@lru_cache(maxsize=1)
def _rapidocr():
    module = require("rapidocr_onnxruntime", "--no-deps rapidocr-onnxruntime==1.4.4",
                     "Reading text in images (OCR)")
    return module.RapidOCR()


# Readings already made in this process, by content hash (the disk cache's front).
_OCR_MEMO: dict[str, list[OCRWord]] = {}


def _ocr_cache_file(key: str) -> Path:
    from privlab.config import cache_dir

    return cache_dir() / "ocr" / f"rapidocr-{key[:40]}.json"


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


def read_text(image: Any) -> list[OCRWord]:
    """Every text line rapidocr finds, cached on disk by the image's pixels.

    Args:
        image: PIL image or uint8 array.

    Returns:
        Unfiltered :class:`OCRWord` list (see :func:`filter_words` for the kept words).

    Raises:
        MissingDependencyError: rapidocr-onnxruntime is not installed.
    """
    import cv2

    rgb = as_rgb(image, "image", "read_text")
    key = content_hash(rgb)
    if key in _OCR_MEMO:
        return _OCR_MEMO[key]
    path = _ocr_cache_file(key)
    words = _read_cached(path)
    if words is None:
        result, _ = _rapidocr()(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), use_cls=False)
        words = []
        for quad, text, conf in result or []:
            xs = [p[0] for p in quad]
            ys = [p[1] for p in quad]
            words.append(OCRWord(str(text), (int(min(xs)), int(min(ys)), int(np.ceil(max(xs))),
                                             int(np.ceil(max(ys)))), float(conf)))
        path.parent.mkdir(parents=True, exist_ok=True)
        # Write then rename, so a reader in another process never sees half a file.
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps([{"text": w.text, "box": list(w.box),
                                    "confidence": w.confidence} for w in words]))
        tmp.replace(path)
    _OCR_MEMO[key] = words
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


__all__ = ["OCRWord", "filter_words", "read_text"]
