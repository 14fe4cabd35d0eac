"""Row magnitudes without overflow or underflow: exponents, exact power-of-two rescaling,
row norms.

Rows whose largest entry lies beyond ``2**±60`` are scaled by a power of two (exactly)
before anything squares or multiplies them; every other row is used as given.
"""

from __future__ import annotations

import numpy as np

from privlab.arrays import is_tensor

# Rows whose largest entry lies within 2**±60 are computed as given; beyond, they are
# scaled by a power of two (exactly) so that no product overflows or underflows.
_SAFE_EXPONENT = 60
_CHUNK_ROWS = 8192  # rows per pass when checking inputs, to keep memory O(block)


def _exponents(absmax: np.ndarray) -> np.ndarray:
    """Power-of-two exponents bringing extreme magnitudes near 1; 0 within 2**±60.

    ``absmax * 2**-e`` lies in [0.5, 1) wherever ``e`` is not 0; zero rows keep 0.
    """
    e = np.frexp(np.asarray(absmax, dtype=np.float64))[1].astype(np.int64)
    return np.where(np.abs(e) > _SAFE_EXPONENT, e, 0)


def times_pow2(array, exponents: np.ndarray):
    """float64 ``array * 2**exponents[:, None]`` (NumPy or torch, exact barring underflow)."""
    if is_tensor(array):
        import torch

        # Two factors, each a finite float64, whose product is the power of two.
        first = np.clip(exponents, -1000, 1000)
        out = array.double()
        for part in (first, exponents - first):
            out = out * torch.as_tensor(np.ldexp(1.0, part), device=out.device)[:, None]
        return out
    return np.ldexp(np.asarray(array, dtype=np.float64), exponents[:, None])


def row_stats(array) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row: the largest magnitude, its exponent (see :func:`_exponents`) and the norm
    of the row times ``2**-exponent``, so that no square overflows or underflows."""
    absmax, exps, norms = (np.empty(array.shape[0]), np.empty(array.shape[0], dtype=np.int64),
                           np.empty(array.shape[0]))
    for start in range(0, array.shape[0], _CHUNK_ROWS):
        chunk = array[start:start + _CHUNK_ROWS]
        stop = start + chunk.shape[0]
        if is_tensor(chunk):
            absmax[start:stop] = chunk.abs().amax(dim=1).double().cpu().numpy()
        else:
            absmax[start:stop] = np.abs(chunk).max(axis=1)
        e = exps[start:stop] = _exponents(absmax[start:stop])
        if e.any():
            chunk = times_pow2(chunk, -e)
        if is_tensor(chunk):
            import torch

            norms[start:stop] = torch.linalg.vector_norm(chunk.double(), dim=1).cpu().numpy()
        else:
            chunk = chunk.astype(np.float64, copy=False)
            norms[start:stop] = np.sqrt(np.einsum("ij,ij->i", chunk, chunk))
    return absmax, exps, norms


def row_norms(array) -> np.ndarray:
    """float64 row norms, computed a chunk of rows at a time."""
    _, exps, norms = row_stats(array)
    return np.ldexp(norms, exps)

