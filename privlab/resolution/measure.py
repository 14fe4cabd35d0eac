"""The measurements: :func:`resolution` (Algorithm 1), :func:`reference_directions`,
:func:`symmetric_resolution`, and :func:`brute_force_resolution`, the slow reference the
tests check the kernel against.
"""

from __future__ import annotations

import numpy as np

from privlab.arrays import check_flag
from privlab.errors import invalid
from privlab.resolution.inputs import (DEFAULT_BLOCK_SIZE, check_device, check_pair, check_top_k,
                                       check_unit, normalize_rows, parse_block, to_array)
from privlab.resolution.kernel import UNIT_ROUNDOFF, exact_kernel
from privlab.resolution.result import Resolution


def resolution(S, T, *, top_k: int = 5, normalize: bool = False, dtype: str = "float32",
               device: str | None = None, block_size: int | tuple[int, int] = DEFAULT_BLOCK_SIZE
               ) -> Resolution:
    """Exact contrastive-privacy resolution (Algorithm 1) with a decisive witness.

    Args:
        S: ``(m, d)`` unit rows ``E(X_c(x_i))``, the sanitized audited items. NumPy array
            or torch tensor (any device) of real numbers; float16 and bfloat16 rows may
            be off unit length by two of their machine epsilons.
        T: ``(n, d)`` rows ``E(y_j) - E(X_c(y_j))`` for the references, not normalised
            (see :func:`reference_directions`); any finite magnitude.
        top_k: how many of the largest trials to return in ``top`` (0 for none; more
            than ``m * n`` lists every trial).
        normalize: normalise the rows of S instead of refusing rows that are not unit.
        dtype: ``"float32"`` (default) or ``"float64"``, the precision of the screening
            pass. Reported values are float64 either way.
        device: ``"cpu"``, ``"cuda"`` or None for :func:`privlab.config.default_device`.
        block_size: rows of S and of T per block (an int for both, or a pair). The
            answer does not depend on it; memory and speed do.

    Returns:
        A :class:`Resolution`.

    Raises:
        ValueError: non-2-D, empty, non-finite, complex or non-numeric inputs, different
            ``d``, S rows that are not unit length (unless ``normalize=True``), a bad
            ``top_k``, ``dtype``, ``device`` or ``block_size`` (which must be positive).
        TypeError: inputs that are not arrays.

    Example:
        >>> import numpy as np
        >>> S = np.array([[1.0, 0.0], [0.0, 1.0]])
        >>> T = np.array([[0.5, -0.5], [-0.2, 0.1]])
        >>> res = resolution(S, T, top_k=2)
        >>> res.value, res.witness
        (0.5, (0, 0))
        >>> res.top
        [(0, 0, 0.5), (1, 1, 0.1)]
    """
    caller = "resolution"
    top_k = check_top_k(top_k, caller)
    if not isinstance(dtype, str) or dtype not in UNIT_ROUNDOFF:
        raise invalid("dtype", caller, "'float32' or 'float64'", dtype)
    device = check_device(device, caller)
    bm, bn = parse_block(block_size, caller)
    S, T, s_norm = check_pair(S, T, normalize, caller)
    return exact_kernel(S, T, s_norm, top_k=int(top_k), dtype=dtype, device=device,
                         bm=bm, bn=bn)



def reference_directions(E_ref, E_ref_sanitized, *, normalize: bool = False) -> np.ndarray:
    """Rows ``E(y_j) - E(X_c(y_j))``: what sanitizing removed from each reference.

    Args:
        E_ref: ``(n, d)`` unit embeddings of the original references.
        E_ref_sanitized: ``(n, d)`` unit embeddings of the sanitized references, row j
            the sanitized version of row j of ``E_ref``.
        normalize: normalise the rows of both inputs instead of refusing non-unit rows.

    Returns:
        ``(n, d)`` float array (not normalised). A zero row means the sanitizer left
        that reference unchanged for this encoder: it can never witness a violation.

    Raises:
        ValueError: mismatched shapes, non-2-D, empty or non-finite input, non-unit rows.

    Example:
        >>> import numpy as np
        >>> reference_directions(np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]]))
        array([[ 1., -1.]])
    """
    import torch

    caller = "reference_directions"
    normalize = check_flag(normalize, "normalize", caller)
    E_ref, ref_tolerance = to_array(E_ref, "E_ref", caller)
    E_san, san_tolerance = to_array(E_ref_sanitized, "E_ref_sanitized", caller)
    if tuple(E_ref.shape) != tuple(E_san.shape):
        raise invalid("E_ref_sanitized", caller, f"of the same shape as E_ref {tuple(E_ref.shape)}",
                      f"shape {tuple(E_san.shape)}",
                      "Row j must be the sanitized version of reference j.", given_is_text=True)
    if normalize:
        E_ref = normalize_rows(E_ref, "E_ref", caller)
        E_san = normalize_rows(E_san, "E_ref_sanitized", caller)
    else:
        check_unit(E_ref, "E_ref", caller, ref_tolerance)
        check_unit(E_san, "E_ref_sanitized", caller, san_tolerance)
    if isinstance(E_ref, torch.Tensor) or isinstance(E_san, torch.Tensor):
        return (torch.as_tensor(E_ref).double().cpu() - torch.as_tensor(E_san).double().cpu()).numpy()
    return np.asarray(E_ref, dtype=np.float64) - np.asarray(E_san, dtype=np.float64)


def symmetric_resolution(E, E_sanitized, **kwargs) -> Resolution:
    """The symmetric test: every item is both audited and reference.

    ``S = E_sanitized`` and ``T = E - E_sanitized``. Diagonal trials equal
    ``cos(E_sanitized_i, E_i) - 1 <= 0`` and so never raise the resolution.

    Args:
        E: ``(n, d)`` unit embeddings of the originals.
        E_sanitized: ``(n, d)`` unit embeddings of their sanitized versions.
        **kwargs: passed to :func:`resolution` (``top_k``, ``dtype``, ``device`` ...).

    Returns:
        A :class:`Resolution` with audited index i and reference index j over the same items.

    Example:
        >>> import numpy as np
        >>> E = np.eye(3)
        >>> symmetric_resolution(E, E).value   # nothing removed: nothing to detect
        0.0
    """
    T = reference_directions(E, E_sanitized, normalize=kwargs.get("normalize", False))
    return resolution(E_sanitized, T, **kwargs)


def brute_force_resolution(S, T, top_k: int = 5) -> tuple[float, tuple[int, int], list]:
    """A slow reference: every trial by a plain double loop in float64.

    Used by tests and benchmarks to check the kernel. Returns ``(a_max, witness, top)``
    with the same tie-breaking (smallest i, then j).

    Example:
        >>> brute_force_resolution([[1.0, 0.0]], [[0.3, 0.0], [0.3, 1.0]])
        (0.3, (0, 0), [(0, 0, 0.3), (0, 1, 0.3)])
    """
    from privlab.arrays import check_array

    if isinstance(top_k, bool) or not isinstance(top_k, (int, np.integer)) or top_k < 0:
        raise invalid("top_k", "brute_force_resolution", "an int >= 0", top_k)
    S = check_array(S, "S", "brute_force_resolution").astype(np.float64)
    T = check_array(T, "T", "brute_force_resolution").astype(np.float64)
    trials = []
    for i in range(S.shape[0]):
        for j in range(T.shape[0]):
            trials.append((-(float(np.sum(S[i] * T[j])) + 0.0), i, j))
    trials.sort()
    top = [(i, j, -v + 0.0) for v, i, j in trials[:max(top_k, 1)]]
    return top[0][2], (top[0][0], top[0][1]), top[:top_k]


