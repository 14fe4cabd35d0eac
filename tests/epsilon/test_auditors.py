"""Auditors: known answers, slow references, the exact null and broken mechanisms."""

import math

import numpy as np
import pytest
from scipy import stats

from privlab.epsilon import auditors as A
from privlab.epsilon import mechanisms as M
from privlab.errors import PrivlabTypeError, PrivlabValueError


# ----------------------------------------------------------------- Eq. 16 known answers

def test_certified_epsilon_known_answers():
    assert round(A.certified_epsilon(0, 30, 0, 30, alpha=0.000625), 3) == 1.277
    assert A.certified_epsilon(0, 10, 0, 10, alpha=0.000625) == 0.0
    assert round(A.certified_epsilon(0, 15, 0, 15, alpha=0.000625), 3) == 0.454
    # Worked by hand: U = 1 - α^(1/n) for zero errors, ε = ln((1 - U)/U).
    u = 1 - 0.000625 ** (1 / 30)
    assert A.certified_epsilon(0, 30, 0, 30, 0.000625) == pytest.approx(math.log((1 - u) / u))


def test_certified_epsilon_delta_and_errors():
    base = A.certified_epsilon(1, 100, 2, 100, 0.01)
    assert 0 < base
    assert A.certified_epsilon(1, 100, 2, 100, 0.01, delta=0.05) < base
    assert A.certified_epsilon(50, 100, 50, 100, 0.01) == 0.0


@pytest.mark.parametrize("k, n", [(0, 1), (0, 10), (1, 10), (5, 10), (9, 10), (10, 10),
                                  (3, 97), (0, 300), (150, 300), (299, 300)])
@pytest.mark.parametrize("alpha", [0.05, 0.000625])
def test_clopper_pearson_matches_scipy_exact(k, n, alpha):
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=1 - 2 * alpha, method="exact")
    assert A.clopper_pearson_upper(k, n, alpha) == pytest.approx(ci.high, rel=1e-9, abs=1e-12)
    assert A.clopper_pearson_lower(k, n, alpha) == pytest.approx(ci.low, rel=1e-9, abs=1e-12)


def test_epsilon_from_rates_omission_rules():
    assert A.epsilon_from_rates(0.0, 0.5) == math.inf  # positive numerator over zero
    assert A.epsilon_from_rates(1.0, 0.0) == 0.0  # both numerators nonpositive: omitted
    assert A.epsilon_from_rates(0.5, 0.5) == 0.0
    assert A.roc_epsilon(np.array([0.0, 1.0]), np.array([0.0, 1.0])) == 0.0  # 0/0 omitted
    assert A.roc_epsilon(np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0, 1.0])) == math.inf
    assert A.roc_epsilon(np.array([0.25]), np.array([0.75])) == pytest.approx(math.log(3))
    # With δ > 0 the (0, δ) start of a curve is omitted, not infinite.
    assert A.roc_epsilon(np.array([0.0, 1.0]), np.array([0.0, 1.0]), delta=1e-5) == 0.0


# ------------------------------------------------------------------ slow references

def test_kde_lr_matches_scipy_gaussian_kde_per_coordinate():
    rng = np.random.default_rng(4)
    a, b = rng.normal(size=(25, 3)), rng.standard_t(3, size=(31, 3)) + 0.3
    for alpha in (0.0, 0.01):
        aud = A.KDELR(alpha=alpha, chunk=2)
        fast = aud.per_coordinate(a, b)
        for k in range(3):
            ka, kb = stats.gaussian_kde(a[:, k], "silverman"), stats.gaussian_kde(b[:, k], "silverman")
            h = 3 * max(ka.factor * a[:, k].std(ddof=1), kb.factor * b[:, k].std(ddof=1))
            lo = min(a[:, k].min(), b[:, k].min()) - h
            hi = max(a[:, k].max(), b[:, k].max()) + h
            g = np.linspace(lo, hi, 201)
            pa = (1 - alpha) * ka(g) + alpha / (hi - lo)
            pb = (1 - alpha) * kb(g) + alpha / (hi - lo)
            ref = np.abs(np.log(np.maximum(pa, 1e-12)) - np.log(np.maximum(pb, 1e-12))).max()
            assert fast[k] == pytest.approx(ref, rel=1e-9)


def test_mmd_unbiased_matches_double_loop():
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=(7, 2)), rng.normal(size=(9, 2)) + 0.5
    pooled = np.vstack([a, b])
    kern, sigma = A.rbf_median_kernel(pooled)
    k = lambda u, v: math.exp(-np.sum((u - v) ** 2) / (2 * sigma**2))  # noqa: E731
    saa = sum(k(a[i], a[j]) for i in range(7) for j in range(7) if i != j) / (7 * 6)
    sbb = sum(k(b[i], b[j]) for i in range(9) for j in range(9) if i != j) / (9 * 8)
    sab = sum(k(x, y) for x in a for y in b) / 63
    in_a = np.r_[np.ones(7, bool), np.zeros(9, bool)]
    assert A.mmd2_unbiased(kern, in_a) == pytest.approx(saa + sbb - 2 * sab, rel=1e-10)
    dists = [np.linalg.norm(pooled[i] - pooled[j]) for i in range(16) for j in range(i + 1, 16)]
    assert sigma == pytest.approx(np.median(dists))


def test_mmd_permutation_p_value_at_strong_separation():
    rng = np.random.default_rng(6)
    r = A.MMDTV(permutations=199).audit(rng.normal(size=(20, 3)), rng.normal(size=(20, 3)) + 5)
    assert r.details["p_value"] == pytest.approx(1 / 200)
    assert r.value > 0 and r.details["tighter"] > r.value


# ----------------------------------------------------------------- null behaviour

@pytest.mark.parametrize("n", [30, 100, 300])
def test_gaussmech_null_floor_eq22(n):
    rng = np.random.default_rng(n)
    values = [A.GaussMech().audit(rng.standard_normal((n, 512)),
                                  rng.standard_normal((n, 512))).value for _ in range(8)]
    floor = A.gaussmech_null_floor(512, n, 1e-5)
    assert np.mean(values) == pytest.approx(floor, rel=0.04)
    assert np.min(values) > 0.8 * floor  # large although the true ε is 0


def test_gaussmech_null_floor_on_laplace_null_mechanism():
    p = M.make_prototypes("dispersed")
    m = M.build_mechanism("laplace", p, 0)
    rng = np.random.default_rng(11)
    values = [A.GaussMech().audit(m.sample(i, 100, rng), m.sample(i + 1, 100, rng)).value
              for i in range(6)]
    assert np.mean(values) == pytest.approx(A.gaussmech_null_floor(512, 100), rel=0.05)


def test_null_mmd_near_zero_and_auc_near_half():
    p = M.make_prototypes("dispersed")
    m = M.build_mechanism("laplace", p, 0)
    rng = np.random.default_rng(12)
    mmd, auc, corner = [], [], []
    for i in range(8):
        a, b = m.sample(2 * i, 100, rng), m.sample(2 * i + 1, 100, rng)
        mmd.append(A.MMDTV(permutations=0).audit(a, b).value)
        r = A.ROCHT().audit(a, b, delta=0.0, seed=i)
        auc.append(r.details["auc"])
        corner.append(r.details["corner"])
    assert np.median(mmd) < 0.01 and max(mmd) < 0.06
    assert np.mean(auc) == pytest.approx(0.5, abs=0.05)
    assert not any(corner)


def test_null_permutation_p_values_not_small():
    rng = np.random.default_rng(13)
    ps = [A.MMDTV(permutations=199).audit(rng.normal(size=(40, 8)), rng.normal(size=(40, 8)),
                                          seed=s).details["p_value"] for s in range(10)]
    assert min(ps) > 0.005 and 0.2 < np.mean(ps) < 0.8


def test_kde_lr_is_large_at_the_null():
    rng = np.random.default_rng(14)
    r = A.KDELR(alpha=0.01).audit(rng.normal(size=(100, 512)), rng.normal(size=(100, 512)))
    assert r.value > 300  # a diagnostic far from the true ε = 0
    assert r.status is A.Status.DIAGNOSTIC


# ------------------------------------------------------- validity and broken mechanisms

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


def test_broken_laplace_caught_by_audit_pairs():
    p = M.make_prototypes("dispersed", n_identities=10, dim=64, seed=9)
    broken = M.LaplaceMechanism(p, 0.5)
    broken.scale /= 200  # claims ε = 0.5
    rng = np.random.default_rng(1)
    x = np.vstack([broken.sample(i, 120, rng) for i in range(4)])
    y = np.repeat(np.arange(4), 120)
    table = A.audit_pairs(x, y, [(0, 1), (2, 3)], methods=["reserved", "gaussmech"], delta=0.0)
    frame = table.to_frame()
    certs = frame[frame.method == "reserved"]
    assert (certs.value > 0.5).all()
    assert set(certs.status) == {"finite-sample certificate"}
    # Bonferroni over 2 pairs x 2 error rates.
    assert table.results[0].provenance["alpha"] == pytest.approx(0.05 / 4)


# ------------------------------------------------------------------- results & inputs

def test_result_frames_and_registry():
    assert set(A.AUDITORS) >= {"gaussmech", "kde-lr", "kde-lr-0.01", "mmd-tv", "roc-ht", "reserved"}
    for name, auditor in A.AUDITORS.items():
        assert isinstance(auditor, A.Auditor) and auditor.name == name
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(60, 4)), np.repeat(["u", "v", "w"], 20)
    t = A.audit_pairs(x, y, [("u", "v"), ("v", "w")], methods=list(A.AUDITORS))
    f = t.to_frame()
    assert len(f) == 2 * len(A.AUDITORS)
    assert {"pair_index", "id_a", "id_b", "method", "status", "value"} <= set(f.columns)
    assert "finite-sample certificate" in t._repr_html_() or "certificate" in t._repr_html_()
    assert t.summary()["method"].tolist() == list(A.AUDITORS)
    assert "descriptive" in t.results[4].to_frame()["status"].iloc[0]


@pytest.mark.parametrize("call, parameter, error", [
    (lambda: A.certified_epsilon(-1, 30, 0, 30, 0.05), "false_positives", PrivlabValueError),
    (lambda: A.certified_epsilon(0, 0, 0, 30, 0.05), "negatives", PrivlabValueError),
    (lambda: A.certified_epsilon(0, 30, 31, 30, 0.05), "false_negatives", PrivlabValueError),
    (lambda: A.certified_epsilon(0, 30, 0, 30, 1.5), "alpha", PrivlabValueError),
    (lambda: A.certified_epsilon(0, 30, 0, 30, 0.05, delta=-0.1), "delta", PrivlabValueError),
    (lambda: A.clopper_pearson_upper(3, 2, 0.05), "errors", PrivlabValueError),
    (lambda: A.GaussMech().audit(np.zeros(5), np.zeros((5, 2))), "a", PrivlabValueError),
    (lambda: A.GaussMech().audit(np.zeros((5, 2)), np.zeros((5, 3))), "b", PrivlabValueError),
    (lambda: A.GaussMech().audit(np.full((5, 2), np.nan), np.zeros((5, 2))), "a",
     PrivlabValueError),
    (lambda: A.GaussMech().audit("x", np.zeros((5, 2))), "a", PrivlabTypeError),
    (lambda: A.GaussMech(delta=0.0), "delta", PrivlabValueError),
    (lambda: A.KDELR(alpha=2.0), "alpha", PrivlabValueError),
    (lambda: A.MMDTV(permutations=-1), "permutations", PrivlabValueError),
    (lambda: A.ReservedTest(alpha=0.0), "alpha", PrivlabValueError),
    (lambda: A.audit_pairs(np.zeros((4, 2)), [0, 0, 1], [(0, 1)]), "labels", PrivlabValueError),
    (lambda: A.audit_pairs(np.zeros((4, 2)), [0, 0, 1, 1], [(0, 1)], methods=["nope"]),
     "methods", PrivlabValueError),
    (lambda: A.audit_pairs(np.zeros((4, 2)), [0, 0, 1, 1], [(0, 1)]), "pairs",
     PrivlabValueError),
])
def test_bad_inputs_name_the_parameter(call, parameter, error):
    with pytest.raises(error, match=f"'{parameter}'"):
        call()
