"""The reserved test: never above the exact ε, and a broken mechanism is caught."""

import numpy as np
import pytest

from privlab.epsilon import auditors as A
from privlab.epsilon import mechanisms as M
from privlab.errors import PrivlabTypeError, PrivlabValueError


def _exact_scorer(mech, i, j):
    return lambda x: mech.log_likelihood_ratio(x, i, j)


@pytest.mark.parametrize("name, eps", [("gaussian", 0.5), ("gaussian", 1.0),
                                       ("laplace", 0.5), ("laplace", 1.0)])
def test_reserved_bound_never_above_exact_epsilon(name, eps):
    p = M.make_prototypes("dispersed")
    m = M.build_mechanism(name, p, eps)
    pairs = [p.l1_pair, p.l2_pair, (0, 1), (2, 3)]
    alpha = 0.05 / (2 * len(pairs))
    delta = 1e-5 if name == "gaussian" else 0.0
    possible = 0
    for seed in range(10):
        rng = np.random.default_rng(seed)
        for k, (i, j) in enumerate(pairs):
            a, b = m.sample(i, 100, rng), m.sample(j, 100, rng)
            exact = m.pair_epsilon(i, j)
            for test in (A.ReservedTest(alpha), A.ReservedTest(alpha, _exact_scorer(m, i, j))):
                r = test.audit(a, b, delta=delta, seed=seed * 10 + k)
                possible += r.details["attainable"] > exact
                assert r.value <= exact + 1e-12, (name, eps, seed, (i, j), r.details)
    assert possible > 0  # the check could have failed


def test_broken_mechanism_is_caught():
    p = M.make_prototypes("dispersed")
    claimed = M.GaussianMechanism(p, 1.0)
    broken = M.GaussianMechanism(p, 1.0)
    broken.sigma = claimed.sigma / 50  # far too little noise for the claimed ε = 1
    rng = np.random.default_rng(0)
    i, j = p.l2_pair
    a, b = broken.sample(i, 300, rng), broken.sample(j, 300, rng)
    r = A.ReservedTest(alpha=0.025).audit(a, b, delta=1e-5, seed=1)
    assert r.value > claimed.pair_epsilon(i, j) + 1.0
    assert r.value == pytest.approx(r.details["attainable"])


def test_choose_threshold_prefers_the_bound_then_the_widest_margin():
    assert A.choose_threshold(np.array([0.0, 1.0]), np.array([2.0, 3.0]), 0.05) == (1, 1.5)
    assert A.choose_threshold(np.array([2.0, 3.0]), np.array([0.0, 1.0]), 0.05) == (-1, 1.5)


def test_oracle_member_scores_with_the_given_function():
    test = A.reserved_exact(lambda x: x[:, 0], alpha=0.025)
    assert (test.name, test.alpha, test.status) == ("reserved-exact", 0.025,
                                                    A.Status.CERTIFICATE)
    rng = np.random.default_rng(0)
    r = test.audit(rng.normal(size=(60, 2)), rng.normal(size=(60, 2)) + [10.0, 0.0], delta=0)
    assert r.method == "reserved-exact" and r.value == pytest.approx(r.details["attainable"])
    assert r.provenance["scorer"] == "<lambda>"


@pytest.mark.parametrize("call, parameter, error", [
    (lambda: A.ReservedTest(alpha=0.0), "alpha", PrivlabValueError),
    (lambda: A.ReservedTest(scorer="x"), "scorer", PrivlabTypeError),
    (lambda: A.reserved_exact(None), "scorer", PrivlabTypeError),
])
def test_bad_inputs_name_the_parameter(call, parameter, error):
    with pytest.raises(error, match=f"'{parameter}'"):
        call()


def _test_rows(n_a, n_b, seed):
    """The rows ReservedTest keeps for its test half (the second half of a seeded shuffle)."""
    rng = np.random.default_rng(seed)
    pa, pb = rng.permutation(n_a), rng.permutation(n_b)
    return pa[n_a // 2:], pb[n_b // 2:]


@pytest.mark.parametrize("oracle", [False, True])
def test_rule_is_fixed_on_development_rows_only(oracle):
    # A and B differ along the first coordinate; the test rows are then swapped between
    # the identities. A rule chosen on development rows cannot see that: its orientation
    # and threshold stay put and it makes (nearly) every error on the swapped test rows.
    # A rule chosen (or a scorer fitted) on test rows would flip its orientation.
    rng = np.random.default_rng(4)
    a = rng.normal(size=(60, 3))
    b = rng.normal(size=(60, 3)) + [4.0, 0.0, 0.0]
    test = A.ReservedTest(0.0125, scorer=(lambda x: x[:, 0]) if oracle else None)
    before = test.audit(a, b, delta=0, seed=7)
    ta, tb = _test_rows(60, 60, 7)
    a2, b2 = a.copy(), b.copy()
    a2[ta], b2[tb] = b[tb], a[ta]  # 30 test rows each, swapped
    after = test.audit(a2, b2, delta=0, seed=7)
    for key in ("orientation", "threshold"):
        assert after.details[key] == before.details[key], key
    assert before.details["orientation"] == 1
    assert before.details["false_positives"] + before.details["false_negatives"] <= 2
    assert after.details["false_positives"] >= 28 and after.details["false_negatives"] >= 28
    assert after.value == 0.0 < before.value
