"""Numeric precision of a model encoder: weight dtype and bitsandbytes quantization.

``dtype`` (float32, float16, bfloat16) and ``quantization`` (none, 8bit, 4bit) let one GPU hold
the paper's large embedders; both change the numbers, so a non-default setting is part of the
encoder's name and cache key (:func:`precision_suffix`). See ``docs/methods/encoders-members.md``.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any

from privlab.errors import MissingDependencyError, invalid
from privlab.fixes import install_command

DTYPES = ("float32", "float16", "bfloat16")
QUANTIZATIONS = ("none", "8bit", "4bit")
_DTYPE_SPELLINGS = {"fp32": "float32", "float": "float32", "fp16": "float16", "half": "float16",
                    "bf16": "bfloat16"}
_QUANT_SPELLINGS = {None: "none", "8": "8bit", "int8": "8bit", "4": "4bit", "nf4": "4bit"}
#: The pip command named when bitsandbytes is missing.
BITSANDBYTES_INSTALL = install_command("bitsandbytes")


def check_dtype(value: Any, caller: str) -> str:
    """The canonical dtype name for ``value``.

    Example:
        >>> check_dtype("half", "demo"), check_dtype("bfloat16", "demo")
        ('float16', 'bfloat16')
    """
    name = _DTYPE_SPELLINGS.get(value, value) if isinstance(value, str) else value
    if name not in DTYPES:
        raise invalid("dtype", caller, f"one of {DTYPES}", value,
                      "float16/bfloat16 halve the memory; for less, use quantization='8bit' "
                      "or '4bit'.")
    return name


def check_quantization(value: Any, caller: str) -> str:
    """The canonical quantization name for ``value`` (None is ``"none"``).

    Example:
        >>> check_quantization(None, "demo"), check_quantization("4bit", "demo")
        ('none', '4bit')
    """
    name = _QUANT_SPELLINGS.get(value, value) if value is None or isinstance(value, str) \
        else value
    if name not in QUANTIZATIONS:
        raise invalid("quantization", caller, f"one of {QUANTIZATIONS}", value)
    return name


def torch_dtype(name: str):
    """The torch dtype of a canonical name (``"bfloat16"`` -> ``torch.bfloat16``)."""
    import torch

    return getattr(torch, name)


def precision_suffix(dtype: str, quantization: str) -> str:
    """What an encoder's name gains for a non-default precision (``""`` for the default).

    Example:
        >>> precision_suffix("float32", "none"), precision_suffix("bfloat16", "4bit")
        ('', '@bfloat16+4bit')
    """
    parts = [p for p, default in ((dtype, "float32"), (quantization, "none")) if p != default]
    return "@" + "+".join(parts) if parts else ""


def quantization_config(quantization: str, dtype: str, caller: str):
    """A ``transformers.BitsAndBytesConfig`` for ``"8bit"``/``"4bit"`` (None for ``"none"``).

    4-bit weights are NF4 and compute in ``dtype`` (float32 computes in bfloat16, as the
    authors' tools do).

    Raises:
        MissingDependencyError: bitsandbytes is not installed (the message names
            :data:`BITSANDBYTES_INSTALL`).

    Example:
        >>> quantization_config("none", "float32", "demo") is None
        True
    """
    quantization = check_quantization(quantization, caller)
    if quantization == "none":
        return None
    if find_spec("bitsandbytes") is None:
        raise MissingDependencyError(
            f"{caller}: quantization={quantization!r} needs bitsandbytes (and a GPU), which "
            f"is not installed. Install it with: {BITSANDBYTES_INSTALL} — or use "
            "quantization='none' with dtype='float16' or 'bfloat16'.")
    from transformers import BitsAndBytesConfig

    if quantization == "8bit":
        return BitsAndBytesConfig(load_in_8bit=True)
    compute = "bfloat16" if dtype == "float32" else dtype
    return BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4",
                              bnb_4bit_compute_dtype=torch_dtype(compute))


__all__ = ["BITSANDBYTES_INSTALL", "DTYPES", "QUANTIZATIONS", "check_dtype",
           "check_quantization", "precision_suffix", "quantization_config", "torch_dtype"]
