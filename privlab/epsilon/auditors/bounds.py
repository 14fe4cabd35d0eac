"""Eq. 16 arithmetic: exact binomial bounds and the hypothesis-testing conversion to ε.

:func:`certified_epsilon` is the one number here with a finite-sample meaning: a lower
confidence bound on ε from one fixed test's error counts on data it has not seen.
"""

from __future__ import annotations

import math

from scipy import special

from privlab.epsilon.auditors.base import _check_alpha, _check_count, _check_delta
from privlab.errors import invalid


def clopper_pearson_upper(errors: int, trials: int, alpha: float) -> float:
    """One-sided exact (Clopper–Pearson) upper confidence bound on an error rate.

    Args:
        errors: observed errors k (0 ≤ k ≤ trials).
        trials: number of trials n (≥ 1).
        alpha: one-sided level; P(rate > bound) ≤ alpha.

    Returns:
        The Beta(k + 1, n − k) quantile at 1 − alpha (1 when k = n).

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

    Args:
        errors: observed errors k (0 ≤ k ≤ trials).
        trials: number of trials n (≥ 1).
        alpha: one-sided level; P(rate < bound) ≤ alpha.

    Returns:
        The (1 − alpha) lower bound: 1 minus the upper bound on the n − k successes.

    Raises:
        PrivlabValueError: on negative counts, k > n, n = 0 or alpha outside (0, 1).

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

    Terms with a nonpositive numerator are omitted; one over a zero denominator is +∞.

    Args:
        fpr: false-positive rate a of a test between the two identities.
        fnr: false-negative rate b of the same test.
        delta: the δ of the (ε, δ) claim.

    Returns:
        The smallest ε ≥ 0 that an (ε, δ)-DP mechanism needs to allow these rates.

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

    :func:`epsilon_from_rates` of the two Clopper–Pearson upper bounds at ``alpha``. If
    the rows are iid and the test was fixed before they were seen, the true ε is at least
    this value with probability ≥ 1 − 2·alpha.

    Args:
        false_positives: negatives classified as positive.
        negatives: number of negative-class test rows (≥ 1).
        false_negatives: positives classified as negative.
        positives: number of positive-class test rows (≥ 1).
        alpha: per-error-rate level in (0, 1) (family level / error rates for many).
        delta: the δ of the (ε, δ) claim being tested, in [0, 1).

    Returns:
        ε_LB ≥ 0, finite.

    Raises:
        PrivlabValueError: on bad counts or alpha/delta out of range.

    Example:
        >>> round(certified_epsilon(0, 30, 0, 30, alpha=0.000625), 3)
        1.277
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
