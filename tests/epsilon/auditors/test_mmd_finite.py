"""Finite-sample MMD route: the statistic, its coverage where the MMD is known, and an ε
certificate that stays below the exact ε where the plug-in value does not."""

import math

import numpy as np
import pytest

from privlab.epsilon import auditors as A
from privlab.epsilon import mechanisms as M
from privlab.epsilon.auditors.mmd_finite import mmd_biased, tv_to_delta, tv_to_epsilon
from privlab.errors import PrivlabTypeError, PrivlabValueError


def test_biased_statistic_matches_a_double_loop():
    rng = np.random.default_rng(0)
    a, b, s = rng.normal(size=(6, 3)), rng.normal(size=(8, 3)) + 0.4, 1.3
    k = lambda u, v: math.exp(-np.sum((u - v) ** 2) / (2 * s * s))  # noqa: E731
    value = (sum(k(x, y) for x in a for y in a) / 36 + sum(k(x, y) for x in b for y in b) / 64
             - 2 * sum(k(x, y) for x in a for y in b) / 48)
    assert mmd_biased(a, b, s) == pytest.approx(math.sqrt(value), rel=1e-12)


def test_width_is_the_mcdiarmid_one():
    # √(1/m + 1/n)(1 + √ln(1/α)), worked by hand for m = n = 50, α = 0.05
    width = math.sqrt(0.04) * (1 + math.sqrt(math.log(20)))
    assert A.mmd_lower_bound(1.0, 50, 50, 0.05) == pytest.approx(1 - width)
    assert A.mmd_lower_bound(0.3, 50, 50, 0.05) == 0.0


def _gaussian_mmd(mu, s):
    """Population MMD of N(0, 1) and N(mu, 1) in the RBF kernel of bandwidth s."""
    return math.sqrt(2 * s / math.sqrt(s * s + 2) * (1 - math.exp(-mu * mu / (2 * (s * s + 2)))))


def test_lower_bound_covers_the_population_mmd():
    s, mu, n, alpha = 1.0, 1.5, 30, 0.1
    truth = _gaussian_mmd(mu, s)
    rng = np.random.default_rng(0)
    stats = np.array([mmd_biased(rng.normal(size=(n, 1)), rng.normal(size=(n, 1)) + mu, s)
                      for _ in range(1000)])
    lower = np.array([A.mmd_lower_bound(x, n, n, alpha) for x in stats])
    assert np.mean(lower > truth) <= alpha
    assert np.mean(lower > 0) > 0.2  # informative, not trivially zero
    assert np.mean(stats > truth) > 4 * alpha  # the plug-in value is no bound


def _binary_response(epsilon):
    """Randomized response over two far-apart outputs: ε exact, and MMD = √2·TV for an RBF
    kernel of bandwidth 1 (the cross term e^-50 vanishes), so the route can reach ε."""
    protos = M.PrototypeSet("dispersed", np.array([[0.0], [10.0]]), 0, 10.0, 10.0, (0, 1), (0, 1))
    return M.RandomizedResponse(protos, epsilon)


def test_certificate_below_exact_epsilon_where_plug_in_is_not():
    eps, alpha = 0.5, 0.025
    mech = _binary_response(eps)
    exact = mech.pair_epsilon(0, 1)
    assert exact == pytest.approx(eps, abs=1e-9)
    auditor = A.MMDFinite(alpha=alpha, bandwidth=1.0)
    values, plug_in = [], []
    for seed in range(25):
        rng = np.random.default_rng(seed)
        a, b = mech.sample(0, 1000, rng), mech.sample(1, 1000, rng)
        r = auditor.audit(a, b, delta=0.0)
        values.append(r.value)
        plug_in.append(tv_to_epsilon(r.details["mmd_b"] / math.sqrt(2)))
        assert r.details["attainable"] > exact
    assert max(values) <= exact and min(values) > 0.05
    assert np.mean(np.array(plug_in) > exact) > 0.3


def test_claims_through_total_variation():
    mech = _binary_response(2.0)
    rng = np.random.default_rng(1)
    a, b = mech.sample(0, 2000, rng), mech.sample(1, 2000, rng)
    auditor = A.MMDFinite(alpha=0.025, bandwidth=1.0)
    assert auditor.test(a, b, epsilon=0.5, delta=0.0).reject
    kept = auditor.test(a, b, epsilon=2.0, delta=0.0)
    assert not kept.reject and kept.epsilon_lower <= 2.0
    # round trip between the two conversions
    for tv, delta in ((0.3, 0.0), (0.6, 1e-5), (0.9, 0.01)):
        assert tv_to_delta(tv, tv_to_epsilon(tv, delta)) == pytest.approx(delta, abs=1e-12)


def test_development_bandwidth_and_null():
    p = M.make_prototypes("dispersed")
    null = M.build_mechanism("laplace", p, 0.0)
    rng = np.random.default_rng(2)
    r = A.mmd_finite().audit(null.sample(0, 100, rng), null.sample(1, 100, rng), seed=0)
    assert r.value == 0.0 and r.details["n_eval_a"] == 50 and r.details["bandwidth"] > 0
    m = M.build_mechanism("randomized_response", p, 16.0)
    i, j = p.l2_pair
    r = A.mmd_finite().audit(m.sample(i, 300, rng), m.sample(j, 300, rng), delta=0.0, seed=0)
    assert 0 < r.value <= r.details["attainable"] < m.pair_epsilon(i, j)


@pytest.mark.parametrize("call, parameter, error", [
    (lambda: A.MMDFinite(alpha=0.6), "alpha", PrivlabValueError),
    (lambda: A.MMDFinite(bandwidth=0.0), "bandwidth", PrivlabValueError),
    (lambda: A.mmd_lower_bound(0.5, 0, 5, 0.05), "m", PrivlabValueError),
    (lambda: A.MMDFinite().test(np.zeros((4, 2)), np.zeros((4, 2)), epsilon=-1), "epsilon",
     PrivlabValueError),
    (lambda: A.MMDFinite().test(np.zeros((4, 2)), np.zeros((4, 2)), 1.0, seed=0.5), "seed",
     PrivlabTypeError),
])
def test_bad_inputs_name_the_parameter(call, parameter, error):
    with pytest.raises(error, match=f"'{parameter}'"):
        call()


def test_tv_to_delta_at_a_huge_epsilon():
    from privlab.epsilon.auditors.mmd_finite import tv_to_delta

    assert tv_to_delta(0.9, 1000.0) == 0.0
    assert tv_to_delta(1.0, 1000.0) == 1.0
    assert tv_to_delta(0.9, 700.0) == 0.0


def _halves_test_rows(n_a, n_b, seed):
    """The rows split_halves keeps for evaluation (the second half of a seeded shuffle)."""
    rng = np.random.default_rng(seed)
    pa, pb = rng.permutation(n_a), rng.permutation(n_b)
    return pa[n_a // 2:], pb[n_b // 2:]


def test_bandwidth_is_fixed_on_development_rows_only():
    # Only the evaluation rows change (swapped between the identities and spread out
    # tenfold): the development-median bandwidth may not move. A bandwidth computed from
    # every row would grow with the spread evaluation rows.
    rng = np.random.default_rng(2)
    a = rng.normal(size=(80, 2))
    b = rng.normal(size=(80, 2)) + [6.0, 0.0]
    auditor = A.MMDFinite(alpha=0.0125)
    before = auditor.audit(a, b, delta=0, seed=9)
    ta, tb = _halves_test_rows(80, 80, 9)
    a2, b2 = a.copy(), b.copy()
    a2[ta], b2[tb] = 10.0 * b[tb], 10.0 * a[ta]
    after = auditor.audit(a2, b2, delta=0, seed=9)
    assert after.details["bandwidth"] == before.details["bandwidth"]
    assert after.details["mmd_b"] != before.details["mmd_b"]
    # and the claim test uses the same development bandwidth
    claim = auditor.test(a2, b2, 1.0, 0.0, seed=9)
    assert claim.details["bandwidth"] == before.details["bandwidth"]


def test_median_bandwidth_is_the_full_median_up_to_the_subsample_size():
    from privlab.epsilon.auditors.mmd_finite import median_bandwidth
    rng = np.random.default_rng(3)
    x = rng.normal(size=(300, 4))
    _, full = A.rbf_median_kernel(x)
    assert median_bandwidth(x, max_rows=300) == (full, 300)
    sub, used = median_bandwidth(x, max_rows=120, seed=5)
    assert used == 120 and sub != full and abs(sub / full - 1) < 0.1
    assert median_bandwidth(x, max_rows=120, seed=5) == (sub, 120)  # seeded
    assert median_bandwidth(np.zeros((4, 2))) == (1.0, 4)


def test_blocked_statistic_equals_the_whole_gram_matrices(monkeypatch):
    import importlib
    F = importlib.import_module("privlab.epsilon.auditors.mmd_finite")  # the module, not
    # the factory of the same name that the package exports
    rng = np.random.default_rng(4)
    a, b = rng.normal(size=(37, 3)), rng.normal(size=(23, 3)) + 0.5
    whole = math.sqrt(F._rbf(a, a, 1.1).mean() + F._rbf(b, b, 1.1).mean()
                      - 2 * F._rbf(a, b, 1.1).mean())
    monkeypatch.setattr(F, "BLOCK_ENTRIES", 50)  # blocks of 1 or 2 rows, a ragged last one
    assert F.mmd_biased(a, b, 1.1) == pytest.approx(whole, rel=1e-12)


def test_provenance_states_the_bandwidth_rule_and_rows():
    rng = np.random.default_rng(0)
    r = A.MMDFinite(alpha=0.025).audit(rng.normal(size=(40, 2)), rng.normal(size=(40, 2)))
    assert "subsample of 1000 rows" in r.provenance["bandwidth_rule"]
    assert r.details["bandwidth_rows"] == 40  # both development halves, all of them
    fixed = A.MMDFinite(alpha=0.025, bandwidth=1.0).audit(rng.normal(size=(40, 2)),
                                                           rng.normal(size=(40, 2)))
    assert fixed.provenance["bandwidth_rule"] == "fixed" and fixed.details["bandwidth_rows"] == 0
