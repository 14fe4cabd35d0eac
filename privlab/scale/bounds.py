"""Rigorous upper bounds on the kernel's float64 trial values, for skipping work.

Every bound here is an upper bound on the float64 value ``v(i, j)`` that the exact kernel
(:mod:`privlab.resolution`) computes for a trial, not only on the exact dot product: a
block may be skipped only when no trial in it can reach what is already known. Each
function states its bound and proves it.

Notation: ``u = 2**-53`` (float64 unit roundoff), ``gamma(k) = k u / (1 - k u)``,
``eta = 2**-1074`` (the smallest subnormal), ``d`` the dimension. ``s_hat`` and ``t_hat``
are the float64 row norms the kernel computes (:func:`privlab.resolution.row_norms`);
``e_j`` is the power-of-two exponent with which the kernel rescales an extreme row of T
(0 for rows whose largest entry lies within ``2**+-60``).

Assumptions: IEEE-754 float64 arithmetic with round-to-nearest (fused multiply-add only
lowers errors), no overflow (an overflowing bound becomes ``inf``, which only means that
nothing is skipped).

Lemma 1 (computed norms). For a non-zero row x with norm ``x_hat`` as computed by the
kernel, ``||x|| <= x_hat (1 + gamma(d + 3))``. (Proof: ``docs/methods/scale.md``.)

Lemma 2 (canonical value). The kernel's value is ``v = fl(sum_k s_k t_k)`` in float64
(after scaling ``t`` by ``2**-e_j`` and back for extreme rows), hence
``v <= s . t + gamma(d) sum_k |s_k t_k| + eta_j`` with
``eta_j = (2d + 2) max(1, ||s||) 2**(max(e_j, 0)) eta`` covering the products and scaled
entries that underflow, and ``sum_k |s_k t_k| <= ||s|| ||t||`` (Cauchy-Schwarz).

Every bound below is finally rounded up with ``nextafter(., +inf)`` after each sum, so
the rounding of the bound's own arithmetic cannot lower it; products of non-negative
numbers are covered by the factor ``F = 1 + 8 gamma(d + 4)``, which exceeds the product
of every ``(1 + gamma)`` and ``(1 + u)`` factor used.
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

    **Bound.** ``v(i, j) <= U = up(s_hat_i t_hat_j F) + eta_j``, rounded up.

    **Proof.** By Lemma 2 and Cauchy-Schwarz, ``v <= (1 + gamma(d)) ||s|| ||t|| + eta_j``,
    and by Lemma 1 ``||s|| ||t|| <= (1 + gamma(d + 3))**2 s_hat t_hat``. The product
    ``(1 + gamma(d)) (1 + gamma(d + 3))**2 (1 + u)**2`` (the last factor for the two
    roundings of the bound's own products) is below ``F``; the sum with ``eta_j`` is
    rounded up. A row of T that is exactly zero gives ``v = 0 <= eta_j``.

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

    For rows ``t`` within ``radius`` of a centre ``c`` (any vector):

        s . t = s . c + s . (t - c) <= s . c + ||s|| ||t - c|| <= s . c + ||s|| r.

    **Bound.** With ``sc_hat = fl(s . c)`` computed in float64 (any summation order),
    ``c_hat = fl(||c||)`` (plus ``sqrt(d) 2**-500`` for squares that underflow),
    ``r`` the computed radius (see :func:`radius_upper`) and
    ``t_max`` the largest computed norm of the cluster's rows,

        v(i, j) <= sc_hat_i + F s_hat_i r + 2 gamma(d + 4) F s_hat_i (c_hat + t_max)
                   + (d + 1) eta + eta_j,

    every sum rounded up.

    **Proof.** ``|sc_hat - s . c| <= gamma(d) ||s|| ||c|| + d eta / 2`` (float64 dot
    product of any order, with underflowing products). Lemma 2 adds
    ``gamma(d) ||s|| ||t|| + eta_j`` to ``s . t``. With Lemma 1 for ``||s||``, ``||c||``
    and ``||t||``, ``gamma(d) (1 + gamma(d + 3))**2 <= 2 gamma(d + 4)``, and ``F`` covers
    the products of the bound's own arithmetic, the sum is at most the bound above.
    The cluster's radius must bound ``||t - c||`` itself, which :func:`radius_upper`
    guarantees.

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

    ``fl(t_k - c_k) = (t_k - c_k)(1 + delta)``, ``|delta| <= u`` (a difference that
    underflows is exact), so ``||fl(t - c)|| >= (1 - u) ||t - c||``; the computed norm
    of that difference is within ``gamma(d + 3)`` of it plus ``sqrt(d) 2**-537`` for
    squares that underflow. The returned value adds ``sqrt(d) 2**-500`` and multiplies
    by ``F``, rounding up.

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
