"""Exact samplers of discrete noise from uniform integer draws only (no double in the law).

Canonne, Kamath & Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020),
vectorised over numpy arrays; the Laplace member of the known-ε benchmark draws its noise
here. Why: docs/decisions/2026-12-05-exact-benchmark-noise.md.
"""

from __future__ import annotations

import numpy as np

from privlab.errors import invalid


def bernoulli_exp(numerator: np.ndarray, denominator: int,
                  rng: np.random.Generator) -> np.ndarray:
    """Exact Bernoulli(exp(−n/d)) draws for integers 0 ≤ n ≤ d, from uniform integers only.

    Canonne, Kamath & Steinke (2020), Algorithm 1: K counts the successes of
    Bernoulli(γ/K), K = 1, 2, …; the draw is 1 when K ends odd. Every draw still going
    in round K shares that K, so each round is one draw of uniform integers below d·K.

    Args:
        numerator: integers n, each in [0, d].
        denominator: the integer d ≥ 1.
        rng: the generator.

    Returns:
        Boolean array shaped like ``numerator``.

    Example:
        >>> draws = bernoulli_exp(np.ones(20_000, np.int64), 1, np.random.default_rng(0))
        >>> round(float(draws.mean()), 2)  # exp(-1) = 0.3679
        0.37
    """
    num = np.asarray(numerator, np.int64)
    odd = np.ones(num.shape, bool)
    todo = np.flatnonzero(num > 0)
    k = 1
    while todo.size:  # round k: each draw still going succeeds with probability n/(d·k)
        success = rng.integers(0, int(denominator) * k, todo.size) < num[todo]
        odd[todo[~success]] = k % 2 == 1  # those stop with K = k
        todo = todo[success]
        k += 1
    return odd


def discrete_laplace(t: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """Exact draws of the discrete Laplace law P(y) ∝ exp(−|y|/t) on the integers.

    Canonne, Kamath & Steinke (2020), Algorithm 2, vectorised: every step is a uniform
    integer draw, so the law is exact, unlike inverse-CDF noise on doubles.

    Args:
        t: the scale, a positive integer.
        size: number of draws.
        rng: the generator.

    Returns:
        int64 array of ``size`` draws.

    Raises:
        PrivlabValueError: when ``t`` is not a positive integer.

    Example:
        >>> y = discrete_laplace(4, 20_000, np.random.default_rng(0))
        >>> y.dtype.name, round(float(np.abs(y).mean()), 1)  # 2q/(1 − q²) = 3.96, q = e^{−1/4}
        ('int64', 4.0)
    """
    if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 1:
        raise invalid("t", "discrete_laplace", "a positive integer", t)
    out = np.empty(size, np.int64)
    pending = np.arange(size)
    while pending.size:
        u = rng.integers(0, t, pending.size)
        keep = bernoulli_exp(u, t, rng)
        v = np.zeros(pending.size, np.int64)
        going = np.flatnonzero(keep)
        while going.size:
            going = going[bernoulli_exp(np.ones(going.size, np.int64), 1, rng)]
            v[going] += 1
        x = u + t * v
        negative = rng.integers(0, 2, pending.size) == 1
        ok = keep & ~(negative & (x == 0))
        out[pending[ok]] = np.where(negative[ok], -x[ok], x[ok])
        pending = pending[~ok]
    return out
