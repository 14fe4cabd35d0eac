"""A finite-sample hockey-stick tester: is a claimed (ε, δ) refuted by this pair?

One region fixed on development rows bounds the hockey-stick divergence D_{e^ε}(P‖Q)
from below on reserved rows; the claim is refuted when that bound exceeds δ. See
docs/methods/epsilon-certificates.md.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from privlab.epsilon.auditors.base import DEFAULT_DELTA, BaseAuditor, Status, _check_alpha, \
    _check_delta, _check_pair, registry, split_halves
from privlab.epsilon.auditors.bounds import clopper_pearson_lower, clopper_pearson_upper
from privlab.epsilon.auditors.classifiers import check_classifier, fit_scorer
from privlab.epsilon.auditors.dpsniper import sniper_epsilon
from privlab.epsilon.auditors.sweep import best_indices, count_above, cp_upper_many, \
    cut_points, map_math
from privlab.errors import invalid, wrong_type


def _check_epsilon(epsilon, caller: str) -> float:
    """A finite ε ≥ 0 as a float."""
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float, np.floating)) \
            or not math.isfinite(epsilon) or epsilon < 0:
        raise invalid("epsilon", caller, "a finite number >= 0", epsilon)
    return float(epsilon)


def hockey_stick_lower(inside_p: int, n_p: int, inside_q: int, n_q: int, epsilon: float,
                       alpha: float) -> float:
    """Lower confidence bound on P(S) − e^ε Q(S) for one fixed region S, floored at 0.

    Args:
        inside_p: rows of P (n_p of them) that fell in S.
        n_p: rows drawn from P.
        inside_q: rows of Q (n_q of them) that fell in S.
        n_q: rows drawn from Q.
        epsilon: the ε of the divergence.
        alpha: level of each one-sided Clopper–Pearson bound.

    Returns:
        max{0, L_P − e^ε U_Q}, at most D_{e^ε}(P‖Q) with probability ≥ 1 − 2·alpha.

    Raises:
        PrivlabValueError: on bad counts, ε < 0 or alpha outside (0, 1).

    Example:
        >>> round(hockey_stick_lower(30, 30, 0, 30, 0.0, 0.025), 3)
        0.769
    """
    epsilon = _check_epsilon(epsilon, "hockey_stick_lower")
    low = clopper_pearson_lower(inside_p, n_p, alpha)
    high = clopper_pearson_upper(inside_q, n_q, alpha)
    return max(0.0, _minus_scaled(low, epsilon, high))


def _minus_scaled(p: float, epsilon: float, q: float) -> float:
    """p − e^ε·q without overflow: e^ε alone overflows a float above ε ≈ 709.8.

    Example:
        >>> _minus_scaled(0.5, 1000.0, 0.0), _minus_scaled(0.5, 1000.0, 1e-3)
        (0.5, -inf)
    """
    if q <= 0.0:
        return p
    log_term = epsilon + math.log(q)
    return -math.inf if log_term > 709.0 else p - math.exp(log_term)


@dataclass
class ClaimTest:
    """The answer to "is the claimed (ε, δ) refuted by this pair?".

    Attributes:
        epsilon: claimed ε.
        delta: claimed δ.
        reject: True when the lower bound on the divergence exceeds δ: the claim is false
            (under iid rows, with probability of a false refutation ≤ 1 − confidence).
        delta_lower: lower confidence bound on D_{e^ε} of the fixed region (≥ 0).
        epsilon_lower: ε every mechanism needs at δ to allow the same counts (≥ 0).
        confidence: 1 − 2·alpha.
        details: counts, order of the pair and region.
        method: the tester that answered.
    """

    epsilon: float
    delta: float
    reject: bool
    delta_lower: float
    epsilon_lower: float
    confidence: float
    details: dict[str, Any] = field(default_factory=dict)
    method: str = "hockey-stick"

    @property
    def verdict(self) -> str:
        """One sentence: refuted, or not refuted (which does not show the claim holds)."""
        claim = f"(ε = {self.epsilon:g}, δ = {self.delta:g})"
        if self.reject:
            return (f"{claim} is refuted at confidence {self.confidence:.4g}: δ ≥ "
                    f"{self.delta_lower:.3g} at that ε.")
        return f"{claim} is not refuted; this does not show that it holds."

    def to_frame(self) -> pd.DataFrame:
        """One-row table of the claim, the decision and the bounds."""
        row = {"method": self.method, "epsilon": self.epsilon, "delta": self.delta,
               "reject": self.reject, "delta_lower": self.delta_lower,
               "epsilon_lower": self.epsilon_lower, "confidence": self.confidence}
        row.update(self.details)
        return pd.DataFrame([row])

    def _repr_html_(self) -> str:
        return f"<b>{html.escape(self.verdict)}</b>" + self.to_frame().to_html(index=False)


def choose_region(neg_scores: np.ndarray, pos_scores: np.ndarray, epsilon: float,
                  alpha: float, test_sizes: tuple[int, int]) -> tuple[int, float, bool]:
    """Region and order whose development counts promise the largest divergence at ε.

    Each candidate {o·score > t} is scored by :func:`hockey_stick_lower` of its shares
    scaled to ``test_sizes`` = (negatives, positives); every cut is counted at once.

    Returns:
        (o, t, p_is_positive).

    Example:
        >>> choose_region(np.array([0.0, 1.0]), np.array([2.0, 3.0]), 0.0, 0.05, (2, 2))
        (1, 1.5, True)
    """
    epsilon = _check_epsilon(epsilon, "choose_region")
    alpha = _check_alpha(alpha, "choose_region")
    neg = np.sort(np.asarray(neg_scores, float))
    pos = np.sort(np.asarray(pos_scores, float))
    n0, n1 = test_sizes
    cuts = cut_points(neg, pos)
    # candidates in the loop's order: o = +1 then −1, cuts ascending, P = positive then negative
    o = np.repeat([1, -1], 2 * len(cuts))
    cut = np.tile(np.repeat(cuts, 2), 2)
    p_is_positive = np.tile([True, False], 2 * len(cuts))
    share_pos = np.repeat(np.concatenate([count_above(pos, cuts, 1),
                                          count_above(pos, cuts, -1)]) / len(pos), 2)
    share_neg = np.repeat(np.concatenate([count_above(neg, cuts, 1),
                                          count_above(neg, cuts, -1)]) / len(neg), 2)
    p_share = np.where(p_is_positive, share_pos, share_neg)
    q_share = np.where(p_is_positive, share_neg, share_pos)
    n_p = np.where(p_is_positive, n1, n0)
    n_q = np.where(p_is_positive, n0, n1)
    k_p = np.floor(p_share * n_p).astype(np.int64)
    k_q = np.minimum(n_q, np.ceil(q_share * n_q).astype(np.int64))
    # L_P = 1 − U(n_P − k_P) and U_Q = U(k_Q), each distinct bound computed once
    upper = cp_upper_many(np.concatenate([n_p - k_p, k_q]), np.concatenate([n_p, n_q]), alpha)
    low, high = 1.0 - upper[:len(o)], upper[len(o):]
    promised = np.maximum(0.0, _minus_scaled_many(low, epsilon, high))
    best = best_indices(promised, _minus_scaled_many(p_share, epsilon, q_share))[0]
    return int(o[best]), float(cut[best]), bool(p_is_positive[best])


def _minus_scaled_many(p: np.ndarray, epsilon: float, q: np.ndarray) -> np.ndarray:
    """:func:`_minus_scaled` entry by entry, with :mod:`math`'s log and exp as it has."""
    out = p.astype(float)
    some = q > 0.0
    log_term = epsilon + map_math(math.log, q[some])
    small = log_term <= 709.0
    values = np.full(len(log_term), -math.inf)
    values[small] = p[some][small] - map_math(math.exp, log_term[small])
    out[some] = values
    return out


class HockeyStickTester(BaseAuditor):
    """Finite-sample test of a claimed (ε, δ) through the hockey-stick divergence.

    Formal status: finite-sample certificate (a test of one stated claim). Under iid
    rows a true claim is refuted with probability ≤ 2·alpha; not refuting a claim does
    not show that it holds. :meth:`test` answers the claim; :meth:`audit` reports the
    same region's ε bound with the answer in its details.

    Args:
        epsilon: claimed ε ≥ 0.
        delta: claimed δ in [0, 1).
        alpha: level of each of the two one-sided bounds.
        classifier: ``"logistic"`` or ``"mlp"``.
        name: registry name to report.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> t = HockeyStickTester(epsilon=1.0, delta=1e-5, alpha=0.025)
        >>> t.test(rng.normal(size=(60, 2)), rng.normal(size=(60, 2)) + 10).reject
        True
    """

    status = Status.CERTIFICATE

    def __init__(self, epsilon: float = 1.0, delta: float = DEFAULT_DELTA,
                 alpha: float = 0.05 / 80, classifier: str = "logistic",
                 name: str = "hockey-stick"):
        caller = "HockeyStickTester"
        self.epsilon = _check_epsilon(epsilon, caller)
        self.delta = _check_delta(delta, caller)
        self.alpha = _check_alpha(alpha, caller)
        self.classifier = check_classifier(classifier, caller)
        if not isinstance(name, str):
            raise wrong_type("name", caller, "a str", name)
        self.name = name

    def with_alpha(self, alpha: float) -> "HockeyStickTester":
        """The same tester at another level per bound (for a family correction)."""
        return HockeyStickTester(self.epsilon, self.delta, alpha, self.classifier, self.name)

    def settings(self):
        return {"alpha": self.alpha, "classifier": self.classifier,
                "claim_epsilon": self.epsilon, "claim_delta": self.delta}

    def _counts(self, a, b, seed):
        dev_a, test_a, dev_b, test_b = split_halves(a, b, seed)
        score = fit_scorer(self.classifier, dev_a, dev_b, seed)
        o, cut, p_is_b = choose_region(score(dev_a), score(dev_b), self.epsilon, self.alpha,
                                       (len(test_a), len(test_b)))
        in_a = int(np.sum(o * score(test_a) > o * cut))
        in_b = int(np.sum(o * score(test_b) > o * cut))
        region = {"orientation": o, "threshold": cut}
        if p_is_b:  # the region points to b: P = law of b, Q = law of a
            return {"order": "b over a", **region, "inside_p": in_b, "n_p": len(test_b),
                    "inside_q": in_a, "n_q": len(test_a)}
        return {"order": "a over b", **region, "inside_p": in_a, "n_p": len(test_a),
                "inside_q": in_b, "n_q": len(test_b)}

    def _claim(self, counts) -> ClaimTest:
        delta_lower = hockey_stick_lower(counts["inside_p"], counts["n_p"], counts["inside_q"],
                                         counts["n_q"], self.epsilon, self.alpha)
        eps_lower = sniper_epsilon(counts["inside_p"], counts["n_p"], counts["inside_q"],
                                   counts["n_q"], self.alpha, self.delta)
        return ClaimTest(self.epsilon, self.delta, bool(delta_lower > self.delta), delta_lower,
                         eps_lower, 1.0 - 2.0 * self.alpha, dict(counts), self.name)

    def test(self, a, b, *, seed: int = 0) -> ClaimTest:
        """Test the claim on two identities' rows (each array (n, d), n ≥ 2).

        Raises:
            PrivlabValueError / PrivlabTypeError: on malformed samples or seed.
        """
        a, b, seed = _check_pair(a, b, seed, "HockeyStickTester.test")
        return self._claim(self._counts(a, b, seed))

    def _audit(self, a, b, delta, seed):
        counts = self._counts(a, b, seed)
        claim = self._claim(counts)
        value = sniper_epsilon(counts["inside_p"], counts["n_p"], counts["inside_q"],
                               counts["n_q"], self.alpha, delta)
        details = dict(counts, delta_lower=claim.delta_lower, reject=claim.reject,
                       attainable=sniper_epsilon(counts["n_p"], counts["n_p"], 0,
                                                 counts["n_q"], self.alpha, delta))
        return value, details


@registry.member("hockey-stick", description="hockey-stick test of a claimed (ε, δ) on "
                 "reserved rows (default claim ε = 1, δ = 1e-5)", status=Status.CERTIFICATE,
                 benchmark=False)
def hockey_stick(epsilon: float = 1.0, delta: float = DEFAULT_DELTA,
                 alpha: float = 0.05 / 80, classifier: str = "logistic") -> HockeyStickTester:
    """The hockey-stick tester of a claimed (ε, δ).

    Kept out of the known-ε benchmark: its region is tuned to the claim it tests, and the
    benchmark has no claim to give it, so its ε column would describe an arbitrary claim.

    Example:
        >>> hockey_stick(epsilon=2.0).settings()["claim_epsilon"]
        2.0
    """
    return HockeyStickTester(epsilon, delta, alpha, classifier)
