"""The exact kernel: blocked screening, then float64 rescoring of the candidates.

Each block only screens: it keeps every trial whose working-precision value is within a
rigorous rounding bound of the best value seen for its row or of the running k-th best
overall; the candidates are rescored at the end in float64, one pair at a time
(:func:`canonical_dots`), so the answer does not depend on the block size. The whole
argument: ``docs/methods/kernel.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from privlab.arrays import is_tensor
from privlab.resolution.magnitudes import _exponents, row_stats
from privlab.resolution.result import Resolution
from privlab.resolution.screening import (ScreeningPass, ScreeningTooCoarse, _exact_matmul,
                                          default_blocks)

UNIT_ROUNDOFF = {"float32": 2.0**-24, "float64": 2.0**-53}


def _as_numpy64_rows(array, index: np.ndarray) -> np.ndarray:
    """float64 copies of the selected rows, on the CPU, C-contiguous."""
    if is_tensor(array):
        import torch

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



def exact_kernel(S, T, s_norm: np.ndarray, *, top_k: int, dtype: str, device: str, bm: int,
                  bn: int, screen: ScreeningPass | None = None) -> Resolution:
    """The blocked screen and float64 rescore on validated rows (``s_norm``: S's row norms).

    :mod:`privlab.scale` calls it on tiles so its answers agree with
    :func:`privlab.resolution.resolution` bit for bit.
    """
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
    gamma_work = screen.relative if screen else _gamma(d + 2, UNIT_ROUNDOFF[dtype])
    gamma_64 = _gamma(d + 2, UNIT_ROUNDOFF["float64"])
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

    screening = default_blocks(device)
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
