"""The reserved test: a fixed rule chosen on development rows, evaluated once (Eq. 16).

The one route whose number is a finite-sample certificate: under iid rows, and with the
per-error-rate ``alpha`` corrected for every rate tested, the true ε is at least the
reported value with the stated confidence.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from privlab.epsilon.auditors.base import AuditResult, BaseAuditor, Status, _check_alpha, \
    _check_delta, registry, split_halves
from privlab.epsilon.auditors.bounds import certified_epsilon, clopper_pearson_upper
from privlab.epsilon.auditors.roc import logistic_classifier
from privlab.epsilon.auditors.sweep import best_indices, count_above, cp_upper_many, \
    cut_points, map_math
from privlab.epsilon.auditors.streaming import DEFAULT_BATCH, Sampler, check_sampler, \
    check_size, count_in_batches, draw
from privlab.errors import check_seed, wrong_type


def choose_threshold(neg_scores: np.ndarray, pos_scores: np.ndarray, alpha: float,
                     delta: float = 0.0, test_sizes: tuple[int, int] | None = None):
    """Pick orientation and threshold on development scores.

    The rule whose development error rates promise the largest Eq. 16 bound at the test
    sizes wins; ties go to balanced accuracy, then to the middle of the tied range.

    Args:
        neg_scores: development scores of the negative identity (A).
        pos_scores: development scores of the positive identity (B).
        alpha: per-error-rate level of the bound the rule will be judged by.
        delta: the δ of that bound.
        test_sizes: (negatives, positives) of the test rows (default the development
            sizes).

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

    Under iid rows and with ``alpha`` = family level / (2 · number of pairs), all pairs'
    bounds hold together with the family confidence.

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
        return certify_scores(self._scorer(dev_a, dev_b), dev_a, test_a, dev_b, test_b,
                              self.alpha, delta)

    def _scorer(self, dev_a, dev_b):
        """The given scorer, or a logistic regression fitted on the development rows."""
        if self.scorer is not None:
            return self.scorer
        model = logistic_classifier().fit(np.vstack([dev_a, dev_b]),
                                          np.r_[np.zeros(len(dev_a)), np.ones(len(dev_b))])
        return model.decision_function

    def audit_sampler(self, sample_a: Sampler, sample_b: Sampler, n_test: int, *,
                      n_dev: int = 100_000, batch_size: int = DEFAULT_BATCH,
                      delta: float = 0.0, seed: int = 0) -> AuditResult:
        """The reserved test on rows drawn from the mechanism, the test rows in batches.

        Memory holds the development rows and one batch, whatever ``n_test``; the
        certificate is the one of :meth:`audit`.

        Args:
            sample_a: sampler(n, rng) -> outputs of input A (negatives), (n, d) or (n,).
            sample_b: the same for input B (positives).
            n_test: test rows per input.
            n_dev: development rows per input.
            batch_size: rows drawn at once.
            delta: the δ of the bound.
            seed: seeds every draw.

        Returns:
            An :class:`AuditResult`; provenance says the rows were streamed and how many.

        Example:
            >>> r = ReservedTest(alpha=0.025).audit_sampler(
            ...     lambda n, g: g.laplace(0.0, 1.0, n), lambda n, g: g.laplace(1.0, 1.0, n),
            ...     20_000, n_dev=2_000, batch_size=5_000)
            >>> 0.1 < r.value < 1.0, r.details["negatives"]
            (True, 20000)
        """
        caller = "ReservedTest.audit_sampler"
        sizes = {name: check_size(v, name, caller) for name, v in (
            ("n_test", n_test), ("n_dev", n_dev), ("batch_size", batch_size))}
        sample_a = check_sampler(sample_a, "sample_a", caller)
        sample_b = check_sampler(sample_b, "sample_b", caller)
        delta = _check_delta(delta, caller)
        seed = check_seed(seed, "seed", caller)
        dev_a = draw(sample_a, n_dev, np.random.default_rng([seed, 0, 0]), "sample_a", caller)
        dev_b = draw(sample_b, n_dev, np.random.default_rng([seed, 0, 1]), "sample_b", caller)
        score = self._scorer(dev_a, dev_b)
        o, cut = choose_threshold(score(dev_a), score(dev_b), self.alpha, delta,
                                  (n_test, n_test))
        dim = dev_a.shape[1]
        del dev_a, dev_b
        fp = count_in_batches(sample_a, n_test, batch_size, np.random.default_rng([seed, 1, 0]),
                              lambda rows: o * score(rows) > o * cut, "sample_a", caller)
        fn = count_in_batches(sample_b, n_test, batch_size, np.random.default_rng([seed, 1, 1]),
                              lambda rows: o * score(rows) <= o * cut, "sample_b", caller)
        value, details = _certificate(o, cut, fp, n_test, fn, n_test, self.alpha, delta)
        prov = {"n_a": n_test, "n_b": n_test, "dim": dim, "delta": delta, "seed": seed,
                "streamed": True, **sizes, **self.settings()}
        return AuditResult(self.name, self.status, float(value), details, prov)


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
        (certified ε, details with the rule, the counts and the ``attainable`` bound).
    """
    orientation, cut = choose_threshold(score(dev_a), score(dev_b), alpha, delta,
                                        (len(test_a), len(test_b)))
    fp = int(np.sum(orientation * score(test_a) > orientation * cut))
    fn = int(np.sum(orientation * score(test_b) <= orientation * cut))
    return _certificate(orientation, cut, fp, len(test_a), fn, len(test_b), alpha, delta)


def _certificate(orientation, cut, fp, negatives, fn, positives, alpha, delta):
    """The certified ε of the test counts and the details every reserved route reports."""
    value = certified_epsilon(fp, negatives, fn, positives, alpha, delta)
    details = {"orientation": orientation, "threshold": cut,
               "false_positives": fp, "negatives": negatives,
               "false_negatives": fn, "positives": positives,
               "u_fpr": clopper_pearson_upper(fp, negatives, alpha),
               "u_fnr": clopper_pearson_upper(fn, positives, alpha),
               "attainable": certified_epsilon(0, negatives, 0, positives, alpha, delta)}
    return value, details


@registry.member("reserved-exact", description="reserved test scored by the exact likelihood "
                 "ratio (needs the mechanism)", status=Status.CERTIFICATE, benchmark=True,
                 oracle=True)
def reserved_exact(scorer: Callable[[np.ndarray], np.ndarray],
                   alpha: float = 0.05 / 80) -> ReservedTest:
    """The oracle reserved test: a fixed scorer known in advance, nothing is fitted.

    With the exact likelihood ratio it shows how much of the gap is the classifier's.

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
