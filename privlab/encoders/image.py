"""Image distance mechanisms: face identity, describe-then-embed, generic CNN, open_clip.

The offline members come from different families, as the paper's §4.4.4 recommends:
:class:`SFaceEncoder`, :class:`DlibFaceEncoder`, :class:`DescribeThenEmbedEncoder`,
:class:`EfficientNetLite0Encoder` (a cautionary member that reads black boxes as content)
and :class:`OpenCLIPEncoder`; each registers itself beside its class. See
``docs/methods/encoders-members.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

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
from privlab.encoders.precision import check_dtype, check_quantization, precision_suffix
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
    "eva02-e14-plus": ("EVA02-E-14-plus", "laion2b_s9b_b144k",
                       "open_clip EVA02-E-14-plus, LAION-2B (an EVA-02 CLIP; the paper's "
                       "EVA-CLIP-18B is eva-clip-18b)"),
    "dfn5b-clip-h14-378": ("ViT-H-14-378-quickgelu", "dfn5b",
                           "apple/DFN5B-CLIP-ViT-H-14-378 (the authors' compare-images default)"),
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
        dtype: the same as a dtype name (``"float32"``, ``"float16"``, ``"bfloat16"``);
            overrides ``precision`` when given. A non-default precision is part of the name.
        quantization: ``"none"`` only: open_clip loads no bitsandbytes weights; an 8-bit
            or 4-bit tower loads through :class:`~privlab.encoders.hf_clip.TransformersCLIPEncoder`.
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
                 precision: str = "fp32", model_config_dir: str | Path | None = None,
                 dtype: str | None = None, quantization: str | None = "none"):
        if not isinstance(model, str) or not model:
            raise invalid("model", "OpenCLIPEncoder", "an open_clip model name", model)
        if check_quantization(quantization, "OpenCLIPEncoder") != "none":
            raise invalid("quantization", "OpenCLIPEncoder", "'none' (open_clip loads no "
                          "bitsandbytes weights)", quantization,
                          "Use dtype='float16' or 'bfloat16', or load the checkpoint's "
                          "transformers form with TransformersCLIPEncoder(quantization=...).")
        self.model_name = model
        self.pretrained = pretrained
        self.device = device
        self.dtype = check_dtype(dtype if dtype is not None else precision, "OpenCLIPEncoder")
        self.precision = _OPEN_CLIP_PRECISION[self.dtype]
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
        self.name = f"open_clip:{model}:{tag}" + precision_suffix(self.dtype, "none")
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
                             for item in items])
        batch = batch.to(self.device, dtype=next(model.parameters()).dtype)
        with torch.no_grad():
            feats = model.encode_image(batch)
        return feats.float().cpu().numpy()

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "model": self.model_name,
                "pretrained": self.name.split(":")[-1].split("@")[0], "dtype": self.dtype}


_OPEN_CLIP_PRECISION = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16"}


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
    def factory(pretrained: str | None = None, **kw) -> OpenCLIPEncoder:
        # pretrained: a local weights file of this architecture (offline), else the tag
        return OpenCLIPEncoder(arch, pretrained or tag, **kw)

    return factory


for _key, (_arch, _tag, _text) in OPEN_CLIP_PRESETS.items():
    registry.register(_key, _preset(_arch, _tag), modality="image", offline=False,
                      description=_text)
del _key, _arch, _tag, _text


@registry.member("eva-clip", modality="image", offline=False, deprecated="eva02-e14-plus",
                 description="deprecated name of eva02-e14-plus (open_clip EVA02-E-14-plus, "
                             "not the paper's EVA-CLIP-18B)")
def eva_clip_deprecated(**kw) -> OpenCLIPEncoder:
    """The old name of ``eva02-e14-plus``; warns, since the model is not the paper's EVA.

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     eva_clip_deprecated().name
        'open_clip:EVA02-E-14-plus:laion2b_s9b_b144k'
        >>> "eva-clip-18b" in str(caught[0].message)
        True
    """
    import warnings

    warnings.warn("The encoder 'eva-clip' is open_clip's EVA02-E-14-plus, not the paper's "
                  "BAAI/EVA-CLIP-18B: ask for 'eva02-e14-plus' (this model) or 'eva-clip-18b' "
                  "(the paper's); the name 'eva-clip' will be removed.", FutureWarning,
                  stacklevel=2)
    return registry.create("eva02-e14-plus", **kw)


__all__ = ["DescribeThenEmbedEncoder", "Description", "DlibFaceEncoder",
           "EfficientNetLite0Encoder", "ImageEncoder", "OPEN_CLIP_PRESETS", "OpenCLIPEncoder",
           "SFaceEncoder", "description_text", "eva_clip_deprecated", "ocr_text",
           "open_clip_encoder"]
