"""Is the concept still there? Independent checks of the paper's operational conditions.

A resolution of 0 says nothing when the sanitizer left the face, the name or the logo in plain
view. :class:`SFaceCheck`, :class:`DlibCheck`, :class:`NameCheck` and :class:`LogoCheck` each
look for the concept in one image with a published threshold, independently of the members;
results are memoised by the image's pixels. See ``docs/methods/images-readers.md``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from privlab.errors import invalid
from privlab.hashing import content_hash
from privlab.vision.images import as_rgb

#: YuNet score a face needs in the checks (lower than the members' 0.8: a check looks for
#: any face the sanitizer may have left).
CHECK_FACE_SCORE = 0.6


class ConceptCheck(ABC):
    """One way of finding the concept in an image. Subclasses implement :meth:`_find`.

    Attributes:
        name: the check's label in tables (detector and threshold).
        kind: ``"face"``, ``"name"`` or ``"logo"``.
    """

    name = "check"
    kind = "concept"

    def __init__(self) -> None:
        self._memo: dict[str, tuple[str, ...]] = {}

    def find(self, image: Any) -> tuple[str, ...]:
        """The evidence of the concept in ``image`` (empty: not found), memoised by pixels."""
        rgb = as_rgb(image, "image", f"{type(self).__name__}.find")
        key = content_hash(rgb)
        if key not in self._memo:
            self._memo[key] = tuple(self._find(rgb))
        return self._memo[key]

    @abstractmethod
    def _find(self, rgb: np.ndarray) -> list[str]:
        """The evidence found in one RGB image (empty: not found)."""

    def describe(self) -> dict[str, Any]:
        return {"check": self.name, "kind": self.kind}

    def shares_detector(self, detector: Mapping[str, Any]) -> bool:
        """Whether this check looks with ``detector`` (a sanitizer's detector, as its
        ``describe()`` gives it): then a copy of the concept that detector misses is
        neither removed by the sanitizer nor found by this check."""
        return False

    def blind_to(self, detector: Mapping[str, Any]) -> bool:
        """Whether this check's silence after a sanitizer with ``detector`` is no evidence
        of removal at all (measured so: see :class:`LogoCheck`); a shared detector alone
        (:meth:`shares_detector`) is shown, not counted against the sanitizer."""
        return False


def _gallery(gallery: Any, caller: str) -> dict[str, list[np.ndarray]]:
    if not isinstance(gallery, Mapping) or not gallery:
        raise invalid("gallery", caller, "a non-empty mapping of name -> face images", gallery)
    out = {}
    for who, images in gallery.items():
        if isinstance(images, np.ndarray) or not hasattr(images, "__len__") or not images:
            raise invalid("gallery", caller, "a mapping of name -> non-empty list of images",
                          f"{type(images).__name__} for {who!r}", given_is_text=True)
        out[str(who)] = [as_rgb(im, "gallery", caller) for im in images]
    return out


def _enrol(gallery: Any, caller: str, detect, describe) -> tuple[list[str], np.ndarray]:
    """Each gallery image's first detected face, described: ``(names, vectors)``.

    Raises:
        ValueError: a gallery image in which no face is detected.
    """
    names, vectors = [], []
    for who, images in _gallery(gallery, caller).items():
        for rgb in images:
            faces = detect(rgb)
            if not faces:
                raise invalid("gallery", caller, "images in which a face can be detected",
                              f"an image of {who!r} without a detectable face",
                              "Crop the gallery image around the face.", given_is_text=True)
            names.append(who)
            vectors.append(describe(rgb, faces[:1])[0])
    return names, np.array(vectors)


class SFaceCheck(ConceptCheck):
    """A detected face (YuNet) that matches the gallery under SFace.

    Args:
        gallery: ``{name: [face images]}``; each image's best face is the reference.
        threshold: cosine for "same person" (OpenCV's 0.363).
        face_score: YuNet score a face needs.

    Example:
        >>> from skimage import data
        >>> check = SFaceCheck({"Eileen Collins": [data.astronaut()]})
        >>> check.find(data.astronaut())[0].split()[:2], check.find(np.zeros((64, 64, 3), np.uint8))
        (['Eileen', 'Collins'], ())
    """

    kind = "face"

    def __init__(self, gallery: Mapping[str, Sequence[Any]], threshold: float | None = None,
                 face_score: float = CHECK_FACE_SCORE):
        from privlab.vision.faces import SFACE_MATCH_THRESHOLD, detect_faces, face_features

        super().__init__()
        caller = "SFaceCheck"
        self.threshold = SFACE_MATCH_THRESHOLD if threshold is None else float(threshold)
        self.face_score = float(face_score)
        self.names, self.vectors = _enrol(gallery, caller, lambda rgb: detect_faces(rgb, 0.5),
                                          face_features)
        self.name = f"face · SFace cosine ≥ {self.threshold:g}"

    def shares_detector(self, detector: Mapping[str, Any]) -> bool:
        return detector.get("detector") == "yunet"  # the faces it compares are YuNet's

    def _find(self, rgb):
        from privlab.vision.faces import detect_faces, face_features

        faces = detect_faces(rgb, self.face_score)
        found = []
        for face, vec in zip(faces, face_features(rgb, faces)):
            sims = self.vectors @ vec
            best = int(np.argmax(sims))
            if sims[best] >= self.threshold:
                found.append(f"{self.names[best]} {sims[best]:.2f} at {face.box}")
        return found


class DlibCheck(ConceptCheck):
    """A face dlib's HOG detector finds whose descriptor is within ``distance`` of the gallery.

    Args:
        gallery: ``{name: [face images]}``.
        distance: Euclidean distance for "same person" (dlib's 0.6).
        upsample: HOG upsampling (1: faces from about 40 pixels).

    Raises:
        MissingDependencyError: dlib is not installed (the message gives the command).
    """

    kind = "face"

    def __init__(self, gallery: Mapping[str, Sequence[Any]], distance: float | None = None,
                 upsample: int = 1):
        from privlab.vision.dlib_faces import (DLIB_MATCH_DISTANCE, detect_faces_dlib,
                                               dlib_face_features)
        from privlab.vision.faces import detect_faces

        super().__init__()
        caller = "DlibCheck"
        self.distance = DLIB_MATCH_DISTANCE if distance is None else float(distance)
        self.upsample = int(upsample)
        # a gallery crop may be too small for HOG: fall back on YuNet's box
        self.names, self.vectors = _enrol(
            gallery, caller, lambda rgb: detect_faces_dlib(rgb, upsample=2) or detect_faces(rgb, 0.5),
            dlib_face_features)
        self.name = f"face · dlib distance ≤ {self.distance:g}"

    def _find(self, rgb):
        from privlab.vision.dlib_faces import detect_faces_dlib, dlib_face_features

        faces = detect_faces_dlib(rgb, upsample=self.upsample)
        found = []
        for face, vec in zip(faces, dlib_face_features(rgb, faces)):
            dist = np.linalg.norm(self.vectors - vec, axis=1)
            best = int(np.argmin(dist))
            if dist[best] <= self.distance:
                found.append(f"{self.names[best]} {dist[best]:.2f} at {face.box}")
        return found


class NameCheck(ConceptCheck):
    """The target's name (a person's or a brand's) spelled by what OCR reads.

    With ``engine="rapidocr"`` (the default) the check reads with the engine the text
    sanitizers remove by, so a copy of the name that engine misses is neither removed
    nor found (the fidelity table's ``independent`` column says so). ``engine="easyocr"``
    reads with a second engine (:func:`privlab.vision.ocr.read_text_with`; its own
    detector and recogniser), independent of them, at about 6 s a photo.

    Args:
        names: the names to look for.
        min_confidence: OCR confidence a reading needs.
        min_similarity: how closely the readings must spell a name
            (:func:`privlab.vision.text_changes.names_in_text`).
        engine: one of :data:`privlab.vision.ocr.ENGINES`.

    Raises:
        ValueError: no names, or an unknown engine.

    Example:
        >>> NameCheck(["Eileen Collins"]).name
        'name · OCR reads Eileen Collins'
        >>> NameCheck(["Eileen Collins"], engine="easyocr").name
        'name · EasyOCR reads Eileen Collins'
    """

    kind = "name"

    def __init__(self, names: Sequence[str], min_confidence: float = 0.5,
                 min_similarity: float = 0.85, engine: str = "rapidocr"):
        from privlab.vision.ocr import ENGINES

        super().__init__()
        if isinstance(names, str) or not names or not all(isinstance(n, str) and n.strip()
                                                          for n in names):
            raise invalid("names", "NameCheck", "a non-empty list of names", names)
        if engine not in ENGINES:
            raise invalid("engine", "NameCheck", f"one of {ENGINES}", engine,
                          "Use 'easyocr' for a name check independent of the text sanitizers.")
        self.names, self.engine = list(names), engine
        self.min_confidence, self.min_similarity = float(min_confidence), float(min_similarity)
        reader = "OCR" if engine == "rapidocr" else "EasyOCR"
        self.name = f"name · {reader} reads {', '.join(self.names)}"

    def shares_detector(self, detector: Mapping[str, Any]) -> bool:
        # The text sanitizers remove the lines rapidocr reads; EasyOCR is another reader.
        return self.engine == "rapidocr" and detector.get("detector") == "ocr-text"

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "engine": self.engine}

    def _find(self, rgb):
        from privlab.vision.ocr import filter_words, read_text_with
        from privlab.vision.text_changes import names_in_text

        words = filter_words(read_text_with(rgb, self.engine), self.min_confidence, 3)
        found = []
        for word in words:
            if names_in_text([word.text], self.names, min_similarity=self.min_similarity):
                found.append(f"{word.text!r} at {word.box}")
        if not found:  # a name split over several readings
            found = [f"{n} (across readings)" for n in names_in_text(
                [w.text for w in words], self.names, min_similarity=self.min_similarity)]
        return found


class LogoCheck(ConceptCheck):
    """A gallery logo found in the image by either finder of :func:`privlab.vision.logos.match_logos`.

    The check looks with both the learned-feature finder (which finds logos on real signs)
    and keypoint matching (which finds printed copies of the artwork): a logo either one
    still finds after sanitizing is still there.

    With a ``finder`` (a :class:`~privlab.vision.logo_finder.LogoFinder`, the one the
    study's sanitizer and members use), that finder replaces the cosine finder.

    Args:
        logos: ``{brand: [logo images]}``.
        finder: a LogoFinder fitted on ``logos``, or None.
    """

    kind = "logo"

    def __init__(self, logos: Mapping[str, Sequence[Any]], finder: Any = None):
        super().__init__()
        if not isinstance(logos, Mapping) or not logos:
            raise invalid("logos", "LogoCheck", "a non-empty mapping of brand -> logo images",
                          logos)
        if finder is not None and not hasattr(finder, "find"):
            raise invalid("finder", "LogoCheck", "a LogoFinder from fit_logo_finder, or None",
                          finder)
        self.logos, self.finder = logos, finder
        self.name = f"logo · matched ({', '.join(map(str, logos))})"

    def shares_detector(self, detector: Mapping[str, Any]) -> bool:
        """A logo detector that marks what this check's finder finds (the same fitted
        finder) or matches keypoints as this check also does."""
        return detector.get("method") == "sift" or self.blind_to(detector)

    def blind_to(self, detector: Mapping[str, Any]) -> bool:
        """The same fitted finder: on the paper's held-out restaurant photos its second
        search after a blackout of its own finds flagged none of the photos with an arch
        left (``benchmarks/logos.py``), and the keypoint half finds printed artwork, not
        signs (none of those photos), so this check's silence there says nothing."""
        mine = self.finder.describe().get("key") if self.finder is not None else None
        theirs = (detector.get("finder") or {}).get("key")
        return mine is not None and mine == theirs

    def _find(self, rgb):
        from privlab.vision.logos import match_logos

        learned = (self.finder.find(rgb) if self.finder is not None
                   else match_logos(rgb, self.logos, method="features"))
        found = match_logos(rgb, self.logos) + learned
        return [f"{m.name} at {m.box}" for m in found]

    def describe(self) -> dict[str, Any]:
        out = super().describe()
        if self.finder is not None:
            out["finder"] = self.finder.describe()
        return out


@dataclass(frozen=True)
class NameReaders:
    """How often each OCR engine spells a name, before and after a sanitizer
    (:func:`compare_name_readers`).

    Attributes:
        names: the names looked for.
        sanitizer: the sanitizer's name (None: originals only).
        images: the images compared.
        before: ``{engine: indices of the originals where it reads a name}``.
        after: ``{engine: indices of the sanitized images where it still does}``.
        seconds: ``{engine: seconds per image}`` (a cached reading counts as 0).
    """

    names: tuple[str, ...]
    sanitizer: str | None
    images: int
    before: dict[str, tuple[int, ...]]
    after: dict[str, tuple[int, ...]]
    seconds: dict[str, float]

    def only(self, engine: str) -> tuple[int, ...]:
        """Originals where ``engine`` reads a name and no other engine does: the copies
        the others miss."""
        others = set().union(*(set(v) for e, v in self.before.items() if e != engine))
        return tuple(i for i in self.before[engine] if i not in others)

    def table(self):
        """One row per engine: images, name before, name only it reads, still after,
        seconds per image."""
        import pandas as pd

        return pd.DataFrame([{"engine": e, "images": self.images, "name before": len(v),
                              "only this engine": len(self.only(e)),
                              "still after": len(self.after.get(e, ())),
                              "s / image": round(self.seconds[e], 2)}
                             for e, v in self.before.items()]).set_index("engine")


def compare_name_readers(images: Sequence[Any], names: Sequence[str], sanitizer: Any = None,
                         engines: Sequence[str] | None = None) -> NameReaders:
    """Where each OCR engine spells one of ``names``, in the originals and, with a
    ``sanitizer``, in its outputs: whether a second reader finds copies of the name the
    text sanitizers' own reader misses, and any it leaves.

    Args:
        images: the originals.
        names: the names (as for :class:`NameCheck`).
        sanitizer: an image sanitizer (``sanitize(list) -> list``) or None.
        engines: OCR engines (default :data:`privlab.vision.ocr.ENGINES`).

    Returns:
        A :class:`NameReaders`.

    Raises:
        ValueError: no names, an unknown engine, no images.
    """
    import time

    from privlab.errors import item_list
    from privlab.vision.ocr import ENGINES

    images = [as_rgb(im, "images", "compare_name_readers") for im in item_list(
        images, "images", "compare_name_readers")]
    if not images:
        raise invalid("images", "compare_name_readers", "at least one image", images)
    checks = {e: NameCheck(list(names), engine=e) for e in (engines or ENGINES)}
    outputs = None if sanitizer is None else sanitizer.sanitize(images)
    before, after, seconds = {}, {}, {}
    for engine, check in checks.items():
        start = time.perf_counter()
        before[engine] = tuple(i for i, im in enumerate(images) if check.find(im))
        seconds[engine] = (time.perf_counter() - start) / len(images)
        if outputs is not None:
            after[engine] = tuple(i for i, im in enumerate(outputs) if check.find(im))
    label = None if sanitizer is None else getattr(sanitizer, "name", type(sanitizer).__name__)
    return NameReaders(tuple(names), label, len(images), before, after, seconds)


def concept_checks(*, faces: Mapping[str, Sequence[Any]] | None = None,
                   names: Sequence[str] = (), logos: Mapping[str, Sequence[Any]] | None = None,
                   logo_finder: Any = None, name_engine: str = "rapidocr"
                   ) -> tuple[list[ConceptCheck], list[str]]:
    """The checks a study runs, and why any is left out.

    Args:
        faces: the target's face gallery (SFace and dlib checks).
        names: the target's names read by OCR (people, brands).
        logos: the logo gallery.
        logo_finder: the study's :class:`~privlab.vision.logo_finder.LogoFinder` for
            ``logos`` (the logo check then uses it), or None.
        name_engine: the name check's OCR engine (:class:`NameCheck`).

    Returns:
        ``(checks, notes)``; a note says why a check could not run (dlib missing).

    Example:
        >>> checks, notes = concept_checks(names=["QUIKBITE"])
        >>> [c.kind for c in checks], notes
        (['name'], [])
    """
    from privlab.errors import MissingDependencyError

    checks: list[ConceptCheck] = []
    notes: list[str] = []
    if faces:
        checks.append(SFaceCheck(faces))
        try:
            checks.append(DlibCheck(faces))
        except MissingDependencyError as exc:
            notes.append(f"no dlib face check: {str(exc).splitlines()[0]}")
    if names:
        checks.append(NameCheck(list(names), engine=name_engine))
    if logos:
        checks.append(LogoCheck(logos, logo_finder))
    return checks, notes


__all__ = ["CHECK_FACE_SCORE", "ConceptCheck", "DlibCheck", "LogoCheck", "NameCheck",
           "NameReaders", "SFaceCheck", "compare_name_readers", "concept_checks"]
