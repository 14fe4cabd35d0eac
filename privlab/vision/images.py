"""Image inputs: every detector, reader and image member takes PIL images or uint8 arrays.

:func:`as_rgb` turns either into the one form the detectors work on, an ``(H, W, 3)``
uint8 RGB array.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.errors import invalid, wrong_type


def as_rgb(item: Any, parameter: str = "image", caller: str = "as_rgb") -> np.ndarray:
    """An ``(H, W, 3)`` uint8 RGB array from a PIL image or a uint8 array.

    Greyscale (``HxW`` or ``HxWx1``) is repeated to three channels; RGBA is composited
    on white (a transparent background reads as paper, not as black).

    Args:
        item: PIL image (any mode) or uint8 array ``HxW``, ``HxWx1``, ``HxWx3``, ``HxWx4``.
        parameter: name used in error messages.
        caller: function named in error messages.

    Returns:
        C-contiguous uint8 array ``(H, W, 3)``.

    Raises:
        TypeError: not an image or array.
        ValueError: wrong dtype or shape.

    Example:
        >>> as_rgb(np.zeros((4, 5), dtype=np.uint8)).shape
        (4, 5, 3)
    """
    if hasattr(item, "mode") and hasattr(item, "convert"):
        if item.mode in ("RGBA", "LA", "PA") or (item.mode == "P" and "transparency" in item.info):
            from PIL import Image

            rgba = item.convert("RGBA")
            white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
            item = Image.alpha_composite(white, rgba)
        return np.ascontiguousarray(np.asarray(item.convert("RGB")))
    if not isinstance(item, np.ndarray):
        raise wrong_type(parameter, caller, "a PIL image or a uint8 array (H, W[, C])", item)
    if item.dtype != np.uint8:
        raise invalid(parameter, caller, "of dtype uint8", f"dtype {item.dtype}",
                      "Convert with (array * 255).clip(0, 255).astype('uint8') if it is in [0, 1].",
                      given_is_text=True)
    if item.ndim == 2:
        return np.ascontiguousarray(np.repeat(item[:, :, None], 3, axis=2))
    if item.ndim != 3 or item.shape[2] not in (1, 3, 4) or min(item.shape[:2]) < 1:
        raise invalid(parameter, caller, "shaped (H, W), (H, W, 1), (H, W, 3) or (H, W, 4)",
                      f"shape {item.shape}", given_is_text=True)
    if item.shape[2] == 1:
        return np.ascontiguousarray(np.repeat(item, 3, axis=2))
    if item.shape[2] == 4:
        alpha = item[:, :, 3:4].astype(np.float64) / 255.0
        rgb = item[:, :, :3] * alpha + 255.0 * (1 - alpha)
        return np.ascontiguousarray(np.round(rgb).astype(np.uint8))
    return np.ascontiguousarray(item)


__all__ = ["as_rgb"]
