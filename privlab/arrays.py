"""One guard for every public entry point that takes an array of numbers.

NumPy silently turns masked, complex, ``np.matrix``, sparse or overlarge ``longdouble``
input into a wrong float array; :func:`check_array` refuses each where the data enter,
naming the parameter, the caller and the fix, and passes valid input unchanged.
:func:`check_flag` is the rule for on/off options. What is refused:
``docs/methods/kernel-input-checks.md``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from privlab.errors import invalid, wrong_type

# Rows per pass when scanning an array (finite check, longdouble range), to keep the
# extra memory to one chunk whatever the input's size.
CHUNK_ROWS = 8192
#: What a longdouble input must satisfy, and the fix, for every refusal of one.
FLOAT64_RANGE = "made of values float64 can hold (0 or 4.9e-324 <= |x| <= 1.8e308)"
FLOAT64_FIX = ("Rescale the values, or convert with x.astype(np.float64) once they fit; "
               "they would otherwise become inf or 0.")


def is_tensor(value: Any) -> bool:
    """Whether ``value`` is a torch tensor, without importing torch: a process that has
    not imported it holds none (a dask worker scoring NumPy tiles never loads it).

    Example:
        >>> is_tensor(np.zeros(2))
        False
    """
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def _module_root(value: Any) -> str:
    return type(value).__module__.split(".")[0]


def is_dask(value: Any) -> bool:
    """Whether ``value`` is a dask array (without importing dask).

    Example:
        >>> is_dask(np.zeros(2))
        False
    """
    return _module_root(value) == "dask"


def complex_refusal(parameter: str, caller: str, dtype: Any) -> Exception:
    """The refusal of complex input: embeddings and outputs have no imaginary part."""
    return invalid(parameter, caller, "real (embeddings have no imaginary part)",
                   f"complex dtype {dtype}",
                   "Pass the real part (x.real) or the magnitude (np.abs(x)) if that is what "
                   "you mean.", given_is_text=True)


def _kind_refusal(value: Any, parameter: str, caller: str) -> Exception | None:
    """The refusal of a container whose conversion would lose or change data, or None."""
    if isinstance(value, np.ma.MaskedArray):
        masked = int(np.ma.count_masked(value))
        return invalid(parameter, caller, "a plain array (a mask would be dropped silently)",
                       f"a masked array with {masked} masked entries",
                       "Fill the masked entries (x.filled(value)) or drop them "
                       "(x.compressed(), or the rows without a masked entry), then pass the "
                       "plain array.", given_is_text=True)
    if isinstance(value, np.matrix):
        return invalid(parameter, caller, "a plain NumPy array", "an np.matrix",
                       "Convert it with np.asarray(x) (np.matrix changes what * and "
                       "indexing mean).", given_is_text=True)
    if _module_root(value) == "scipy" and hasattr(value, "toarray"):
        return invalid(parameter, caller, "a dense array",
                       f"a SciPy sparse {type(value).__name__}",
                       "Densify it with x.toarray() (every entry is read).", given_is_text=True)
    if is_tensor(value):
        if value.is_meta:
            return invalid(parameter, caller, "a tensor holding values",
                           f"a meta tensor of shape {tuple(value.shape)} (it has none)",
                           "Compute or load the tensor on a real device ('cpu' or 'cuda') "
                           "first.", given_is_text=True)
        if value.layout != sys.modules["torch"].strided:
            return invalid(parameter, caller, "a dense tensor",
                           f"a tensor with layout {value.layout}",
                           "Densify it with x.to_dense().", given_is_text=True)
        if value.is_complex():
            return complex_refusal(parameter, caller, value.dtype)
    return None


def _numeric_dtype(array: np.ndarray, parameter: str, caller: str) -> np.ndarray:
    """``array`` if its dtype holds real numbers; object arrays of real numbers as float64."""
    kind = array.dtype.kind
    if kind in "fiub":
        return array
    if kind == "c":
        raise complex_refusal(parameter, caller, array.dtype)
    if kind == "O":
        real = (int, float, np.integer, np.floating, np.bool_)
        bad = [x for x in array.flat if not isinstance(x, real)][:1]
        if bad and isinstance(bad[0], (complex, np.complexfloating)):
            raise complex_refusal(parameter, caller, "(an object array holding complex "
                                  f"{bad[0]!r:.40})")
        if bad:
            raise invalid(parameter, caller, "a numeric array",
                          f"an object array holding {type(bad[0]).__name__} {bad[0]!r:.40}",
                          "Convert it with np.asarray(x, dtype=np.float32) first.",
                          given_is_text=True)
        wide = [x for x in array.flat if isinstance(x, np.floating) and x.dtype.itemsize > 8]
        if wide:
            _check_float64_range(np.array(wide), parameter, caller)
        return array.astype(np.float64)
    raise invalid(parameter, caller, "a numeric array", f"dtype {array.dtype}",
                  "Embeddings are float arrays; convert text, records or dates before "
                  "passing them.", given_is_text=True)


def beyond_float64(array: np.ndarray) -> str | None:
    """Where an extended-precision (``longdouble``) array holds a finite value that float64
    turns into inf or 0, described in words; None when every value fits.

    Example:
        >>> beyond_float64(np.array([1.0, 2.0], dtype=np.longdouble)) is None
        True
    """
    flat = array.reshape(-1)
    for start in range(0, flat.size, CHUNK_ROWS * 64):
        part = flat[start:start + CHUNK_ROWS * 64]
        with np.errstate(over="ignore", under="ignore"):
            as64 = part.astype(np.float64)
        bad = np.flatnonzero(np.isfinite(part) & (np.isinf(as64) | ((as64 == 0) & (part != 0))))
        if bad.size:
            where = start + int(bad[0])
            index = tuple(int(i) for i in np.unravel_index(where, array.shape))
            return f"{array.dtype} value {part[bad[0]]!r} at index {index}"
    return None


def _check_float64_range(array: np.ndarray, parameter: str, caller: str) -> None:
    """Refuse extended-precision entries that float64 turns into inf or 0."""
    where = beyond_float64(array)
    if where is not None:
        raise invalid(parameter, caller, FLOAT64_RANGE, where, FLOAT64_FIX, given_is_text=True)


def all_finite(array: Any) -> bool:
    """Whether every entry of a NumPy array or torch tensor is finite (a chunk of rows at
    a time, so the extra memory stays small)."""
    if array.ndim == 0:
        array = array.reshape(1)
    for start in range(0, array.shape[0], CHUNK_ROWS):
        chunk = array[start:start + CHUNK_ROWS]
        if is_tensor(chunk):
            ok = bool(sys.modules["torch"].isfinite(chunk).all())
        else:
            ok = bool(np.isfinite(chunk).all())
        if not ok:
            return False
    return True


def check_array(value: Any, parameter: str, caller: str, *, torch_ok: bool = False,
                dask_ok: bool = False, finite: bool = True,
                expected: str = "a NumPy array") -> Any:
    """``value`` as an array of real numbers, or a refusal naming ``parameter``.

    Args:
        value: a NumPy array, a list or tuple of numbers, a pandas object, a torch tensor
            (returned as a tensor when ``torch_ok``, else as a NumPy array) or a dask
            array (returned as is when ``dask_ok``; only its dtype and chunks are checked).
        parameter: the caller's parameter name, for the message.
        caller: the public function that was called.
        torch_ok: return torch tensors as they are instead of as NumPy arrays.
        dask_ok: accept dask arrays (they are not computed here).
        finite: refuse NaN and infinities (callers that check them later pass False).
        expected: what the parameter must be, for the message refusing another type.

    Returns:
        A plain ``np.ndarray`` whose dtype is float, int or bool (object arrays of real
        numbers become float64, ``longdouble`` becomes float64 once its values fit), or
        the tensor or dask array as allowed above. Shapes are not checked here.

    Raises:
        PrivlabValueError: masked arrays, ``np.matrix``, sparse matrices and tensors,
            meta tensors, complex, text, record, date or non-numeric object entries,
            ``longdouble`` values beyond float64, non-finite values, dask arrays with
            unknown chunks, ragged lists.
        PrivlabTypeError: None, strings and objects that are not arrays.

    Example:
        >>> check_array([[1, 2]], "x", "demo").dtype
        dtype('int64')
        >>> check_array(np.ma.masked_array([1.0, 2.0], mask=[0, 1]), "x", "demo")
        Traceback (most recent call last):
        ...
        privlab.errors.PrivlabValueError: The 'x' parameter of demo must be a plain array (a mask would be dropped silently). Got a masked array with 1 masked entries instead. Fill the masked entries (x.filled(value)) or drop them (x.compressed(), or the rows without a masked entry), then pass the plain array.
    """
    if value is None or isinstance(value, (str, bytes)):
        raise wrong_type(parameter, caller, expected, value)
    refusal = _kind_refusal(value, parameter, caller)
    if refusal is not None:
        raise refusal
    if is_dask(value):
        if not dask_ok:
            raise invalid(parameter, caller, expected, "a dask array",
                          "Compute it first (x.compute()), or use "
                          "privlab.scale.certified_resolution, which runs on dask.",
                          given_is_text=True)
        if any(np.isnan(c) for c in value.shape):
            raise invalid(parameter, caller, "a dask array of known shape",
                          f"shape {value.shape} (unknown chunk sizes)",
                          "Call x.compute_chunk_sizes() first (or build it with known "
                          "chunks).", given_is_text=True)
        if value.dtype.kind == "c":
            raise complex_refusal(parameter, caller, value.dtype)
        if value.dtype.kind not in "fiub":
            raise invalid(parameter, caller, "a real numeric array", f"dtype {value.dtype}",
                          given_is_text=True)
        if value.dtype.kind == "f" and value.dtype.itemsize > 8:
            raise invalid(parameter, caller, "a dask array of float64 or narrower",
                          f"dtype {value.dtype}",
                          "Convert it with x.astype(np.float64) once its values fit in "
                          "float64.", given_is_text=True)
        return value
    if is_tensor(value):
        tensor = value.detach()
        if finite and not all_finite(tensor):
            raise _non_finite(parameter, caller)
        if torch_ok:
            return tensor
        tensor = tensor.cpu()
        if tensor.dtype == sys.modules["torch"].bfloat16:
            tensor = tensor.float()
        return tensor.numpy()
    if isinstance(value, np.ndarray):
        array = np.asarray(value)  # subclasses that reach here (memmap ...) keep their data
    elif isinstance(value, (list, tuple)) or hasattr(value, "__array__"):
        try:
            array = np.asarray(value)
        except (TypeError, ValueError) as exc:
            raise invalid(parameter, caller, "a numeric array",
                          "a ragged or non-numeric list", given_is_text=True) from exc
    else:
        raise wrong_type(parameter, caller, expected, value)
    array = _numeric_dtype(array, parameter, caller)
    if array.dtype.kind == "f" and array.dtype.itemsize > 8:
        _check_float64_range(array, parameter, caller)
        array = array.astype(np.float64)
    if finite and not all_finite(array):
        raise _non_finite(parameter, caller)
    return array


def _non_finite(parameter: str, caller: str) -> Exception:
    return invalid(parameter, caller, "finite (no NaN or inf)", "non-finite entries",
                   "Drop or repair the affected rows (check the encoder's output).",
                   given_is_text=True)


def check_flag(value: Any, parameter: str, caller: str) -> bool:
    """An on/off option as a bool; strings such as ``'no'`` (which Python reads as true),
    numbers and None are refused.

    Example:
        >>> check_flag(np.bool_(True), "normalize", "demo")
        True
        >>> check_flag("no", "normalize", "demo")
        Traceback (most recent call last):
        ...
        privlab.errors.PrivlabTypeError: The 'normalize' parameter of demo must be True or False. Got str instead. A non-empty string such as 'no' counts as true; pass a bool.
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise wrong_type(parameter, caller, "True or False", value,
                     "A non-empty string such as 'no' counts as true; pass a bool."
                     if isinstance(value, str) else "Pass a bool.")


__all__ = ["CHUNK_ROWS", "FLOAT64_FIX", "FLOAT64_RANGE", "all_finite", "beyond_float64", "check_array", "check_flag", "complex_refusal",
           "is_dask", "is_tensor"]
