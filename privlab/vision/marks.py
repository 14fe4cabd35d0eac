"""Sanitization marks: what a blackout or a blur leaves in an image, found in the image alone.

A member reads one image at a time, so it recognises the marks a sanitizer paints
(:func:`blank_mask`, :func:`detail`) and can fill them in (:func:`inpaint_marks`) rather
than read them as content. See ``docs/methods/images-readers.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.errors import invalid
from privlab.vision.images import as_rgb

BLUR_DETAIL = 1.0  # median detail (grey levels) under which a box counts as blurred
DETAIL_SIDE = 32  # the box centre is resized to this many pixels before measuring


def detail(image: Any, box: tuple[int, int, int, int], *, inner: float = 0.6) -> float:
    """The median fine-scale detail of a box's centre, in grey levels.

    Measured at a fixed size, so a large face and a small one compare: sharp faces
    measure 3–14, blurred ones under 1 (``docs/methods/images-readers.md``).

    Args:
        image: PIL image or uint8 array.
        box: ``(x0, y0, x1, y1)`` in pixels.
        inner: the share of the box (per side) measured, in (0, 1].

    Returns:
        The detail in grey levels (0 for a flat or empty box).

    Example:
        >>> rng = np.random.default_rng(0)
        >>> noisy = rng.integers(0, 256, (64, 64, 3), dtype=np.uint8)
        >>> detail(noisy, (0, 0, 64, 64)) > 10, detail(np.zeros((64, 64), np.uint8), (0, 0, 64, 64))
        (True, 0.0)
    """
    import cv2

    if not 0 < inner <= 1:
        raise invalid("inner", "detail", "in (0, 1]", inner)
    rgb = as_rgb(image, "image", "detail")
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    mx, my = w * (1 - inner) / 2, h * (1 - inner) / 2
    ya, yb = max(0, int(round(y0 + my))), min(rgb.shape[0], int(round(y1 - my)))
    xa, xb = max(0, int(round(x0 + mx))), min(rgb.shape[1], int(round(x1 - mx)))
    if yb - ya < 2 or xb - xa < 2:
        return 0.0
    grey = cv2.cvtColor(np.ascontiguousarray(rgb[ya:yb, xa:xb]), cv2.COLOR_RGB2GRAY)
    side = DETAIL_SIDE
    interpolation = cv2.INTER_AREA if min(grey.shape) >= side else cv2.INTER_LINEAR
    grey = cv2.resize(grey, (side, side), interpolation=interpolation).astype(np.float32)
    residual = np.abs(grey - cv2.GaussianBlur(grey, (3, 3), 0))
    return float(np.median(cv2.blur(residual, (5, 5))))


def is_blurred(image: Any, box: tuple[int, int, int, int], threshold: float = BLUR_DETAIL) -> bool:
    """Whether a box's centre has lost its fine detail (:func:`detail` under ``threshold``).

    Example:
        >>> import cv2
        >>> rng = np.random.default_rng(0)
        >>> noisy = rng.integers(0, 256, (64, 64, 3), dtype=np.uint8)
        >>> is_blurred(noisy, (0, 0, 64, 64)), is_blurred(cv2.GaussianBlur(noisy, (25, 25), 0), (0, 0, 64, 64))
        (False, True)
    """
    return detail(image, box) < threshold


def blank_mask(image: Any, *, level: int = 8, flat_range: int = 2, min_area: float = 0.001,
               min_fill: float = 0.6) -> np.ndarray:
    """Black or uniform box-like regions: the marks of a blackout or a flat fill.

    Connected black or flat regions that are large enough and fill most of their
    bounding box (``docs/methods/images-readers.md``).

    Args:
        image: PIL image or uint8 array.
        level: the brightest channel value that counts as black.
        flat_range: the largest spread (max - min over 5 x 5, per channel) of a flat fill.
        min_area: smallest mark, as a share of the image.
        min_fill: smallest share of its bounding box a mark fills.

    Returns:
        A boolean ``(H, W)`` mask.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> photo = rng.integers(30, 220, (100, 100, 3), dtype=np.uint8)
        >>> photo[20:50, 30:70] = 0
        >>> int(blank_mask(photo).sum())
        1200
    """
    import cv2

    if not 0 <= min_area <= 1 or not 0 <= min_fill <= 1:
        raise invalid("min_area", "blank_mask", "in [0, 1] (and min_fill too)", (min_area, min_fill))
    rgb = as_rgb(image, "image", "blank_mask")
    kernel = np.ones((5, 5), np.uint8)
    spread = (cv2.dilate(rgb, kernel) - cv2.erode(rgb, kernel)).max(axis=2)
    blank = ((rgb.max(axis=2) <= level) | (spread <= flat_range)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(blank, connectivity=4)
    smallest = max(64.0, min_area * rgb.shape[0] * rgb.shape[1])
    keep = np.zeros(count, dtype=bool)
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        keep[k] = area >= smallest and area >= min_fill * w * h
    return keep[labels]


def inpaint_marks(image: Any, mask: np.ndarray | None = None, *, short_side: int = 256) -> np.ndarray:
    """The image with its marks filled from their surroundings, at a reduced size.

    Readers that see the whole picture at a small size (an ImageNet classifier at 224
    pixels) lose nothing by the reduction, and inpainting stays fast.

    Args:
        image: PIL image or uint8 array.
        mask: the region to fill (default: :func:`blank_mask`).
        short_side: the image is first scaled so that its shorter side has this many
            pixels (never enlarged).

    Returns:
        An ``(h, w, 3)`` uint8 array (the scaled image, inpainted where marked).

    Example:
        >>> photo = np.full((100, 100, 3), 150, np.uint8); photo[::2] = 160
        >>> photo[30:60, 30:60] = 0
        >>> int(inpaint_marks(photo)[30:60, 30:60].min()) > 100
        True
    """
    import cv2

    rgb = as_rgb(image, "image", "inpaint_marks")
    mask = blank_mask(rgb) if mask is None else np.asarray(mask, dtype=bool)
    if mask.shape != rgb.shape[:2]:
        raise invalid("mask", "inpaint_marks", f"a boolean mask of the image's shape {rgb.shape[:2]}",
                      f"shape {mask.shape}", given_is_text=True)
    scale = min(1.0, short_side / min(rgb.shape[:2]))
    if scale < 1.0:
        size = (max(1, round(rgb.shape[1] * scale)), max(1, round(rgb.shape[0] * scale)))
        rgb = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)
        mask = cv2.resize(mask.astype(np.uint8), size, interpolation=cv2.INTER_NEAREST).astype(bool)
    if not mask.any():
        return rgb
    grown = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8))  # feathered edges too
    return cv2.inpaint(rgb, grown, 3, cv2.INPAINT_TELEA)


__all__ = ["BLUR_DETAIL", "blank_mask", "detail", "inpaint_marks", "is_blurred"]
