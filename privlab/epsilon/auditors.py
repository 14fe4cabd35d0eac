"""Turning the separation of two identities' outputs into an "ε", with its meaning.

Four routes, one protocol (:class:`Auditor`), one result type (:class:`AuditResult`).
Every result carries the status it formally has (:class:`Status`):

===============  ==========================================  ==============================
auditor          what the number is                          status
===============  ==========================================  ==============================
``gaussmech``    Gaussian-mechanism formula inverted with     diagnostic
                 sample means and residual scales (Eq. 9)
``kde-lr``       sum over coordinates of the largest          diagnostic
                 marginal log-density ratio (Eqs. 10–11)
``mmd-tv``       sample MMD put into the pure-DP population   uncertified population bound
                 bound ln((1+MMD/2)/(1−MMD/2)) (Eq. 14)
``roc-ht``       Kairouz–Oh–Viswanath conversion of an        descriptive
                 out-of-fold ROC curve (Eq. 15)
``reserved``     fixed classifier and threshold chosen on     finite-sample certificate
                 development data, evaluated once on unused   (under iid rows)
                 data with Clopper–Pearson bounds (Eq. 16)
===============  ==========================================  ==============================

Only the reserved test is a lower confidence bound on ε. The others can be large when
the true ε is 0 (GaussMech, KDE-LR, the +∞ of ROC-HT) or above the truth by chance
(MMD-TV); compare them with mechanisms of known ε before reading anything into them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import enum
import html
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

import numpy as np
import pandas as pd
from scipy import special

from privlab.epsilon.mechanisms import auc_from_scores
from privlab.errors import invalid, wrong_type

DEFAULT_DELTA = 1e-5


class Status(str, enum.Enum):
    """What a reported number formally is (Table 1 of the specification)."""

    DIAGNOSTIC = "diagnostic"
    POPULATION_BOUND = "uncertified population bound"
    DESCRIPTIVE = "descriptive"
    CERTIFICATE = "finite-sample certificate"

    @property
    def is_evidence_about_dp(self) -> bool:
        """True only for a finite-sample certificate (a confidence bound on ε)."""
        return self is Status.CERTIFICATE


# ------------------------------------------------------------------ Clopper–Pearson, Eq. 16


def _check_count(value, name: str, caller: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise invalid(name, caller, "a nonnegative integer", value)
    return int(value)


def _check_alpha(alpha, caller: str) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.floating)) \
            or not 0 < float(alpha) < 1:
        raise invalid("alpha", caller, "in (0, 1)", alpha)
    return float(alpha)


def _check_delta(delta, caller: str) -> float:
    if isinstance(delta, bool) or not isinstance(delta, (int, float, np.floating)) \
            or not 0 <= float(delta) < 1:
        raise invalid("delta", caller, "in [0, 1)", delta)
    return float(delta)


def clopper_pearson_upper(errors: int, trials: int, alpha: float) -> float:
    """One-sided exact (Clopper–Pearson) upper confidence bound on an error rate.

    Args:
        errors: observed errors k (0 ≤ k ≤ trials).
        trials: number of trials n (≥ 1).
        alpha: one-sided level; P(rate > bound) ≤ alpha.

    Returns:
        The (1 − alpha) upper bound: the Beta(k + 1, n − k) quantile at 1 − alpha, or 1
        when k = n.

    Raises:
        PrivlabValueError: on negative counts, k > n, n = 0 or alpha outside (0, 1).

    Example:
        >>> round(clopper_pearson_upper(0, 30, 0.05), 4)
        0.095
    """
    caller = "clopper_pearson_upper"
    k = _check_count(errors, "errors", caller)
    n = _check_count(trials, "trials", caller)
    alpha = _check_alpha(alpha, caller)
    if n == 0:
        raise invalid("trials", caller, "at least 1", trials)
    if k > n:
        raise invalid("errors", caller, f"at most trials={n}", errors)
    if k == n:
        return 1.0
    if k == 0:
        return float(-math.expm1(math.log(alpha) / n))
    return float(special.betaincinv(k + 1, n - k, 1.0 - alpha))


def clopper_pearson_lower(errors: int, trials: int, alpha: float) -> float:
    """One-sided exact lower confidence bound; the mirror of :func:`clopper_pearson_upper`.

    Example:
        >>> clopper_pearson_lower(0, 10, 0.05)
        0.0
    """
    caller = "clopper_pearson_lower"
    k = _check_count(errors, "errors", caller)
    n = _check_count(trials, "trials", caller)
    if n and k > n:
        raise invalid("errors", caller, f"at most trials={n}", errors)
    return 1.0 - clopper_pearson_upper(n - k, n, alpha)


def _ln_ratio(numerator: float, denominator: float) -> float | None:
    """ln(num/den) with the omission rules: None if num ≤ 0, +∞ if den = 0 < num."""
    if numerator <= 0:
        return None
    if denominator <= 0:
        return math.inf
    return math.log(numerator / denominator)


def epsilon_from_rates(fpr: float, fnr: float, delta: float = 0.0) -> float:
    """The hypothesis-testing conversion max{0, ln((1−δ−a)/b), ln((1−δ−b)/a)}.

    A term with a nonpositive numerator is omitted; a positive numerator over a zero
    denominator gives +∞.

    Example:
        >>> round(epsilon_from_rates(0.1, 0.1), 4)
        2.1972
    """
    terms = [0.0]
    for num, den in ((1.0 - delta - fpr, fnr), (1.0 - delta - fnr, fpr)):
        value = _ln_ratio(num, den)
        if value is not None:
            terms.append(value)
    return float(max(terms))


def certified_epsilon(false_positives: int, negatives: int, false_negatives: int,
                      positives: int, alpha: float, delta: float = 0.0) -> float:
    """Lower confidence bound on ε from one fixed test's errors on reserved data (Eq. 16).

    With U_FP and U_FN the one-sided Clopper–Pearson upper bounds at level ``alpha``,
    returns max{0, ln((1−δ−U_FN)/U_FP), ln((1−δ−U_FP)/U_FN)}, omitting terms with a
    nonpositive numerator. If the rows are iid draws and the test was fixed before the
    data were seen, the true ε is at least this value with probability ≥ 1 − 2·alpha
    (use a Bonferroni ``alpha`` = family level / number of error rates when testing many
    pairs).

    Args:
        false_positives: negatives classified as positive.
        negatives: number of negative-class test rows (≥ 1).
        false_negatives: positives classified as negative.
        positives: number of positive-class test rows (≥ 1).
        alpha: per-error-rate level in (0, 1).
        delta: the δ of the (ε, δ) claim being tested, in [0, 1).

    Returns:
        ε_LB ≥ 0 (a float, finite because Clopper–Pearson bounds are positive).

    Raises:
        PrivlabValueError: on negative counts, more errors than rows, empty classes, or
            alpha/delta out of range; the message names the parameter.

    Example:
        >>> round(certified_epsilon(0, 30, 0, 30, alpha=0.000625), 3)
        1.277
        >>> certified_epsilon(0, 10, 0, 10, alpha=0.000625)
        0.0
    """
    caller = "certified_epsilon"
    fp = _check_count(false_positives, "false_positives", caller)
    neg = _check_count(negatives, "negatives", caller)
    fn = _check_count(false_negatives, "false_negatives", caller)
    pos = _check_count(positives, "positives", caller)
    if neg == 0:
        raise invalid("negatives", caller, "at least 1", negatives)
    if pos == 0:
        raise invalid("positives", caller, "at least 1", positives)
    if fp > neg:
        raise invalid("false_positives", caller, f"at most negatives={neg}", false_positives)
    if fn > pos:
        raise invalid("false_negatives", caller, f"at most positives={pos}", false_negatives)
    alpha = _check_alpha(alpha, caller)
    delta = _check_delta(delta, caller)
    u_fp = clopper_pearson_upper(fp, neg, alpha)
    u_fn = clopper_pearson_upper(fn, pos, alpha)
    return epsilon_from_rates(u_fp, u_fn, delta)


# --------------------------------------------------------------------------- results


@dataclass
class AuditResult:
    """One auditor's answer for one pair of identities.

    Attributes:
        method: the auditor's registry name.
        status: what ``value`` formally is; only ``Status.CERTIFICATE`` is a confidence
            bound on ε.
        value: the reported number (may be +∞ for ROC-HT's direct conversion).
        details: further numbers: e.g. ``auc``, ``corner`` (the exact (0, 1) ROC point),
            ``mmd``, ``tighter`` (2·artanh(MMD/√2)), ``p_value``, ``u_fpr``, ``u_fnr``,
            ``attainable`` (the largest bound the test could have given).
        provenance: settings and seeds that produced it.
    """

    method: str
    status: Status
    value: float
    details: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """One-row table: method, status, value, then the details."""
        row = {"method": self.method, "status": self.status.value, "value": self.value}
        row.update(self.details)
        return pd.DataFrame([row])

    def _repr_html_(self) -> str:
        caption = html.escape(f"{self.method}: {self.status.value}")
        return f"<b>{caption}</b>" + self.to_frame().to_html(index=False)


@dataclass
class AuditTable:
    """Many auditors on many identity pairs (what :func:`audit_pairs` returns).

    Attributes:
        results: one :class:`AuditResult` per (pair, method), each with ``pair`` and
            ``pair_index`` in its provenance.
        provenance: settings shared by all rows (methods, δ, α, seed, data hash).
    """

    results: list[AuditResult]
    provenance: dict[str, Any] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """Tidy table: one row per pair and method."""
        rows = []
        for r in self.results:
            row = {"pair_index": r.provenance.get("pair_index"),
                   "id_a": r.provenance.get("pair", (None, None))[0],
                   "id_b": r.provenance.get("pair", (None, None))[1],
                   "method": r.method, "status": r.status.value, "value": r.value}
            row.update(r.details)
            rows.append(row)
        return pd.DataFrame(rows)

    def summary(self) -> pd.DataFrame:
        """Per method: status, median of finite values, count of +∞, max value."""
        frame = self.to_frame()
        if frame.empty:
            return frame
        out = []
        for method, group in frame.groupby("method", sort=False):
            values = group["value"].astype(float)
            finite = values[np.isfinite(values)]
            out.append({"method": method, "status": group["status"].iloc[0],
                        "pairs": len(group),
                        "median (finite)": float(finite.median()) if len(finite) else math.nan,
                        "max (finite)": float(finite.max()) if len(finite) else math.nan,
                        "+inf": int(np.isinf(values).sum())})
        return pd.DataFrame(out)

    def _repr_html_(self) -> str:
        return ("<b>ε audit: only the finite-sample certificate is a bound on ε</b>"
                + self.summary().to_html(index=False))


# ---------------------------------------------------------------------------- auditors


@runtime_checkable
class Auditor(Protocol):
    """Maps samples from two identities to an :class:`AuditResult`."""

    name: str
    status: Status

    def audit(self, a: np.ndarray, b: np.ndarray, *, delta: float = DEFAULT_DELTA,
              seed: int = 0) -> AuditResult:
        """Audit outputs ``a`` (identity A, shape (n_a, d)) against ``b`` (n_b, d)."""


def _as_samples(x, name: str, caller: str) -> np.ndarray:
    if not isinstance(x, (np.ndarray, list, tuple, pd.DataFrame)):
        raise wrong_type(name, caller, "a 2-D array of shape (n, d)", x)
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 2:
        raise invalid(name, caller, "a 2-D array of shape (n, d)", f"shape {arr.shape}",
                      given_is_text=True)
    if arr.shape[0] < 2:
        raise invalid(name, caller, "at least 2 rows", f"{arr.shape[0]} rows",
                      given_is_text=True)
    if not np.isfinite(arr).all():
        raise invalid(name, caller, "finite everywhere", "NaN or infinite entries",
                      given_is_text=True, fix="Drop or repair those rows first.")
    return arr


class BaseAuditor(ABC):
    """Template: :meth:`audit` validates inputs and fills provenance; subclasses fill
    :meth:`_audit`, returning ``(value, details)``."""

    name = "base"
    status = Status.DIAGNOSTIC
    min_rows = 2

    def audit(self, a, b, *, delta: float = DEFAULT_DELTA, seed: int = 0) -> AuditResult:
        """Audit two identities' samples.

        Args:
            a: outputs of identity A, array (n_a, d).
            b: outputs of identity B, array (n_b, d), same d.
            delta: the δ used by the formula (ignored by auditors without one).
            seed: seed for any randomness (folds, splits, permutations).

        Returns:
            An :class:`AuditResult` labelled with this auditor's status.

        Raises:
            PrivlabValueError / PrivlabTypeError: on malformed samples or δ.
        """
        caller = f"{type(self).__name__}.audit"
        a = _as_samples(a, "a", caller)
        b = _as_samples(b, "b", caller)
        if a.shape[1] != b.shape[1]:
            raise invalid("b", caller, f"of dimension {a.shape[1]} like 'a'",
                          f"dimension {b.shape[1]}", given_is_text=True)
        for name, x in (("a", a), ("b", b)):
            if x.shape[0] < self.min_rows:
                raise invalid(name, caller, f"at least {self.min_rows} rows",
                              f"{x.shape[0]} rows", given_is_text=True)
        delta = _check_delta(delta, caller)
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise wrong_type("seed", caller, "an int", seed)
        value, details = self._audit(a, b, delta, int(seed))
        prov = {"n_a": a.shape[0], "n_b": b.shape[0], "dim": a.shape[1], "delta": delta,
                "seed": int(seed)}
        prov.update(self.settings())
        return AuditResult(self.name, self.status, float(value), details, prov)

    def settings(self) -> dict[str, Any]:
        """The auditor's own settings, recorded in provenance."""
        return {}

    @abstractmethod
    def _audit(self, a: np.ndarray, b: np.ndarray, delta: float, seed: int):
        """Return ``(value, details)`` for samples already validated by :meth:`audit`."""

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.settings().items())
        return f"{type(self).__name__}({args})"


class GaussMech(BaseAuditor):
    """Gaussian-mechanism signal-to-noise score (Eq. 9); a diagnostic, not ε.

    ε̂ = ||μ̂_A − μ̂_B||_2 √(2 ln(1.25/δ)) / max(σ̂_A, σ̂_B), σ̂ the root-mean-square
    residual per coordinate. Under an exact null it stays near
    √(2 ln(1.25/δ)) √(2d/n) (:func:`gaussmech_null_floor`). The formula's δ is set
    here (default 1e-5) and the ``delta`` passed to :meth:`audit` is not used.

    Args:
        delta: the δ inside the formula, in (0, 1).

    Example:
        >>> rng = np.random.default_rng(0)
        >>> r = GaussMech().audit(rng.normal(size=(50, 4)), rng.normal(size=(50, 4)))
        >>> r.status.value, r.value > 0
        ('diagnostic', True)
    """

    name = "gaussmech"
    status = Status.DIAGNOSTIC

    def __init__(self, delta: float = DEFAULT_DELTA):
        if isinstance(delta, bool) or not isinstance(delta, (int, float)) or not 0 < delta < 1:
            raise invalid("delta", "GaussMech", "in (0, 1)", delta,
                          "The Gaussian formula needs δ > 0; the default is 1e-5.")
        self.delta = float(delta)

    def settings(self):
        return {"formula_delta": self.delta}

    def _audit(self, a, b, delta, seed):
        # The formula's own δ (always 1e-5 by default) is used whatever the caller's δ:
        # the number is a score, not an (ε, δ) statement.
        delta = self.delta
        mu_a, mu_b = a.mean(axis=0), b.mean(axis=0)
        d = a.shape[1]
        s_a = math.sqrt(((a - mu_a) ** 2).sum() / (a.shape[0] * d))
        s_b = math.sqrt(((b - mu_b) ** 2).sum() / (b.shape[0] * d))
        scale = max(s_a, s_b)
        dist = float(np.linalg.norm(mu_a - mu_b))
        factor = math.sqrt(2.0 * math.log(1.25 / delta))
        value = math.inf if scale == 0 and dist > 0 else (0.0 if dist == 0 else dist * factor / scale)
        return value, {"mean_distance": dist, "residual_scale": scale}


def gaussmech_null_floor(dim: int, n: int, delta: float = DEFAULT_DELTA) -> float:
    """Leading-order GaussMech value under an exact null (Eq. 22).

    √(2 ln(1.25/δ)) · √(2d/n): the score measures the error of the two sample means.

    Example:
        >>> round(gaussmech_null_floor(512, 100), 2)
        15.5
    """
    if int(dim) < 1:
        raise invalid("dim", "gaussmech_null_floor", "at least 1", dim)
    if int(n) < 1:
        raise invalid("n", "gaussmech_null_floor", "at least 1", n)
    delta = _check_delta(delta, "gaussmech_null_floor")
    if delta == 0:
        raise invalid("delta", "gaussmech_null_floor", "in (0, 1)", delta)
    return math.sqrt(2.0 * math.log(1.25 / delta)) * math.sqrt(2.0 * dim / n)


def silverman_bandwidth(x: np.ndarray) -> np.ndarray:
    """Silverman's rule per column: std (ddof=1) · (3n/4)^(−1/5), as scipy's gaussian_kde.

    Zero-variance columns get a tiny positive bandwidth so densities stay defined.

    Example:
        >>> bool(silverman_bandwidth(np.arange(8.0).reshape(4, 2))[0] > 0)
        True
    """
    x = np.asarray(x, dtype=float)
    n = x.shape[0]
    h = x.std(axis=0, ddof=1) * (0.75 * n) ** (-0.2)
    tiny = 1e-9 * np.maximum(1.0, np.abs(x).max(axis=0))
    return np.maximum(h, tiny)


class KDELR(BaseAuditor):
    """Coordinate-wise KDE log-ratio sum (Eqs. 10–11); a diagnostic, not a joint ε.

    For each coordinate: Gaussian KDEs with identity-specific Silverman bandwidths, mixed
    with weight ``alpha`` with the uniform density on the grid interval (joint sample range
    plus three of the larger bandwidths), floored at ``floor``, evaluated on ``grid``
    points; the largest absolute log ratio is summed over coordinates.

    Args:
        alpha: smoothing weight in [0, 1].
        grid: number of grid points (≥ 2).
        floor: density floor τ > 0.
        chunk: coordinates evaluated at once (memory control).

    Example:
        >>> rng = np.random.default_rng(0)
        >>> r = KDELR(alpha=0.01).audit(rng.normal(size=(40, 3)), rng.normal(size=(40, 3)))
        >>> r.value > 0
        True
    """

    status = Status.DIAGNOSTIC

    def __init__(self, alpha: float = 0.0, grid: int = 201, floor: float = 1e-12,
                 chunk: int = 32):
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 <= alpha <= 1:
            raise invalid("alpha", "KDELR", "in [0, 1]", alpha)
        if not isinstance(grid, (int, np.integer)) or grid < 2:
            raise invalid("grid", "KDELR", "an integer >= 2", grid)
        if not floor > 0:
            raise invalid("floor", "KDELR", "> 0", floor)
        self.alpha, self.grid, self.floor, self.chunk = float(alpha), int(grid), float(floor), int(chunk)
        self.name = "kde-lr" if self.alpha == 0 else f"kde-lr-{self.alpha:g}"

    def settings(self):
        return {"alpha": self.alpha, "grid": self.grid, "floor": self.floor}

    def per_coordinate(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The per-coordinate scores ε̂^(d')_α (shape (d,))."""
        return self.per_coordinate_alphas(a, b, (self.alpha,))[0]

    def per_coordinate_alphas(self, a: np.ndarray, b: np.ndarray,
                              alphas: Sequence[float]) -> np.ndarray:
        """Per-coordinate scores for several smoothing weights from one density pass.

        Returns:
            Array (len(alphas), d).
        """
        h_a, h_b = silverman_bandwidth(a), silverman_bandwidth(b)
        margin = 3.0 * np.maximum(h_a, h_b)
        lo = np.minimum(a.min(axis=0), b.min(axis=0)) - margin
        hi = np.maximum(a.max(axis=0), b.max(axis=0)) + margin
        t = np.linspace(0.0, 1.0, self.grid)
        out = np.empty((len(alphas), a.shape[1]))
        norm = 1.0 / math.sqrt(2.0 * math.pi)
        for start in range(0, a.shape[1], self.chunk):
            sl = slice(start, start + self.chunk)
            grid = lo[sl, None] + (hi[sl] - lo[sl])[:, None] * t[None, :]  # (c, g)
            raw = []
            for x, h in ((a, h_a), (b, h_b)):
                z = (grid[:, :, None] - x[:, sl].T[:, None, :]) / h[sl, None, None]
                raw.append(np.exp(-0.5 * z * z).mean(axis=2) * norm / h[sl, None])
            uniform = 1.0 / (hi[sl] - lo[sl])[:, None]
            for k, alpha in enumerate(alphas):
                pa, pb = ((1.0 - alpha) * p + alpha * uniform if alpha else p for p in raw)
                out[k, sl] = np.abs(np.log(np.maximum(pa, self.floor))
                                    - np.log(np.maximum(pb, self.floor))).max(axis=1)
        return out

    def _audit(self, a, b, delta, seed):
        per = self.per_coordinate(a, b)
        return float(per.sum()), {"max_coordinate": float(per.max())}


def rbf_median_kernel(x: np.ndarray) -> tuple[np.ndarray, float]:
    """RBF Gram matrix exp(−||u−v||²/(2σ²)) with σ = median pairwise distance.

    Returns:
        (K of shape (n, n), σ). σ falls back to 1 when all points coincide.
    """
    sq = (x * x).sum(axis=1)
    d2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * x @ x.T, 0.0)
    iu = np.triu_indices(len(x), k=1)
    sigma = float(np.median(np.sqrt(d2[iu])))
    if not sigma > 0:
        sigma = 1.0
    return np.exp(-d2 / (2.0 * sigma * sigma)), sigma


def mmd2_unbiased(kernel: np.ndarray, in_a: np.ndarray) -> np.ndarray:
    """Unbiased MMD² (Eq. 7) from a pooled Gram matrix, for one or many labelings.

    Args:
        kernel: (N, N) Gram matrix of the pooled sample.
        in_a: boolean (N,) or (P, N): True where a row belongs to sample A.

    Returns:
        MMD²_u per labeling (scalar array or shape (P,)).
    """
    k0 = kernel - np.diag(np.diag(kernel))
    ia = np.atleast_2d(in_a).astype(float)
    ib = 1.0 - ia
    n = ia.sum(axis=1)
    m = ib.sum(axis=1)
    ka = ia @ k0
    saa = (ka * ia).sum(axis=1)
    sab = (ka * ib).sum(axis=1)
    sbb = ((ib @ k0) * ib).sum(axis=1)
    val = saa / (n * (n - 1)) + sbb / (m * (m - 1)) - 2.0 * sab / (n * m)
    return val if np.ndim(in_a) == 2 else val[0]


class MMDTV(BaseAuditor):
    """Sample MMD substituted into the pure-DP population bound (Eq. 14).

    Value: ln((1 + M/2)/(1 − M/2)) with M = √max(MMD²_u, 0) at the pair's median-heuristic
    RBF bandwidth. Also reports the tighter 2·artanh(M/√2) and, when ``permutations`` > 0,
    a permutation p-value (b + 1)/(P + 1) for equal distributions. The population formula
    is valid for pure DP; the sample value is not a confidence bound.

    Args:
        permutations: number of label permutations (0 skips the test).
        batch: permutations evaluated per matrix product.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> r = MMDTV(permutations=99).audit(rng.normal(size=(30, 3)), rng.normal(size=(30, 3)))
        >>> r.status.value, r.value < 0.2, 0 < r.details["p_value"] <= 1
        ('uncertified population bound', True, True)
    """

    name = "mmd-tv"
    status = Status.POPULATION_BOUND

    def __init__(self, permutations: int = 10_000, batch: int = 500):
        if isinstance(permutations, bool) or not isinstance(permutations, (int, np.integer)) \
                or permutations < 0:
            raise invalid("permutations", "MMDTV", "a nonnegative integer", permutations)
        self.permutations, self.batch = int(permutations), max(1, int(batch))

    def settings(self):
        return {"permutations": self.permutations}

    def _audit(self, a, b, delta, seed):
        pooled = np.vstack([a, b])
        kernel, bw = rbf_median_kernel(pooled)
        in_a = np.zeros(len(pooled), dtype=bool)
        in_a[: len(a)] = True
        stat = float(mmd2_unbiased(kernel, in_a))
        mmd = math.sqrt(max(stat, 0.0))
        half = mmd / 2.0
        value = math.inf if half >= 1 else math.log((1 + half) / (1 - half))
        tighter = math.inf if mmd >= math.sqrt(2) else 2.0 * math.atanh(mmd / math.sqrt(2))
        details = {"mmd2_u": stat, "mmd": mmd, "tighter": tighter, "bandwidth": bw}
        if self.permutations:
            rng = np.random.default_rng(seed)
            exceed, done = 0, 0
            while done < self.permutations:
                size = min(self.batch, self.permutations - done)
                labels = np.argsort(rng.random((size, len(pooled))), axis=1) < len(a)
                exceed += int((mmd2_unbiased(kernel, labels) >= stat).sum())
                done += size
            details["p_value"] = (exceed + 1) / (self.permutations + 1)
        return value, details


def _logistic():
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=1.0, solver="lbfgs", max_iter=1000)


def roc_epsilon(fpr: np.ndarray, tpr: np.ndarray, delta: float = 0.0) -> float:
    """Eq. 15 over ROC operating points: the largest conversion, with omission rules.

    Example:
        >>> roc_epsilon(np.array([0.0, 0.0, 1.0]), np.array([0.0, 0.5, 1.0]))
        inf
    """
    best = 0.0
    for f, t in zip(np.asarray(fpr, float), np.asarray(tpr, float)):
        for num, den in ((1.0 - delta - f, 1.0 - t), (t - delta, f)):
            value = _ln_ratio(num, den)
            if value is not None and value > best:
                best = value
    return float(best)


class ROCHT(BaseAuditor):
    """Out-of-fold ROC of a logistic regression, converted by Eq. 15; descriptive.

    5 stratified folds (fixed seed), logistic regression C = 1, lbfgs, max_iter 1000.
    Reports the Eq. 15 value (often +∞ from an endpoint with no observed errors), the AUC
    and whether the exact (0, 1) corner occurs.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> r = ROCHT().audit(rng.normal(size=(30, 3)), rng.normal(size=(30, 3)) + 3)
        >>> r.status.value, r.details["auc"] > 0.9
        ('descriptive', True)
    """

    name = "roc-ht"
    status = Status.DESCRIPTIVE
    min_rows = 5

    def __init__(self, folds: int = 5):
        if not isinstance(folds, (int, np.integer)) or folds < 2:
            raise invalid("folds", "ROCHT", "an integer >= 2", folds)
        self.folds = int(folds)
        self.min_rows = self.folds

    def settings(self):
        return {"folds": self.folds, "classifier": "LogisticRegression(C=1, lbfgs, 1000)"}

    def _audit(self, a, b, delta, seed):
        from sklearn.metrics import roc_curve
        from sklearn.model_selection import StratifiedKFold

        x = np.vstack([a, b])
        y = np.r_[np.zeros(len(a)), np.ones(len(b))]
        scores = np.empty(len(x))
        for train, test in StratifiedKFold(self.folds, shuffle=True,
                                           random_state=seed).split(x, y):
            scores[test] = _logistic().fit(x[train], y[train]).predict_proba(x[test])[:, 1]
        fpr, tpr, _ = roc_curve(y, scores, drop_intermediate=False)
        corner = bool(np.any((fpr == 0) & (tpr == 1)))
        auc = auc_from_scores(scores[y == 0], scores[y == 1])
        return roc_epsilon(fpr, tpr, delta), {"auc": auc, "corner": corner}


def choose_threshold(neg_scores: np.ndarray, pos_scores: np.ndarray, alpha: float,
                     delta: float = 0.0, test_sizes: tuple[int, int] | None = None):
    """Pick orientation and threshold on development scores.

    Each candidate rule "predict positive when orientation·score > threshold" is scored
    by the Eq. 16 bound its development error *rates* would give at the test-set sizes
    (``test_sizes`` = (negatives, positives); default the development sizes); ties go to
    the larger empirical balanced accuracy, then to the threshold in the middle of the
    tied range (the widest margin).

    Returns:
        (orientation ±1, threshold).

    Example:
        >>> choose_threshold(np.array([0.0, 1.0]), np.array([2.0, 3.0]), 0.05)
        (1, 1.5)
    """
    neg = np.asarray(neg_scores, float)
    pos = np.asarray(pos_scores, float)
    n0, n1 = test_sizes or (len(neg), len(pos))
    values = np.unique(np.concatenate([neg, pos]))
    cuts = np.concatenate([[values[0] - 1.0], (values[:-1] + values[1:]) / 2.0,
                           [values[-1] + 1.0]])
    best_key, best = None, []
    for orientation in (1, -1):
        for c in cuts:
            fpr = float(np.mean(orientation * neg > orientation * c))
            fnr = float(np.mean(orientation * pos <= orientation * c))
            fp = int(round(fpr * n0))
            fn = int(round(fnr * n1))
            bound = certified_epsilon(fp, n0, fn, n1, alpha, delta)
            key = (round(bound, 12), round(1.0 - (fpr + fnr) / 2.0, 12))
            if best_key is None or key > best_key:
                best_key, best = key, [(orientation, c)]
            elif key == best_key:
                best.append((orientation, c))
    orientation = best[0][0]
    same = [c for o, c in best if o == orientation]
    return orientation, float(same[len(same) // 2] if len(same) % 2 else
                              (same[len(same) // 2 - 1] + same[len(same) // 2]) / 2.0)


class ReservedTest(BaseAuditor):
    """Fixed test chosen on development data, evaluated once on reserved data (Eq. 16).

    Each identity's rows are split in half at random (``seed``). On the development half a
    scorer is fitted (logistic regression C = 1, lbfgs, max_iter 1000, unless ``scorer`` is
    given) and an orientation and threshold chosen (:func:`choose_threshold`). The fixed
    rule is then applied once to the test half; one-sided Clopper–Pearson bounds at
    ``alpha`` on both error rates give the lower confidence bound. Under iid rows and
    with ``alpha`` = family level / (2 · number of pairs), all pairs' bounds hold together
    with the family confidence.

    Args:
        alpha: per-error-rate level (Bonferroni-corrected by the caller).
        scorer: optional fixed function rows -> scores (larger means B), e.g. the exact
            likelihood ratio of a known mechanism; then nothing is fitted.
        name: registry name to report.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> r = ReservedTest(alpha=0.025).audit(rng.normal(size=(60, 2)),
        ...                                     rng.normal(size=(60, 2)) + 10, delta=0)
        >>> r.status.value, round(r.value, 3) == round(r.details["attainable"], 3)
        ('finite-sample certificate', True)
    """

    status = Status.CERTIFICATE
    min_rows = 2

    def __init__(self, alpha: float = 0.05 / 80, scorer: Callable[[np.ndarray], np.ndarray] | None = None,
                 name: str = "reserved"):
        self.alpha = _check_alpha(alpha, "ReservedTest")
        if scorer is not None and not callable(scorer):
            raise wrong_type("scorer", "ReservedTest", "a callable or None", scorer)
        self.scorer = scorer
        self.name = name

    def settings(self):
        return {"alpha": self.alpha,
                "scorer": "logistic" if self.scorer is None else getattr(self.scorer, "__name__",
                                                                          "fixed")}

    def _audit(self, a, b, delta, seed):
        rng = np.random.default_rng(seed)
        pa, pb = rng.permutation(len(a)), rng.permutation(len(b))
        ha, hb = len(a) // 2, len(b) // 2
        dev_a, test_a = a[pa[:ha]], a[pa[ha:]]
        dev_b, test_b = b[pb[:hb]], b[pb[hb:]]
        if self.scorer is None:
            model = _logistic().fit(np.vstack([dev_a, dev_b]),
                                    np.r_[np.zeros(len(dev_a)), np.ones(len(dev_b))])
            score = model.decision_function
        else:
            score = self.scorer
        orientation, cut = choose_threshold(score(dev_a), score(dev_b), self.alpha, delta,
                                            (len(test_a), len(test_b)))
        fp = int(np.sum(orientation * score(test_a) > orientation * cut))
        fn = int(np.sum(orientation * score(test_b) <= orientation * cut))
        value = certified_epsilon(fp, len(test_a), fn, len(test_b), self.alpha, delta)
        details = {"false_positives": fp, "negatives": len(test_a), "false_negatives": fn,
                   "positives": len(test_b),
                   "u_fpr": clopper_pearson_upper(fp, len(test_a), self.alpha),
                   "u_fnr": clopper_pearson_upper(fn, len(test_b), self.alpha),
                   "attainable": certified_epsilon(0, len(test_a), 0, len(test_b),
                                                   self.alpha, delta)}
        return value, details


#: Registry of auditors by name (default settings of the specification). Add your own:
#: ``AUDITORS["mine"] = MyAuditor()``; it must follow the :class:`Auditor` protocol.
AUDITORS: dict[str, Auditor] = {
    "gaussmech": GaussMech(),
    "kde-lr": KDELR(alpha=0.0),
    "kde-lr-0.01": KDELR(alpha=0.01),
    "mmd-tv": MMDTV(permutations=0),
    "roc-ht": ROCHT(),
    "reserved": ReservedTest(),
}


def get_auditor(name: str) -> Auditor:
    """The registered auditor ``name``.

    Raises:
        PrivlabValueError: naming the registered choices.

    Example:
        >>> get_auditor("gaussmech").status.value
        'diagnostic'
    """
    if name not in AUDITORS:
        raise invalid("methods", "get_auditor", f"one of {sorted(AUDITORS)}", name)
    return AUDITORS[name]


def audit_pairs(embeddings, labels, pairs: Sequence[tuple], methods: Sequence[str] = (
        "gaussmech", "kde-lr-0.01", "mmd-tv", "roc-ht", "reserved"),
        delta: float = DEFAULT_DELTA, seed: int = 0, family_alpha: float = 0.05,
        min_rows: int = 10) -> AuditTable:
    """Run auditors on identity pairs of any identity-labelled embedding table.

    The reserved test's per-error-rate α is ``family_alpha / (2 · len(pairs))``, so its
    bounds over all pairs hold together with confidence 1 − family_alpha under iid rows.

    Args:
        embeddings: float array (N, d).
        labels: length-N identity labels (any hashable values).
        pairs: sequence of (label_a, label_b).
        methods: registry names from :data:`AUDITORS`, or Auditor instances.
        delta: δ passed to every auditor (use 0 for pure-DP conversions).
        seed: base seed; pair k uses ``seed + k``.
        family_alpha: simultaneous level of the reserved test over all pairs.
        min_rows: fewest rows an identity must have.

    Returns:
        An :class:`AuditTable` (``to_frame()`` gives one row per pair and method).

    Raises:
        PrivlabValueError: on shape mismatches, unknown labels or methods, or too few rows.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> x = rng.normal(size=(40, 3)); y = np.repeat(["p", "q"], 20)
        >>> t = audit_pairs(x, y, [("p", "q")], methods=["gaussmech", "mmd-tv"])
        >>> list(t.to_frame()["method"])
        ['gaussmech', 'mmd-tv']
    """
    caller = "audit_pairs"
    x = _as_samples(embeddings, "embeddings", caller)
    labels = np.asarray(labels)
    if labels.ndim != 1 or len(labels) != len(x):
        raise invalid("labels", caller, f"a 1-D sequence of length {len(x)}",
                      f"shape {labels.shape}", given_is_text=True)
    pairs = [tuple(p) for p in pairs]
    if not pairs or any(len(p) != 2 for p in pairs):
        raise invalid("pairs", caller, "a nonempty sequence of (label_a, label_b)", pairs)
    family_alpha = _check_alpha(family_alpha, caller)
    auditors = []
    for m in methods:
        if isinstance(m, str):
            auditor = get_auditor(m)
        elif isinstance(m, Auditor):
            auditor = m
        else:
            raise wrong_type("methods", caller, "registry names or Auditor instances", m)
        if isinstance(auditor, ReservedTest):
            auditor = ReservedTest(family_alpha / (2 * len(pairs)), auditor.scorer, auditor.name)
        auditors.append(auditor)
    if not auditors:
        raise invalid("methods", caller, "a nonempty sequence", methods)
    groups: dict[Any, np.ndarray] = {}
    for p in pairs:
        for lab in p:
            if lab not in groups:
                rows = x[labels == lab]
                if len(rows) < min_rows:
                    raise invalid("pairs", caller, f"labels with at least {min_rows} rows",
                                  f"label {lab!r} with {len(rows)} rows", given_is_text=True)
                groups[lab] = rows
    results = []
    for k, (la, lb) in enumerate(pairs):
        for auditor in auditors:
            r = auditor.audit(groups[la], groups[lb], delta=delta, seed=seed + k)
            r.provenance.update({"pair": (la, lb), "pair_index": k})
            results.append(r)
    prov = {"methods": [a.name for a in auditors], "delta": delta, "seed": seed,
            "family_alpha": family_alpha, "n_pairs": len(pairs),
            "embeddings_shape": tuple(x.shape)}
    return AuditTable(results, prov)
