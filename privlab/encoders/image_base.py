"""The base of the image members: what they accept.

Kept apart from the members so that each family's module (face identity,
describe-then-embed, generic features) imports it without importing the others.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.encoders.base import Encoder
from privlab.errors import wrong_type


class ImageEncoder(Encoder):
    """Base of the image members: accepts PIL images and uint8 arrays.

    Example:
        >>> ImageEncoder.modality, ImageEncoder.batch_size
        ('image', 16)
    """

    modality = "image"
    batch_size = 16

    def _check_item(self, item: Any, index: int) -> None:
        if not (isinstance(item, np.ndarray) or (hasattr(item, "mode") and hasattr(item, "size"))):
            raise wrong_type(f"items[{index}]", f"{type(self).__name__}.encode",
                             "a PIL image or a uint8 array", item)


__all__ = ["ImageEncoder"]
