"""CLIP image towers through ``transformers``: the paper's EVA-CLIP-18B and its kin.

:class:`TransformersCLIPEncoder` loads a remote-code CLIP checkpoint (EVA-CLIP-18B,
LLM2CLIP) or a plain ``CLIPModel`` from a hub id or a local folder, with a weight dtype and
bitsandbytes quantization (:mod:`privlab.encoders.precision`). See
``docs/methods/encoders-members.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import numpy as np

from privlab.encoders.base import registry
from privlab.encoders.image_base import ImageEncoder
from privlab.encoders.precision import (
    check_dtype,
    check_quantization,
    precision_suffix,
    quantization_config,
    torch_dtype,
)
from privlab.errors import invalid, require
from privlab.fixes import download_command
from privlab.hashing import folder_hash
from privlab.vision.images import as_rgb


def image_features(model: Any, pixel_values: Any):
    """The image embedding of a transformers CLIP-like model, whichever way it exposes it.

    ``get_image_features`` (CLIPModel, LLM2CLIP), else ``encode_image`` (EVA-CLIP-18B's
    remote code); an output object gives its ``image_embeds``, else its projected
    ``pooler_output``.
    """
    if hasattr(model, "get_image_features"):
        out = model.get_image_features(pixel_values=pixel_values)
    elif hasattr(model, "encode_image"):
        out = model.encode_image(pixel_values)
    else:
        raise invalid("model", "TransformersCLIPEncoder", "a model with get_image_features or "
                      "encode_image", type(model).__name__,
                      "Pass a CLIP-like checkpoint (an image tower with a projection).")
    for key in ("image_embeds", "pooler_output"):
        value = getattr(out, key, None)
        if value is not None:
            return value
    return out


class TransformersCLIPEncoder(ImageEncoder):
    """A CLIP-like image tower loaded with ``transformers`` (``AutoModel``).

    Args:
        model: a hub id (``"BAAI/EVA-CLIP-18B"``) or a local folder holding its files.
        name: display and cache id (default: ``model``); a non-default precision is
            appended (``@bfloat16+4bit``), and a local folder's contents are hashed into
            the cache key.
        trust_remote_code: run the checkpoint's own model code (EVA-CLIP-18B and LLM2CLIP
            need it; only for checkpoints you trust).
        dtype: ``"float32"``, ``"float16"`` or ``"bfloat16"`` weights.
        quantization: ``"none"``, ``"8bit"`` or ``"4bit"`` (bitsandbytes, GPU).
        device: ``"cpu"``/``"cuda"`` (default :func:`privlab.config.default_device`).
        image_size: side of the processor's crop when the folder has no processor config
            (default: the tower's ``vision_config.image_size``, else 224).

    Example:
        >>> TransformersCLIPEncoder("BAAI/EVA-CLIP-18B", dtype="bf16").name  # loads nothing
        'BAAI/EVA-CLIP-18B@bfloat16'
    """

    batch_size = 8

    def __init__(self, model: str | Path, *, name: str | None = None,
                 trust_remote_code: bool = False, dtype: str = "float32",
                 quantization: str | None = "none", device: str | None = None,
                 image_size: int | None = None):
        caller = "TransformersCLIPEncoder"
        if not isinstance(model, (str, Path)) or not str(model):
            raise invalid("model", caller, "a hub id or a local folder", model)
        self.model_ref = str(model)
        self.trust_remote_code = bool(trust_remote_code)
        self.dtype = check_dtype(dtype, caller)
        self.quantization = check_quantization(quantization, caller)
        self.device = device
        self.image_size = image_size
        self.name = (name or self.model_ref) + precision_suffix(self.dtype, self.quantization)
        self.preprocessing = ""
        self._model = None
        self._processor = None

    @property
    def local(self) -> Path | None:
        """The local folder, when ``model`` is one."""
        path = Path(self.model_ref).expanduser()
        return path if path.is_dir() else None

    @property
    def cache_model(self) -> str:
        return f"{self.name}@{folder_hash(self.local, 16)}" if self.local else self.name

    def _load(self):
        if self._model is None:
            transformers = require("transformers", "transformers", "TransformersCLIPEncoder")
            from privlab.config import default_device

            ref = str(self.local) if self.local else self.model_ref
            options = {"trust_remote_code": self.trust_remote_code,
                       "local_files_only": self.local is not None}
            bnb = quantization_config(self.quantization, self.dtype, "TransformersCLIPEncoder")
            try:
                model = transformers.AutoModel.from_pretrained(
                    ref, dtype=torch_dtype(self.dtype), **options,
                    **({"quantization_config": bnb, "device_map": "auto"} if bnb else {}))
            except OSError as exc:
                raise invalid("model", "TransformersCLIPEncoder", "a local folder or a hub id "
                              "that can be loaded", self.model_ref,
                              f"Offline, download it where there is internet "
                              f"({download_command(self.model_ref)} --local-dir DIR) and pass "
                              "DIR.") from exc
            self.device = self.device or default_device()
            if bnb is None:
                model = model.to(self.device)
            self._model = model.eval()
            self._processor = self._image_processor(transformers, ref, options)
        return self._model, self._processor

    def _image_processor(self, transformers: Any, ref: str, options: dict):
        try:
            processor = transformers.AutoImageProcessor.from_pretrained(ref, **options)
            self.preprocessing = f"the checkpoint's {type(processor).__name__}"
            return processor
        except (OSError, ValueError, KeyError):
            config = self._model.config
            vision = getattr(config, "vision_config", None)
            size = int(self.image_size or getattr(vision, "image_size", None)
                       or getattr(config, "image_size", None) or 224)
            self.preprocessing = f"CLIP's standard processor at {size} px (the model card's)"
            return transformers.CLIPImageProcessor(size={"shortest_edge": size},
                                                   crop_size={"height": size, "width": size})

    def _encode(self, items: Sequence[Any]) -> np.ndarray:
        import torch
        from PIL import Image

        model, processor = self._load()
        images = [Image.fromarray(as_rgb(item, "items", "TransformersCLIPEncoder")) for item in items]
        pixels = processor(images=images, return_tensors="pt")["pixel_values"]
        first = next(model.parameters())
        pixels = pixels.to(first.device, dtype=first.dtype if first.is_floating_point()
                           else torch_dtype(self.dtype))
        with torch.no_grad():
            feats = image_features(model, pixels)
        return feats.float().cpu().numpy()

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "model": self.model_ref, "dtype": self.dtype,
                "quantization": self.quantization, "trust_remote_code": self.trust_remote_code,
                "preprocessing": self.preprocessing or "decided when loaded"}


#: The presets: registry name -> (hub id, trust_remote_code, description).
TRANSFORMERS_PRESETS: dict[str, tuple[str, bool, str]] = {
    "eva-clip-18b": ("BAAI/EVA-CLIP-18B", True,
                     "BAAI/EVA-CLIP-18B, the paper's image embedder (experiments.sh "
                     "--embedder-model); transformers, remote code; GPU, 8bit/4bit to fit"),
    "llm2clip-eva02-b16": ("microsoft/LLM2CLIP-EVA02-B-16", True,
                           "microsoft/LLM2CLIP-EVA02-B-16, named by the authors' image tool; "
                           "transformers, remote code"),
}


def _transformers_preset(hub_id: str, remote: bool):
    def factory(path: str | Path | None = None, **kw) -> TransformersCLIPEncoder:
        return TransformersCLIPEncoder(path or hub_id, name=hub_id, trust_remote_code=remote,
                                       **kw)

    factory.__doc__ = (f"{hub_id} (``path``: a local folder holding its files; other "
                       "settings as :class:`TransformersCLIPEncoder`).")
    return factory


for _key, (_hub, _remote, _text) in TRANSFORMERS_PRESETS.items():
    registry.register(_key, _transformers_preset(_hub, _remote), modality="image",
                      offline=False, description=_text)
del _key, _hub, _remote, _text


__all__ = ["TRANSFORMERS_PRESETS", "TransformersCLIPEncoder", "image_features"]
