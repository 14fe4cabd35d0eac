"""Small image builders shared by the image tests."""

from __future__ import annotations

import numpy as np


def canvas(*patches):
    """A grey 480x360 RGB canvas with the patches pasted left to right, 20 px apart."""
    out = np.full((360, 480, 3), 200, dtype=np.uint8)
    x = 10
    for patch in patches:
        h, w = patch.shape[:2]
        out[40:40 + h, x:x + w] = patch
        x += w + 20
    return out
