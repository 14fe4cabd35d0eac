"""The model-class knob: the logistic case is the reserved test, the network is seeded,
learns what a line cannot, and never makes a certificate exceed the exact ε."""

import numpy as np
import pytest

from privlab.epsilon import auditors as A
from privlab.epsilon import mechanisms as M
from privlab.epsilon.auditors.classifiers import fit_scorer
from privlab.epsilon.mechanisms import auc_from_scores
from privlab.errors import PrivlabTypeError, PrivlabValueError


def test_logistic_knob_is_the_reserved_test():
    p = M.make_prototypes("dispersed")
    m = M.build_mechanism("gaussian", p, 16.0)
    i, j = p.l2_pair
    rng = np.random.default_rng(0)
    for seed in range(3):
        a, b = m.sample(i, 100, rng), m.sample(j, 100, rng)
        ours = A.LearnedReservedTest("logistic").audit(a, b, delta=m.delta, seed=seed)
        theirs = A.ReservedTest().audit(a, b, delta=m.delta, seed=seed)
        assert ours.value == theirs.value
        shared = set(ours.details) & set(theirs.details)
        assert {"false_positives", "false_negatives", "u_fpr", "attainable"} <= shared
        assert all(ours.details[k] == theirs.details[k] for k in shared)
        assert ours.method == theirs.method == "reserved"


def test_network_is_seeded():
    rng = np.random.default_rng(1)
    neg, pos = rng.normal(size=(40, 5)), rng.normal(size=(40, 5)) + 0.5
    x = rng.normal(size=(10, 5))
    first, again = fit_scorer("mlp", neg, pos, 7)(x), fit_scorer("mlp", neg, pos, 7)(x)
    assert np.array_equal(first, again)
    assert not np.allclose(first, fit_scorer("mlp", neg, pos, 8)(x))


def test_network_learns_what_a_line_cannot():
    # Same mean, different spread: every linear score has AUC 1/2 in the population.
    rng = np.random.default_rng(0)
    x0, x1 = rng.normal(size=(150, 2)), 2.5 * rng.normal(size=(150, 2))
    y0, y1 = rng.normal(size=(2000, 2)), 2.5 * rng.normal(size=(2000, 2))
    auc = {k: auc_from_scores(*map(fit_scorer(k, x0, x1, 0), (y0, y1)))
           for k in A.CLASSIFIERS}
    assert abs(auc["logistic"] - 0.5) < 0.05 and auc["mlp"] > 0.8


@pytest.mark.parametrize("name, eps, gain", [("anisotropic_gaussian", 16.0, 0.15),
                                             ("laplace", 64.0, 0.03)])
def test_network_closes_part_of_the_gap_to_the_optimal_auc(name, eps, gain):
    p = M.make_prototypes("dispersed")
    m = M.build_mechanism(name, p, eps)
    i, j = p.l2_pair
    rng = np.random.default_rng(0)
    a, b = m.sample(i, 150, rng), m.sample(j, 150, rng)
    ta, tb = m.sample(i, 3000, rng), m.sample(j, 3000, rng)
    optimal = auc_from_scores(m.log_likelihood_ratio(ta, i, j), m.log_likelihood_ratio(tb, i, j))
    auc = {k: auc_from_scores(*map(fit_scorer(k, a, b, 0), (ta, tb))) for k in A.CLASSIFIERS}
    assert auc["mlp"] > auc["logistic"] + gain and auc["mlp"] < optimal


@pytest.mark.parametrize("name, eps", [("gaussian", 1.0), ("laplace", 1.0),
                                       ("randomized_response", 2.0)])
def test_network_certificate_never_above_exact_epsilon(name, eps):
    p = M.make_prototypes("dispersed")
    m = M.build_mechanism(name, p, eps)
    pairs = [p.l1_pair, p.l2_pair]
    alpha = 0.05 / (2 * len(pairs))
    possible = 0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        for i, j in pairs:
            r = A.reserved_mlp(alpha).audit(m.sample(i, 100, rng), m.sample(j, 100, rng),
                                            delta=m.delta, seed=seed)
            exact = m.pair_epsilon(i, j)
            possible += r.details["attainable"] > exact
            assert r.value <= exact + 1e-12, (name, seed, (i, j), r.details)
    assert possible > 0


def test_network_catches_a_broken_mechanism():
    p = M.make_prototypes("dispersed")
    claimed = M.GaussianMechanism(p, 1.0)
    broken = M.GaussianMechanism(p, 1.0)
    broken.sigma = claimed.sigma / 50
    i, j = p.l2_pair
    rng = np.random.default_rng(0)
    r = A.reserved_mlp(0.025).audit(broken.sample(i, 300, rng), broken.sample(j, 300, rng),
                                    delta=1e-5, seed=1)
    assert r.value == pytest.approx(r.details["attainable"])
    assert r.value > claimed.pair_epsilon(i, j) + 1


def test_family_level_reaches_registered_members_through_audit_pairs():
    rng = np.random.default_rng(0)
    x = np.vstack([rng.normal(size=(40, 3)), rng.normal(size=(40, 3)) + 6])
    labels = np.repeat(["p", "q"], 40)
    table = A.audit_pairs(x, labels, [("p", "q")], methods=["reserved-mlp"], family_alpha=0.1)
    r = table.results[0]
    assert r.provenance["alpha"] == pytest.approx(0.05)
    assert r.provenance["classifier"] == "mlp"


@pytest.mark.parametrize("call, parameter, error", [
    (lambda: A.LearnedReservedTest("svm"), "classifier", PrivlabValueError),
    (lambda: A.LearnedReservedTest(alpha=0), "alpha", PrivlabValueError),
    (lambda: A.make_classifier(None), "classifier", PrivlabValueError),
    (lambda: A.MLPClassifier(hidden=-1), "hidden", PrivlabValueError),
    (lambda: A.MLPClassifier(epochs=0), "epochs", PrivlabValueError),
    (lambda: A.MLPClassifier(learning_rate=0.0), "learning_rate", PrivlabValueError),
    (lambda: A.MLPClassifier(seed=1.5), "seed", PrivlabTypeError),
    (lambda: A.MLPClassifier().decision_function(np.zeros((2, 2))), "x", PrivlabValueError),
    (lambda: A.MLPClassifier().fit(np.zeros((4, 2)), np.zeros(4)), "y", PrivlabValueError),
])
def test_bad_inputs_name_the_parameter(call, parameter, error):
    with pytest.raises(error, match=f"'{parameter}'"):
        call()


def _halves_test_rows(n_a, n_b, seed):
    """The rows split_halves keeps for evaluation (the second half of a seeded shuffle)."""
    rng = np.random.default_rng(seed)
    pa, pb = rng.permutation(n_a), rng.permutation(n_b)
    return pa[n_a // 2:], pb[n_b // 2:]


def test_network_rule_is_fixed_on_development_rows_only():
    # The test rows are swapped between the identities: the network is fitted, and the
    # orientation and threshold chosen, on the development half, so none may move and the
    # swapped rows are (nearly) all errors. A network fitted on every row would see
    # identities that no longer separate and learn a different score.
    rng = np.random.default_rng(8)
    a = rng.normal(size=(60, 3))
    b = rng.normal(size=(60, 3)) + [4.0, 0.0, 0.0]
    test = A.LearnedReservedTest("mlp", alpha=0.0125)
    before = test.audit(a, b, delta=0, seed=2)
    ta, tb = _halves_test_rows(60, 60, 2)
    a2, b2 = a.copy(), b.copy()
    a2[ta], b2[tb] = b[tb], a[ta]
    after = test.audit(a2, b2, delta=0, seed=2)
    for key in ("orientation", "threshold"):
        assert after.details[key] == before.details[key], key
    assert before.details["false_positives"] + before.details["false_negatives"] <= 4
    assert after.details["false_positives"] >= 26 and after.details["false_negatives"] >= 26
    assert after.value == 0.0 < before.value
