"""ROC-HT: Eq. 15's omission rules, and AUC near one half at the exact null."""

import math

import numpy as np
import pytest

from privlab.epsilon import auditors as A
from privlab.epsilon import mechanisms as M
from privlab.errors import PrivlabValueError


def test_roc_epsilon_omission_rules():
    assert A.roc_epsilon(np.array([0.0, 1.0]), np.array([0.0, 1.0])) == 0.0  # 0/0 omitted
    assert A.roc_epsilon(np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0, 1.0])) == math.inf
    assert A.roc_epsilon(np.array([0.25]), np.array([0.75])) == pytest.approx(math.log(3))
    # With δ > 0 the (0, δ) start of a curve is omitted, not infinite.
    assert A.roc_epsilon(np.array([0.0, 1.0]), np.array([0.0, 1.0]), delta=1e-5) == 0.0


def test_null_auc_near_half_without_the_corner():
    p = M.make_prototypes("dispersed")
    m = M.build_mechanism("laplace", p, 0)
    rng = np.random.default_rng(12)
    auc, corner = [], []
    for i in range(8):
        a, b = m.sample(2 * i, 100, rng), m.sample(2 * i + 1, 100, rng)
        r = A.ROCHT().audit(a, b, delta=0.0, seed=i)
        auc.append(r.details["auc"])
        corner.append(r.details["corner"])
    assert np.mean(auc) == pytest.approx(0.5, abs=0.05)
    assert not any(corner)


def test_logistic_classifier_settings():
    model = A.logistic_classifier()
    assert (model.C, model.solver, model.max_iter) == (1.0, "lbfgs", 1000)


def test_bad_folds_named():
    with pytest.raises(PrivlabValueError, match="'folds'"):
        A.ROCHT(folds=1)
