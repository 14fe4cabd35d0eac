"""Rigorous upper bounds on the kernel's float64 trial values, for skipping work.

Every bound is an upper bound on the float64 value the exact kernel
(:mod:`privlab.resolution`) computes for a trial, not only on the exact dot product, so a
block is skipped only when no trial in it can reach what is already known. Notation,
assumptions, the lemmas and each bound's proof: ``docs/methods/scale-bounds.md``.
"""

from __future__ import annotations

import numpy as np

U64 = 2.0**-53
ETA = 2.0**-1074


def gamma(count: int, unit: float = U64) -> float:
    """Higham's ``gamma_k = k u / (1 - k u)``.

    Example:
        >>> gamma(1) > 2.0**-53
        True
    """
    return count * unit / (1.0 - count * unit)


def margin(d: int) -> float:
    """The factor ``F = 1 + 8 gamma(d + 4)`` that covers the roundings of a bound."""
    return 1.0 + 8.0 * gamma(d + 4)


def _up(x):
    """Round a float64 result up by one unit in the last place (x itself when inf)."""
    return np.nextafter(x, np.inf)


def underflow_slack(d: int, s_max: float, exps) -> np.ndarray:
    """``eta_j`` of Lemma 2 for rows of T with rescaling exponents ``exps``.

    Example:
        >>> float(underflow_slack(4, 1.0, np.array([0]))[0]) == 10 * 2.0**-1074
        True
    """
    exps = np.asarray(exps, dtype=np.int64)
    return np.ldexp(float((2 * d + 2) * max(1.0, s_max * (1.0 + gamma(d + 3)))) * ETA,
                    np.maximum(exps, 0))


def norm_bound(s_hat, t_hat, d: int, eta) -> np.ndarray:
    """Upper bound on the kernel's value of every trial of rows ``s`` against ``t``.

    Bound (proved in the docs): ``v(i, j) <= U = up(s_hat_i t_hat_j F) + eta_j``, rounded up.

    Args:
        s_hat: ``(m,)`` or scalar computed norms of rows of S.
        t_hat: ``(n,)`` or scalar computed norms of rows of T (``inf`` allowed).
        d: the dimension.
        eta: ``eta_j`` from :func:`underflow_slack` (broadcasting with ``t_hat``).

    Returns:
        float64 array broadcast from ``s_hat`` and ``t_hat``.

    Example:
        >>> u = norm_bound(np.array([1.0]), np.array([0.5]), 2, np.array([0.0]))
        >>> bool(u[0] > 0.5) and bool(u[0] < 0.5 + 1e-12)
        True
    """
    with np.errstate(over="ignore", invalid="ignore"):
        product = np.multiply(s_hat, t_hat) * margin(d)
        return _up(_up(product) + eta)


def cluster_bound(sc_hat, s_hat, centre_norm: float, radius: float, t_max: float, d: int,
                  eta: float) -> np.ndarray:
    """Upper bound on the kernel's value of trials against a cluster of rows of T.

    For rows ``t`` within ``radius`` of a centre ``c``, with ``c_hat = fl(||c||)`` and
    ``r`` from :func:`radius_upper` (proved in the docs)::

        v(i, j) <= sc_hat_i + F s_hat_i r + 2 gamma(d + 4) F s_hat_i (c_hat + t_max)
                   + (d + 1) eta + eta_j,

    every sum rounded up.

    Args:
        sc_hat: ``(m,)`` float64 (or upward-rounded float32) values ``fl(s_i . c)``.
        s_hat: ``(m,)`` computed norms of the rows of S.
        centre_norm: ``c_hat``.
        radius: an upper bound on ``max ||t - c||`` over the cluster's rows.
        t_max: the largest computed norm among the cluster's rows.
        d: the dimension.
        eta: the largest ``eta_j`` of the cluster's rows.

    Returns:
        ``(m,)`` float64 upper bounds.

    Example:
        >>> b = cluster_bound(np.array([0.1]), np.array([1.0]), 1.0, 0.05, 1.05, 2, 0.0)
        >>> bool(0.15 < b[0] < 0.15 + 1e-12)
        True
    """
    F = margin(d)
    s_hat = np.asarray(s_hat, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        spread = s_hat * (radius * F)
        # sqrt(d) 2**-500 covers squares that underflow in computing ||c||.
        c_up = float(centre_norm) + np.sqrt(d) * 2.0**-500
        rounding = s_hat * (2.0 * gamma(d + 4) * F * (c_up + t_max))
        total = _up(np.asarray(sc_hat, dtype=np.float64) + spread)
        total = _up(total + rounding)
        return _up(total + ((d + 1) * ETA + eta))


def radius_upper(distances: np.ndarray, d: int) -> float:
    """An upper bound on ``max ||t - c||`` from float64 norms of ``fl(t - c)``.

    Adds ``sqrt(d) 2**-500`` for underflowing squares and multiplies by ``F``, rounding
    up (proved in the docs).

    Example:
        >>> radius_upper(np.array([0.5, 1.0]), 3) > 1.0
        True
    """
    largest = float(np.max(distances)) if np.size(distances) else 0.0
    return float(_up(_up(largest + np.sqrt(d) * 2.0**-500) * margin(d)))


def round_up_float32(values: np.ndarray) -> np.ndarray:
    """float32 copies that are never below the float64 values (memory for bounds).

    Example:
        >>> x = np.array([0.1])
        >>> bool(round_up_float32(x)[0] >= x[0])
        True
    """
    values = np.asarray(values, dtype=np.float64)
    with np.errstate(over="ignore"):
        cast = values.astype(np.float32)
    low = cast.astype(np.float64) < values
    cast[low] = np.nextafter(cast[low], np.float32(np.inf))
    return cast


__all__ = ["U64", "ETA", "gamma", "margin", "underflow_slack", "norm_bound", "cluster_bound",
           "radius_upper", "round_up_float32"]
