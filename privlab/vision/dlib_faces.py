"""Faces by another family: dlib's HOG detector and 128-d ResNet descriptor.

It shares no model with YuNet, which the face sanitizers and the SFace member both use, so it
sees faces in their common blind spot. Models: ``dlib-bin`` and the files of
``face_recognition_models`` (located by :func:`dlib_model_paths`). Details and measurements:
``docs/methods/images-readers.md``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from privlab.errors import invalid, require
from privlab.fixes import install_arguments, install_command
from privlab.progress import note
from privlab.vision.faces import Face
from privlab.vision.images import as_rgb

DLIB_DIM = 128
DLIB_MATCH_DISTANCE = 0.6  # dlib's Euclidean threshold for "same person"
DLIB_INSTALL = install_arguments("dlib")
IDENTITY_DIM = 2048  # random Fourier features of dlib's metric (see identity_vectors)
IDENTITY_BANDWIDTH = 0.4


def _dlib():
    return require("dlib", DLIB_INSTALL, "The dlib face member")


@lru_cache(maxsize=1)
def dlib_model_paths() -> dict[str, str]:
    """The model files shipped by ``face_recognition_models``, found without importing it.

    Returns:
        ``{"shape_predictor_5": path, "resnet": path, "mmod": path}``.

    Raises:
        MissingDependencyError: face_recognition_models is not installed.
        ValueError: the package lacks its model files.

    Example:
        >>> sorted(dlib_model_paths())
        ['mmod', 'resnet', 'shape_predictor_5']
    """
    from importlib.util import find_spec

    spec = find_spec("face_recognition_models")
    if spec is None or not spec.submodule_search_locations:
        require("face_recognition_models", DLIB_INSTALL, "The dlib face member's models")
    folder = Path(list(spec.submodule_search_locations)[0]) / "models"
    files = {"shape_predictor_5": folder / "shape_predictor_5_face_landmarks.dat",
             "resnet": folder / "dlib_face_recognition_resnet_model_v1.dat",
             "mmod": folder / "mmod_human_face_detector.dat"}
    missing = [str(p) for p in files.values() if not p.is_file()]
    if missing:
        raise invalid("face_recognition_models", "dlib_model_paths",
                      "a package that ships dlib's model files", f"missing {missing}",
                      f"Reinstall with: {install_command('dlib')} --force-reinstall",
                      given_is_text=True)
    return {k: str(v) for k, v in files.items()}


@lru_cache(maxsize=1)
def _hog():
    return _dlib().get_frontal_face_detector()


@lru_cache(maxsize=1)
def _shape_predictor():
    return _dlib().shape_predictor(dlib_model_paths()["shape_predictor_5"])


@lru_cache(maxsize=1)
def _resnet():
    note("loading dlib's face recognition model …")
    return _dlib().face_recognition_model_v1(dlib_model_paths()["resnet"])


def detect_faces_dlib(image: Any, threshold: float = 0.0, *, upsample: int = 1,
                      min_size: int = 0) -> list[Face]:
    """Faces found by dlib's HOG detector, best first.

    Args:
        image: PIL image or uint8 array.
        threshold: the detector's score a face needs (its SVM margin: 0 is dlib's
            default, negative values find more and falser faces).
        upsample: times the image is doubled before the search (0, 1 or 2: faces from
            about 80, 40 or 20 pixels).
        min_size: ignore faces whose box is smaller than this many pixels on a side.

    Returns:
        A list of :class:`privlab.vision.faces.Face` (``row`` holds ``x, y, w, h``).

    Raises:
        MissingDependencyError: dlib is not installed.
        ValueError: ``upsample`` outside 0–2.

    Example:
        >>> from skimage import data
        >>> [(f.box, round(f.score, 2)) for f in detect_faces_dlib(data.astronaut())]
        [((175, 76, 266, 167), 1.16), ((126, 335, 216, 426), 0.12)]
        >>> len(detect_faces_dlib(data.astronaut(), 0.3))  # the mission patch is dropped
        1
    """
    if isinstance(upsample, bool) or upsample not in (0, 1, 2):
        raise invalid("upsample", "detect_faces_dlib", "0, 1 or 2", upsample)
    rgb = as_rgb(image, "image", "detect_faces_dlib")
    rects, scores, _ = _hog().run(rgb, int(upsample), float(threshold))
    faces = []
    for rect, score in zip(rects, scores):
        x0, y0 = max(0, rect.left()), max(0, rect.top())
        x1, y1 = min(rgb.shape[1], rect.right() + 1), min(rgb.shape[0], rect.bottom() + 1)
        if x1 <= x0 or y1 <= y0 or min(x1 - x0, y1 - y0) < min_size:
            continue
        row = np.array([rect.left(), rect.top(), rect.width(), rect.height()], dtype=np.float32)
        faces.append(Face((int(x0), int(y0), int(x1), int(y1)), float(score), row))
    return sorted(faces, key=lambda f: -f.score)


def dlib_face_features(image: Any, faces: Sequence[Face]) -> np.ndarray:
    """dlib's 128-d ResNet descriptors (raw, not normalised) for detected faces.

    Each face is aligned on five landmarks (dlib's 5-point shape predictor) first.

    Args:
        image: the image the faces were found in.
        faces: faces from :func:`detect_faces_dlib` (or any detector: the box is used).

    Returns:
        ``(len(faces), 128)`` float64 array; Euclidean distance under 0.6 means the
        same person for dlib.

    Example:
        >>> from skimage import data
        >>> img = data.astronaut()
        >>> dlib_face_features(img, detect_faces_dlib(img, 0.3)).shape
        (1, 128)
    """
    dlib = _dlib()
    rgb = as_rgb(image, "image", "dlib_face_features")
    out = np.zeros((len(faces), DLIB_DIM), dtype=np.float64)
    for k, face in enumerate(faces):
        x0, y0, x1, y1 = face.box
        shape = _shape_predictor()(rgb, dlib.rectangle(int(x0), int(y0), int(x1) - 1, int(y1) - 1))
        out[k] = np.asarray(_resnet().compute_face_descriptor(rgb, shape), dtype=np.float64)
    return out


@lru_cache(maxsize=4)
def _fourier(dim: int, bandwidth: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return (rng.normal(0.0, 1.0 / bandwidth, size=(DLIB_DIM, dim)),
            rng.uniform(0.0, 2 * np.pi, size=dim))


def identity_vectors(descriptors: np.ndarray, *, dim: int = IDENTITY_DIM,
                     bandwidth: float = IDENTITY_BANDWIDTH, seed: int = 0) -> np.ndarray:
    """Unit vectors whose dot products follow dlib's Euclidean metric.

    Random Fourier features of a Gaussian kernel (fixed seed), because dlib's raw
    descriptors share a large common component; measurements:
    ``docs/methods/images-readers.md``.

    Args:
        descriptors: ``(k, 128)`` from :func:`dlib_face_features`.
        dim: number of random features.
        bandwidth: the kernel's length scale in dlib's distance units.
        seed: the features' seed (part of the member's identity).

    Returns:
        ``(k, dim)`` float64 array with unit rows.

    Example:
        >>> a = np.zeros((1, 128)); b = a.copy(); b[0, 0] = 0.6
        >>> u = identity_vectors(np.vstack([a, b]))
        >>> bool(abs(u[0] @ u[1] - np.exp(-0.36 / 0.32)) < 0.06)  # the kernel, to about 0.02
        True
    """
    if not dim >= 1 or not bandwidth > 0:
        raise invalid("dim", "identity_vectors", "positive (and bandwidth too)", (dim, bandwidth))
    d = np.asarray(descriptors, dtype=np.float64).reshape(-1, DLIB_DIM)
    weights, phase = _fourier(int(dim), float(bandwidth), int(seed))
    u = np.cos(d @ weights + phase)
    return u / np.maximum(np.linalg.norm(u, axis=1, keepdims=True), 1e-12)


__all__ = ["DLIB_DIM", "DLIB_INSTALL", "DLIB_MATCH_DISTANCE", "IDENTITY_BANDWIDTH",
           "IDENTITY_DIM", "detect_faces_dlib", "dlib_face_features", "dlib_model_paths",
           "identity_vectors"]
