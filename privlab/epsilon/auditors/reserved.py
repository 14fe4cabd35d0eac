"""The reserved test: a fixed rule chosen on development rows, evaluated once (Eq. 16).

The one route whose number is a finite-sample certificate: under iid rows, and with the
per-error-rate ``alpha`` corrected for every rate tested, the true ε is at least the
reported value with the stated confidence.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from privlab.epsilon.auditors.base import BaseAuditor, Status, _check_alpha, _check_delta, \
    registry, split_halves
from privlab.epsilon.auditors.bounds import certified_epsilon, clopper_pearson_upper
from privlab.epsilon.auditors.roc import logistic_classifier
from privlab.epsilon.auditors.sweep import best_indices, count_above, cp_upper_many, \
    cut_points, map_math
from privlab.errors import wrong_type


def choose_threshold(neg_scores: np.ndarray, pos_scores: np.ndarray, alpha: float,
                     delta: float = 0.0, test_sizes: tuple[int, int] | None = None):
    """Pick orientation and threshold on development scores.

    Each candidate rule "predict positive when orientation·score > threshold" is scored
    by the Eq. 16 bound its development error *rates* would give at the test-set sizes
    (``test_sizes`` = (negatives, positives); default the development sizes); ties go to
    the larger empirical balanced accuracy, then to the threshold in the middle of the
    tied range (the widest margin). The scores are sorted once and every cut counted by
    :mod:`~privlab.epsilon.auditors.sweep` (O(n log n)); the choice is the one the plain
    per-cut loop makes.

    Args:
        neg_scores: development scores of the negative identity (A).
        pos_scores: development scores of the positive identity (B).
        alpha: per-error-rate level of the bound the rule will be judged by.
        delta: the δ of that bound.
        test_sizes: (negatives, positives) of the test rows the rule will meet.

    Returns:
        (orientation ±1, threshold).

    Example:
        >>> choose_threshold(np.array([0.0, 1.0]), np.array([2.0, 3.0]), 0.05)
        (1, 1.5)
    """
    alpha = _check_alpha(alpha, "choose_threshold")
    delta = _check_delta(delta, "choose_threshold")
    neg = np.sort(np.asarray(neg_scores, float))
    pos = np.sort(np.asarray(pos_scores, float))
    n0, n1 = test_sizes or (len(neg), len(pos))
    cuts = cut_points(neg, pos)
    orientations = np.repeat([1, -1], len(cuts))
    # every rule "orientation·score > cut", orientation +1 first, cuts ascending
    fpr = np.concatenate([count_above(neg, cuts, 1), count_above(neg, cuts, -1)]) / len(neg)
    fnr = (len(pos) - np.concatenate([count_above(pos, cuts, 1),
                                      count_above(pos, cuts, -1)])) / len(pos)
    counts = np.rint(np.concatenate([fpr * n0, fnr * n1])).astype(np.int64)
    u_fp, u_fn = np.split(cp_upper_many(counts, np.repeat([n0, n1], len(fpr)), alpha), 2)
    bound = np.zeros(len(fpr))
    for num, den in ((1.0 - delta - u_fp, u_fn), (1.0 - delta - u_fn, u_fp)):
        ok = num > 0  # the omission rule of epsilon_from_rates; den > 0 always
        bound[ok] = np.maximum(bound[ok], map_math(math.log, num[ok] / den[ok]))
    # the largest bound, then the largest balanced accuracy; ties: the middle cut
    best = best_indices(bound, 1.0 - (fpr + fnr) / 2.0)
    orientation = int(orientations[best[0]])
    same = np.tile(cuts, 2)[best][orientations[best] == orientation]
    return orientation, float(same[len(same) // 2] if len(same) % 2 else
                              (same[len(same) // 2 - 1] + same[len(same) // 2]) / 2.0)


@registry.member("reserved", description="fixed logistic rule on a half split, Eq. 16",
                 status=Status.CERTIFICATE, benchmark=True)
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

    def __init__(self, alpha: float = 0.05 / 80,
                 scorer: Callable[[np.ndarray], np.ndarray] | None = None,
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
        dev_a, test_a, dev_b, test_b = split_halves(a, b, seed)
        if self.scorer is None:
            model = logistic_classifier().fit(np.vstack([dev_a, dev_b]),
                                              np.r_[np.zeros(len(dev_a)), np.ones(len(dev_b))])
            score = model.decision_function
        else:
            score = self.scorer
        return certify_scores(score, dev_a, test_a, dev_b, test_b, self.alpha, delta)


def certify_scores(score: Callable[[np.ndarray], np.ndarray], dev_a: np.ndarray,
                   test_a: np.ndarray, dev_b: np.ndarray, test_b: np.ndarray, alpha: float,
                   delta: float) -> tuple[float, dict]:
    """Eq. 16 for one scorer: threshold fixed on development rows, counted once on test rows.

    Args:
        score: rows -> scores (larger means B), fitted on development rows only.
        dev_a, test_a, dev_b, test_b: the halves of :func:`split_halves`.
        alpha: per-error-rate level.
        delta: the δ of the bound.

    Returns:
        (certified ε, details with the rule, the test counts, both upper rates and the
        largest bound these test sizes allow).
    """
    orientation, cut = choose_threshold(score(dev_a), score(dev_b), alpha, delta,
                                        (len(test_a), len(test_b)))
    fp = int(np.sum(orientation * score(test_a) > orientation * cut))
    fn = int(np.sum(orientation * score(test_b) <= orientation * cut))
    value = certified_epsilon(fp, len(test_a), fn, len(test_b), alpha, delta)
    details = {"orientation": orientation, "threshold": cut,
               "false_positives": fp, "negatives": len(test_a),
               "false_negatives": fn, "positives": len(test_b),
               "u_fpr": clopper_pearson_upper(fp, len(test_a), alpha),
               "u_fnr": clopper_pearson_upper(fn, len(test_b), alpha),
               "attainable": certified_epsilon(0, len(test_a), 0, len(test_b), alpha, delta)}
    return value, details


@registry.member("reserved-exact", description="reserved test scored by the exact likelihood "
                 "ratio (needs the mechanism)", status=Status.CERTIFICATE, benchmark=True,
                 oracle=True)
def reserved_exact(scorer: Callable[[np.ndarray], np.ndarray],
                   alpha: float = 0.05 / 80) -> ReservedTest:
    """The oracle reserved test: a fixed scorer known in advance, nothing is fitted.

    With a mechanism of known ε the exact likelihood ratio is the most powerful score, so
    this member shows how much of the certificate's gap is the learned classifier's.

    Args:
        scorer: rows -> scores (larger means B), e.g. the mechanism's exact log-likelihood
            ratio between the two identities.
        alpha: per-error-rate level (Bonferroni-corrected by the caller).

    Returns:
        A :class:`ReservedTest` named ``reserved-exact``.

    Raises:
        PrivlabTypeError: when ``scorer`` is not callable.

    Example:
        >>> reserved_exact(lambda x: x[:, 0]).name
        'reserved-exact'
    """
    if not callable(scorer):
        raise wrong_type("scorer", "reserved_exact", "a callable", scorer)
    return ReservedTest(alpha, scorer=scorer, name="reserved-exact")
