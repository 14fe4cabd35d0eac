"""MMD with a finite-sample lower bound: a kernel route to an ε certificate, no classifier.

A McDiarmid lower bound on the RBF MMD, MMD ≤ √2·TV and the TV bound of (ε, δ)-DP give a
lower confidence bound on ε. Unlike ``mmd-tv``, the bandwidth is fixed before the rows it
is evaluated on are read, and the sampling error is paid for. The derivation is in
docs/methods/epsilon-certificates.md.
"""

from __future__ import annotations

import math

import numpy as np

from privlab.epsilon.auditors.base import DEFAULT_DELTA, BaseAuditor, Status, _check_alpha, \
    _check_delta, _check_pair, registry, split_halves
from privlab.epsilon.auditors.hockey_stick import ClaimTest, _check_epsilon
from privlab.errors import invalid


#: Rows of the pooled development halves whose pairwise distances give the median bandwidth
#: (a seeded subsample when there are more; all of them otherwise).
BANDWIDTH_ROWS = 1000
#: Kernel entries computed at once by :func:`mmd_biased` (a block of rows × all columns).
BLOCK_ENTRIES = 2**22


def _rbf(x: np.ndarray, y: np.ndarray, bandwidth: float) -> np.ndarray:
    """RBF Gram matrix of x against y."""
    sx, sy = (x * x).sum(axis=1), (y * y).sum(axis=1)
    d2 = np.maximum(sx[:, None] + sy[None, :] - 2.0 * x @ y.T, 0.0)
    return np.exp(-d2 / (2.0 * bandwidth * bandwidth))


def _kernel_mean(x: np.ndarray, y: np.ndarray, bandwidth: float) -> float:
    """Mean of the RBF Gram matrix of x against y, built a block of rows at a time."""
    rows = max(1, BLOCK_ENTRIES // max(1, len(y)))
    total = sum(float(_rbf(x[i:i + rows], y, bandwidth).sum()) for i in range(0, len(x), rows))
    return total / (len(x) * len(y))


def median_bandwidth(x: np.ndarray, max_rows: int = BANDWIDTH_ROWS,
                     seed: int = 0) -> tuple[float, int]:
    """Median pairwise distance of at most ``max_rows`` rows of ``x`` (the median heuristic).

    Larger inputs are subsampled (seeded) so no n × n matrix is built; 1 when all rows
    coincide. Why: docs/decisions/2026-12-05-epsilon-scale.md.

    Returns:
        (bandwidth, rows used).

    Example:
        >>> median_bandwidth(np.array([[0.0], [1.0], [3.0]]))
        (2.0, 3)
    """
    if len(x) > max_rows:
        x = x[np.sort(np.random.default_rng([seed, 7]).choice(len(x), max_rows, replace=False))]
    sq = (x * x).sum(axis=1)
    d2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * x @ x.T, 0.0)
    sigma = float(np.median(np.sqrt(d2[np.triu_indices(len(x), k=1)])))
    return (sigma if sigma > 0 else 1.0), len(x)


def mmd_biased(a: np.ndarray, b: np.ndarray, bandwidth: float) -> float:
    """‖μ̂_a − μ̂_b‖ in the RBF kernel's space, in memory independent of the row count.

    Example:
        >>> x = np.zeros((3, 2))
        >>> mmd_biased(x, x, 1.0)
        0.0
    """
    value = (_kernel_mean(a, a, bandwidth) + _kernel_mean(b, b, bandwidth)
             - 2.0 * _kernel_mean(a, b, bandwidth))
    return math.sqrt(max(value, 0.0))


def mmd_lower_bound(statistic: float, m: int, n: int, alpha: float) -> float:
    """One-sided lower confidence bound on the population MMD from the biased statistic.

    statistic − √(1/m + 1/n)·(1 + √ln(1/alpha)), for a bounded kernel fixed in advance.

    Args:
        statistic: the biased statistic ‖μ̂_P − μ̂_Q‖ (:func:`mmd_biased`).
        m: rows from P.
        n: rows from Q.
        alpha: failure probability.

    Returns:
        The bound, floored at 0.

    Example:
        >>> round(mmd_lower_bound(1.0, 50, 50, 0.05), 4)
        0.4538
    """
    caller = "mmd_lower_bound"
    alpha = _check_alpha(alpha, caller)
    for name, v in (("m", m), ("n", n)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise invalid(name, caller, "a positive integer", v)
    width = math.sqrt(1.0 / m + 1.0 / n) * (1.0 + math.sqrt(math.log(1.0 / alpha)))
    return max(0.0, float(statistic) - width)


def tv_to_epsilon(tv: float, delta: float = 0.0) -> float:
    """Smallest ε ≥ 0 with TV ≤ (e^ε − 1 + 2δ)/(e^ε + 1): ln((1 + TV − 2δ)/(1 − TV)).

    Example:
        >>> round(tv_to_epsilon(0.5), 4), tv_to_epsilon(0.0), tv_to_epsilon(1.0)
        (1.0986, 0.0, inf)
    """
    if tv >= 1.0:
        return math.inf
    numerator = 1.0 + tv - 2.0 * delta
    if numerator <= 0:
        return 0.0
    return max(0.0, math.log(numerator / (1.0 - tv)))


def tv_to_delta(tv: float, epsilon: float) -> float:
    """Smallest δ ≥ 0 with TV ≤ (e^ε − 1 + 2δ)/(e^ε + 1): (TV (e^ε + 1) − e^ε + 1)/2.

    Example:
        >>> tv_to_delta(0.5, 0.0), round(tv_to_delta(0.5, 1.0), 4)
        (0.5, 0.0704)
    """
    if epsilon > 700.0:  # e^ε overflows; the expression tends to 1 at TV = 1, else below 0
        return 1.0 if tv >= 1.0 else 0.0
    e = math.exp(epsilon)
    return max(0.0, (tv * (e + 1.0) - e + 1.0) / 2.0)


class MMDFinite(BaseAuditor):
    """MMD lower confidence bound turned into a lower confidence bound on ε.

    Formal status: finite-sample certificate. Under iid rows the true ε at that δ is at
    least the value with probability ≥ 1 − 2·alpha; it is usually far below ε. The
    bandwidth comes from the development halves (:func:`median_bandwidth`) unless given.
    :meth:`test` answers a claimed (ε, δ).

    Args:
        alpha: per-error-rate level of the family (the bound is taken at 2·alpha).
        bandwidth: a fixed RBF bandwidth > 0, or None for the development median.
        name: registry name to report.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> r = MMDFinite(alpha=0.025).audit(rng.normal(size=(100, 2)),
        ...                                  rng.normal(size=(100, 2)) + 10, delta=0)
        >>> r.status.value, r.value > 0
        ('finite-sample certificate', True)
    """

    status = Status.CERTIFICATE

    def __init__(self, alpha: float = 0.05 / 80, bandwidth: float | None = None,
                 name: str = "mmd-finite"):
        caller = "MMDFinite"
        self.alpha = _check_alpha(alpha, caller)
        if 2 * self.alpha >= 1:
            raise invalid("alpha", caller, "below 0.5 (the bound is taken at 2·alpha)", alpha)
        if bandwidth is not None and (isinstance(bandwidth, bool)
                                      or not isinstance(bandwidth, (int, float))
                                      or not math.isfinite(bandwidth) or bandwidth <= 0):
            raise invalid("bandwidth", caller, "None or a finite number > 0", bandwidth)
        self.bandwidth = None if bandwidth is None else float(bandwidth)
        self.name = name

    def with_alpha(self, alpha: float) -> "MMDFinite":
        """The same route at another per-error-rate level (for a family correction)."""
        return MMDFinite(alpha, self.bandwidth, self.name)

    def settings(self):
        rule = "fixed" if self.bandwidth is not None else (
            f"median pairwise distance of the pooled development halves, on a seeded "
            f"subsample of {BANDWIDTH_ROWS} rows when there are more")
        return {"alpha": self.alpha, "bandwidth": self.bandwidth, "bandwidth_rule": rule}

    def _tv_lower(self, a, b, seed):
        if self.bandwidth is None:
            dev_a, a, dev_b, b = split_halves(a, b, seed)
            bandwidth, used = median_bandwidth(np.vstack([dev_a, dev_b]), seed=seed)
        else:
            bandwidth, used = self.bandwidth, 0
        stat = mmd_biased(a, b, bandwidth)
        low = mmd_lower_bound(stat, len(a), len(b), 2.0 * self.alpha)
        return min(low / math.sqrt(2.0), 1.0), {"mmd_b": stat, "mmd_lower": low,
                                                "bandwidth": bandwidth, "bandwidth_rows": used,
                                                "n_eval_a": len(a), "n_eval_b": len(b)}

    def _audit(self, a, b, delta, seed):
        tv, details = self._tv_lower(a, b, seed)
        details["tv_lower"] = tv
        # the statistic is at most √2, so the largest possible TV bound is 1 − width/√2
        best = mmd_lower_bound(math.sqrt(2.0), details["n_eval_a"], details["n_eval_b"],
                               2.0 * self.alpha) / math.sqrt(2.0)
        details["attainable"] = tv_to_epsilon(best, delta)
        return tv_to_epsilon(tv, delta), details

    def test(self, a, b, epsilon: float, delta: float = DEFAULT_DELTA, *,
             seed: int = 0) -> ClaimTest:
        """Test a claimed (ε, δ) on two identities' rows.

        Returns:
            A :class:`~privlab.epsilon.auditors.hockey_stick.ClaimTest`, refuted when
            TV_L > (e^ε − 1 + 2δ)/(e^ε + 1).

        Raises:
            PrivlabValueError / PrivlabTypeError: on malformed samples, claim or seed.
        """
        caller = "MMDFinite.test"
        a, b, seed = _check_pair(a, b, seed, caller)
        epsilon = _check_epsilon(epsilon, caller)
        delta = _check_delta(delta, caller)
        tv, details = self._tv_lower(a, b, seed)
        delta_lower = tv_to_delta(tv, epsilon)
        details["tv_lower"] = tv
        return ClaimTest(epsilon, delta, bool(delta_lower > delta), delta_lower,
                         tv_to_epsilon(tv, delta), 1.0 - 2.0 * self.alpha, details, self.name)


@registry.member("mmd-finite", description="MMD lower confidence bound (McDiarmid) through "
                 "MMD ≤ √2·TV to a lower confidence bound on ε", status=Status.CERTIFICATE,
                 benchmark=True)
def mmd_finite(alpha: float = 0.05 / 80, bandwidth: float | None = None) -> MMDFinite:
    """The finite-sample MMD route with the development-median bandwidth.

    Example:
        >>> mmd_finite().bandwidth is None
        True
    """
    return MMDFinite(alpha, bandwidth)
