"""DP-Sniper (Bichsel et al., S&P 2021) for one fixed pair: a c-quantile attack region.

A classifier's top-scoring region, sized to hold a share c of one identity's rows, is
fixed on training and threshold pools and evaluated once on a final pool; the value is
that region's Clopper–Pearson certificate. See docs/methods/epsilon-certificates.md.
"""

from __future__ import annotations

import math

import numpy as np

from privlab.epsilon.auditors.base import DEFAULT_DELTA, AuditResult, BaseAuditor, Status, \
    _check_alpha, _check_delta, registry
from privlab.epsilon.auditors.bounds import clopper_pearson_lower, clopper_pearson_upper
from privlab.epsilon.auditors.classifiers import check_classifier, fit_scorer
from privlab.epsilon.auditors.streaming import DEFAULT_BATCH, Sampler, check_sampler, \
    check_size, count_in_batches, draw, scores_in_batches
from privlab.errors import check_seed, invalid

#: Region sizes c tried on the threshold pool when ``c`` is None.
C_GRID = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5)


def find_threshold(scores: np.ndarray, c: float) -> tuple[float, float]:
    """Threshold t and tie probability q putting a share c of ``scores`` in the region.

    The region is {score > t} plus, with probability q, {score = t}.

    Args:
        scores: scores of the reference input's threshold-pool rows.
        c: target share in (0, 1].

    Returns:
        (t, q) with q in [0, 1].

    Example:
        >>> find_threshold(np.array([4.0, 3.0, 3.0, 1.0]), 0.5)
        (3.0, 0.5)
    """
    s = np.sort(np.asarray(scores, dtype=float))[::-1]
    target = c * len(s)
    t = float(s[min(int(math.floor(target)), len(s) - 1)])
    above = int(np.sum(s > t))
    equal = int(np.sum(s == t))
    q = min(1.0, max(0.0, (target - above) / equal))
    return t, q


def region_share(scores: np.ndarray, t: float, q: float) -> float:
    """Expected share of ``scores`` in the randomized region (t, q)."""
    s = np.asarray(scores, dtype=float)
    return float((np.sum(s > t) + q * np.sum(s == t)) / len(s))


def in_region(scores: np.ndarray, t: float, q: float, rng: np.random.Generator) -> np.ndarray:
    """Draw region membership: True above t, True with probability q at t, else False."""
    s = np.asarray(scores, dtype=float)
    return (s > t) | ((s == t) & (rng.random(len(s)) < q))


def sniper_epsilon(inside_target: int, n_target: int, inside_reference: int,
                   n_reference: int, alpha: float, delta: float = 0.0) -> float:
    """Lower confidence bound ln((L − δ)/U) of one fixed region, clipped at 0.

    L and U are one-sided Clopper–Pearson bounds at ``alpha`` on the target's and the
    reference's probability of the region.

    Example:
        >>> round(sniper_epsilon(30, 30, 0, 30, 0.000625), 3)
        1.277
        >>> sniper_epsilon(3, 30, 3, 30, 0.000625)
        0.0
    """
    low = clopper_pearson_lower(inside_target, n_target, alpha) - delta
    high = clopper_pearson_upper(inside_reference, n_reference, alpha)
    if low <= 0:
        return 0.0
    return max(0.0, math.log(low / high))


def _check_fractions(fractions, caller: str) -> tuple[float, float, float]:
    ok = isinstance(fractions, (tuple, list)) and len(fractions) == 3 and all(
        not isinstance(f, bool) and isinstance(f, (int, float)) and f > 0 for f in fractions)
    if not ok or not math.isclose(sum(fractions), 1.0, abs_tol=1e-9):
        raise invalid("fractions", caller, "three positive shares (training, threshold, final) "
                      "summing to 1", fractions)
    return tuple(float(f) for f in fractions)


class DPSniper(BaseAuditor):
    """DP-Sniper's c-quantile attack on one fixed pair, with a Clopper–Pearson bound.

    Formal status: finite-sample certificate. If each identity's rows are iid draws, the
    pair's true ε is at least the value with probability ≥ 1 − 2·alpha, because the
    classifier, c and direction are all fixed before the final pools are read. The
    construction is in docs/methods/epsilon-certificates.md.

    Args:
        classifier: ``"logistic"`` or ``"mlp"``.
        c: region size on the reference input; None chooses it from :data:`C_GRID` on
            the threshold pool.
        fractions: shares of each identity's rows for (training, threshold, final).
        alpha: level of each of the two one-sided bounds.
        name: registry name to report.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> r = DPSniper(alpha=0.025).audit(rng.normal(size=(80, 2)),
        ...                                 rng.normal(size=(80, 2)) + 10, delta=0)
        >>> r.status.value, r.value > 0, r.value <= r.details["attainable"]
        ('finite-sample certificate', True, True)
    """

    status = Status.CERTIFICATE
    min_rows = 4

    def __init__(self, classifier: str = "logistic", c: float | None = None,
                 fractions: tuple[float, float, float] = (0.25, 0.25, 0.5),
                 alpha: float = 0.05 / 80, name: str | None = None):
        caller = "DPSniper"
        self.classifier = check_classifier(classifier, caller)
        if c is not None and (isinstance(c, bool) or not isinstance(c, (int, float))
                              or not 0 < c <= 1):
            raise invalid("c", caller, "None or a number in (0, 1]", c)
        self.c = None if c is None else float(c)
        self.fractions = _check_fractions(fractions, caller)
        self.alpha = _check_alpha(alpha, caller)
        self.name = name or ("dp-sniper" if classifier == "logistic" else f"dp-sniper-{classifier}")

    def with_alpha(self, alpha: float) -> "DPSniper":
        """The same attack at another level per bound (for a family correction)."""
        return DPSniper(self.classifier, self.c, self.fractions, alpha, self.name)

    def settings(self):
        return {"alpha": self.alpha, "classifier": self.classifier, "c": self.c,
                "fractions": self.fractions}

    def _pools(self, x: np.ndarray, rng: np.random.Generator):
        """Split one identity's rows at random into training, threshold and final pools."""
        order = rng.permutation(len(x))
        n_train = max(1, int(round(self.fractions[0] * len(x))))
        n_thresh = max(1, int(round(self.fractions[1] * len(x))))
        n_thresh = min(n_thresh, len(x) - n_train - 1)
        cut = n_train + n_thresh
        return x[order[:n_train]], x[order[n_train:cut]], x[order[cut:]]

    def _audit(self, a, b, delta, seed):
        rng = np.random.default_rng(seed)
        train_a, thresh_a, final_a = self._pools(a, rng)
        train_b, thresh_b, final_b = self._pools(b, rng)
        score = fit_scorer(self.classifier, train_a, train_b, seed)
        direction, c, t, q = self._choose(score(thresh_a), score(thresh_b), len(final_a),
                                          len(final_b), delta)
        draw = np.random.default_rng([seed, 1])
        if direction == 1:
            ref_rows, target_rows = final_a, final_b
        else:
            ref_rows, target_rows = final_b, final_a
        k_ref = int(in_region(direction * score(ref_rows), t, q, draw).sum())
        k_target = int(in_region(direction * score(target_rows), t, q, draw).sum())
        return self._bound(direction, c, t, q, k_target, len(target_rows), k_ref,
                           len(ref_rows), delta)

    def _choose(self, sa, sb, n_final_a, n_final_b, delta):
        """Direction, c, threshold and tie probability from the threshold pools' scores."""
        if self.c is not None:
            grid = (self.c,)
        else:  # a region must hold at least one threshold row of the reference input
            grid = tuple(c for c in C_GRID if c * min(len(sa), len(sb)) >= 1) or (C_GRID[-1],)
        # direction +1: the region holds large scores (points to B), sized on A's rows;
        # direction -1: the region holds small scores (points to A), sized on B's rows.
        best = None
        for direction, ref, target, n_ref, n_target in (
                (1, sa, sb, n_final_a, n_final_b), (-1, -sb, -sa, n_final_b, n_final_a)):
            for c in grid:
                t, q = find_threshold(ref, c)
                p_target = region_share(target, t, q)
                # rounded against the region: fewer target rows, more reference rows
                promised = sniper_epsilon(int(math.floor(p_target * n_target)), n_target,
                                          min(n_ref, int(math.ceil(c * n_ref))), n_ref,
                                          self.alpha, delta)
                key = (round(promised, 12), round(p_target - c, 12))
                if best is None or key > best[0]:
                    best = (key, direction, c, t, q)
        return best[1:]

    def _bound(self, direction, c, t, q, k_target, n_target, k_ref, n_ref, delta):
        value = sniper_epsilon(k_target, n_target, k_ref, n_ref, self.alpha, delta)
        details = {"direction": "towards b" if direction == 1 else "towards a", "c": c,
                   "threshold": t, "tie_probability": q,
                   "inside_target": k_target, "n_target": n_target,
                   "inside_reference": k_ref, "n_reference": n_ref,
                   "l_target": clopper_pearson_lower(k_target, n_target, self.alpha),
                   "u_reference": clopper_pearson_upper(k_ref, n_ref, self.alpha),
                   "attainable": sniper_epsilon(n_target, n_target, 0, n_ref, self.alpha,
                                                delta)}
        return value, details

    def audit_sampler(self, sample_a: Sampler, sample_b: Sampler, n_final: int, *,
                      n_train: int = 100_000, n_threshold: int = 1_000_000,
                      batch_size: int = DEFAULT_BATCH, delta: float = DEFAULT_DELTA,
                      seed: int = 0) -> AuditResult:
        """The same attack on rows drawn from the mechanism, the final pools in batches.

        Memory holds the training rows, 2·``n_threshold`` scores and one batch, whatever
        ``n_final``; the certificate is the one of :meth:`audit`.

        Args:
            sample_a: sampler(n, rng) -> outputs of input A, shape (n, d) or (n,).
            sample_b: the same for input B.
            n_final: final rows per input.
            n_train: training rows per input.
            n_threshold: threshold rows per input.
            batch_size: rows drawn at once.
            delta: the δ of the bound.
            seed: seeds every draw and the tie coin.

        Returns:
            An :class:`AuditResult`; provenance says the rows were streamed and how many.

        Example:
            >>> rng = np.random.default_rng(0)
            >>> r = DPSniper(alpha=0.025).audit_sampler(
            ...     lambda n, g: g.laplace(0.0, 1.0, n), lambda n, g: g.laplace(1.0, 1.0, n),
            ...     20_000, n_train=2_000, n_threshold=2_000, batch_size=5_000, delta=0)
            >>> 0.5 < r.value < 1.0, r.provenance["streamed"]
            (True, True)
        """
        caller = "DPSniper.audit_sampler"
        sizes = {name: check_size(v, name, caller, minimum) for name, v, minimum in (
            ("n_final", n_final, 1), ("n_train", n_train, 1), ("n_threshold", n_threshold, 1),
            ("batch_size", batch_size, 1))}
        samplers = {"sample_a": check_sampler(sample_a, "sample_a", caller),
                    "sample_b": check_sampler(sample_b, "sample_b", caller)}
        delta = _check_delta(delta, caller)
        seed = check_seed(seed, "seed", caller)
        rngs = {(stage, who): np.random.default_rng([seed, k, j])
                for k, stage in enumerate(("train", "threshold", "final"))
                for j, who in enumerate(samplers)}
        train = {who: draw(f, n_train, rngs["train", who], who, caller)
                 for who, f in samplers.items()}
        score = fit_scorer(self.classifier, train["sample_a"], train["sample_b"], seed)
        dim = train["sample_a"].shape[1]
        del train
        thresh = {who: scores_in_batches(f, n_threshold, batch_size, rngs["threshold", who],
                                         score, who, caller) for who, f in samplers.items()}
        direction, c, t, q = self._choose(thresh["sample_a"], thresh["sample_b"], n_final,
                                          n_final, delta)
        del thresh
        coin = np.random.default_rng([seed, 3])
        counts = {who: count_in_batches(
            f, n_final, batch_size, rngs["final", who],
            lambda rows: in_region(direction * score(rows), t, q, coin), who, caller)
            for who, f in samplers.items()}
        ref, target = ("sample_a", "sample_b") if direction == 1 else ("sample_b", "sample_a")
        value, details = self._bound(direction, c, t, q, counts[target], n_final,
                                     counts[ref], n_final, delta)
        prov = {"n_a": n_final, "n_b": n_final, "dim": dim, "delta": delta, "seed": seed,
                "streamed": True, **sizes, **self.settings()}
        return AuditResult(self.name, self.status, float(value), details, prov)


@registry.member("dp-sniper", description="DP-Sniper c-quantile attack region of a logistic "
                 "classifier, Clopper–Pearson bound on fresh rows", status=Status.CERTIFICATE,
                 benchmark=True)
def dp_sniper(alpha: float = 0.05 / 80, c: float | None = None) -> DPSniper:
    """DP-Sniper with logistic regression, c chosen on the threshold pool.

    Args:
        alpha: level of each of the two one-sided bounds.
        c: region size (None: chosen from :data:`C_GRID`).

    Returns:
        A :class:`DPSniper` named ``dp-sniper``.

    Example:
        >>> dp_sniper().classifier, dp_sniper(c=0.01).c
        ('logistic', 0.01)
    """
    return DPSniper("logistic", c, alpha=alpha, name="dp-sniper")


@registry.member("dp-sniper-mlp", description="DP-Sniper with the small neural network as "
                 "its classifier", status=Status.CERTIFICATE, benchmark=True)
def dp_sniper_mlp(alpha: float = 0.05 / 80, c: float | None = None) -> DPSniper:
    """DP-Sniper whose scores come from :class:`~privlab.epsilon.auditors.classifiers.MLPClassifier`.

    Example:
        >>> dp_sniper_mlp().name
        'dp-sniper-mlp'
    """
    return DPSniper("mlp", c, alpha=alpha, name="dp-sniper-mlp")
