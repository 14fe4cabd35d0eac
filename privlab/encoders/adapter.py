"""Fine-tuning a distance mechanism on coarse labels of the privacy target (paper §4.4.4).

A pretrained model may never have seen an obscure identity and pass at resolution 0 falsely.
:func:`finetune_open_clip` fine-tunes an open_clip model on ``(image, caption)`` pairs;
:func:`train_adapter` (offline) trains a linear projection from a frozen image encoder into
``minilm``'s space, giving an :class:`AdapterEncoder`. Losses and batches:
:mod:`privlab.encoders.losses`. See ``docs/methods/encoders-members.md``.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from privlab.encoders.base import registry
from privlab.encoders.image import ImageEncoder, OpenCLIPEncoder
from privlab.encoders.losses import (
    LOSS_INIT,
    balanced_batches,
    check_loss,
    check_pairs,
    check_positive,
    pair_loss,
    positives_from_captions,
)
from privlab.encoders.lookup import get_encoder
from privlab.errors import invalid, require
from privlab.hashing import bytes_hash
from privlab.progress import substep
from privlab.vision.images import as_rgb


# ---------------------------------------------------------------------------------------
# Offline default: a frozen feature extractor and a trained projection
# ---------------------------------------------------------------------------------------
class AdapterEncoder(ImageEncoder):
    """A frozen image encoder followed by a trained linear projection (a distance mechanism).

    ``g(x) = normalise(W f(x) + c)``, where ``f`` is a registered image encoder's unit
    embedding (frozen) and ``W, c`` were trained by :func:`train_adapter` to bring images
    near the text embedding of their coarse caption. The distance mechanism is the
    residual blend ``E(x) = [sqrt(1 - mix) f(x), sqrt(mix) g(x)]`` (a unit row), so that,
    like a fine-tuned model, it keeps what the pretrained extractor saw and adds what
    training taught; ``mix=1`` is the projection alone, which only knows the captions.

    Args:
        base: name of the frozen image encoder in :mod:`privlab.encoders`.
        weight: ``(d_out, d_in)`` float array.
        offset: ``(d_out,)`` float array.
        meta: provenance (loss, seed, captions, text encoder, ...).
        mix: weight of the trained part, in (0, 1].

    Raises:
        ValueError: weight and offset whose shapes do not agree, or ``mix`` out of range.

    Example:
        >>> enc = AdapterEncoder("sface", np.eye(2, 3), np.zeros(2))
        >>> enc.name.startswith("adapter:sface:")
        True
    """

    def __init__(self, base: str, weight: Any, offset: Any, meta: dict | None = None,
                 mix: float = 0.5):
        weight = np.asarray(weight, dtype=np.float32)
        offset = np.asarray(offset, dtype=np.float32)
        if weight.ndim != 2 or offset.shape != (weight.shape[0],):
            raise invalid("offset", "AdapterEncoder", f"shaped ({weight.shape[0]},) for a weight "
                          "of 2-D shape", f"weight {weight.shape}, offset {offset.shape}",
                          given_is_text=True)
        if not isinstance(base, str) or not base:
            raise invalid("base", "AdapterEncoder", "a registered image encoder name", base)
        if not isinstance(mix, (int, float)) or isinstance(mix, bool) or not 0 < mix <= 1:
            raise invalid("mix", "AdapterEncoder", "a float in (0, 1]", mix)
        self.base = base
        self.weight, self.offset = weight, offset
        self.mix = float(mix)
        self.meta = dict(meta or {})
        digest = bytes_hash(weight.tobytes() + offset.tobytes() + base.encode()
                            + repr(self.mix).encode(), 12)
        self.name = f"adapter:{base}:{digest}"
        self._dim = None

    def with_mix(self, mix: float) -> "AdapterEncoder":
        """The same trained weights blended with another ``mix``."""
        return AdapterEncoder(self.base, self.weight, self.offset, self.meta, mix)

    def project(self, items: Sequence[Any]) -> np.ndarray:
        """The trained part alone, ``g(x)``: ``(n, d_text)`` float64 unit rows."""
        features = self.base_encoder().encode(list(items)).astype(np.float64)
        rows = features @ self.weight.T.astype(np.float64) + self.offset
        return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)

    def base_encoder(self):
        """The frozen image encoder (from the registry)."""
        return get_encoder(self.base)

    def _encode(self, items: Sequence[Any]) -> np.ndarray:
        projected = self.project(items)
        if self.mix == 1.0:
            return projected
        features = self.base_encoder().encode(list(items)).astype(np.float64)
        return np.hstack([math.sqrt(1 - self.mix) * features, math.sqrt(self.mix) * projected])

    def save(self, path: str | Path) -> Path:
        """Write the adapter (weights and provenance) to ``path`` (a ``.npz`` file).

        Returns:
            The path written.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as fh:
            np.savez(fh, weight=self.weight, offset=self.offset,
                     meta=np.asarray(json.dumps({**self.meta, "base": self.base, "mix": self.mix})))
        return path

    @classmethod
    def load(cls, path: str | Path) -> "AdapterEncoder":
        """Read an adapter written by :meth:`save`.

        Raises:
            ValueError: the file does not exist.
        """
        path = Path(path) if path is not None else None
        if path is None or not path.is_file():
            raise invalid("path", "AdapterEncoder.load", "an adapter file written by "
                          "AdapterEncoder.save", str(path),
                          "Train one with privlab.encoders.adapter.train_adapter and save it.")
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            return cls(meta.pop("base"), data["weight"], data["offset"], meta, meta.pop("mix", 0.5))

    def describe(self) -> dict[str, Any]:
        keep = {k: v for k, v in self.meta.items() if k != "losses"}
        return {**super().describe(), "base": self.base, "mix": self.mix, **keep}


@registry.member("adapter", modality="image", offline=True,
                 description="frozen image encoder + projection trained on coarse captions "
                             "(privlab.encoders.adapter.train_adapter; pass path=)")
def load_adapter(path: str | Path | None = None, **_: Any) -> AdapterEncoder:
    """The registry's factory for ``"adapter"``: :meth:`AdapterEncoder.load` of ``path``.

    Raises:
        ValueError: no path or no such file.
    """
    return AdapterEncoder.load(path)


@dataclass
class AdapterRun:
    """A trained adapter and its training record.

    Attributes:
        encoder: the :class:`AdapterEncoder` (a distance mechanism).
        losses: mean training loss of each epoch (``epochs`` values).
        initial_loss: the loss over the whole gallery before the first step.
        text_encoder: name of the caption encoder.
        captions: the distinct captions, in order of first use.
        caption_vectors: ``(k, d)`` unit embeddings of those captions.
        settings: loss, epochs, lr, weight decay, seed, gallery size, base.
    """

    encoder: AdapterEncoder
    losses: list[float]
    initial_loss: float
    text_encoder: str
    captions: list[str]
    caption_vectors: np.ndarray = field(repr=False)
    settings: dict[str, Any] = field(default_factory=dict)

    def caption_scores(self, images: Sequence[Any]) -> np.ndarray:
        """Cosine of each image's adapted embedding to each caption: ``(n, k)`` float64."""
        return self.encoder.project(list(images)) @ self.caption_vectors.T


def train_adapter(images: Sequence[Any], captions: Sequence[str], *, base: str = "efficientnet-lite0",
                  text_encoder: str = "minilm", loss: str = "siglip", epochs: int = 30,
                  lr: float = 1e-2, weight_decay: float = 1e-4, seed: int = 0,
                  mix: float = 0.5) -> AdapterRun:
    """Train a linear projection of a frozen image encoder onto caption embeddings.

    Each epoch holds batches of one example per distinct caption (see
    :func:`balanced_batches`); AdamW with ``betas=(0.9, 0.98)``, ``eps=1e-6``, gradient
    norm clipped at 1; the temperature (and, for SigLIP, the bias) is learned. Runs on the
    CPU in float32 with one torch generator seeded by ``seed``: the same inputs and seed
    give the same weights.

    Args:
        images: PIL images or uint8 arrays.
        captions: one coarse caption per image (at least two distinct captions).
        base: a registered image encoder (the frozen feature extractor).
        text_encoder: a registered text encoder for the captions.
        loss: ``"siglip"`` or ``"clip"``.
        epochs: passes over the gallery.
        lr: AdamW learning rate.
        weight_decay: AdamW weight decay.
        seed: seeds the initial weights and the batch order.
        mix: weight of the trained part in the encoder (see :class:`AdapterEncoder`).

    Returns:
        An :class:`AdapterRun`.

    Raises:
        ValueError: mismatched lengths, fewer than two distinct captions, a bad setting.
        TypeError: images or captions of the wrong kind.
    """
    import torch

    caller = "train_adapter"
    images, captions = check_pairs(images, captions, caller)
    loss = check_loss(loss, caller)
    check_positive(epochs, "epochs", caller)
    check_positive(lr, "lr", caller, float)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise invalid("seed", caller, "an int", seed)
    if not isinstance(weight_decay, (int, float)) or weight_decay < 0:
        raise invalid("weight_decay", caller, "a non-negative float", weight_decay)
    image_encoder = get_encoder(base)
    if image_encoder.modality != "image":
        raise invalid("base", caller, "an image encoder", base)
    texts = get_encoder(text_encoder)
    features = torch.tensor(image_encoder.encode(images), dtype=torch.float32)
    distinct = list(dict.fromkeys(captions))
    caption_vectors = texts.encode(distinct)
    caption_index = torch.tensor([distinct.index(c) for c in captions])
    targets = torch.tensor(caption_vectors, dtype=torch.float32)

    generator = torch.Generator().manual_seed(seed)
    d_in, d_out = features.shape[1], targets.shape[1]
    bound = 1 / math.sqrt(d_in)
    weight = torch.nn.Parameter((torch.rand(d_out, d_in, generator=generator) * 2 - 1) * bound)
    offset = torch.nn.Parameter(torch.zeros(d_out))
    scale0, bias0 = LOSS_INIT[loss]
    log_scale = torch.nn.Parameter(torch.tensor(scale0))
    bias = torch.nn.Parameter(torch.tensor(bias0))
    params = [weight, offset, log_scale] + ([bias] if loss == "siglip" else [])
    optimizer = torch.optim.AdamW(params, lr=lr, betas=(0.9, 0.98), eps=1e-6,
                                  weight_decay=weight_decay)
    positives_all = caption_index[:, None] == caption_index[None, :]

    def batch_loss(index):
        index = torch.as_tensor(index)
        rows = features[index] @ weight.T + offset
        return pair_loss(loss, rows, targets[caption_index[index]], log_scale, bias,
                         positives_all[index][:, index])

    with torch.no_grad():
        initial = float(batch_loss(np.arange(len(images))))
    rng = np.random.default_rng(seed)
    losses = []
    for epoch in range(epochs):
        substep("epochs trained", epoch, epochs)
        total, count = 0.0, 0
        for index in balanced_batches(captions, rng):
            optimizer.zero_grad()
            value = batch_loss(index)
            value.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
            total += value.detach().item() * len(index)
            count += len(index)
        losses.append(total / count)
    substep("epochs trained", epochs, epochs)
    settings = {"base": base, "text_encoder": texts.name, "loss": loss, "epochs": epochs,
                "lr": lr, "weight_decay": weight_decay, "seed": seed, "gallery": len(images),
                "captions": distinct}
    encoder = AdapterEncoder(base, weight.detach().numpy(), offset.detach().numpy(),
                             {k: v for k, v in settings.items() if k != "base"}, mix)
    return AdapterRun(encoder, losses, initial, texts.name, distinct,
                      np.asarray(caption_vectors, dtype=np.float64), settings)


# ---------------------------------------------------------------------------------------
# open_clip: fine-tune both towers
# ---------------------------------------------------------------------------------------
_HEAD_PARTS = ("ln_post", "proj", "ln_final", "text_projection", "logit_scale", "logit_bias",
               "attn_pool", "head")


def _tower_blocks(model) -> list:
    """The residual block lists of an open_clip model's towers (image, text)."""
    found = []
    for path in ("visual.transformer.resblocks", "transformer.resblocks",
                 "text.transformer.resblocks"):
        obj = model
        for part in path.split("."):
            obj = getattr(obj, part, None)
            if obj is None:
                break
        if obj is not None:
            found.append((path, obj))
    return found


def freeze_all_but_last(model, blocks: int) -> int:
    """Freeze an open_clip model except the last ``blocks`` blocks of each tower and the heads.

    The heads are the final norms, projections, temperature and bias (``ln_post``,
    ``proj``, ``ln_final``, ``text_projection``, ``logit_scale``, ``logit_bias``, pools).

    Args:
        model: an open_clip model with transformer towers.
        blocks: how many trailing residual blocks of each tower stay trainable (>= 0).

    Returns:
        The number of trainable parameters left.

    Raises:
        ValueError: a negative count, or a model without transformer blocks.
    """
    if not isinstance(blocks, int) or isinstance(blocks, bool) or blocks < 0:
        raise invalid("blocks", "freeze_all_but_last", "a non-negative int", blocks)
    towers = _tower_blocks(model)
    if not towers:
        raise invalid("model", "freeze_all_but_last", "an open_clip model with transformer "
                      "towers", type(model).__name__, "Fine-tune every parameter "
                      "(train_last=None) for other architectures.")
    keep = set()
    for path, resblocks in towers:
        for k in range(max(0, len(resblocks) - blocks), len(resblocks)):
            keep.add(f"{path}.{k}.")
    trainable = 0
    for name, param in model.named_parameters():
        in_block = any(name.startswith(prefix) for prefix in keep)
        is_head = ".resblocks." not in name and any(part in name.split(".")[-1] or
                                                    part in name for part in _HEAD_PARTS)
        param.requires_grad_(in_block or is_head)
        trainable += param.numel() if param.requires_grad else 0
    return trainable


@dataclass
class OpenCLIPRun:
    """The record of :func:`finetune_open_clip`.

    Attributes:
        model: the open_clip architecture name.
        checkpoint: the saved ``state_dict`` file (load it with
            ``OpenCLIPEncoder(model, pretrained=str(checkpoint))``).
        step_losses: the loss of every optimizer step.
        epoch_losses: the mean loss of each epoch.
        trainable: number of trained parameters.
        settings: loss, epochs, lr, betas, weight decay, batch size, seed, device.
    """

    model: str
    checkpoint: Path
    step_losses: list[float]
    epoch_losses: list[float]
    trainable: int
    settings: dict[str, Any]

    def encoder(self, **kwargs: Any):
        """An :class:`privlab.encoders.image.OpenCLIPEncoder` on the saved checkpoint."""
        return OpenCLIPEncoder(self.model, str(self.checkpoint), **kwargs)


def finetune_open_clip(model: str, images: Sequence[Any], captions: Sequence[str], *,
                       checkpoint: str | Path, pretrained: str | None = None,
                       loss: str = "siglip", epochs: int = 10, lr: float = 1e-5,
                       weight_decay: float = 0.1, batch_size: int = 2,
                       train_last: int | None = None, device: str | None = None,
                       seed: int = 0, grad_clip: float = 1.0, balanced: bool = True,
                       model_config_dir: str | Path | None = None) -> OpenCLIPRun:
    """Fine-tune an open_clip model (both towers) on ``(image, caption)`` pairs.

    The defaults follow §5.1.1 of the paper: sigmoid loss, AdamW (``betas=(0.9, 0.98)``,
    ``eps=1e-6``, weight decay 0.1, lr ``1e-5``), no scheduler or warm-up, gradient norm
    clipped at 1, fp32 weights with bf16 autocast on CUDA, batches of one example per
    identity (``balanced``), seed 0. The images go through the model's evaluation
    transform. A model without a learned bias (CLIP-family) gets one for the sigmoid
    loss, initialised at -10 as in SigLIP and kept out of the checkpoint.

    Args:
        model: open_clip architecture name.
        images: PIL images or uint8 arrays.
        captions: one coarse caption per image (at least two distinct).
        checkpoint: where to write the fine-tuned ``state_dict`` (``.pt``).
        pretrained: tag or local weights file to start from (None: random init).
        loss: ``"siglip"`` or ``"clip"``.
        epochs: passes over the pairs.
        lr: AdamW learning rate.
        weight_decay: AdamW weight decay.
        batch_size: pairs per step when ``balanced`` is False.
        train_last: train only the last this-many blocks of each tower and the heads
            (None: every parameter).
        device: ``"cuda"``, ``"cpu"`` or None for :func:`privlab.config.default_device`.
        seed: seeds torch and the batch order.
        grad_clip: global gradient-norm bound (0 disables).
        balanced: batches of one example per distinct caption (the paper's scheme).
        model_config_dir: a folder of model JSON configs to register first.

    Returns:
        An :class:`OpenCLIPRun`.

    Raises:
        ValueError: mismatched lengths, one caption only, a bad setting.
        MissingDependencyError: open_clip is not installed.
    """
    import torch
    from PIL import Image

    caller = "finetune_open_clip"
    open_clip = require("open_clip", "open_clip_torch", "Fine-tuning an open_clip model")
    images, captions = check_pairs(images, captions, caller)
    loss = check_loss(loss, caller)
    check_positive(epochs, "epochs", caller)
    check_positive(lr, "lr", caller, float)
    check_positive(batch_size, "batch_size", caller)
    if not isinstance(grad_clip, (int, float)) or grad_clip < 0:
        raise invalid("grad_clip", caller, "a non-negative float", grad_clip)
    if checkpoint is None or not str(checkpoint):
        raise invalid("checkpoint", caller, "a file path", checkpoint)
    from privlab.config import default_device

    device = device or default_device()
    if device not in ("cpu", "cuda") and not str(device).startswith("cuda:"):
        raise invalid("device", caller, "'cpu' or 'cuda'", device)
    if model_config_dir is not None:
        open_clip.add_model_config(str(model_config_dir))

    torch.manual_seed(seed)
    net, _, preprocess = open_clip.create_model_and_transforms(model, pretrained=pretrained,
                                                              device=device)
    tokenizer = open_clip.get_tokenizer(model)
    net.train()
    if train_last is not None:
        trainable = freeze_all_but_last(net, train_last)
    else:
        trainable = sum(p.numel() for p in net.parameters())
    extra = []
    bias = getattr(net, "logit_bias", None)
    if loss == "siglip" and bias is None:
        bias = torch.nn.Parameter(torch.tensor(LOSS_INIT["siglip"][1], device=device))
        extra.append(bias)
    if bias is None:
        bias = torch.zeros((), device=device)
    params = [p for p in net.parameters() if p.requires_grad] + extra
    optimizer = torch.optim.AdamW(params, lr=lr, betas=(0.9, 0.98), eps=1e-6,
                                  weight_decay=weight_decay)
    pixels = torch.stack([preprocess(Image.fromarray(as_rgb(im, "images", caller)))
                          for im in images])
    tokens = tokenizer(captions)
    use_autocast = str(device).startswith("cuda")
    rng = np.random.default_rng(seed)
    step_losses, epoch_losses = [], []
    for _ in range(epochs):
        if balanced:
            batches = balanced_batches(captions, rng)
        else:
            order = rng.permutation(len(images))
            batches = [order[k:k + batch_size] for k in range(0, len(order), batch_size)]
        total = 0.0
        for index in batches:
            index = torch.as_tensor(index)
            positives = positives_from_captions([captions[k] for k in index.tolist()]).to(device)
            optimizer.zero_grad()
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=use_autocast):
                u = net.encode_image(pixels[index].to(device))
                v = net.encode_text(tokens[index].to(device))
            value = pair_loss(loss, u.float(), v.float(), net.logit_scale.float(),
                              bias.float(), positives)
            value.backward()
            if grad_clip:
                torch.nn.utils.clip_grad_norm_(params, grad_clip)
            optimizer.step()
            step_losses.append(value.detach().item())
            total += step_losses[-1]
        epoch_losses.append(total / len(batches))
    net.eval()
    path = Path(checkpoint)
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    torch.save({k: v.detach().cpu() for k, v in net.state_dict().items()}, buffer)
    path.write_bytes(buffer.getvalue())
    settings = {"loss": loss, "epochs": epochs, "lr": lr, "weight_decay": weight_decay,
                "betas": (0.9, 0.98), "eps": 1e-6, "batch_size": "balanced" if balanced else batch_size,
                "train_last": train_last, "device": str(device), "seed": seed,
                "pretrained": pretrained, "pairs": len(images), "captions": list(dict.fromkeys(captions))}
    return OpenCLIPRun(model, path, step_losses, epoch_losses, int(trainable), settings)


__all__ = ["AdapterEncoder", "AdapterRun", "OpenCLIPRun", "finetune_open_clip",
           "freeze_all_but_last", "load_adapter", "train_adapter"]
