"""Contrastive losses and batches for fine-tuning a distance mechanism on coarse captions.

The CLIP softmax and SigLIP sigmoid losses that both paths of :mod:`privlab.encoders.adapter`
train with; pairs sharing a caption are both positives. Formulas:
``docs/methods/encoders-members.md``.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from privlab.errors import invalid, wrong_type

LOSSES = ("siglip", "clip")
# Initial temperature and bias of each loss (CLIP: t = 1/0.07; SigLIP: t = 10, b = -10).
LOSS_INIT = {"clip": (math.log(1 / 0.07), 0.0), "siglip": (math.log(10.0), -10.0)}


# ---------------------------------------------------------------------------------------
# Losses
# ---------------------------------------------------------------------------------------
def check_loss(loss: Any, caller: str) -> str:
    """``loss`` when it names a loss of :data:`LOSSES`.

    Raises:
        ValueError: any other value (naming ``caller``).

    Example:
        >>> check_loss("clip", "train_adapter")
        'clip'
    """
    if loss not in LOSSES:
        raise invalid("loss", caller, f"one of {list(LOSSES)}", loss)
    return loss


def positives_from_captions(captions: Sequence[str]):
    """The ``(n, n)`` boolean matrix of pairs that share a caption (the positives).

    Args:
        captions: the batch's captions, one per image.

    Returns:
        A bool torch tensor, True where ``captions[i] == captions[j]`` (diagonal included).

    Example:
        >>> positives_from_captions(["a", "b", "a"]).int().tolist()
        [[1, 0, 1], [0, 1, 0], [1, 0, 1]]
    """
    import torch

    if isinstance(captions, str):
        raise wrong_type("captions", "positives_from_captions", "a list of captions", captions)
    keys = {c: k for k, c in enumerate(dict.fromkeys(captions))}
    ids = torch.tensor([keys[c] for c in captions])
    return ids[:, None] == ids[None, :]


def _check_logits(logits, positives, caller: str):
    import torch

    if not isinstance(logits, torch.Tensor) or logits.ndim != 2 or logits.shape[0] != logits.shape[1]:
        raise invalid("logits", caller, "a square 2-D torch tensor (images x captions)",
                      f"shape {tuple(getattr(logits, 'shape', ()))}", given_is_text=True)
    if logits.shape[0] == 0:
        raise invalid("logits", caller, "non-empty", "a 0 x 0 matrix", given_is_text=True)
    if positives is None:
        return torch.eye(logits.shape[0], dtype=torch.bool, device=logits.device)
    positives = torch.as_tensor(positives, device=logits.device).bool()
    if positives.shape != logits.shape or not bool(positives.diagonal().all()):
        raise invalid("positives", caller, "a boolean matrix of the logits' shape with a true "
                      "diagonal", f"shape {tuple(positives.shape)}", given_is_text=True)
    return positives


def clip_loss(logits, positives=None):
    """The CLIP softmax loss of an ``(n, n)`` image-by-caption logit matrix.

    ``L = (CE_rows + CE_columns) / 2``, where each row (image) is a softmax over the
    captions and each column (caption) a softmax over the images, the target mass spread
    evenly over the positives (the diagonal by default).

    Args:
        logits: ``(n, n)`` float tensor ``t * u_i . v_j`` (images in rows).
        positives: optional ``(n, n)`` bool tensor of matching pairs; its diagonal must
            be true (see :func:`positives_from_captions`).

    Returns:
        A scalar tensor (mean over the batch, natural log).

    Raises:
        ValueError: a non-square or empty matrix, or positives of another shape.

    Example:
        >>> import torch
        >>> round(float(clip_loss(torch.zeros(2, 2))), 4)   # log 2: a coin flip per row
        0.6931
    """
    import torch

    positives = _check_logits(logits, positives, "clip_loss")
    target = positives.float()
    rows = -(torch.log_softmax(logits, dim=1) * (target / target.sum(1, keepdim=True))).sum(1)
    cols = -(torch.log_softmax(logits, dim=0) * (target / target.sum(0, keepdim=True))).sum(0)
    return (rows.mean() + cols.mean()) / 2


def siglip_loss(logits, positives=None):
    """The SigLIP sigmoid loss of an ``(n, n)`` image-by-caption logit matrix.

    ``L = -(1/n) sum_ij log sigmoid(s_ij * z_ij)``, ``s_ij = +1`` for positives (the
    diagonal by default) and ``-1`` otherwise; ``z_ij = t * u_i . v_j + b``.

    Args:
        logits: ``(n, n)`` float tensor (bias already added).
        positives: optional ``(n, n)`` bool tensor with a true diagonal.

    Returns:
        A scalar tensor.

    Raises:
        ValueError: a non-square or empty matrix, or positives of another shape.

    Example:
        >>> import torch
        >>> round(float(siglip_loss(torch.zeros(2, 2))), 4)   # 4 log 2 / 2
        1.3863
    """
    import torch

    positives = _check_logits(logits, positives, "siglip_loss")
    signs = positives.float() * 2 - 1
    return -torch.nn.functional.logsigmoid(signs * logits).sum() / logits.shape[0]


def pair_loss(loss: str, image_rows, text_rows, log_scale, bias, positives=None):
    """The chosen loss of unit image and caption rows under temperature ``exp(log_scale)``.

    Args:
        loss: ``"clip"`` or ``"siglip"``.
        image_rows: ``(n, d)`` tensor (normalised here).
        text_rows: ``(n, d)`` tensor (normalised here).
        log_scale: scalar tensor, the log temperature ``log t``.
        bias: scalar tensor ``b`` (ignored by the softmax loss).
        positives: optional ``(n, n)`` bool matrix of matching pairs.

    Returns:
        A scalar tensor.

    Example:
        >>> import torch
        >>> u = torch.eye(2); zero = torch.tensor(0.0)
        >>> round(float(pair_loss("clip", u, u, zero, zero)), 4)
        0.3133
    """
    import torch

    loss = check_loss(loss, "pair_loss")
    u = torch.nn.functional.normalize(image_rows, dim=-1)
    v = torch.nn.functional.normalize(text_rows, dim=-1)
    logits = log_scale.exp() * (u @ v.T)
    if loss == "clip":
        return clip_loss(logits, positives)
    return siglip_loss(logits + bias, positives)


# ---------------------------------------------------------------------------------------
# Shared checks and batches of both training paths
# ---------------------------------------------------------------------------------------
def check_pairs(images: Any, captions: Any, caller: str) -> tuple[list, list[str]]:
    """Images and their captions as lists, one non-empty caption per image, two distinct at least.

    Args:
        images: the training images.
        captions: one coarse caption per image.
        caller: the function named in errors.

    Returns:
        ``(images, captions)`` as lists.

    Raises:
        TypeError: a bare string or a non-sequence.
        ValueError: mismatched lengths, an empty caption, or a single distinct caption
            (a contrastive loss needs negatives).

    Example:
        >>> check_pairs(["img1", "img2"], ["a", "b"], "train_adapter")
        (['img1', 'img2'], ['a', 'b'])
    """
    if isinstance(captions, str) or not hasattr(captions, "__len__"):
        raise wrong_type("captions", caller, "a list of captions, one per image", captions)
    if isinstance(images, (str, bytes)) or not hasattr(images, "__len__"):
        raise wrong_type("images", caller, "a list of images", images)
    images, captions = list(images), list(captions)
    if len(images) != len(captions) or not images:
        raise invalid("captions", caller, f"one caption per image ({len(images)} images, at "
                      "least one)", f"{len(captions)} captions", given_is_text=True)
    for index, caption in enumerate(captions):
        if not isinstance(caption, str) or not caption.strip():
            raise invalid(f"captions[{index}]", caller, "a non-empty str", caption)
    if len(set(captions)) < 2:
        raise invalid("captions", caller, "at least two different captions", sorted(set(captions)),
                      "A contrastive loss needs negatives: add media of other people or "
                      "scenes with their own coarse caption.")
    return images, captions


def check_positive(value: Any, parameter: str, caller: str, kind=int) -> Any:
    """``value`` when it is a positive (finite) ``kind`` (``int`` or ``float``).

    Raises:
        ValueError: not a number, a bool, not positive, a float where an int is needed,
            or an infinite float.

    Example:
        >>> check_positive(3, "epochs", "train_adapter"), check_positive(0.1, "lr", "x", float)
        (3, 0.1)
    """
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
    if kind is int:
        ok = ok and isinstance(value, int)
    if not ok or (kind is float and not math.isfinite(value)):
        raise invalid(parameter, caller, f"a positive {kind.__name__}", value)
    return value


def balanced_batches(captions: Sequence[str], rng: np.random.Generator) -> list[np.ndarray]:
    """One epoch of batches holding one example of each caption (the paper's scheme).

    Each caption's examples are shuffled; batch ``k`` takes the ``k``-th example of every
    caption that still has one, so an epoch shows every example once and every batch has
    negatives while any two captions remain.

    Args:
        captions: one caption per example.
        rng: the random generator (seeded by the caller).

    Returns:
        A list of index arrays.

    Example:
        >>> [b.tolist() for b in balanced_batches(["a", "a", "b"], np.random.default_rng(0))]
        [[0, 2], [1]]
    """
    groups: dict[str, list[int]] = {}
    for index, caption in enumerate(captions):
        groups.setdefault(caption, []).append(index)
    orders = [rng.permutation(np.asarray(g)) for g in groups.values()]
    longest = max(len(o) for o in orders)
    batches = [np.asarray([o[k] for o in orders if k < len(o)]) for k in range(longest)]
    return [batches[k] for k in rng.permutation(len(batches))]


__all__ = ["LOSSES", "LOSS_INIT", "balanced_batches", "check_loss", "check_pairs",
           "check_positive", "clip_loss", "pair_loss", "positives_from_captions", "siglip_loss"]
