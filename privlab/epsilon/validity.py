"""Validity sweep on tight cases: how often a certificate lands above the exact ε.

A certificate at per-bound level α promises P(bound > ε) ≤ 2α; violations can only be
counted where a region attains ε (1-d Laplace, two-output randomized response) and the
sample lets the bound reach ε. A deliberately wrong bound checks that the sweep can see
an error. See docs/methods/epsilon-validity.md.
"""

from __future__ import annotations

import contextlib
import importlib
import math
from typing import Callable, Iterator, Sequence

import numpy as np
import pandas as pd
from scipy import special

import privlab.epsilon.mechanisms as M
from privlab.epsilon.auditors.base import _check_alpha
from privlab.epsilon.auditors.bounds import certified_epsilon, clopper_pearson_lower, \
    clopper_pearson_upper
from privlab.epsilon.auditors.dpsniper import DPSniper
from privlab.epsilon.auditors.hockey_stick import HockeyStickTester
from privlab.epsilon.auditors.mmd_finite import MMDFinite
from privlab.epsilon.auditors.reserved import ReservedTest
from privlab.epsilon.auditors.sequential import FixedRule, SequentialCertificate, \
    SequentialReservedTest
from privlab.errors import invalid

#: Per-bound level of the sweep (each certificate: P(bound > ε) ≤ 2·TIGHT_ALPHA = 0.05).
TIGHT_ALPHA = 0.025
#: Columns of a :func:`tight_sweep` frame.
COLUMNS = ("method", "case", "epsilon", "n", "rep", "value", "exact_epsilon", "attainable",
           "nominal")
TOL = 1e-9
#: The modules that read the Clopper–Pearson bounds by name (:func:`with_upper_bound`).
_CP_MODULES = ("privlab.epsilon.auditors.bounds", "privlab.epsilon.auditors.dpsniper",
               "privlab.epsilon.auditors.hockey_stick")


def laplace_1d(epsilon: float) -> M.LaplaceMechanism:
    """Laplace mechanism on two one-coordinate prototypes 0 and 1 (sensitivity 1).

    Example:
        >>> laplace_1d(1.0).pair_epsilon(0, 1)
        1.0
    """
    protos = M.PrototypeSet("dispersed", np.array([[0.0], [1.0]]), 0, 1.0, 1.0, (0, 1), (0, 1))
    return M.LaplaceMechanism(protos, epsilon)


def response_2(epsilon: float) -> M.RandomizedResponse:
    """Randomized response between two outputs, 0 and 10, on one coordinate.

    Example:
        >>> abs(response_2(1.0).pair_epsilon(0, 1) - 1.0) < 1e-3
        True
    """
    protos = M.PrototypeSet("dispersed", np.array([[0.0], [10.0]]), 0, 10.0, 10.0, (0, 1),
                            (0, 1))
    return M.RandomizedResponse(protos, epsilon)


def _row(method, case, value, exact, attainable, nominal):
    return {"method": method, "case": case, "value": float(value),
            "exact_epsilon": float(exact), "attainable": float(attainable),
            "nominal": float(nominal)}


def tight_replicate(epsilon: float, n: int, rep: int, alpha: float = TIGHT_ALPHA,
                    upper: Callable | None = None) -> pd.DataFrame:
    """One fresh replicate of every certificate on both tight cases at (ε, n).

    The methods run on each case are listed in docs/methods/epsilon-validity.md.

    Args:
        epsilon: the mechanisms' ε (> 0).
        n: rows per identity (≥ 8).
        rep: replicate index (seeds the rows and the auditors).
        alpha: level of each one-sided bound.
        upper: optional replacement for the Clopper–Pearson upper bound
            (:func:`with_upper_bound`); None keeps the library's.

    Returns:
        A frame with :data:`COLUMNS`; ``nominal`` is the promised violation rate 2·alpha.
    """
    caller = "tight_replicate"
    alpha = _check_alpha(alpha, caller)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 8:
        raise invalid("n", caller, "an integer ≥ 8", n)
    if not isinstance(epsilon, (int, float)) or not 0 < epsilon < 50:
        raise invalid("epsilon", caller, "a number in (0, 50)", epsilon)
    ctx = with_upper_bound(upper) if upper is not None else contextlib.nullcontext()
    with ctx:
        return _tight_replicate(float(epsilon), int(n), int(rep), alpha)


def _tight_replicate(epsilon, n, rep, alpha):
    nominal = 2.0 * alpha
    rng = np.random.default_rng([rep, n, int(round(epsilon * 1000))])
    lap = laplace_1d(epsilon)
    a, b = lap.sample(0, n, rng), lap.sample(1, n, rng)
    rr = response_2(epsilon)
    ra, rb = rr.sample(0, n, rng), rr.sample(1, n, rng)
    exact_rr = rr.pair_epsilon(0, 1)
    rows = []
    fp, fn = int(np.sum(a[:, 0] > 1.0)), int(np.sum(b[:, 0] <= 1.0))
    rows.append(_row("fixed region", "laplace-1d", certified_epsilon(fp, n, fn, n, alpha),
                     epsilon, certified_epsilon(0, n, 0, n, alpha), nominal))
    cert = SequentialCertificate(FixedRule(lambda x: x[:, 0], 1, 1.0), alpha, 0.0)
    for start in range(0, n, 25):
        cert.update(a[start:start + 25], b[start:start + 25])
    attain = SequentialCertificate(FixedRule(lambda x: x[:, 0], 1, 1.0), alpha, 0.0)
    attain.update(np.zeros((n, 1)), np.full((n, 1), 2.0))
    rows.append(_row("sequential, fixed region", "laplace-1d", cert.bound, epsilon,
                     attain.bound, nominal))
    for auditor in (ReservedTest(alpha), DPSniper(alpha=alpha), SequentialReservedTest(
            alpha=alpha)):
        r = auditor.audit(a, b, delta=0.0, seed=rep)
        rows.append(_row(auditor.name, "laplace-1d", r.value, epsilon,
                         r.details["attainable"], nominal))
    r = HockeyStickTester(epsilon=epsilon, delta=0.0, alpha=alpha).audit(a, b, delta=0.0,
                                                                           seed=rep)
    rows.append(_row("hockey-stick", "laplace-1d", r.value, epsilon, r.details["attainable"],
                     nominal))
    rows.append(_row("hockey-stick: true claim refuted", "laplace-1d",
                     float(r.details["reject"]), 0.0, 1.0, nominal))
    for auditor in (ReservedTest(alpha), DPSniper(alpha=alpha)):
        r = auditor.audit(ra, rb, delta=0.0, seed=rep)
        rows.append(_row(auditor.name, "response-2", r.value, exact_rr,
                         r.details["attainable"], nominal))
    r = MMDFinite(alpha=alpha, bandwidth=1.0).audit(ra, rb, delta=0.0, seed=rep)
    rows.append(_row("mmd-finite", "response-2", r.value, exact_rr, r.details["attainable"],
                     nominal))
    out = pd.DataFrame(rows)
    out["epsilon"], out["n"], out["rep"] = epsilon, n, rep
    return out[list(COLUMNS)]


def tight_sweep(epsilons: Sequence[float], sizes: Sequence[int], reps: int,
                alpha: float = TIGHT_ALPHA, upper: Callable | None = None,
                n_jobs: int = 1) -> pd.DataFrame:
    """:func:`tight_replicate` over every (ε, n) and ``reps`` replicates.

    Args:
        epsilons: the mechanisms' ε values.
        sizes: rows per identity.
        reps: replicates per cell.
        alpha: level of each one-sided bound.
        upper: optional replacement upper bound (applied inside each worker).
        n_jobs: worker processes (joblib); 1 runs here.

    Returns:
        The concatenated frame (:data:`COLUMNS`).

    Example:
        >>> f = tight_sweep([1.0], [40], reps=1)
        >>> sorted(f["case"].unique())
        ['laplace-1d', 'response-2']
    """
    if isinstance(reps, bool) or not isinstance(reps, (int, np.integer)) or reps < 1:
        raise invalid("reps", "tight_sweep", "a positive integer", reps)
    cells = [(float(e), int(n), r) for e in epsilons for n in sizes for r in range(reps)]
    if n_jobs == 1:
        parts = [tight_replicate(e, n, r, alpha, upper) for e, n, r in cells]
    else:
        from joblib import Parallel, delayed
        parts = Parallel(n_jobs=n_jobs)(delayed(tight_replicate)(e, n, r, alpha, upper)
                                        for e, n, r in cells)
    return pd.concat(parts, ignore_index=True)


def _violations(frame: pd.DataFrame) -> pd.Series:
    """Rows whose bound lands above the exact ε."""
    return frame["value"] > frame["exact_epsilon"] + TOL


def _informative(frame: pd.DataFrame) -> pd.Series:
    """Rows whose attainable bound lies above the exact ε (a violation was possible)."""
    return frame["attainable"] > frame["exact_epsilon"] + TOL


def violation_table(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per method and case: informative evaluations, violations, rate and exact interval.

    Only informative evaluations enter the rate; ``detected`` is True when the one-sided
    Clopper–Pearson ``rate_lower`` exceeds the nominal level (anti-conservative).

    Example:
        >>> f = pd.DataFrame({"method": ["m"] * 3, "case": ["c"] * 3, "value": [0.5, 2.0, 0.1],
        ...                   "exact_epsilon": [1.0] * 3, "attainable": [3.0, 3.0, 0.5],
        ...                   "nominal": [0.05] * 3})
        >>> row = violation_table(f).iloc[0]
        >>> int(row["informative"]), int(row["violations"]), float(row["rate"])
        (2, 1, 0.5)
    """
    alpha = 1.0 - confidence
    out = []
    for (method, case), g in frame.groupby(["method", "case"], sort=True):
        inf = g[_informative(g)]
        k, m = int(_violations(inf).sum()), len(inf)
        nominal = float(g["nominal"].iloc[0])
        row = {"method": method, "case": case, "evaluations": len(g), "informative": m,
               "violations": k, "rate": k / m if m else math.nan,
               "rate_lower": clopper_pearson_lower(k, m, alpha) if m else math.nan,
               "rate_upper": clopper_pearson_upper(k, m, alpha) if m else math.nan,
               "nominal": nominal}
        row["detected"] = bool(m and row["rate_lower"] > nominal)
        out.append(row)
    return pd.DataFrame(out)


def cell_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per method, case, ε and n: the share of informative evaluations and the violations.

    A cell whose ``informative`` share is 0 carries no information about validity: no
    bound there could have exceeded the exact ε.
    """
    g = frame.assign(informative=_informative(frame), violation=_violations(frame))
    return (g.groupby(["method", "case", "epsilon", "n"], sort=True)
             .agg(evaluations=("value", "size"), informative=("informative", "mean"),
                  violations=("violation", "sum"), mean_bound=("value", "mean"))
             .reset_index())


def fixed_region_probability(epsilon: float, n: int, alpha: float = TIGHT_ALPHA,
                             upper: Callable | None = None) -> float:
    """Exact probability that the fixed-region certificate on 1-d Laplace exceeds ε.

    The error counts of the region x > 1 are independent binomials, so the probability
    is a finite sum (far below the nominal 2α).

    Example:
        >>> round(fixed_region_probability(2.0, 100), 4)
        0.0041
    """
    from scipy import stats

    upper = upper or clopper_pearson_upper
    ks = np.arange(n + 1)
    p_fp, p_fn = 0.5 * math.exp(-epsilon), 0.5
    w_fp, w_fn = stats.binom.pmf(ks, n, p_fp), stats.binom.pmf(ks, n, p_fn)
    u = np.array([upper(int(k), n, alpha) for k in ks])
    total = 0.0
    for i in np.nonzero(w_fp > 1e-15)[0]:
        for j in np.nonzero(w_fn > 1e-15)[0]:
            if _from_rates(u[i], u[j]) > epsilon + TOL:
                total += w_fp[i] * w_fn[j]
    return float(total)


def _from_rates(u_fp: float, u_fn: float) -> float:
    """Eq. 16 on two error-rate bounds, read at call time (patchable)."""
    from privlab.epsilon.auditors.bounds import epsilon_from_rates
    return epsilon_from_rates(u_fp, u_fn)


def fixed_region_sweep(epsilons: Sequence[float], sizes: Sequence[int], reps: int,
                       alpha: float = TIGHT_ALPHA, upper: Callable | None = None,
                       seed: int = 0) -> pd.DataFrame:
    """The fixed-region certificate alone on 1-d Laplace, many replicates per cell.

    Its exact violation probability is known (:func:`fixed_region_probability`), so a
    large sweep detects an anti-conservative bound (:func:`power_table`).

    Returns:
        One row per cell: epsilon, n, reps, violations, expected (reps × the exact
        probability under the library's bound), attainable.
    """
    return fixed_region_sweeps(epsilons, sizes, reps, [upper], alpha, seed)[0]


def fixed_region_sweeps(epsilons: Sequence[float], sizes: Sequence[int], reps: int,
                        uppers: Sequence[Callable | None], alpha: float = TIGHT_ALPHA,
                        seed: int = 0) -> list[pd.DataFrame]:
    """:func:`fixed_region_sweep` for each bound of ``uppers`` (None: the library's), on
    the same draws: each table is the one its own sweep of that ``seed`` gives."""
    alpha = _check_alpha(alpha, "fixed_region_sweep")
    ups = [up or clopper_pearson_upper for up in uppers]
    rows: list[list[dict]] = [[] for _ in ups]
    for e in epsilons:
        lap = laplace_1d(float(e))
        for n in sizes:
            rng = np.random.default_rng([seed, int(n), int(round(float(e) * 1000))])
            counts = [0] * len(ups)
            for _ in range(reps):
                a, b = lap.sample(0, n, rng), lap.sample(1, n, rng)
                fp, fn = int(np.sum(a[:, 0] > 1.0)), int(np.sum(b[:, 0] <= 1.0))
                for u, up in enumerate(ups):
                    counts[u] += _from_rates(up(fp, n, alpha), up(fn, n, alpha)) > float(e) + TOL
            for table, count in zip(rows, counts):
                table.append({"epsilon": float(e), "n": int(n), "reps": int(reps),
                              "violations": int(count),
                              "expected": reps * fixed_region_probability(float(e), int(n),
                                                                          alpha),
                              "attainable": certified_epsilon(0, n, 0, n, alpha)})
    return [pd.DataFrame(table) for table in rows]


def power_table(cells: pd.DataFrame, alpha: float = TIGHT_ALPHA) -> pd.DataFrame:
    """Observed violations against the exact count a valid bound gives, per cell and pooled.

    A small one-sided exact ``p_value`` says the bound that produced ``cells`` is
    anti-conservative.
    """
    from scipy import stats

    out, pooled = [], np.array([1.0])
    for _, c in cells.iterrows():
        p = fixed_region_probability(c["epsilon"], int(c["n"]), alpha)
        pmf = stats.binom.pmf(np.arange(int(c["reps"]) + 1), int(c["reps"]), p)
        pooled = np.convolve(pooled, pmf)
        out.append({"epsilon": c["epsilon"], "n": int(c["n"]), "reps": int(c["reps"]),
                    "violations": int(c["violations"]), "valid_probability": p,
                    "expected": c["reps"] * p,
                    "p_value": float(stats.binom.sf(int(c["violations"]) - 1, int(c["reps"]), p))
                    if c["violations"] else 1.0})
    total = int(cells["violations"].sum())
    out.append({"epsilon": math.nan, "n": -1, "reps": int(cells["reps"].sum()),
                "violations": total, "valid_probability": math.nan,
                "expected": float(sum(r["expected"] for r in out)),
                "p_value": float(min(1.0, pooled[total:].sum()))})
    return pd.DataFrame(out)


def off_by_one_upper(errors: int, trials: int, alpha: float) -> float:
    """A deliberately wrong Clopper–Pearson upper bound: Beta(k, n − k + 1) at 1 − alpha.

    It undercovers (exact at k = 0); for power checks only.

    Example:
        >>> off_by_one_upper(3, 50, 0.025) < clopper_pearson_upper(3, 50, 0.025)
        True
    """
    k, n = int(errors), int(trials)
    if k >= n:
        return 1.0
    if k == 0:
        return float(-math.expm1(math.log(alpha) / n))
    return float(special.betaincinv(k, n - k + 1, 1.0 - alpha))


@contextlib.contextmanager
def with_upper_bound(upper: Callable[[int, int, float], float]) -> Iterator[None]:
    """Within the block, every Clopper–Pearson certificate uses ``upper`` (and its mirror).

    The betting and MMD routes do not read it. For power checks; restores on exit.
    """
    if not callable(upper):
        raise invalid("upper", "with_upper_bound", "a callable (errors, trials, alpha)", upper)

    def lower(errors, trials, alpha):
        return 1.0 - upper(trials - errors, trials, alpha)

    saved = []
    for path in _CP_MODULES:
        module = importlib.import_module(path)  # the module, not a same-named factory
        for name, fn in (("clopper_pearson_upper", upper), ("clopper_pearson_lower", lower)):
            saved.append((module, name, getattr(module, name)))
            setattr(module, name, fn)
    try:
        yield
    finally:
        for module, name, fn in reversed(saved):
            setattr(module, name, fn)
