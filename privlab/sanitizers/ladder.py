"""The image sanitization ladder, from the face alone to the whole image.

Each rung removes more than the one before it:

1. ``face-blackout-yunet``: faces;
2. ``faces-and-text-blackout``: faces and text (a name card, a caption);
3. ``people-and-text-blackout``: whole people (face-anchored segmentation) and text;
4. ``full-blackout``: everything, the upper bound and a control: every sanitized image
   is the same black image, so no member can find anything of the original in it and
   every member's resolution must be 0.

:data:`LADDER` lists the names in that order for a study to run them side by side.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.sanitizers.base import registry
from privlab.sanitizers.image import ImageSanitizer
from privlab.vision.images import as_rgb

LADDER: tuple[str, ...] = ("face-blackout-yunet", "faces-and-text-blackout",
                           "people-and-text-blackout", "full-blackout")

LADDER_LABELS: dict[str, str] = {
    "face-blackout-yunet": "face",
    "faces-and-text-blackout": "face + text",
    "people-and-text-blackout": "whole person + text",
    "full-blackout": "full image",
}


class FullBlackout(ImageSanitizer):
    """Every pixel painted black: the image keeps only its size.

    Example:
        >>> out = FullBlackout().sanitize([np.full((2, 3, 3), 200, np.uint8)])[0]
        >>> out.shape, int(out.max())
        ((2, 3, 3), 0)
    """

    name = "full blackout"

    def _sanitize_one(self, item: Any) -> np.ndarray:
        return np.zeros_like(as_rgb(item, "items", "FullBlackout.sanitize"))


@registry.member("full-blackout", modality="image", offline=True,
                 description="the whole image painted black (upper bound; every member gives 0)")
def full_blackout(concepts=None, **kw) -> FullBlackout:
    """The whole image painted black (``concepts`` is ignored).

    Example:
        >>> full_blackout().name
        'full blackout'
    """
    return FullBlackout(**kw)


__all__ = ["FullBlackout", "LADDER", "LADDER_LABELS", "full_blackout"]
