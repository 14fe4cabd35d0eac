"""Hockey-stick tester: exact binomial arithmetic, true claims survive, false ones fall."""

import math

import numpy as np
import pytest
from scipy import stats

from privlab.epsilon import auditors as A
from privlab.epsilon import mechanisms as M
from privlab.epsilon.auditors.hockey_stick import choose_region
from privlab.errors import PrivlabTypeError, PrivlabValueError


def _laplace_1d(epsilon):
    """One coordinate, prototypes 0 and 1: Laplace noise b = 1/ε, pair ε = ε exactly.

    The region {x > 1} attains it: P_1(S) = 1/2 = e^ε P_0(S), so the hockey-stick
    divergence of that region at the true ε is exactly 0 and noise alone can push a
    plug-in value above it.
    """
    protos = M.PrototypeSet("dispersed", np.array([[0.0], [1.0]]), 0, 1.0, 1.0, (0, 1), (0, 1))
    return M.LaplaceMechanism(protos, epsilon)


@pytest.mark.parametrize("kp, np_, kq, nq, eps, alpha", [
    (30, 30, 0, 30, 0.0, 0.025), (40, 50, 5, 50, 1.0, 0.01), (10, 50, 10, 50, 0.0, 0.05),
    (140, 150, 3, 150, 2.0, 0.000625)])
def test_lower_bound_is_the_exact_binomial_one(kp, np_, kq, nq, eps, alpha):
    low = stats.binomtest(kp, np_).proportion_ci(1 - 2 * alpha, method="exact").low
    high = stats.binomtest(kq, nq).proportion_ci(1 - 2 * alpha, method="exact").high
    want = max(0.0, low - math.exp(eps) * high)
    assert A.hockey_stick_lower(kp, np_, kq, nq, eps, alpha) == pytest.approx(want, rel=1e-9,
                                                                           abs=1e-12)


def test_choose_region_prefers_the_claimed_epsilon():
    neg = np.array([0.0, 1.0, 2.0, 3.0])
    pos = np.array([2.5, 3.5, 4.0, 5.0])
    # the region of large scores, pointing to the identity whose scores are large
    assert choose_region(neg, pos, 0.0, 0.05, (40, 40)) == (1, 2.25, True)
    assert choose_region(pos, neg, 0.0, 0.05, (40, 40)) == (1, 2.25, False)
    # a claim of large ε is only refuted by a region the other identity almost never hits
    o, cut, p_is_pos = choose_region(neg, pos, 3.0, 0.05, (40, 40))
    assert (o, p_is_pos) == (1, True) and cut >= 3.0


def test_true_claims_are_kept():
    eps, alpha = 1.0, 0.025
    mech = _laplace_1d(eps)
    rejected = 0
    for seed in range(60):
        rng = np.random.default_rng(seed)
        t = A.HockeyStickTester(epsilon=eps, delta=0.0, alpha=alpha).test(
            mech.sample(0, 400, rng), mech.sample(1, 400, rng), seed=seed)
        rejected += t.reject
        assert t.epsilon_lower <= eps + 1e-12
    assert rejected <= 1  # at most 2·alpha = 5 % expected; 1 of 60 leaves room for chance


def test_true_claims_on_benchmark_mechanisms():
    p = M.make_prototypes("dispersed")
    for name, eps in (("gaussian", 1.0), ("laplace", 2.0), ("randomized_response", 2.0)):
        m = M.build_mechanism(name, p, eps)
        for seed, (i, j) in enumerate([p.l1_pair, p.l2_pair]):
            rng = np.random.default_rng(seed)
            exact = m.pair_epsilon(i, j)
            t = A.HockeyStickTester(epsilon=exact, delta=m.delta, alpha=0.0125).test(
                m.sample(i, 200, rng), m.sample(j, 200, rng), seed=seed)
            assert not t.reject and t.epsilon_lower <= exact + 1e-12, (name, t.to_frame())


def test_false_claims_are_refuted():
    mech = _laplace_1d(2.0)  # the truth is ε = 2
    rng = np.random.default_rng(0)
    a, b = mech.sample(0, 400, rng), mech.sample(1, 400, rng)
    t = A.HockeyStickTester(epsilon=1.0, delta=0.0, alpha=0.025).test(a, b)
    # {x > 1} has P_1 − e·P_0 = 1/2 − e^-1/2 ≈ 0.316 in the population
    assert t.reject and 0.1 < t.delta_lower < 0.316
    assert 1.0 < t.epsilon_lower <= 2.0
    assert "refuted" in t.verdict and "not" not in t.verdict
    # the null claim of no leak at all (ε = 0, δ = 0) is refuted as well
    assert A.HockeyStickTester(epsilon=0.0, delta=0.0, alpha=0.025).test(a, b).reject
    # ... and a weaker claim is not
    kept = A.HockeyStickTester(epsilon=4.0, delta=0.0, alpha=0.025).test(a, b)
    assert not kept.reject and "does not show" in kept.verdict


def test_broken_gaussian_refutes_its_claim_and_audit_reports_epsilon():
    p = M.make_prototypes("dispersed")
    claimed = M.GaussianMechanism(p, 1.0)
    broken = M.GaussianMechanism(p, 1.0)
    broken.sigma = claimed.sigma / 50
    i, j = p.l2_pair
    rng = np.random.default_rng(0)
    a, b = broken.sample(i, 300, rng), broken.sample(j, 300, rng)
    tester = A.hockey_stick(epsilon=1.0, delta=1e-5, alpha=0.025)
    t = tester.test(a, b, seed=1)
    assert t.reject and t.delta_lower > 0.5
    r = tester.audit(a, b, delta=1e-5, seed=1)
    assert r.details["reject"] and r.value > claimed.pair_epsilon(i, j) + 1
    assert r.value == pytest.approx(A.dpsniper.sniper_epsilon(
        r.details["inside_p"], r.details["n_p"], r.details["inside_q"], r.details["n_q"],
        0.025, 1e-5))
    assert list(t.to_frame().columns[:7]) == ["method", "epsilon", "delta", "reject",
                                              "delta_lower", "epsilon_lower", "confidence"]


def test_null_claim_of_no_leak_survives_the_null():
    p = M.make_prototypes("dispersed")
    m = M.build_mechanism("laplace", p, 0.0)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        t = A.HockeyStickTester(epsilon=0.0, delta=0.0).test(m.sample(0, 100, rng),
                                                             m.sample(1, 100, rng), seed=seed)
        assert not t.reject and t.delta_lower == 0.0


def test_registered_outside_the_benchmark():
    entry = A.registry.entry("hockey-stick")
    assert entry.meta["status"] is A.Status.CERTIFICATE and entry.meta["benchmark"] is False


@pytest.mark.parametrize("call, parameter, error", [
    (lambda: A.HockeyStickTester(epsilon=-1.0), "epsilon", PrivlabValueError),
    (lambda: A.HockeyStickTester(delta=1.0), "delta", PrivlabValueError),
    (lambda: A.HockeyStickTester(alpha=0.0), "alpha", PrivlabValueError),
    (lambda: A.HockeyStickTester(classifier="knn"), "classifier", PrivlabValueError),
    (lambda: A.hockey_stick_lower(1, 2, 0, 2, math.inf, 0.05), "epsilon", PrivlabValueError),
    (lambda: A.HockeyStickTester().test(np.zeros((4, 2)), np.zeros((4, 3))), "b",
     PrivlabValueError),
    (lambda: A.HockeyStickTester().test(np.zeros((4, 2)), np.zeros((4, 2)), seed="x"), "seed",
     PrivlabTypeError),
])
def test_bad_inputs_name_the_parameter(call, parameter, error):
    with pytest.raises(error, match=f"'{parameter}'"):
        call()


def test_a_huge_epsilon_does_not_overflow():
    # e^ε overflows a float above ε ≈ 709.8; the bound must still be defined there.
    from privlab.epsilon.auditors.hockey_stick import hockey_stick_lower

    assert hockey_stick_lower(30, 30, 0, 30, 800.0, 0.025) == 0.0
    assert hockey_stick_lower(30, 30, 0, 30, 1e6, 0.025) == 0.0


def _halves_test_rows(n_a, n_b, seed):
    """The rows split_halves keeps for evaluation (the second half of a seeded shuffle)."""
    rng = np.random.default_rng(seed)
    pa, pb = rng.permutation(n_a), rng.permutation(n_b)
    return pa[n_a // 2:], pb[n_b // 2:]


@pytest.mark.parametrize("classifier", ["logistic", "mlp"])
def test_region_is_fixed_on_development_rows_only(classifier):
    # The reserved rows are swapped between the identities: the classifier, the region's
    # orientation and threshold, and the order of the pair are fixed on the development
    # half and may not move; the region then holds the wrong identity's rows, so the claim
    # ε = 1 is no longer refuted. A region chosen on the reserved rows would flip.
    rng = np.random.default_rng(6)
    a = rng.normal(size=(60, 3))
    b = rng.normal(size=(60, 3)) + [4.0, 0.0, 0.0]
    tester = A.HockeyStickTester(epsilon=1.0, delta=0.0, alpha=0.0125, classifier=classifier)
    before = tester.audit(a, b, delta=0, seed=4)
    ta, tb = _halves_test_rows(60, 60, 4)
    a2, b2 = a.copy(), b.copy()
    a2[ta], b2[tb] = b[tb], a[ta]
    after = tester.audit(a2, b2, delta=0, seed=4)
    for key in ("order", "orientation", "threshold"):
        assert after.details[key] == before.details[key], key
    assert before.details["reject"] and not after.details["reject"]
    assert after.details["inside_q"] > after.details["inside_p"]
    assert tester.test(a2, b2, seed=4).details["threshold"] == before.details["threshold"]
