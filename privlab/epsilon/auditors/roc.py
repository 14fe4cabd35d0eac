"""ROC-HT: an out-of-fold ROC curve put through the hypothesis-testing conversion (Eq. 15).

Descriptive: the conversion of an empirical curve is often +∞ (an endpoint with no
observed errors), and the curve was estimated, not fixed before the data were seen.
"""

from __future__ import annotations

import numpy as np

from privlab.epsilon.auditors.base import BaseAuditor, Status, registry
from privlab.epsilon.auditors.bounds import _ln_ratio
from privlab.epsilon.mechanisms import auc_from_scores
from privlab.errors import invalid


def logistic_classifier():
    """The specification's classifier: logistic regression, C = 1, lbfgs, 1000 iterations.

    Returns:
        An unfitted ``sklearn.linear_model.LogisticRegression``.

    Example:
        >>> logistic_classifier().C
        1.0
    """
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=1.0, solver="lbfgs", max_iter=1000)


def roc_epsilon(fpr: np.ndarray, tpr: np.ndarray, delta: float = 0.0) -> float:
    """Eq. 15 over ROC operating points: the largest conversion, with omission rules.

    Each point (FPR f, TPR t) gives ln((1 − δ − f)/(1 − t)) and ln((t − δ)/f); a term with
    a nonpositive numerator is omitted, a positive one over a zero denominator is +∞.

    Args:
        fpr: false-positive rates of the curve's operating points.
        tpr: true-positive rates, same length.
        delta: the δ of the (ε, δ) claim.

    Returns:
        The largest term over all points, at least 0.

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


@registry.member("roc-ht", description="out-of-fold logistic ROC through Eq. 15",
                 status=Status.DESCRIPTIVE, benchmark=True)
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
            model = logistic_classifier().fit(x[train], y[train])
            scores[test] = model.predict_proba(x[test])[:, 1]
        fpr, tpr, _ = roc_curve(y, scores, drop_intermediate=False)
        corner = bool(np.any((fpr == 0) & (tpr == 1)))
        auc = auc_from_scores(scores[y == 0], scores[y == 1])
        return roc_epsilon(fpr, tpr, delta), {"auc": auc, "corner": corner}
