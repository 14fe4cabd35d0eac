"""DP-Sniper: the randomized c-quantile region, its exact binomial bound, validity on
mechanisms of known ε and a broken one."""

import math

import numpy as np
import pytest
from scipy import stats

from privlab.epsilon import auditors as A
from privlab.epsilon import mechanisms as M
from privlab.epsilon.auditors.dpsniper import in_region, region_share, sniper_epsilon
from privlab.errors import PrivlabValueError


@pytest.mark.parametrize("c", [0.01, 0.05, 0.1, 0.25, 0.3, 0.5, 0.77, 1.0])
def test_randomized_threshold_holds_exactly_a_share_c(c):
    rng = np.random.default_rng(0)
    scores = np.round(rng.normal(size=97), 1)  # many ties
    t, q = A.find_threshold(scores, c)
    assert 0 <= q <= 1
    assert region_share(scores, t, q) == pytest.approx(c, abs=1e-12)


def test_find_threshold_known_answers():
    assert A.find_threshold(np.array([4.0, 3.0, 3.0, 1.0]), 0.5) == (3.0, 0.5)
    assert A.find_threshold(np.array([4.0, 3.0, 2.0, 1.0]), 0.25) == (3.0, 0.0)
    assert A.find_threshold(np.array([5.0, 5.0, 5.0, 5.0]), 0.1) == (5.0, 0.1)


def test_ties_enter_the_region_with_probability_q():
    rng = np.random.default_rng(1)
    inside = in_region(np.zeros(200_000), 0.0, 0.3, rng)
    assert inside.mean() == pytest.approx(0.3, abs=0.005)
    assert in_region(np.array([1.0, -1.0]), 0.0, 0.0, rng).tolist() == [True, False]


@pytest.mark.parametrize("k1, n1, k0, n0, alpha, delta", [
    (30, 30, 0, 30, 0.000625, 0.0), (25, 50, 2, 50, 0.01, 0.0), (140, 150, 6, 150, 0.000625, 1e-5),
    (10, 50, 10, 50, 0.01, 0.0), (0, 40, 0, 40, 0.05, 0.0)])
def test_sniper_bound_is_the_exact_binomial_one(k1, n1, k0, n0, alpha, delta):
    low = stats.binomtest(k1, n1).proportion_ci(1 - 2 * alpha, method="exact").low
    high = stats.binomtest(k0, n0).proportion_ci(1 - 2 * alpha, method="exact").high
    want = max(0.0, math.log((low - delta) / high)) if low > delta else 0.0
    assert sniper_epsilon(k1, n1, k0, n0, alpha, delta) == pytest.approx(want, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("name, eps", [("gaussian", 1.0), ("laplace", 1.0),
                                       ("randomized_response", 2.0), ("laplace", 0.0),
                                       ("randomized_response", 0.0)])
def test_never_above_exact_epsilon(name, eps):
    p = M.make_prototypes("dispersed")
    m = M.build_mechanism(name, p, eps)
    pairs = [p.l1_pair, p.l2_pair, (0, 1)]
    alpha = 0.05 / (2 * len(pairs))
    possible = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        for k, (i, j) in enumerate(pairs):
            a, b = m.sample(i, 200, rng), m.sample(j, 200, rng)
            exact = max(0.0, m.pair_epsilon(i, j))
            for c in (None, 0.01):
                r = A.DPSniper(c=c, alpha=alpha).audit(a, b, delta=m.delta, seed=10 * seed + k)
                possible += r.details["attainable"] > exact
                assert 0 <= r.value <= exact + 1e-12, (name, eps, seed, (i, j), r.details)
                assert r.value <= r.details["attainable"]
    assert possible > 0


def test_broken_randomized_response_is_caught():
    p = M.make_prototypes("dispersed")
    claimed = M.RandomizedResponse(p, 1.0)
    broken = M.RandomizedResponse(p, 8.0)  # a release that keeps the label far more often
    i, j = p.l2_pair
    rng = np.random.default_rng(0)
    r = A.dp_sniper(0.025).audit(broken.sample(i, 300, rng), broken.sample(j, 300, rng),
                                 delta=0.0, seed=0)
    assert claimed.pair_epsilon(i, j) + 0.5 < r.value <= broken.pair_epsilon(i, j)
    # the region points to the identity it was built for, and holds few reference rows
    assert r.details["inside_reference"] <= 0.1 * r.details["n_reference"]
    assert r.details["inside_target"] >= 0.5 * r.details["n_target"]


def test_separated_inputs_and_pools():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(100, 3)), rng.normal(size=(100, 3)) - 12
    r = A.DPSniper(alpha=0.025).audit(a, b, delta=0, seed=3)
    # both directions separate perfectly: the tie goes to the region pointing to b
    assert r.details["direction"] == "towards b"
    assert r.details["n_target"] == r.details["n_reference"] == 50  # the final half
    assert r.details["inside_target"] == 50
    assert 0 < r.value <= r.details["attainable"]
    assert r.provenance["fractions"] == (0.25, 0.25, 0.5)


def test_network_member_and_fixed_c():
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=(120, 4)), rng.normal(size=(120, 4)) + 3
    r = A.dp_sniper_mlp(0.025, c=0.1).audit(a, b, delta=0, seed=0)
    assert r.method == "dp-sniper-mlp" and r.details["c"] == 0.1
    assert r.provenance["classifier"] == "mlp" and r.value > 0


@pytest.mark.parametrize("call, parameter", [
    (lambda: A.DPSniper(c=0.0), "c"),
    (lambda: A.DPSniper(c=1.5), "c"),
    (lambda: A.DPSniper(fractions=(0.5, 0.5)), "fractions"),
    (lambda: A.DPSniper(fractions=(0.5, 0.4, 0.2)), "fractions"),
    (lambda: A.DPSniper(classifier="forest"), "classifier"),
    (lambda: A.DPSniper(alpha=2.0), "alpha"),
    (lambda: A.DPSniper().audit(np.zeros((3, 2)), np.zeros((8, 2))), "a"),
])
def test_bad_inputs_name_the_parameter(call, parameter):
    with pytest.raises(PrivlabValueError, match=f"'{parameter}'"):
        call()


def _final_rows(n_a, n_b, seed, fractions=(0.25, 0.25, 0.5)):
    """The rows DPSniper keeps for its final pool (the tail of each seeded shuffle)."""
    rng = np.random.default_rng(seed)
    out = []
    for n in (n_a, n_b):
        order = rng.permutation(n)
        cut = int(round(fractions[0] * n)) + int(round(fractions[1] * n))
        out.append(order[cut:])
    return out


@pytest.mark.parametrize("classifier, c", [("logistic", None), ("logistic", 0.1),
                                           ("mlp", None)])
def test_region_is_fixed_on_development_rows_only(classifier, c):
    # A and B differ along the first coordinate; the final rows are then swapped between
    # the identities. Classifier, threshold t, tie probability q, c and direction are all
    # chosen on the training and threshold pools, so none of them may move; the region
    # now points the wrong way on the final rows and the bound drops to 0. Choosing them
    # on the final pool would flip the direction.
    rng = np.random.default_rng(3)
    a = rng.normal(size=(80, 3))
    b = rng.normal(size=(80, 3)) + [4.0, 0.0, 0.0]
    sniper = A.DPSniper(classifier, c=c, alpha=0.0125)
    before = sniper.audit(a, b, delta=0, seed=5)
    fa, fb = _final_rows(80, 80, 5)
    a2, b2 = a.copy(), b.copy()
    a2[fa], b2[fb] = b[fb], a[fa]  # 40 final rows each, swapped
    after = sniper.audit(a2, b2, delta=0, seed=5)
    for key in ("direction", "c", "threshold", "tie_probability"):
        assert after.details[key] == before.details[key], key
    assert before.details["direction"] == "towards b" and before.value > 1.0
    assert before.details["inside_target"] >= 0.8 * before.details["n_target"] * before.details["c"]
    assert after.details["inside_reference"] > after.details["inside_target"]
    assert after.value == 0.0
