"""Reading the kernel's inputs: arrays and their unit-length tolerance, normalisation,
and the one rule for each of ``top_k``, ``block_size`` and ``device``.

Every check names the parameter and the caller (:func:`privlab.errors.invalid`), so the
command line, the studies and :mod:`privlab.scale` refuse bad input in the same words.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from privlab.arrays import all_finite, check_array, check_flag, is_tensor
from privlab.errors import invalid
from privlab.resolution.magnitudes import row_norms

# Relative tolerance for "unit length" rows of S (averaged ensembles drift by ~1e-4;
# anything farther is not a normalised embedding).
UNIT_TOLERANCE = 1e-3
# Half-precision rows are allowed this many machine epsilons: normalising in float16 or
# bfloat16 drifts by up to ~0.75 eps, so a bfloat16 unit row can be 0.6% off length 1.
HALF_UNIT_EPS = 2.0
DEFAULT_BLOCK_SIZE = 2048


def to_array(value: Any, parameter: str, caller: str):
    """Validate ``value``; return a 2-D real float array (numpy or torch) and the
    tolerance its rows get when checked for unit length.

    The kinds of input that would lose data on conversion (masked, complex, sparse,
    meta, longdouble beyond float64 ...) are refused by :func:`privlab.arrays.check_array`.
    float16 and bfloat16 are widened to float32 (exactly) for computing; their
    tolerance fits their own precision.
    """
    tolerance = UNIT_TOLERANCE
    array = check_array(value, parameter, caller, torch_ok=True, finite=False,
                        expected="a NumPy array or torch tensor of shape (rows, d)")
    if is_tensor(array):
        import torch

        if array.dtype in (torch.float16, torch.bfloat16):
            tolerance = max(UNIT_TOLERANCE, HALF_UNIT_EPS * torch.finfo(array.dtype).eps)
            array = array.float()
        elif not array.is_floating_point():
            array = array.double()
    else:
        if array.dtype.kind in "iub":
            array = array.astype(np.float64)
        elif array.dtype == np.float16:
            tolerance = max(UNIT_TOLERANCE, HALF_UNIT_EPS * float(np.finfo(np.float16).eps))
            array = array.astype(np.float32)
    if array.ndim != 2:
        raise invalid(parameter, caller, "2-D with shape (rows, d)",
                      f"an array with shape {tuple(array.shape)}", "Stack one embedding per row.",
                      given_is_text=True)
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise invalid(parameter, caller, "non-empty (at least one row and one column)",
                      f"shape {tuple(array.shape)}", given_is_text=True)
    if not all_finite(array):
        raise invalid(parameter, caller, "finite (no NaN or inf)", "non-finite entries",
                      "Check the encoder's output for the affected rows.", given_is_text=True)
    return array, tolerance



def normalize_rows(array, parameter: str, caller: str):
    """Rows divided by their float64 norms (refusing zero rows), in the input's own type."""
    norms = row_norms(array)
    zero = np.flatnonzero(norms == 0)
    if zero.size:
        raise invalid(parameter, caller, "made of rows that can be normalised",
                      f"zero rows at {zero[:5].tolist()}", given_is_text=True)
    import torch

    if isinstance(array, torch.Tensor):
        info = torch.finfo(array.dtype)
        if np.all((norms >= info.tiny) & (norms <= info.max)):
            return array / torch.as_tensor(norms, dtype=array.dtype, device=array.device)[:, None]
        # Norms the tensor's dtype cannot hold: divide in float64, round once.
        return (array.double() / torch.as_tensor(norms, device=array.device)[:, None]).to(
            array.dtype)
    return array / norms[:, None]


def check_unit(array, parameter: str, caller: str, tolerance: float = UNIT_TOLERANCE, *,
               norms: np.ndarray | None = None) -> np.ndarray:
    """Refuse rows that are not unit length; returns the row norms (``norms``, when given,
    are those of ``array``, computed elsewhere)."""
    norms = row_norms(array) if norms is None else norms
    bad = np.flatnonzero(np.abs(norms - 1.0) > tolerance)
    if bad.size:
        raise invalid(parameter, caller, "made of unit-length rows (normalised embeddings)",
                      f"{bad.size} rows with other lengths, e.g. row {bad[0]} has length "
                      f"{norms[bad[0]]:.6g}", "Pass normalize=True to normalise them.",
                      given_is_text=True)
    return norms



def check_pair(S, T, normalize: Any, caller: str):
    """``S`` and ``T`` checked as every exact measurement checks them, with S's row norms.

    The ``normalize`` flag is read first, then S and T (:func:`to_array`), their common
    dimension, and S's rows (normalised, or refused unless of unit length).

    Returns:
        ``(S, T, s_norm)``: S normalised when asked, T as given, S's float64 row norms.

    Raises:
        PrivlabValueError: naming the refused parameter and ``caller``.

    Example:
        >>> S, T, s_norm = check_pair([[3.0, 4.0]], [[1.0, 0.0]], True, "demo")
        >>> S.tolist(), s_norm.tolist()
        ([[0.6, 0.8]], [1.0])
    """
    normalize = check_flag(normalize, "normalize", caller)
    S, s_tolerance = to_array(S, "S", caller)
    T, _ = to_array(T, "T", caller)
    if S.shape[1] != T.shape[1]:
        raise invalid("T", caller, f"of the same dimension d as S (d={S.shape[1]})",
                      f"d={T.shape[1]}", "Encode audited items and references with the same "
                      "encoder.", given_is_text=True)
    if normalize:
        S = normalize_rows(S, "S", caller)
        return S, T, row_norms(S)
    return S, T, check_unit(S, "S", caller, s_tolerance)


def parse_block(block_size: Any, caller: str) -> tuple[int, int]:
    """``block_size`` (an int or a pair of positive ints) as ``(rows of S, rows of T)``."""
    if isinstance(block_size, (int, np.integer)) and not isinstance(block_size, bool):
        pair = (int(block_size), int(block_size))
    elif isinstance(block_size, (tuple, list)) and len(block_size) == 2 and all(
            isinstance(b, (int, np.integer)) and not isinstance(b, bool) for b in block_size):
        pair = (int(block_size[0]), int(block_size[1]))
    else:
        raise invalid("block_size", caller, "a positive int or a pair of positive ints",
                      block_size)
    if min(pair) < 1:
        raise invalid("block_size", caller, "positive", block_size)
    return pair


def check_top_k(top_k: Any, caller: str, minimum: int = 0) -> int:
    """The one ``top_k`` rule: an int of at least ``minimum`` (0 for the kernel).

    The kernel accepts 0 (no top list, the decisive witness is still returned); an audit
    that reports witnesses asks for at least 1.

    Raises:
        PrivlabValueError: naming ``top_k`` and ``caller``.

    Example:
        >>> check_top_k(3, "resolution")
        3
        >>> check_top_k(0, "audit", minimum=1)
        Traceback (most recent call last):
        ...
        privlab.errors.PrivlabValueError: The 'top_k' parameter of audit must be an int >= 1. Got 0 instead.
    """
    if not isinstance(top_k, (int, np.integer)) or isinstance(top_k, bool) or top_k < minimum:
        raise invalid("top_k", caller, f"an int >= {minimum}", top_k)
    return int(top_k)



def check_device(device: Any, caller: str) -> str:
    """The one ``device`` rule: ``"cpu"``, ``"cuda"`` or ``"cuda:N"`` that torch can see;
    None means :func:`privlab.config.default_device`.

    Raises:
        PrivlabValueError: naming ``device`` and ``caller``, with the fix.

    Example:
        >>> check_device("cpu", "resolution")
        'cpu'
    """
    import torch

    from privlab.config import default_device

    if device is None or (isinstance(device, str) and not device):
        device = default_device()
    elif isinstance(device, torch.device):
        device = str(device)
    elif not isinstance(device, str):  # 0 or False would otherwise mean the default
        raise invalid("device", caller, "'cpu', 'cuda' or 'cuda:N'", device,
                      "Name the device as text, e.g. device='cuda:0'.")
    device = str(device)
    if not re.fullmatch(r"cpu|cuda(:[0-9]+)?", device):
        raise invalid("device", caller, "'cpu', 'cuda' or 'cuda:N'", device)
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise invalid("device", caller, "a device torch can see", device,
                      "No CUDA device is available here: use device='cpu'.")
    if device.startswith("cuda:") and int(device[5:]) >= torch.cuda.device_count():
        raise invalid("device", caller, "a device torch can see", device,
                      f"This machine has {torch.cuda.device_count()} CUDA device(s).")
    return device

