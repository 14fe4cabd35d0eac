"""Tiles: the exact kernel on a subset of trials, and the merge of their results.

A tile's trials are scored by :func:`privlab.resolution.exact_kernel` itself, and
:func:`merge` combines tiles with the kernel's tie rule in any order and grouping, so
tiles assemble to the plain kernel's result. Why: ``docs/methods/scale-internals.md``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from privlab.resolution.kernel import exact_kernel
from privlab.resolution.screening import ScreeningPass, ScreeningTooCoarse
from privlab.scale.precision import candidate_budget


@dataclass(frozen=True)
class Partial:
    """Exact results of the trials of some tiles, in original indices.

    Attributes:
        rows: ``(r,)`` int64 audited indices covered, increasing.
        best: ``(r,)`` float64, each row's largest value over the tiles' trials.
        best_ref: ``(r,)`` int64, the smallest reference index attaining it.
        top: up to ``k`` trials ``(i, j, value)`` in the kernel's order
            (value descending, then i, then j).
        trials: number of trials scored.
        rescored: trials the kernel rescored in float64.
        fallbacks: tiles whose reduced-precision screen was replaced by float32.
    """

    rows: np.ndarray
    best: np.ndarray
    best_ref: np.ndarray
    top: tuple
    trials: int = 0
    rescored: int = 0
    fallbacks: int = 0

    @staticmethod
    def empty() -> "Partial":
        none = np.empty(0, dtype=np.int64)
        return Partial(none, np.empty(0), none, ())


def take_rows(array, index: np.ndarray):
    """Rows ``index`` of a NumPy array or torch tensor (a view for a contiguous range)."""
    import torch

    index = np.asarray(index, dtype=np.int64)
    if index.size and index[-1] - index[0] + 1 == index.size:
        return array[int(index[0]):int(index[-1]) + 1]
    if isinstance(array, torch.Tensor):
        return array.index_select(0, torch.as_tensor(index, device=array.device))
    return array[index]


def score_tile(S_rows, T_cols, rows: np.ndarray, cols: np.ndarray, s_norm: np.ndarray, *,
               k: int, dtype: str, device: str, screen: ScreeningPass | None = None,
               block_rows: int | None = None, block_cols: int | None = None) -> Partial:
    """Score every trial of ``rows x cols`` with the exact kernel.

    Args:
        S_rows: the audited rows ``S[rows]`` (validated).
        T_cols: the reference rows ``T[cols]`` (validated).
        rows, cols: their original indices, increasing.
        s_norm: ``(len(rows),)`` float64 norms of ``S_rows``.
        k: how many of the largest trials to keep (at least 1).
        dtype: the kernel's screening precision, ``"float32"`` or ``"float64"``.
        device: the kernel's device.
        block_rows: audited rows per kernel block (default: all of them at once).
        block_cols: references per kernel block (default: all of them at once). A
            large tile walked in the plain kernel's own blocks carries each row's best
            value from block to block, so it rescores about as few trials as the plain
            kernel does.
        screen: an optional reduced-precision screening pass; when it keeps more
            candidates than its ``max_candidates`` (default
            :func:`~privlab.scale.precision.candidate_budget`) the tile is scored again
            with float32 screening.

    Returns:
        A :class:`Partial` in original indices.
    """
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    if screen is not None and screen.max_candidates is None:
        screen = dataclasses.replace(screen, max_candidates=candidate_budget(rows.size, k))
    fallbacks = 0
    kwargs = dict(top_k=k, device=device, bm=max(1, block_rows or rows.size),
                  bn=max(1, block_cols or cols.size))
    try:
        res = exact_kernel(S_rows, T_cols, s_norm, dtype=dtype, screen=screen, **kwargs)
    except ScreeningTooCoarse:
        res = exact_kernel(S_rows, T_cols, s_norm, dtype="float32", **kwargs)
        fallbacks = 1
    top = tuple((int(rows[i]), int(cols[j]), float(v)) for i, j, v in res.top)
    return Partial(rows, res.per_audited.copy(), cols[res.per_audited_reference], top,
                   trials=int(rows.size * cols.size), rescored=int(res.rescored),
                   fallbacks=fallbacks)


def merge_top(a, b, k: int) -> tuple:
    """The first ``k`` trials of two lists in the kernel's order (no duplicates assumed).

    Example:
        >>> merge_top([(0, 1, 0.5)], [(0, 0, 0.5), (2, 2, 0.9)], 2)
        ((2, 2, 0.9), (0, 0, 0.5))
    """
    return tuple(sorted((*a, *b), key=lambda t: (-t[2], t[0], t[1]))[:k])


def merge(a: Partial, b: Partial, k: int) -> Partial:
    """Combine two partial results over disjoint trials with the kernel's tie rule.

    Each row keeps its largest value and, among equal values, the smallest reference;
    the top list keeps the first ``k`` trials by (value descending, i, j).

    Example:
        >>> one = Partial(np.array([0]), np.array([0.5]), np.array([3]), ((0, 3, 0.5),))
        >>> two = Partial(np.array([0]), np.array([0.5]), np.array([1]), ((0, 1, 0.5),))
        >>> m = merge(one, two, 1)
        >>> m.best_ref.tolist(), m.top
        ([1], ((0, 1, 0.5),))
    """
    rows = np.concatenate([a.rows, b.rows])
    best = np.concatenate([a.best, b.best])
    ref = np.concatenate([a.best_ref, b.best_ref])
    order = np.lexsort((ref, -best, rows))
    rows, best, ref = rows[order], best[order], ref[order]
    first = np.ones(rows.size, dtype=bool)
    first[1:] = rows[1:] != rows[:-1]
    return Partial(rows[first], best[first], ref[first], merge_top(a.top, b.top, k),
                   a.trials + b.trials, a.rescored + b.rescored, a.fallbacks + b.fallbacks)


def merge_all(parts: list[Partial], k: int) -> Partial:
    """:func:`merge` of any number of partial results (a balanced tree of merges)."""
    parts = list(parts) or [Partial.empty()]
    while len(parts) > 1:
        parts = [merge(parts[i], parts[i + 1], k) if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]
    return parts[0]


class Accumulator:
    """Running per-row maxima and top list over all ``m`` audited rows.

    ``kth_lower`` and ``best`` are exact values of trials already scored, hence lower
    bounds on the k-th largest trial and on each row's maximum.
    """

    def __init__(self, m: int, k: int):
        self.k = k
        self.best = np.full(m, -np.inf)
        self.best_ref = np.full(m, -1, dtype=np.int64)
        self.top: tuple = ()
        self.trials = 0
        self.rescored = 0
        self.fallbacks = 0

    @property
    def kth_lower(self) -> float:
        return self.top[-1][2] if len(self.top) >= self.k else -np.inf

    def add(self, part: Partial) -> None:
        r = part.rows
        current, current_ref = self.best[r], self.best_ref[r]
        better = (part.best > current) | ((part.best == current) & (part.best_ref < current_ref))
        self.best[r[better]] = part.best[better]
        self.best_ref[r[better]] = part.best_ref[better]
        self.top = merge_top(self.top, part.top, self.k)
        self.trials += part.trials
        self.rescored += part.rescored
        self.fallbacks += part.fallbacks


__all__ = ["Accumulator", "Partial", "merge", "merge_all", "merge_top", "score_tile",
           "take_rows"]
