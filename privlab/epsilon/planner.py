"""How many samples does a certificate need? A planner from a pilot sample.

A certificate is often 0 because the sample is too small for the bound to clear the
sampling error. From a pilot, :func:`plan_sample_size` predicts the rows per identity
each certificate needs to certify a share of the pilot's estimate with a given
probability. The method: docs/methods/epsilon-certificates.md; what it assumes:
docs/methods/epsilon.md.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd
from scipy import special

from privlab.epsilon.auditors.base import DEFAULT_DELTA, _check_alpha, _check_delta, \
    _check_pair
from privlab.epsilon.auditors.bounds import epsilon_from_rates
from privlab.epsilon.auditors.dpsniper import DPSniper
from privlab.epsilon.auditors.reserved import ReservedTest
from privlab.epsilon.auditors.sequential import SequentialReservedTest, betting_upper
from privlab.errors import invalid

#: The certificates the planner knows: their count-based bound has a known test size.
PLANNED = ("reserved", "dp-sniper", "reserved-sequential")


def _smoothed(k: int, m: int) -> float:
    """The rate (k + ½)/(m + 1), finite for a pilot without errors."""
    return (k + 0.5) / (m + 1.0)


def _test_rows(method: str, n: int) -> int:
    """Reserved rows per identity a certificate evaluates its fixed test on at size n."""
    if method == "dp-sniper":
        fractions = (0.25, 0.25, 0.5)
        n_train = max(1, int(round(fractions[0] * n)))
        n_thresh = min(max(1, int(round(fractions[1] * n))), n - n_train - 1)
        return n - n_train - n_thresh
    return n - n // 2


def _auditor(method: str, alpha: float):
    """The planned certificate ``method`` at level ``alpha``."""
    if method == "reserved":
        return ReservedTest(alpha)
    if method == "dp-sniper":
        return DPSniper(alpha=alpha)
    return SequentialReservedTest(alpha=alpha)


def _pilot_rates(method: str, a, b, alpha, delta, seed) -> dict[str, Any]:
    """The pilot's counts, its plug-in ε and the certificate on the pilot itself."""
    r = _auditor(method, alpha).audit(a, b, delta=delta, seed=seed)
    d = r.details
    if method == "dp-sniper":
        counts = (d["inside_target"], d["n_target"], d["inside_reference"], d["n_reference"])
        p1, p0 = _smoothed(*counts[:2]), _smoothed(*counts[2:])
        point = max(0.0, math.log((p1 - delta) / p0)) if p1 > delta else 0.0
    else:
        counts = (d["false_positives"], d["negatives"], d["false_negatives"], d["positives"])
        point = epsilon_from_rates(_smoothed(*counts[:2]), _smoothed(*counts[2:]), delta)
    return {"counts": counts, "point": point, "pilot_bound": r.value}


def _drawn_rates(rates: dict, draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two rates drawn from the pilot's posteriors by ``draws``: the same at every n."""
    from scipy import stats

    c1, m1, c0, m0 = rates["counts"]
    return (stats.beta.ppf(draws[:, 0], c1 + 0.5, m1 - c1 + 0.5),
            stats.beta.ppf(draws[:, 1], c0 + 0.5, m0 - c0 + 0.5))


def _bounds_at(method: str, rates: dict, n: int, alpha: float, delta: float,
               draws: np.ndarray, drawn: tuple[np.ndarray, np.ndarray] | None = None
               ) -> np.ndarray:
    """Simulated bounds at size n from uniform ``draws`` (simulations, 4), the same at every n
    (``drawn``: their :func:`_drawn_rates`, computed once for many n)."""
    from scipy import stats

    m = _test_rows(method, n)
    rate_1, rate_0 = _drawn_rates(rates, draws) if drawn is None else drawn
    k1 = stats.binom.ppf(draws[:, 2], m, rate_1).astype(int)
    k0 = stats.binom.ppf(draws[:, 3], m, rate_0).astype(int)
    if method == "dp-sniper":  # ln((L₁ − δ)/U₀), clipped at 0
        low = 1.0 - _cp_upper(m - k1, m, alpha) - delta
        high = _cp_upper(k0, m, alpha)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(low > 0, np.maximum(0.0, np.log(np.maximum(low, 1e-300) / high)),
                            0.0)
    if method == "reserved":
        return _from_rates(_cp_upper(k1, m, alpha), _cp_upper(k0, m, alpha), delta)
    cache: dict[tuple[int, int], float] = {}
    out = np.empty(len(draws))
    for s, key in enumerate(zip(k1.tolist(), k0.tolist())):
        if key not in cache:
            cache[key] = epsilon_from_rates(betting_upper(key[0], m, alpha),
                                            betting_upper(key[1], m, alpha), delta)
        out[s] = cache[key]
    return out


def _cp_upper(k: np.ndarray, m: int, alpha: float) -> np.ndarray:
    """:func:`~privlab.epsilon.auditors.bounds.clopper_pearson_upper` over an array of k."""
    k = np.asarray(k)
    # once per distinct k (simulated counts repeat): the same values, fewer inversions
    distinct, where = np.unique(k, return_inverse=True)
    inner = special.betaincinv(np.maximum(distinct, 0) + 1, np.maximum(m - distinct, 1),
                               1.0 - alpha)[where.reshape(k.shape)]
    return np.where(k >= m, 1.0, np.where(k == 0, -math.expm1(math.log(alpha) / m), inner))


def _from_rates(u_fp: np.ndarray, u_fn: np.ndarray, delta: float) -> np.ndarray:
    """:func:`~privlab.epsilon.auditors.bounds.epsilon_from_rates` over arrays."""
    out = np.zeros(np.shape(u_fp))
    for num, den in ((1.0 - delta - u_fn, u_fp), (1.0 - delta - u_fp, u_fn)):
        with np.errstate(divide="ignore", invalid="ignore"):
            term = np.where(num > 0, np.where(den > 0, np.log(np.maximum(num, 1e-300)
                                                             / np.maximum(den, 1e-300)),
                                              np.inf), 0.0)
        out = np.maximum(out, term)
    return out


@dataclass
class SamplePlan:
    """Predicted sample sizes per certificate, and the predicted bound against n.

    Attributes:
        plan: one row per method: ``point`` (the pilot's plug-in ε), ``target``
            (``fraction`` × point), ``pilot_bound`` (the certificate on the pilot itself),
            ``n`` (rows per identity predicted to reach the target with ``probability``;
            NaN when even ``max_n`` does not), ``probability_at_n``.
        curve: per method and n: ``median`` and ``reached`` (the bound reached with
            ``probability``, i.e. its (1 − probability)-quantile) and ``probability``
            (that the bound reaches the target).
        settings: the planner's settings (fraction, probability, alpha, delta, pilot sizes).
    """

    plan: pd.DataFrame
    curve: pd.DataFrame
    settings: dict[str, Any] = field(default_factory=dict)

    def n_for(self, method: str) -> float:
        """The predicted rows per identity for ``method`` (NaN when unreachable)."""
        row = self.plan[self.plan["method"] == method]
        if row.empty:
            raise invalid("method", "SamplePlan.n_for", f"one of {list(self.plan['method'])}",
                          method)
        return float(row["n"].iloc[0])

    def _repr_html_(self) -> str:
        s = self.settings
        caption = html.escape(f"sample sizes to certify {s.get('fraction')} × the pilot's "
                              f"estimate with probability {s.get('probability')} "
                              f"(α = {s.get('alpha'):g} per bound)")
        return f"<b>{caption}</b>" + self.plan.to_html(index=False)


def _check_fraction(value, name, caller, upper_open=False):
    """A number in (0, 1] (in (0, 1) when ``upper_open``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) \
            or not 0 < value < 1 + (0 if upper_open else 1e-12):
        raise invalid(name, caller, "a number in (0, 1)" if upper_open else "in (0, 1]", value)
    return float(value)


def plan_sample_size(a, b, *, methods: Sequence[str] = PLANNED, fraction: float = 0.5,
                     probability: float = 0.8, alpha: float = 0.05 / 80,
                     delta: float = DEFAULT_DELTA, max_n: int = 200_000,
                     simulations: int = 400, seed: int = 0) -> SamplePlan:
    """Rows per identity each certificate needs to certify ``fraction`` of the pilot's estimate.

    Args:
        a: pilot outputs of identity A, array (n_a, d), n_a ≥ 8.
        b: pilot outputs of identity B, array (n_b, d), same d.
        methods: names from :data:`PLANNED`.
        fraction: share of the pilot's point estimate to certify, in (0, 1].
        probability: required probability of reaching it, in (0, 1).
        alpha: level of each one-sided bound of the planned audit.
        delta: the δ of the bound.
        max_n: largest size searched.
        simulations: binomial draws per size.
        seed: seed of the pilot's splits and of the draws.

    Returns:
        A :class:`SamplePlan`.

    Raises:
        PrivlabValueError / PrivlabTypeError: on malformed pilots or settings.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> a, b = rng.normal(size=(200, 1)), rng.normal(size=(200, 1)) + 3
        >>> p = plan_sample_size(a, b, methods=["reserved"], alpha=0.025, simulations=100)
        >>> bool(p.n_for("reserved") > 0), list(p.curve.columns)[:3]
        (True, ['method', 'n', 'median'])
    """
    caller = "plan_sample_size"
    a, b, seed = _check_pair(a, b, seed, caller)
    if min(len(a), len(b)) < 8:
        raise invalid("a", caller, "pilots of at least 8 rows per identity",
                      f"{len(a)} and {len(b)} rows", given_is_text=True)
    methods = list(methods)
    if not methods or any(m not in PLANNED for m in methods):
        raise invalid("methods", caller, f"a nonempty list from {PLANNED}", methods)
    fraction = _check_fraction(fraction, "fraction", caller)
    probability = _check_fraction(probability, "probability", caller, upper_open=True)
    alpha = _check_alpha(alpha, caller)
    delta = _check_delta(delta, caller)
    for name, v, low in (("max_n", max_n, 16), ("simulations", simulations, 10)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
            raise invalid(name, caller, f"an integer ≥ {low}", v)
    draws = np.random.default_rng([seed, 7]).random((simulations, 4))
    grid = np.unique(np.geomspace(16, max_n, 48).astype(int))
    plans, curves = [], []
    for method in methods:
        rates = _pilot_rates(method, a, b, alpha, delta, seed)
        target = fraction * rates["point"]
        drawn = _drawn_rates(rates, draws)

        def reach(n):
            bounds = _bounds_at(method, rates, int(n), alpha, delta, draws, drawn)
            return bounds, float(np.mean(bounds >= target - 1e-12))

        found = None
        for n in grid:
            bounds, p = reach(n)
            curves.append({"method": method, "n": int(n), "median": float(np.median(bounds)),
                           "reached": float(np.quantile(bounds, 1.0 - probability)),
                           "probability": p})
            if found is None and p >= probability and target > 0:
                found = int(n)
        n_plan, p_plan = math.nan, math.nan
        if found is not None:
            lo = int(grid[max(0, np.searchsorted(grid, found) - 1)])
            hi = found
            if lo < hi and reach(lo)[1] < probability:
                while hi - lo > 1:
                    mid = (lo + hi) // 2
                    if reach(mid)[1] >= probability:
                        hi = mid
                    else:
                        lo = mid
            n_plan, p_plan = hi, reach(hi)[1]
        plans.append({"method": method, "point": rates["point"], "target": target,
                      "pilot_bound": rates["pilot_bound"], "n": n_plan,
                      "probability_at_n": p_plan})
    settings = {"fraction": fraction, "probability": probability, "alpha": alpha,
                "delta": delta, "pilot_n_a": len(a), "pilot_n_b": len(b),
                "simulations": simulations, "seed": seed}
    return SamplePlan(pd.DataFrame(plans), pd.DataFrame(curves), settings)


def pilot_plan(mechanism, i: int, j: int, *, pilot_n: int = 200, seed: int = 0,
               **options) -> SamplePlan:
    """Draw a pilot of ``pilot_n`` rows per identity from a mechanism's pair and plan it.

    ``options`` go to :func:`plan_sample_size`; the plan's ``settings`` also hold the
    pair's ``exact`` ε (drawn by :func:`privlab.ui.plots.sample_size_curve`).

    Example:
        >>> from privlab.epsilon.validity import laplace_1d
        >>> p = pilot_plan(laplace_1d(1.0), 0, 1, methods=["dp-sniper"], alpha=0.025,
        ...                delta=0.0, simulations=50)
        >>> p.settings["exact"]
        1.0
    """
    rng = np.random.default_rng([seed, 17])
    a, b = mechanism.sample(i, pilot_n, rng), mechanism.sample(j, pilot_n, rng)
    plan = plan_sample_size(a, b, seed=seed, **options)
    plan.settings["exact"] = float(mechanism.pair_epsilon(i, j))
    return plan


def check_plan(mechanism, i: int, j: int, *, method: str = "reserved", pilot_n: int = 200,
               runs: int = 20, fraction: float = 0.5, probability: float = 0.9,
               alpha: float = 0.025, delta: float = 0.0, seed: int = 0) -> dict[str, Any]:
    """Does the predicted n reach the target? ``runs`` fresh pilots, plans and audits.

    Runs whose pilot gives no plan are counted in ``unplanned`` and not audited.

    Returns:
        ``{"method", "exact", "runs", "planned", "unplanned", "successes", "rate",
        "median_n", "median_target"}``; ``rate`` = successes / planned (NaN if none).

    Example:
        >>> from privlab.epsilon.validity import laplace_1d
        >>> r = check_plan(laplace_1d(2.0), 0, 1, runs=2, pilot_n=100)
        >>> r["planned"] + r["unplanned"]
        2
    """
    caller = "check_plan"
    if isinstance(runs, bool) or not isinstance(runs, (int, np.integer)) or runs < 1:
        raise invalid("runs", caller, "a positive integer", runs)
    if method not in PLANNED:
        raise invalid("method", caller, f"one of {PLANNED}", method)
    auditor = _auditor(method, alpha)
    ns, targets, successes = [], [], 0
    for r in range(runs):
        rng = np.random.default_rng([seed, 11, r])
        pilot_a, pilot_b = mechanism.sample(i, pilot_n, rng), mechanism.sample(j, pilot_n, rng)
        plan = plan_sample_size(pilot_a, pilot_b, methods=[method], fraction=fraction,
                                probability=probability, alpha=alpha, delta=delta,
                                seed=seed + r)
        row = plan.plan.iloc[0]
        if not math.isfinite(row["n"]):
            continue
        n = int(row["n"])
        a, b = mechanism.sample(i, n, rng), mechanism.sample(j, n, rng)
        value = auditor.audit(a, b, delta=delta, seed=seed + 1000 + r).value
        successes += int(value >= row["target"] - 1e-12)
        ns.append(n)
        targets.append(float(row["target"]))
    planned = len(ns)
    return {"method": method, "exact": float(mechanism.pair_epsilon(i, j)), "runs": runs,
            "planned": planned, "unplanned": runs - planned, "successes": successes,
            "rate": successes / planned if planned else math.nan,
            "median_n": float(np.median(ns)) if ns else math.nan,
            "median_target": float(np.median(targets)) if targets else math.nan}
