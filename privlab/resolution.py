"""Algorithm 1 of contrastive privacy: the exact resolution and its decisive witness.

For audited items ``x_i`` and references ``y_j`` the trial ``(i, j)`` has the signed
difference

    a_ij = E(X_c(x_i)) . (E(y_j) - E(X_c(y_j)))  =  S_i . T_j

(cosine to the original reference minus cosine to the sanitized reference). The test
passes at resolution ``delta`` when every ``a_ij < delta``; the resolution reported is
``delta* = max(0, max_ij a_ij)`` and the trial attaining it is the decisive witness.

How the kernel stays exact without the ``m x n`` matrix
-------------------------------------------------------
The matrix is walked in blocks (``block_size`` rows of S by ``block_size`` rows of T) in
the working precision (float32 by default) on the chosen device. A matrix product's
rounding depends on the shapes it is called with, so a float32 value alone could make
the winner depend on the block size. Each block therefore only *screens*: it keeps every
trial whose float32 value is within a rigorous rounding bound of the best value seen
for its row or of the running k-th best overall, and those few candidates are rescored
at the end in float64, one pair at a time, by a routine that does not depend on blocks.
The reported values, witness, top-k and per-item maxima are the float64 values of
the winners, ties broken by the smallest audited index, then the smallest reference
index. Reference rows equal to zero (the sanitizer left that reference unchanged for
this encoder) give exactly 0 for every audited item and are handled analytically; only
exact zeros are: a row of tiny entries is scored like any other.

Magnitudes: when T's largest entry lies beyond ``2**±60``, the screening pass sees T
times a power of two that brings it near 1 (float32 would otherwise overflow or flush it
to zero), and the rescoring scales each such row by its own power of two and undoes it
exactly. The rounding bound also allows for underflow, so the answer stays exact for
rows of any finite magnitude. Half-precision inputs (float16, bfloat16) are widened
exactly to float32 for computing.

Memory is the inputs, one block and the candidate lists: ``O((m + n) d + block)``.
Inputs where very many trials tie within rounding (for example thousands of identical
reference rows) are still exact but rescore every tied trial.

Symmetric test
--------------
When the audited set is the reference set, ``S = E(X_c(x))`` and
``T = E(x) - E(X_c(x))``, the diagonal trial is ``cos(X_c(x), x) - 1 <= 0``. It is never
positive, so it cannot change the resolution (it may only be the maximum when every
trial is non-positive, and then the resolution is 0 either way).
:func:`symmetric_resolution` builds S and T for that case.

Internal API for :mod:`privlab.scale`
-------------------------------------
:mod:`privlab.scale` reaches the same answer with less work by calling the kernel's own
steps, so both agree bit for bit. These are public names (no leading underscore) for that
reason, but not part of ``privlab``'s facade:

* input checks: :func:`to_array` (an array and its unit-length tolerance),
  :func:`check_unit`, :func:`normalize_rows`, :func:`parse_block`, :func:`check_top_k`,
  :func:`check_device`;
* magnitudes: :func:`row_stats` (per-row largest entry, power-of-two exponent, rescaled
  rows), :func:`row_norms` (float64), :func:`times_pow2` (exact rescaling);
* scoring: :func:`canonical_dots` (the float64 values the kernel reports, independent of
  blocks), :func:`exact_kernel` (the blocked screen and rescore on given rows) and
  :class:`TorchBlocks` (the torch screening pass, which the other precisions extend).

Nothing outside :mod:`privlab.resolution` imports one of its underscored names
(``tests/test_layers.py`` checks it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.arrays import all_finite, check_array, check_flag
from privlab.errors import invalid

# Relative tolerance for "unit length" rows of S (averaged ensembles drift by ~1e-4;
# anything farther is not a normalised embedding).
UNIT_TOLERANCE = 1e-3
# Half-precision rows are allowed this many machine epsilons: normalising in float16 or
# bfloat16 drifts by up to ~0.75 eps, so a bfloat16 unit row can be 0.6% off length 1.
HALF_UNIT_EPS = 2.0
DEFAULT_BLOCK_SIZE = 2048
# Which library screens blocks on the CPU: NumPy's BLAS measured faster than torch's on
# the development machine; "torch" is the path CUDA takes, kept selectable for tests.
CPU_SCREENING = "numpy"
_UNIT_ROUNDOFF = {"float32": 2.0**-24, "float64": 2.0**-53}
# Rows whose largest entry lies within 2**±60 are computed as given; beyond, they are
# scaled by a power of two (exactly) so that no product overflows or underflows.
_SAFE_EXPONENT = 60


@dataclass(frozen=True)
class Resolution:
    """The outcome of the resolution test over every (audited, reference) trial.

    Attributes:
        value: the resolution ``delta* = max(0, max_difference)``. The strict test
            passes for every ``delta > value``; at ``value`` every trial satisfies the
            weak inequality. 0 means no violation was detected *for these audited
            items, these references and this encoder*; it is not unconditional privacy.
        max_difference: ``a_max``, the largest signed difference (may be negative).
        witness: ``(i, j)``, a decisive witness: audited item ``i`` against reference
            ``j`` attains ``max_difference``; ties go to the smallest i, then j.
        top: the ``top_k`` largest trials (all ``m * n`` if fewer) as
            ``(i, j, difference)``, descending.
        per_audited: ``(m,)`` float64, the largest signed difference of each audited
            item (flag or withhold items whose value is at or above a chosen delta).
        per_audited_reference: ``(m,)`` int64, the reference attaining each item's maximum.
        shape: ``(m, n, d)``.
        dtype: working precision of the screening pass (values are rescored in float64).
        device: where the screening pass ran.
        block_size: ``(rows of S, rows of T)`` per block.
        rescored: number of candidate trials rescored in float64 (a diagnostic).
    """

    value: float
    max_difference: float
    witness: tuple[int, int]
    top: list[tuple[int, int, float]]
    per_audited: np.ndarray = field(repr=False)
    per_audited_reference: np.ndarray = field(repr=False)
    shape: tuple[int, int, int]
    dtype: str
    device: str
    block_size: tuple[int, int]
    rescored: int = 0

    def passes(self, delta: float) -> bool:
        """Whether the strict test ``a_ij < delta`` holds for every trial."""
        return self.max_difference < delta

    def flagged(self, delta: float = 0.0) -> np.ndarray:
        """Indices of audited items with a positive violation at or above ``delta`` (to withhold).

        An item is flagged when one of its trials has a signed difference ``a_ij > 0``
        and ``a_ij >= delta``. A difference of exactly 0 is no violation: the sanitized
        item is then exactly as close to the reference as written as to the reference
        sanitized, so it is not closer to the removed concept (the violation is
        ``max(0, a_ij)``, and Algorithm 1's resolution 0 is its ideal). Such an item is
        never flagged, also at ``delta = 0``; a sanitizer that changes nothing gives all
        differences 0 and flags nothing. With the default ``delta = 0`` these are the
        items with a positive violation; at ``delta > 0``, those whose largest difference
        reaches ``delta`` (the strict test ``a_ij < delta`` fails for them).
        """
        return np.flatnonzero(self.per_audited >= delta) if delta > 0 else np.flatnonzero(
            self.per_audited > 0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (the command line prints this)."""
        return {
            "value": self.value,
            "max_difference": self.max_difference,
            "witness": list(self.witness),
            "top": [[i, j, v] for i, j, v in self.top],
            "per_audited": self.per_audited.tolist(),
            "per_audited_reference": self.per_audited_reference.tolist(),
            "shape": list(self.shape),
            "dtype": self.dtype,
            "device": self.device,
            "block_size": list(self.block_size),
            "rescored": self.rescored,
        }

    def to_frame(self):
        """The top trials as a DataFrame (columns audited, reference, difference)."""
        import pandas as pd

        return pd.DataFrame(self.top, columns=["audited", "reference", "difference"])

    def _repr_html_(self) -> str:
        m, n, d = self.shape
        verdict = ("no violation detected" if self.max_difference <= 0
                   else f"violation: passes only for delta &gt; {self.value:.4f}")
        rows = "".join(f"<tr><td>{i}</td><td>{j}</td><td>{v:+.4f}</td></tr>" for i, j, v in self.top)
        return (f"<div><b>Resolution {self.value:.4f}</b> ({verdict}); "
                f"decisive witness: audited {self.witness[0]} vs reference {self.witness[1]}; "
                f"{m} audited x {n} references, d={d}, {self.dtype} on {self.device}."
                f"<table><tr><th>audited</th><th>reference</th><th>difference</th></tr>"
                f"{rows}</table></div>")


def to_array(value: Any, parameter: str, caller: str):
    """Validate ``value``; return a 2-D real float array (numpy or torch) and the
    tolerance its rows get when checked for unit length.

    The kinds of input that would lose data on conversion (masked, complex, sparse,
    meta, longdouble beyond float64 ...) are refused by :func:`privlab.arrays.check_array`.
    float16 and bfloat16 are widened to float32 (exactly) for computing; their
    tolerance fits their own precision.
    """
    import torch

    tolerance = UNIT_TOLERANCE
    array = check_array(value, parameter, caller, torch_ok=True, finite=False,
                        expected="a NumPy array or torch tensor of shape (rows, d)")
    if isinstance(array, torch.Tensor):
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
    if not _all_finite(array):
        raise invalid(parameter, caller, "finite (no NaN or inf)", "non-finite entries",
                      "Check the encoder's output for the affected rows.", given_is_text=True)
    return array, tolerance


_CHUNK_ROWS = 8192  # rows per pass when checking inputs, to keep memory O(block)


def _exponents(absmax: np.ndarray) -> np.ndarray:
    """Power-of-two exponents bringing extreme magnitudes near 1; 0 within 2**±60.

    ``absmax * 2**-e`` lies in [0.5, 1) wherever ``e`` is not 0; zero rows keep 0.
    """
    e = np.frexp(np.asarray(absmax, dtype=np.float64))[1].astype(np.int64)
    return np.where(np.abs(e) > _SAFE_EXPONENT, e, 0)


def times_pow2(array, exponents: np.ndarray):
    """float64 ``array * 2**exponents[:, None]`` (NumPy or torch, exact barring underflow)."""
    import torch

    if isinstance(array, torch.Tensor):
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
    import torch

    absmax, exps, norms = (np.empty(array.shape[0]), np.empty(array.shape[0], dtype=np.int64),
                           np.empty(array.shape[0]))
    for start in range(0, array.shape[0], _CHUNK_ROWS):
        chunk = array[start:start + _CHUNK_ROWS]
        stop = start + chunk.shape[0]
        if isinstance(chunk, torch.Tensor):
            absmax[start:stop] = chunk.abs().amax(dim=1).double().cpu().numpy()
        else:
            absmax[start:stop] = np.abs(chunk).max(axis=1)
        e = exps[start:stop] = _exponents(absmax[start:stop])
        if e.any():
            chunk = times_pow2(chunk, -e)
        if isinstance(chunk, torch.Tensor):
            norms[start:stop] = torch.linalg.vector_norm(chunk.double(), dim=1).cpu().numpy()
        else:
            chunk = chunk.astype(np.float64, copy=False)
            norms[start:stop] = np.sqrt(np.einsum("ij,ij->i", chunk, chunk))
    return absmax, exps, norms


def row_norms(array) -> np.ndarray:
    """float64 row norms, computed a chunk of rows at a time."""
    _, exps, norms = row_stats(array)
    return np.ldexp(norms, exps)


def _all_finite(array) -> bool:
    return all_finite(array)


def normalize_rows(array, parameter: str, caller: str):
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


def check_unit(array, parameter: str, caller: str, tolerance: float = UNIT_TOLERANCE
                ) -> np.ndarray:
    """Refuse rows that are not unit length; returns the row norms."""
    norms = row_norms(array)
    bad = np.flatnonzero(np.abs(norms - 1.0) > tolerance)
    if bad.size:
        raise invalid(parameter, caller, "made of unit-length rows (normalised embeddings)",
                      f"{bad.size} rows with other lengths, e.g. row {bad[0]} has length "
                      f"{norms[bad[0]]:.6g}", "Pass normalize=True to normalise them.",
                      given_is_text=True)
    return norms


def _as_numpy64_rows(array, index: np.ndarray) -> np.ndarray:
    """float64 copies of the selected rows, on the CPU, C-contiguous."""
    import torch

    if isinstance(array, torch.Tensor):
        idx = torch.as_tensor(index, device=array.device, dtype=torch.long)
        return np.ascontiguousarray(array.index_select(0, idx).to("cpu", torch.float64).numpy())
    return np.ascontiguousarray(np.asarray(array)[index], dtype=np.float64)


def canonical_dots(S, T, rows: np.ndarray, cols: np.ndarray, t_exps: np.ndarray,
                    chunk: int = 4096) -> np.ndarray:
    """float64 ``S[rows[k]] . T[cols[k]]``, computed pair by pair.

    Each value comes from the same elementwise product and pairwise sum whatever the
    other pairs are, so it does not depend on how trials were batched. A row of T with
    a non-zero exponent in ``t_exps`` is scaled by ``2**-exponent`` first and the sum
    scaled back, which changes nothing but the underflow or overflow it avoids.
    """
    out = np.empty(rows.size, dtype=np.float64)
    for start in range(0, rows.size, chunk):
        r = rows[start:start + chunk]
        c = cols[start:start + chunk]
        s, t, e = _as_numpy64_rows(S, r), _as_numpy64_rows(T, c), t_exps[c]
        if e.any():
            out[start:start + chunk] = np.ldexp(np.sum(s * np.ldexp(t, -e[:, None]), axis=1), e)
        else:
            out[start:start + chunk] = np.sum(s * t, axis=1)
    return out + 0.0  # turns -0.0 into 0.0


def parse_block(block_size: Any, caller: str) -> tuple[int, int]:
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
    if not isinstance(dtype, str) or dtype not in _UNIT_ROUNDOFF:
        raise invalid("dtype", caller, "'float32' or 'float64'", dtype)
    device = check_device(device, caller)
    bm, bn = parse_block(block_size, caller)
    normalize = check_flag(normalize, "normalize", caller)
    S, s_tolerance = to_array(S, "S", caller)
    T, _ = to_array(T, "T", caller)
    if S.shape[1] != T.shape[1]:
        raise invalid("T", caller, f"of the same dimension d as S (d={S.shape[1]})",
                      f"d={T.shape[1]}", "Encode audited items and references with the same encoder.",
                      given_is_text=True)
    if normalize:
        S = normalize_rows(S, "S", caller)
        s_norm = row_norms(S)
    else:
        s_norm = check_unit(S, "S", caller, s_tolerance)
    return exact_kernel(S, T, s_norm, top_k=int(top_k), dtype=dtype, device=device,
                         bm=bm, bn=bn)


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


@dataclass(frozen=True)
class ScreeningPass:
    """A screening precision beyond float32 / float64, plugged into the exact kernel.

    The kernel keeps every trial whose screened value lies within ``relative * ||s|| *
    ||t||`` (plus its own float64 and underflow terms) of the bounds it holds, and
    rescores those in float64, so the answer stays exact whenever ``relative`` truly
    bounds the screening pass's error (:mod:`privlab.scale.precision` derives it).

    Attributes:
        name: the precision, reported as :attr:`Resolution.dtype` (e.g. ``"bfloat16"``).
        relative: upper bound of ``|screened(s . t) - s . t| / (||s|| ||t||)``.
        tiny: the absolute error one underflowing operation may add.
        blocks: the screening backend (the interface of the kernel's torch backend).
        max_candidates: raise :class:`ScreeningTooCoarse` once more trials than this
            would need rescoring (None: no limit).
    """

    name: str
    relative: float
    tiny: float
    blocks: type
    max_candidates: int | None = None


class ScreeningTooCoarse(RuntimeError):
    """A :class:`ScreeningPass` kept more candidates than its ``max_candidates``."""


def exact_kernel(S, T, s_norm: np.ndarray, *, top_k: int, dtype: str, device: str, bm: int,
                  bn: int, screen: ScreeningPass | None = None) -> Resolution:
    m, d = S.shape
    n = T.shape[0]
    top_k = min(top_k, m * n)  # there are only m * n trials to list
    k = max(top_k, 1)
    t_absmax, t_exps, t_scaled_norm = row_stats(T)
    # Screening, bounds and pruning work on T * 2**-shift (its largest entry near 1 when
    # T is extreme); reported values stay in T's own units.
    shift = int(_exponents(t_absmax.max()))
    t_norm = np.ldexp(t_scaled_norm, t_exps - shift)
    s_max = float(s_norm.max())
    # Forward error bound of any summation order, plus the float64 rescoring's own:
    # |fl(s.t) - s.t| <= gamma_(d+2) ||s|| ||t||  (inputs rounded to the working dtype),
    # plus, for underflow (or flush-to-zero), the working dtype's smallest normal number
    # per input rounding, product and sum: at most 4 (d + 2) tiny max(1, ||s||).
    gamma_work = screen.relative if screen else _gamma(d + 2, _UNIT_ROUNDOFF[dtype])
    gamma_64 = _gamma(d + 2, _UNIT_ROUNDOFF["float64"])
    tiny = screen.tiny if screen else float(np.finfo(dtype).tiny)
    underflow = 4 * (d + 2) * tiny * max(1.0, s_max)
    tolerance = (gamma_work + gamma_64) * s_max * t_norm + underflow  # (n,)
    zero_cols = np.flatnonzero(t_absmax == 0)  # exact zeros only
    live_cols = np.flatnonzero(t_absmax > 0)

    pending_rows: list[np.ndarray] = []  # candidates found by screening, not yet rescored
    pending_cols: list[np.ndarray] = []
    kept = _Candidates.empty()  # rescored candidates that may still matter
    row_bound = np.full(m, -np.inf)  # a proven lower bound of each row's maximum
    kth_bounds = np.full(k, -np.inf)  # lower bounds of k distinct trials, descending
    pending = 0
    rescored = 0

    screening = _NumpyBlocks if device == "cpu" and CPU_SCREENING == "numpy" else TorchBlocks
    if screen:
        screening = screen.blocks
    backend = screening(S, T, live_cols, dtype, device, shift)
    tol_live = tolerance[live_cols]
    with _exact_matmul(device):
        for j0 in range(0, live_cols.size, bn):
            j1 = min(j0 + bn, live_cols.size)
            tol_block = float(tol_live[j0:j1].max())
            for i0 in range(0, m, bm):
                i1 = min(i0 + bm, m)
                P = backend.product(i0, i1, j0, j1)
                lower = backend.row_max(P) - tol_block
                np.maximum(row_bound[i0:i1], lower, out=row_bound[i0:i1])
                kth_bounds = _merge_bounds(kth_bounds, lower, k)
                # Keep every trial whose value may reach its row's maximum or the top k.
                threshold = _round_down(
                    np.minimum(row_bound[i0:i1], kth_bounds[-1]) - tol_block, dtype)
                hit = backend.at_least(P, threshold)
                if hit.size:
                    pending_rows.append(hit // (j1 - j0) + i0)
                    pending_cols.append(live_cols[hit % (j1 - j0) + j0])
                    pending += hit.size
                    if screen and screen.max_candidates is not None and \
                            rescored + pending > screen.max_candidates:
                        raise ScreeningTooCoarse(f"{screen.name} screening kept more than "
                                                 f"{screen.max_candidates} candidates")
                if pending > 4 * (m + k) + 65536:  # keep the lists short on long runs
                    kept, count = kept.absorb(pending_rows, pending_cols, S, T, t_exps)
                    kept = kept.prune(row_bound, kth_bounds[-1], tolerance, shift)
                    rescored += count
                    pending_rows, pending_cols, pending = [], [], 0

    kept, count = kept.absorb(pending_rows, pending_cols, S, T, t_exps)
    rescored += count
    rows, cols, values = kept.rows, kept.cols, kept.values
    if zero_cols.size:
        # Every audited item scores exactly 0 against an unchanged reference.
        zr, zc = _first_lexicographic(m, zero_cols, k)
        rows = np.concatenate([rows, np.arange(m), zr])
        cols = np.concatenate([cols, np.full(m, int(zero_cols[0])), zc])
        values = np.concatenate([values, np.zeros(m), np.zeros(zr.size)])

    # Order all kept trials by (-value, i, j); the first per row is that row's maximum.
    order = np.lexsort((cols, rows, -values))
    rows, cols, values = rows[order], cols[order], values[order]
    per_audited = np.full(m, -np.inf)
    per_reference = np.full(m, -1, dtype=np.int64)
    by_row = np.lexsort((cols, -values, rows))
    first = np.ones(by_row.size, dtype=bool)
    first[1:] = rows[by_row][1:] != rows[by_row][:-1]
    best = by_row[first]
    per_audited[rows[best]] = values[best]
    per_reference[rows[best]] = cols[best]
    # Deduplicate (a trial can be kept twice: as a candidate and as a zero column).
    seen: set[tuple[int, int]] = set()
    top: list[tuple[int, int, float]] = []
    for i, j, v in zip(rows.tolist(), cols.tolist(), values.tolist()):
        if (i, j) not in seen:
            seen.add((i, j))
            top.append((i, j, float(v)))
            if len(top) == k:
                break
    a_max = top[0][2]
    return Resolution(
        value=max(0.0, a_max), max_difference=a_max, witness=(top[0][0], top[0][1]),
        top=top[:top_k], per_audited=per_audited, per_audited_reference=per_reference,
        shape=(m, n, d), dtype=screen.name if screen else dtype, device=device,
        block_size=(bm, bn), rescored=rescored)


def _round_down(values: np.ndarray, dtype: str) -> np.ndarray:
    """Thresholds in the working dtype, never rounded above their float64 value."""
    cast = values.astype(dtype)
    return np.where(cast > values, np.nextafter(cast, np.array(-np.inf, dtype=dtype)), cast)


def _gamma(count: int, unit: float) -> float:
    return count * unit / (1.0 - count * unit)


def _merge_bounds(current: np.ndarray, new: np.ndarray, k: int) -> np.ndarray:
    """The k largest of two sets of lower bounds (each from a distinct trial)."""
    if new.size > k:
        new = np.partition(new, new.size - k)[new.size - k:]
    merged = np.concatenate([current, new])
    return np.sort(merged)[::-1][:k]


@dataclass(frozen=True)
class _Candidates:
    """Trials rescored in float64 that may still be a row maximum or in the top k."""

    rows: np.ndarray
    cols: np.ndarray
    values: np.ndarray

    @staticmethod
    def empty() -> "_Candidates":
        none = np.empty(0, dtype=np.int64)
        return _Candidates(none, none, np.empty(0))

    def absorb(self, rows: list, cols: list, S, T, t_exps: np.ndarray
               ) -> tuple["_Candidates", int]:
        """Rescore new candidates and add them; returns (candidates, number rescored)."""
        if not rows:
            return self, 0
        r = np.concatenate(rows)
        c = np.concatenate(cols)
        v = canonical_dots(S, T, r, c, t_exps)
        return _Candidates(np.concatenate([self.rows, r]), np.concatenate([self.cols, c]),
                           np.concatenate([self.values, v])), int(r.size)

    def prune(self, row_bound: np.ndarray, kth_bound: float, tolerance: np.ndarray,
              shift: int) -> "_Candidates":
        """Drop trials whose value is below both their row's bound and the k-th bound
        (bounds and tolerance are in units of ``2**shift``)."""
        scaled = np.ldexp(self.values, -shift)
        keep = scaled + tolerance[self.cols] >= np.minimum(row_bound[self.rows], kth_bound)
        return _Candidates(self.rows[keep], self.cols[keep], self.values[keep])


def _first_lexicographic(m: int, zero_cols: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The first k trials (i, j) in lexicographic order among the zero columns."""
    count = min(k, m * zero_cols.size)
    flat = np.arange(count)
    return flat // zero_cols.size, zero_cols[flat % zero_cols.size]


class _NumpyBlocks:
    """Screening on the CPU with NumPy's BLAS (faster than torch's here, and zero-copy
    for float32 NumPy inputs)."""

    def __init__(self, S, T, live_cols: np.ndarray, dtype: str, device: str, shift: int):
        import torch

        def host(array):
            if isinstance(array, torch.Tensor):
                array = array.detach().cpu().numpy()
            return np.asarray(array, dtype=dtype)

        self.S = host(S)
        if shift:  # an extreme T: screen a scaled copy, T * 2**-shift
            T = T.detach().cpu().numpy() if isinstance(T, torch.Tensor) else np.asarray(T)
            self.Tt = times_pow2(T[live_cols], np.full(live_cols.size, -shift)).astype(dtype).T
            return
        T = host(T)
        self.Tt = (T if live_cols.size == T.shape[0] else T[live_cols]).T  # a view: no copy

    def product(self, i0: int, i1: int, j0: int, j1: int) -> np.ndarray:
        return self.S[i0:i1] @ self.Tt[:, j0:j1]

    def row_max(self, P: np.ndarray) -> np.ndarray:
        # Each row's largest and second-largest entries: most rows then need no scan.
        rows = np.arange(P.shape[0])
        self._argmax = P.argmax(axis=1)
        largest = P[rows, self._argmax]
        P[rows, self._argmax] = -np.inf
        self._second = P.max(axis=1)
        P[rows, self._argmax] = largest
        return largest.astype(np.float64)

    def at_least(self, P: np.ndarray, threshold: np.ndarray) -> np.ndarray:
        """Flat indices of entries >= their row's threshold (after :meth:`row_max`)."""
        width = P.shape[1]
        largest_only = np.flatnonzero((P[np.arange(P.shape[0]), self._argmax] >= threshold)
                                      & (self._second < threshold))
        hits = [largest_only * width + self._argmax[largest_only]]
        several = np.flatnonzero(self._second >= threshold)
        if several.size:
            sub = np.flatnonzero(P[several] >= threshold[several, None])
            hits.append(several[sub // width] * width + sub % width)
        return np.sort(np.concatenate(hits))


class TorchBlocks:
    """Screening with torch on a CUDA device."""

    def __init__(self, S, T, live_cols: np.ndarray, dtype: str, device: str, shift: int):
        import torch

        torch_dtype = torch.float32 if dtype == "float32" else torch.float64
        self.S = torch.as_tensor(S).to(device=device, dtype=torch_dtype)
        T = torch.as_tensor(T)
        if live_cols.size != T.shape[0]:
            T = T.index_select(0, torch.as_tensor(live_cols, device=T.device))
        if shift:  # an extreme T: screen T * 2**-shift
            T = times_pow2(T, np.full(T.shape[0], -shift))
        self.T = T.to(device=device, dtype=torch_dtype)

    def product(self, i0: int, i1: int, j0: int, j1: int):
        return self.S[i0:i1] @ self.T[j0:j1].T

    @staticmethod
    def row_max(P) -> np.ndarray:
        return P.amax(dim=1).double().cpu().numpy()

    @staticmethod
    def at_least(P, threshold: np.ndarray) -> np.ndarray:
        import torch

        mask = P >= torch.as_tensor(threshold, device=P.device)[:, None]
        return torch.nonzero(mask.view(-1)).squeeze(1).cpu().numpy()


class _exact_matmul:
    """Context that forbids reduced-precision (TF32) float32 products on CUDA.

    The rounding bound used to screen trials assumes IEEE float32 products.
    """

    def __init__(self, device: str):
        self.cuda = str(device).startswith("cuda")

    def __enter__(self):
        if self.cuda:
            import torch

            self.saved = torch.backends.cuda.matmul.allow_tf32
            torch.backends.cuda.matmul.allow_tf32 = False
        return self

    def __exit__(self, *exc):
        if self.cuda:
            import torch

            torch.backends.cuda.matmul.allow_tf32 = self.saved
        return False


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


__all__ = ["Resolution", "resolution", "reference_directions", "symmetric_resolution",
           "brute_force_resolution"]
