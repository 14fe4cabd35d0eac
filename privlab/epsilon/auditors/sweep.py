"""Threshold searches in n log n: sort once, count at every cut, score every cut at once.

The reserved test and the hockey-stick tester score every cut between distinct pooled
development scores; these helpers make the same choices as a per-cut loop, bit for bit.
See docs/methods/epsilon-certificates.md; how it was checked and timed:
docs/decisions/2026-12-05-epsilon-scale.md.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special


def cut_points(neg: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """The candidate cuts: below all, between consecutive distinct pooled scores, above all.

    Example:
        >>> cut_points(np.array([0.0, 1.0]), np.array([1.0, 3.0])).tolist()
        [-1.0, 0.5, 2.0, 4.0]
    """
    values = np.unique(np.concatenate([neg, pos]))
    return np.concatenate([[values[0] - 1.0], (values[:-1] + values[1:]) / 2.0,
                           [values[-1] + 1.0]])


def count_above(sorted_scores: np.ndarray, cuts: np.ndarray, orientation: int) -> np.ndarray:
    """How many scores s have orientation·s > orientation·cut, for every cut at once.

    Args:
        sorted_scores: scores in ascending order.
        cuts: the cuts (any order).
        orientation: +1 (s > cut) or −1 (s < cut).

    Returns:
        int64 counts, one per cut.

    Example:
        >>> count_above(np.array([1.0, 2.0, 2.0, 3.0]), np.array([2.0, 0.0]), 1).tolist()
        [1, 4]
    """
    if orientation == 1:
        return len(sorted_scores) - np.searchsorted(sorted_scores, cuts, side="right")
    return np.searchsorted(sorted_scores, cuts, side="left")


def cp_upper_many(errors: np.ndarray, trials, alpha: float) -> np.ndarray:
    """:func:`~privlab.epsilon.auditors.bounds.clopper_pearson_upper` for many counts at once.

    Each distinct (count, trials) is computed once, bit for bit as the scalar version;
    counts must be valid (0 ≤ k ≤ trials, trials ≥ 1).

    Args:
        errors: int array of counts k.
        trials: the number of trials n, one int or an int array shaped like ``errors``.
        alpha: one-sided level.

    Example:
        >>> cp_upper_many(np.array([0, 30, 0]), 30, 0.05).round(4).tolist()
        [0.095, 1.0, 0.095]
    """
    errors = np.asarray(errors, dtype=np.int64)
    trials = np.broadcast_to(np.asarray(trials, dtype=np.int64), errors.shape)
    width = int(errors.max(initial=0)) + 1  # one int64 code per (trials, count)
    codes, back = np.unique(trials.ravel() * width + errors.ravel(), return_inverse=True)
    ns, ks = np.divmod(codes, width)
    table = np.empty(len(ks))
    full, zero = ks == ns, ks == 0
    middle = ~(full | zero)
    table[full] = 1.0
    for n in np.unique(ns[zero & ~full]).tolist():
        table[zero & (ns == n)] = float(-math.expm1(math.log(alpha) / n))
    table[middle] = special.betaincinv(ks[middle] + 1, ns[middle] - ks[middle], 1.0 - alpha)
    return table[back.reshape(-1)].reshape(errors.shape)


def map_math(function, values: np.ndarray) -> np.ndarray:
    """``function`` (a :mod:`math` function) on every entry, as the scalar code computes it.

    numpy's ``log``/``exp`` may differ from :mod:`math` in the last bit.

    Example:
        >>> map_math(math.log, np.array([1.0, math.e])).tolist()
        [0.0, 1.0]
    """
    flat = np.asarray(values, dtype=float).ravel()
    out = np.fromiter(map(function, flat.tolist()), dtype=float, count=len(flat))
    return out.reshape(np.shape(values))


def rounded(values: np.ndarray, digits: int = 12) -> np.ndarray:
    """Python's ``round(v, digits)`` of every entry (each distinct value rounded once).

    Example:
        >>> rounded(np.array([0.1234567891234567, 0.5])).tolist()
        [0.123456789123, 0.5]
    """
    uniq, back = np.unique(np.asarray(values, dtype=float), return_inverse=True)
    table = np.array([round(v, digits) for v in uniq.tolist()], dtype=float)
    return table[back.reshape(np.shape(values))]


def best_indices(*keys: np.ndarray, digits: int = 12, margin: float = 1e-9) -> np.ndarray:
    """Indices, in order, whose key tuple (each key rounded to ``digits``) is the largest.

    The set a loop keeps with ``key = tuple(round(k, digits) for k in keys)``; only
    entries within ``margin`` of the top are rounded. Keys must be free of NaN.

    Example:
        >>> best_indices(np.array([1.0, 3.0, 3.0, 2.0]), np.array([0.0, 0.1, 0.2, 0.9])).tolist()
        [2]
    """
    alive = np.arange(len(keys[0]))
    for key in keys:
        values = np.asarray(key, dtype=float)[alive]
        top = np.max(values)
        if not math.isfinite(top):
            alive = alive[values == top]
            continue
        near = values >= top - margin * max(1.0, abs(top))
        exact = rounded(values[near], digits)
        alive = alive[near][exact == np.max(exact)]
    return alive
