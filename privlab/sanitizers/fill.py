"""How a region sanitizer paints what it removes: black, blur or inpainting.

:func:`fill_region` is the last step of :class:`privlab.sanitizers.image.RegionSanitizer`,
one of :data:`FILLS`. See ``docs/methods/images-sanitizers.md``.
"""

from __future__ import annotations

import numpy as np

FILLS = ("blackout", "blur", "inpaint-telea", "inpaint-ns")


def _odd(radius: float) -> int:
    return int(2 * round(radius) + 1)


def feathered(region: np.ndarray, blur: float) -> np.ndarray:
    """The region as a float alpha in [0, 1], its edge feathered outward over ``blur`` pixels.

    Inside the region alpha stays 1; outside it falls off with a Gaussian of radius ``blur``.

    Example:
        >>> m = np.zeros((1, 9), bool); m[0, 4] = True
        >>> a = feathered(m, 0); float(a.sum())
        1.0
        >>> a = feathered(m, 2); float(a[0, 4]), bool(0 < a[0, 5] < 1)
        (1.0, True)
    """
    import cv2

    alpha = region.astype(np.float64)
    if blur > 0:
        alpha = np.maximum(alpha, cv2.GaussianBlur(alpha, (_odd(blur), _odd(blur)), 0))
    return alpha


def fill_region(rgb: np.ndarray, region: np.ndarray, mode: str = "blackout", blur: float = 0.0,
                inpaint_radius: int = 3) -> np.ndarray:
    """Paint ``region`` of ``rgb`` the way ``mode`` says; returns a new uint8 array.

    Args:
        rgb: ``(H, W, 3)`` uint8 image.
        region: boolean ``(H, W)`` mask of what to remove.
        mode: one of :data:`FILLS`.
        blur: blackout and inpainting: edge feather in pixels; blur: the Gaussian radius.
        inpaint_radius: inpainting: the neighbourhood radius in pixels.

    Returns:
        The painted image (``rgb`` itself when ``region`` is empty).

    Example:
        >>> img = np.full((8, 8, 3), 200, np.uint8); m = np.zeros((8, 8), bool); m[2:5, 2:5] = True
        >>> int((fill_region(img, m)[..., 0] == 0).sum())
        9
        >>> abs(int(fill_region(img, m, "inpaint-telea")[3, 3, 0]) - 200) <= 2  # the grey around it
        True
    """
    import cv2

    if not region.any():
        return rgb
    if mode == "blur":
        k = _odd(blur)
        blurred = cv2.GaussianBlur(rgb, (k, k), 0)
        out = rgb.copy()
        out[region] = blurred[region]
        return out
    alpha = feathered(region, blur)[..., None]
    if mode == "blackout":
        return np.round(rgb * (1.0 - alpha)).astype(np.uint8)
    flag = cv2.INPAINT_TELEA if mode == "inpaint-telea" else cv2.INPAINT_NS
    support = (alpha[..., 0] > 0).astype(np.uint8)
    filled = cv2.inpaint(np.ascontiguousarray(rgb), support, int(inpaint_radius), flag)
    return np.round(rgb * (1.0 - alpha) + filled * alpha).astype(np.uint8)


__all__ = ["FILLS", "feathered", "fill_region"]
