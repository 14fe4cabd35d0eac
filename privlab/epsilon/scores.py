"""Scores in, ε out: a lower confidence bound on ε from a user's two arrays of attack scores.

Three readings of members' and non-members' scores (or of any statistic on two
neighbouring inputs): the threshold certificate (the headline), the one-run bound and a
diagnostic GDP reading, beside a shuffled-label control. See
docs/methods/epsilon-certificates.md and, for the GDP reading, docs/methods/epsilon.md.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import optimize, special, stats

from privlab.arrays import check_array
from privlab.epsilon.auditors.base import _check_alpha, _check_delta
from privlab.epsilon.auditors.bounds import certified_epsilon, clopper_pearson_upper
from privlab.epsilon.auditors.reserved import choose_threshold
from privlab.epsilon.mechanisms import analytic_gaussian_epsilon
from privlab.errors import check_seed, invalid
from privlab.hashing import bytes_hash
from privlab.status import Status

#: Shares of the canaries guessed on each side by the one-run bound (Bonferroni over them).
GUESS_FRACTIONS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)


@dataclass
class ScoreAudit:
    """ε lower bounds from two score arrays, with their statuses and control.

    Attributes:
        epsilon: the threshold certificate ε_L (the headline).
        status: :data:`Status.CERTIFICATE` (under iid scores).
        confidence: 1 − alpha, for each bound separately.
        one_run_epsilon: the one-run lower bound (δ = 0), a certificate under independent
            fair-coin inclusion.
        gdp_mu: μ_L of the GDP reading; ``gdp_epsilon`` its ε at δ (diagnostic).
        placebo_epsilon: the threshold certificate with the labels shuffled (true ε = 0).
        details: counts and rule of each reading.
        provenance: sizes, settings, seed and the scores' hashes.
    """

    epsilon: float
    status: Status
    confidence: float
    one_run_epsilon: float
    gdp_mu: float
    gdp_epsilon: float
    placebo_epsilon: float
    details: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)

    @property
    def excess(self) -> float:
        """The headline above its shuffled-label control."""
        return self.epsilon - self.placebo_epsilon

    def headline(self) -> str:
        """One sentence: the bound, its status, what it rests on and its control."""
        return (f"ε ≥ {self.epsilon:.3g} at confidence {self.confidence:.3g} "
                f"({self.status.value}, iid scores; shuffled-label control "
                f"{self.placebo_epsilon:.3g}, excess {self.excess:.3g}); one-run bound "
                f"{self.one_run_epsilon:.3g}; GDP reading μ ≥ {self.gdp_mu:.3g} "
                f"(diagnostic ε {self.gdp_epsilon:.3g} at δ = {self.provenance['delta']:g})")

    def to_frame(self) -> pd.DataFrame:
        """One row per reading: value, status and what it rests on."""
        rests = "iid scores in each array"
        rows = [("threshold certificate", self.epsilon, Status.CERTIFICATE.value, rests),
                ("one-run (δ = 0)", self.one_run_epsilon, Status.CERTIFICATE.value,
                 "independent fair-coin inclusion of each canary"),
                ("GDP reading, ε at δ", self.gdp_epsilon, Status.DIAGNOSTIC.value,
                 "a Gaussian trade-off curve"),
                ("shuffled-label control", self.placebo_epsilon, Status.CERTIFICATE.value,
                 "true ε = 0")]
        return pd.DataFrame(rows, columns=["reading", "epsilon", "status", "rests on"])

    def _repr_html_(self) -> str:
        return f"<b>{html.escape(self.headline())}</b>" + self.to_frame().to_html(index=False)


def _scores(x, name: str) -> np.ndarray:
    """One array of at least 4 scores as floats."""
    arr = np.asarray(check_array(x, name, "from_scores", expected="a 1-D array of scores"),
                     dtype=float)
    if arr.ndim != 1 or len(arr) < 4:
        raise invalid(name, "from_scores", "a 1-D array of at least 4 scores",
                      f"shape {arr.shape}", given_is_text=True)
    return arr


def one_run_epsilon(correct: int, guesses: int, beta: float) -> float:
    """Largest ε with P[Binomial(guesses, e^ε/(1 + e^ε)) ≥ correct] ≤ beta (0 if none).

    Example:
        >>> round(one_run_epsilon(100, 100, 0.05), 3)
        3.493
    """
    if guesses == 0 or correct == 0:
        return 0.0

    def tail(eps: float) -> float:
        return float(stats.binom.sf(correct - 1, guesses, special.expit(eps)))

    if tail(0.0) > beta:
        return 0.0
    high = 1.0
    while tail(high) <= beta:
        high *= 2.0
    return float(optimize.brentq(lambda e: tail(e) - beta, 0.0, high, xtol=1e-10))


def _one_run(members: np.ndarray, nonmembers: np.ndarray, alpha: float, seed: int):
    """The best one-run bound over :data:`GUESS_FRACTIONS` (Bonferroni), ties at random."""
    pooled = np.concatenate([members, nonmembers])
    is_member = np.r_[np.ones(len(members), bool), np.zeros(len(nonmembers), bool)]
    order = np.lexsort((np.random.default_rng([seed, 2]).random(len(pooled)), pooled))
    ranked = is_member[order]  # ascending scores, ties in random order
    best = (0.0, 0, 0, 0.0)
    for fraction in GUESS_FRACTIONS:
        k = int(fraction * len(pooled) / 2)
        if k == 0:
            continue
        correct = int(ranked[len(ranked) - k:].sum() + (~ranked[:k]).sum())
        eps = one_run_epsilon(correct, 2 * k, alpha / len(GUESS_FRACTIONS))
        if eps > best[0] or best[1] == 0:
            best = (eps, correct, 2 * k, fraction)
    return best


def _threshold(members, nonmembers, alpha, delta, rng):
    """The threshold certificate: rule chosen on half of each array, counted on the rest."""
    pm, pn = rng.permutation(len(members)), rng.permutation(len(nonmembers))
    hm, hn = len(members) // 2, len(nonmembers) // 2
    sel_m, ev_m = members[pm[:hm]], members[pm[hm:]]
    sel_n, ev_n = nonmembers[pn[:hn]], nonmembers[pn[hn:]]
    o, cut = choose_threshold(sel_n, sel_m, alpha / 2, delta, (len(ev_n), len(ev_m)))
    fp = int(np.sum(o * ev_n > o * cut))
    fn = int(np.sum(o * ev_m <= o * cut))
    eps = certified_epsilon(fp, len(ev_n), fn, len(ev_m), alpha / 2, delta)
    return eps, {"orientation": o, "threshold": cut, "false_positives": fp,
                 "nonmembers_evaluated": len(ev_n), "false_negatives": fn,
                 "members_evaluated": len(ev_m),
                 "u_fpr": clopper_pearson_upper(fp, len(ev_n), alpha / 2),
                 "u_fnr": clopper_pearson_upper(fn, len(ev_m), alpha / 2)}


def gdp_mu(u_fpr: float, u_fnr: float) -> float:
    """Smallest μ of a μ-GDP mechanism allowing a test with these error rates, ≥ 0.

    Example:
        >>> round(gdp_mu(0.1, 0.1), 4)
        2.5631
    """
    value = float(stats.norm.ppf(1.0 - u_fpr) - stats.norm.ppf(u_fnr))
    return 0.0 if math.isnan(value) else max(0.0, value)


def from_scores(member_scores, nonmember_scores, *, alpha: float = 0.05,
                delta: float = 0.0, seed: int = 0) -> ScoreAudit:
    """ε lower bounds with confidence from members' and non-members' attack scores.

    Args:
        member_scores: 1-D scores of members (or of outputs on input B), at least 4.
        nonmember_scores: 1-D scores of non-members (or of outputs on input A), at least 4.
        alpha: each bound fails with probability at most ``alpha``.
        delta: the δ of the threshold certificate and of the GDP reading (the one-run
            bound is for δ = 0).
        seed: seeds the split, the tie-breaking and the shuffled-label control.

    Returns:
        A :class:`ScoreAudit`.

    Raises:
        PrivlabValueError / PrivlabTypeError: on malformed scores, alpha, delta or seed.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> r = from_scores(rng.normal(3.0, 1.0, 2000), rng.normal(0.0, 1.0, 2000))
        >>> r.status.value, r.epsilon > 1.0, r.placebo_epsilon
        ('finite-sample certificate', True, 0.0)
    """
    members = _scores(member_scores, "member_scores")
    nonmembers = _scores(nonmember_scores, "nonmember_scores")
    alpha = _check_alpha(alpha, "from_scores")
    delta = _check_delta(delta, "from_scores")
    seed = check_seed(seed, "seed", "from_scores")
    eps, details = _threshold(members, nonmembers, alpha, delta, np.random.default_rng(seed))
    pooled = np.concatenate([members, nonmembers])
    shuffled = np.random.default_rng([seed, 1]).permutation(pooled)
    placebo, _ = _threshold(shuffled[:len(members)], shuffled[len(members):], alpha, delta,
                            np.random.default_rng(seed))
    run_eps, correct, guesses, fraction = _one_run(members, nonmembers, alpha, seed)
    mu = gdp_mu(details["u_fpr"], details["u_fnr"])
    gdp_eps = 0.0 if mu == 0 or delta == 0 else float(analytic_gaussian_epsilon(mu, 1.0, delta))
    details.update({"one_run_correct": correct, "one_run_guesses": guesses,
                    "one_run_fraction": fraction})
    provenance = {"n_members": len(members), "n_nonmembers": len(nonmembers), "alpha": alpha,
                  "delta": delta, "seed": seed, "split": "half of each array selects",
                  "guess_fractions": GUESS_FRACTIONS,
                  "members_sha256": bytes_hash(members.tobytes()),
                  "nonmembers_sha256": bytes_hash(nonmembers.tobytes())}
    return ScoreAudit(eps, Status.CERTIFICATE, 1.0 - alpha, run_eps, mu,
                      math.inf if mu > 0 and delta == 0 else gdp_eps, placebo, details,
                      provenance)
