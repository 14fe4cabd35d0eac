"""Any embedding model as an encoder: a callable, a sentence-transformers model, an
open_clip model with its preprocess, or a registry name.

:func:`as_encoder` gives ``(label, Encoder)``: the label is the name the user wrote (a
registry name such as ``"minilm"``, a callable's ``__name__``, a dict key) and names the
result's member, whatever id the encoder itself carries::

    as_encoder("minilm")                      # ('minilm', the packaged MiniLM)
    as_encoder(lambda texts: my_model(texts)) # ('lambda', CallableEncoder)
    as_encoder(SentenceTransformer("..."))    # ('all-MiniLM-L6-v2', CallableEncoder)
    as_encoder((clip_model, preprocess))      # ('open_clip', CallableEncoder)

Embeddings of a callable are not written to the on-disk cache: privlab cannot tell two
callables apart by name, so a cached vector could belong to another model.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from privlab.encoders.base import Encoder
from privlab.errors import invalid, wrong_type


def _label_of(value: Any, fallback: str) -> str:
    name = getattr(value, "__name__", None)
    if isinstance(name, str) and name and name != "<lambda>":
        return name
    return "lambda" if name == "<lambda>" else fallback


class CallableEncoder(Encoder):
    """An encoder that calls ``function(items) -> (n, d) array`` on each batch.

    Args:
        function: a batch of items -> one row per item (NumPy, torch or lists).
        name: display and provenance name.
        modality: ``"text"`` or ``"image"``.
        parameter: how errors name the callable (e.g. ``"encoders[0]"``).
        caller: the public function errors name.

    Example:
        >>> enc = CallableEncoder(lambda texts: [[len(t), 1.0] for t in texts], name="length")
        >>> [[round(float(v), 3) for v in row] for row in enc.encode(["ab", "abcd"])]
        [[0.894, 0.447], [0.97, 0.243]]
    """

    def __init__(self, function: Callable[[list], Any], *, name: str = "callable",
                 modality: str = "text", parameter: str = "encoder",
                 caller: str = "CallableEncoder"):
        if not callable(function):
            raise wrong_type(parameter, caller, "a callable items -> (n, d) array", function)
        if modality not in ("text", "image"):
            raise invalid("modality", caller, "'text' or 'image'", modality)
        self.function, self.name, self.modality = function, name, modality
        self.parameter, self.caller = parameter, caller

    def _store(self):
        return None  # never cached on disk (see the module docstring)

    def _encode(self, items: Sequence[Any]) -> np.ndarray:
        fix = "Return one row of numbers per item, e.g. model.encode(items)."
        try:
            out = self.function(list(items))
        except Exception as exc:
            raise invalid(self.parameter, self.caller,
                          "a callable that embeds a list of items",
                          f"{type(exc).__name__}: {exc}", fix + " The original error is "
                          "chained below.", given_is_text=True) from exc
        if hasattr(out, "detach"):
            out = out.detach().float().cpu().numpy()
        try:
            array = np.asarray(out, dtype=np.float64)
        except (TypeError, ValueError):
            raise invalid(self.parameter, self.caller, "a callable that returns numbers",
                          f"a {type(out).__name__}", fix, given_is_text=True) from None
        if array.ndim != 2 or array.shape[0] != len(items) or array.shape[1] == 0:
            raise invalid(self.parameter, self.caller,
                          f"a callable that returns a ({len(items)}, d) array for "
                          f"{len(items)} items", f"shape {array.shape}", fix,
                          given_is_text=True)
        return array

    def describe(self) -> dict[str, Any]:
        function = getattr(self.function, "__qualname__", type(self.function).__name__)
        return {**super().describe(), "function": function}


def _sentence_transformer(model: Any, label: str | None, modality: str, parameter: str,
                          caller: str) -> tuple[str, Encoder]:
    card = getattr(model, "model_card_data", None)
    base = getattr(card, "base_model", None) or getattr(card, "model_name", None)
    name = label or (str(base).rsplit("/", 1)[-1] if base else type(model).__name__)

    def encode(items: list) -> Any:
        return model.encode(items, convert_to_numpy=True, show_progress_bar=False)

    return name, CallableEncoder(encode, name=name, modality=modality, parameter=parameter,
                                 caller=caller)


def _open_clip(model: Any, preprocess: Callable, label: str | None, parameter: str,
               caller: str) -> tuple[str, Encoder]:
    name = label or "open_clip"

    def encode(images: list) -> Any:
        import torch
        from PIL import Image

        pil = [im if hasattr(im, "convert") else Image.fromarray(np.asarray(im)) for im in images]
        batch = torch.stack([preprocess(im.convert("RGB")) for im in pil])
        device = next(iter(model.parameters())).device if hasattr(model, "parameters") else None
        with torch.no_grad():
            return model.encode_image(batch.to(device) if device is not None else batch)

    return name, CallableEncoder(encode, name=name, modality="image", parameter=parameter,
                                 caller=caller)


def as_encoder(value: Any, *, label: str | None = None, modality: str = "text",
               parameter: str = "encoder", caller: str = "as_encoder") -> tuple[str, Encoder]:
    """``(label, Encoder)`` for anything that embeds.

    Args:
        value: a registry name (or a sentence-transformers hub id or local folder), an
            :class:`Encoder`, an object with ``encode(items)`` (a sentence-transformers
            model), a ``(model, preprocess)`` pair whose model has ``encode_image`` (open_clip),
            or a callable ``items -> (n, d) array``.
        label: the member's name (default: the name written, the Encoder's ``name``, the
            callable's ``__name__``).
        modality: the items' kind (for a callable).
        parameter: how errors name ``value``.
        caller: the public function errors name.

    Returns:
        The label and the encoder.

    Raises:
        TypeError: nothing that embeds, with the accepted forms.

    Example:
        >>> as_encoder("lexical")[0], as_encoder(lambda t: [[1.0]] * len(t))[0]
        ('lexical', 'lambda')
    """
    if isinstance(value, str):
        from privlab.encoders.lookup import get_encoder

        return label or value, get_encoder(value)
    if isinstance(value, Encoder):
        return label or value.name, value
    if isinstance(value, tuple) and len(value) == 2 and hasattr(value[0], "encode_image") \
            and callable(value[1]):
        return _open_clip(value[0], value[1], label, parameter, caller)
    if hasattr(value, "encode") and callable(value.encode) and not isinstance(value, type):
        return _sentence_transformer(value, label, modality, parameter, caller)
    if callable(value) and not isinstance(value, type):
        name = label or _label_of(value, type(value).__name__)
        return name, CallableEncoder(value, name=name, modality=modality, parameter=parameter,
                                     caller=caller)
    raise wrong_type(parameter, caller, "a registry name, an Encoder, a sentence-transformers "
                     "model, an open_clip (model, preprocess) pair or a callable items -> "
                     "array", value, "e.g. encoders=['minilm'] or encoders=[my_embed].")


def as_encoders(values: Any, *, modality: str = "text", parameter: str = "encoders",
                caller: str = "as_encoders") -> list[tuple[str, Encoder]]:
    """Several encoders with unique labels: a list of the forms :func:`as_encoder` takes,
    one of them alone, or a dict ``{label: encoder}``.

    Example:
        >>> [label for label, _ in as_encoders({"words": "lexical", "mine": "lexical"})]
        ['words', 'mine']
    """
    if isinstance(values, dict):
        pairs = list(values.items())
        if not pairs or any(not isinstance(k, str) or not k.strip() for k, _ in pairs):
            raise invalid(parameter, caller, "a non-empty dict keyed by member names",
                          values)
    else:
        single = isinstance(values, (str, Encoder)) or callable(values) or (
            isinstance(values, tuple) and len(values) == 2 and hasattr(values[0], "encode_image"))
        items = [values] if single else values
        if not isinstance(items, (list, tuple)) or not items:
            raise invalid(parameter, caller, "a non-empty list of encoders", values,
                          "e.g. encoders=['minilm'].")
        pairs = [(None, v) for v in items]
    out: list[tuple[str, Encoder]] = []
    for index, (label, value) in enumerate(pairs):
        where = f"{parameter}[{label!r}]" if label else f"{parameter}[{index}]"
        name, encoder = as_encoder(value, label=label, modality=modality, parameter=where,
                                   caller=caller)
        taken = {n for n, _ in out}
        unique, k = name, 2
        while unique in taken:
            unique, k = f"{name}-{k}", k + 1
        out.append((unique, encoder))
    return out


__all__ = ["CallableEncoder", "as_encoder", "as_encoders"]
