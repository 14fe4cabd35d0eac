"""An anytime-valid reserved test: add test rows batch by batch, stop whenever you like.

Each error rate gets a confidence sequence from betting (valid at every look at once),
so the bound may be read after every batch and the audit stopped at any time. The
construction is in docs/methods/epsilon-certificates.md; what optional stopping costs
against the fixed-n bound, in docs/methods/epsilon.md.
"""

from __future__ import annotations

import functools
import html
import math
from typing import Callable

import numpy as np
import pandas as pd

from privlab.arrays import check_array
from privlab.epsilon.auditors.base import BaseAuditor, Status, _as_samples, _check_alpha, \
    _check_count, _check_delta, registry, split_halves
from privlab.epsilon.auditors.bounds import epsilon_from_rates
from privlab.epsilon.auditors.classifiers import check_classifier, fit_scorer
from privlab.epsilon.auditors.reserved import choose_threshold
from privlab.errors import invalid, wrong_type

#: The bets c averaged by the capital process (each alternative is rate m·(1 − c)).
BETS = (0.1, 0.25, 0.5, 0.75, 0.9, 0.97, 0.99)
def _log_capital(errors: int, trials: int, log_odds: float) -> float:
    """Log of the averaged capital after ``trials`` indicators at logit(m) = ``log_odds``."""
    odds = math.exp(log_odds)
    logs = [errors * math.log1p(-c) + (trials - errors) * math.log1p(c * odds) for c in BETS]
    top = max(logs)
    return top + math.log(sum(math.exp(v - top) for v in logs) / len(logs))


def betting_upper(errors: int, trials: int, alpha: float) -> float:
    """Anytime-valid upper confidence bound on a Bernoulli rate after ``trials`` indicators.

    The smallest rate m whose averaged betting capital has reached 1/alpha; the true
    rate exceeds it at some t with probability at most alpha. Row order does not matter.

    Args:
        errors: ones seen so far (0 ≤ errors ≤ trials).
        trials: indicators seen so far (≥ 0; 0 gives 1).
        alpha: level in (0, 1).

    Returns:
        The upper bound in (0, 1].

    Raises:
        PrivlabValueError: on bad counts or alpha.

    Example:
        >>> from privlab.epsilon.auditors.bounds import clopper_pearson_upper
        >>> betting_upper(0, 100, 0.05) > clopper_pearson_upper(0, 100, 0.05)
        True
    """
    caller = "betting_upper"
    k = _check_count(errors, "errors", caller)
    t = _check_count(trials, "trials", caller)
    alpha = _check_alpha(alpha, caller)
    if k > t:
        raise invalid("errors", caller, f"at most trials={t}", errors)
    if t == 0:
        return 1.0
    return _betting_upper(k, t, alpha)


@functools.lru_cache(maxsize=65536)
def _betting_upper(k: int, t: int, alpha: float) -> float:
    """:func:`betting_upper` on checked arguments (cached)."""
    if k == t:  # every bet loses at each error: no rate below 1 is ever refuted
        return 1.0
    level = math.log(1.0 / alpha)
    # The capital grows with m, so the refuted rates form an interval [U, 1): bisect on
    # the logit of m and return the refuted end, which errs upwards.
    lo, hi = -40.0, 40.0
    if _log_capital(k, t, hi) < level:
        return 1.0
    for _ in range(70):
        mid = (lo + hi) / 2.0
        if _log_capital(k, t, mid) >= level:
            hi = mid
        else:
            lo = mid
    return 1.0 / (1.0 + math.exp(-hi))


def _rows(x, name: str, caller: str) -> np.ndarray:
    """A batch of one or more rows as a finite float array (k, d)."""
    arr = check_array(x, name, caller, finite=False,
                      expected="a 2-D array of shape (k, d)").astype(float)
    if arr.ndim != 2 or len(arr) == 0:
        raise invalid(name, caller, "a 2-D array with at least one row", f"shape {arr.shape}",
                      given_is_text=True)
    if not np.isfinite(arr).all():
        raise invalid(name, caller, "finite everywhere", "NaN or infinite entries",
                      given_is_text=True)
    return arr


class FixedRule:
    """A test fixed before the reserved rows are read: predict b when o·score(x) > cut.

    Attributes:
        score: rows -> scores.
        orientation: +1 or −1.
        cut: the threshold.
    """

    def __init__(self, score: Callable[[np.ndarray], np.ndarray], orientation: int, cut: float):
        if not callable(score):
            raise wrong_type("score", "FixedRule", "a callable", score)
        if orientation not in (1, -1):
            raise invalid("orientation", "FixedRule", "+1 or -1", orientation)
        self.score, self.orientation, self.cut = score, int(orientation), float(cut)

    def predicts_b(self, x: np.ndarray) -> np.ndarray:
        """True where the rule says a row came from identity b."""
        return self.orientation * np.asarray(self.score(x)) > self.orientation * self.cut

    @classmethod
    def from_development(cls, dev_a, dev_b, *, classifier: str = "logistic",
                         alpha: float = 0.05 / 80, delta: float = 0.0,
                         test_sizes: tuple[int, int] | None = None, seed: int = 0) -> "FixedRule":
        """Fit a classifier and choose orientation and threshold on development rows only.

        Example:
            >>> rng = np.random.default_rng(0)
            >>> rule = FixedRule.from_development(rng.normal(size=(30, 2)),
            ...                                   rng.normal(size=(30, 2)) + 5)
            >>> bool(rule.predicts_b(np.array([[5.0, 5.0]]))[0])
            True
        """
        caller = "FixedRule.from_development"
        dev_a = _as_samples(dev_a, "dev_a", caller)
        dev_b = _as_samples(dev_b, "dev_b", caller)
        score = fit_scorer(check_classifier(classifier, caller), dev_a, dev_b, seed)
        o, cut = choose_threshold(score(dev_a), score(dev_b), alpha, delta, test_sizes)
        return cls(score, o, cut)


class SequentialCertificate:
    """Anytime-valid lower confidence bound on ε from a fixed rule and growing test rows.

    Formal status: finite-sample certificate, valid at every look at once. If the rule
    was fixed before these rows were seen and each identity's rows are iid, the bound
    ever exceeds the true ε, at any look, with probability at most 2·alpha.

    Args:
        rule: the fixed test (:class:`FixedRule`).
        alpha: per-error-rate level.
        delta: the δ of the bound.

    Example:
        >>> rule = FixedRule(lambda x: x[:, 0], 1, 0.5)
        >>> cert = SequentialCertificate(rule, alpha=0.025, delta=0.0)
        >>> for _ in range(4):
        ...     _ = cert.update(np.zeros((25, 1)), np.ones((25, 1)))
        >>> round(cert.bound, 3), len(cert.history())
        (3.067, 4)
    """

    status = Status.CERTIFICATE

    def __init__(self, rule: FixedRule, alpha: float = 0.05 / 80, delta: float = 0.0):
        if not isinstance(rule, FixedRule):
            raise wrong_type("rule", "SequentialCertificate", "a FixedRule", rule)
        self.rule = rule
        self.alpha = _check_alpha(alpha, "SequentialCertificate")
        self.delta = _check_delta(delta, "SequentialCertificate")
        self.fp = self.negatives = self.fn = self.positives = 0
        self.u_fpr = self.u_fnr = 1.0
        self._history: list[dict] = []

    def update(self, rows_a=None, rows_b=None) -> float:
        """Add reserved rows of identity a and/or b; return the bound after this look."""
        caller = "SequentialCertificate.update"
        if rows_a is not None:
            rows_a = _rows(rows_a, "rows_a", caller)
            self.fp += int(np.sum(self.rule.predicts_b(rows_a)))
            self.negatives += len(rows_a)
        if rows_b is not None:
            rows_b = _rows(rows_b, "rows_b", caller)
            self.fn += int(np.sum(~self.rule.predicts_b(rows_b)))
            self.positives += len(rows_b)
        self.u_fpr = min(self.u_fpr, betting_upper(self.fp, self.negatives, self.alpha))
        self.u_fnr = min(self.u_fnr, betting_upper(self.fn, self.positives, self.alpha))
        self._history.append({"look": len(self._history) + 1, "negatives": self.negatives,
                              "positives": self.positives, "false_positives": self.fp,
                              "false_negatives": self.fn, "u_fpr": self.u_fpr,
                              "u_fnr": self.u_fnr, "epsilon_lb": self.bound})
        return self.bound

    @property
    def bound(self) -> float:
        """The current lower confidence bound on ε (never decreases between looks)."""
        return epsilon_from_rates(self.u_fpr, self.u_fnr, self.delta)

    def run(self, draw: Callable[[int], tuple[np.ndarray, np.ndarray]], *, batch: int = 10,
            target: float = math.inf, max_rows: int = 10_000) -> float:
        """Add batches ``draw(batch)`` until the bound reaches ``target`` or ``max_rows``.

        Example:
            >>> rng = np.random.default_rng(0)
            >>> cert = SequentialCertificate(FixedRule(lambda x: x[:, 0], 1, 0.5), 0.025)
            >>> cert.run(lambda k: (rng.normal(size=(k, 1)), rng.normal(size=(k, 1)) + 5),
            ...          target=1.0) >= 1.0
            True
        """
        batch = _check_count(batch, "batch", "SequentialCertificate.run")
        if batch == 0:
            raise invalid("batch", "SequentialCertificate.run", "a positive integer", batch)
        while self.bound < target and max(self.negatives, self.positives) < max_rows:
            rows_a, rows_b = draw(batch)
            self.update(rows_a, rows_b)
        return self.bound

    def history(self) -> pd.DataFrame:
        """One row per look: counts, the running upper bounds and the ε bound."""
        return pd.DataFrame(self._history)

    def _repr_html_(self) -> str:
        caption = html.escape(f"anytime-valid certificate: ε ≥ {self.bound:.3f} "
                              f"(per-rate α = {self.alpha:g})")
        return f"<b>{caption}</b>" + self.history().to_html(index=False)


class SequentialReservedTest(BaseAuditor):
    """The reserved test read batch by batch through a :class:`SequentialCertificate`.

    Formal status: finite-sample certificate, anytime-valid. Under iid rows the bound
    exceeds the true ε with probability ≤ 2·alpha, whatever the stopping time; at a fixed
    size it is lower than the one-look reserved test's.

    Args:
        classifier: ``"logistic"`` or ``"mlp"``.
        alpha: per-error-rate level.
        batch: test rows per identity added at each look.
        target: stop as soon as the bound reaches it (∞: use every test row).
        name: registry name to report.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> r = SequentialReservedTest(alpha=0.025).audit(rng.normal(size=(100, 2)),
        ...                                               rng.normal(size=(100, 2)) + 10)
        >>> r.status.value, r.value == r.details["attainable"] > 0
        ('finite-sample certificate', True)
    """

    status = Status.CERTIFICATE

    def __init__(self, classifier: str = "logistic", alpha: float = 0.05 / 80,
                 batch: int = 10, target: float = math.inf, name: str = "reserved-sequential"):
        caller = "SequentialReservedTest"
        self.classifier = check_classifier(classifier, caller)
        self.alpha = _check_alpha(alpha, caller)
        self.batch = _check_count(batch, "batch", caller)
        if self.batch == 0:
            raise invalid("batch", caller, "a positive integer", batch)
        if isinstance(target, bool) or not isinstance(target, (int, float)) \
                or math.isnan(target) or target <= 0:
            raise invalid("target", caller, "a number > 0 (or math.inf)", target)
        self.target = float(target)
        self.name = name

    def with_alpha(self, alpha: float) -> "SequentialReservedTest":
        """The same test at another per-error-rate level (for a family correction)."""
        return SequentialReservedTest(self.classifier, alpha, self.batch, self.target,
                                      self.name)

    def settings(self):
        return {"alpha": self.alpha, "classifier": self.classifier, "batch": self.batch,
                "target": self.target}

    def _audit(self, a, b, delta, seed):
        dev_a, test_a, dev_b, test_b = split_halves(a, b, seed)
        rule = FixedRule.from_development(dev_a, dev_b, classifier=self.classifier,
                                          alpha=self.alpha, delta=delta,
                                          test_sizes=(len(test_a), len(test_b)), seed=seed)
        cert = SequentialCertificate(rule, self.alpha, delta)
        start = 0
        while start < max(len(test_a), len(test_b)) and cert.bound < self.target:
            stop = start + self.batch
            cert.update(test_a[start:stop] if start < len(test_a) else None,
                        test_b[start:stop] if start < len(test_b) else None)
            start = stop
        best = epsilon_from_rates(betting_upper(0, len(test_a), self.alpha),
                                  betting_upper(0, len(test_b), self.alpha), delta)
        details = {"orientation": rule.orientation, "threshold": rule.cut,
                   "false_positives": cert.fp, "negatives": cert.negatives,
                   "false_negatives": cert.fn, "positives": cert.positives,
                   "u_fpr": cert.u_fpr, "u_fnr": cert.u_fnr, "looks": len(cert.history()),
                   "attainable": best}
        return cert.bound, details


@registry.member("reserved-sequential", description="reserved test with anytime-valid "
                 "betting bounds, test rows added in batches of 10", status=Status.CERTIFICATE,
                 benchmark=True)
def reserved_sequential(alpha: float = 0.05 / 80, batch: int = 10,
                        classifier: str = "logistic") -> SequentialReservedTest:
    """The anytime-valid reserved test with logistic regression, every test row used.

    Example:
        >>> reserved_sequential().batch
        10
    """
    return SequentialReservedTest(classifier, alpha, batch)
