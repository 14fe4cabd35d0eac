"""Mechanisms of known privacy: sensitivities, calibration and exact references."""

import math

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from privlab.epsilon import mechanisms as M
from privlab.errors import PrivlabValueError


def test_prototypes_unit_norm_and_exact_sensitivities_small():
    p = M.make_prototypes("clustered", n_identities=30, dim=16, seed=3)
    assert np.allclose(np.linalg.norm(p.prototypes, axis=1), 1.0)
    d1 = cdist(p.prototypes, p.prototypes, "cityblock")
    d2 = cdist(p.prototypes, p.prototypes, "euclidean")
    assert p.delta1 == pytest.approx(d1.max(), rel=1e-12)
    assert p.delta2 == pytest.approx(d2.max(), rel=1e-12)
    assert d1[p.l1_pair] == pytest.approx(p.delta1, rel=1e-12)
    assert d2[p.l2_pair] == pytest.approx(p.delta2, rel=1e-12)
    assert p.l1_pair[0] < p.l1_pair[1]
    assert list(p.centers[:5]) == [0, 1, 2, 3, 0]


@pytest.mark.parametrize("geometry", ["dispersed", "clustered"])
def test_full_prototype_sets_match_paper_scale(geometry):
    p = M.make_prototypes(geometry)
    assert p.prototypes.shape == (400, 512)
    # The paper's sets (other seeds) have (28.302, 1.543) and (26.367, 1.451).
    assert 25.0 < p.delta1 < 30.0
    assert 1.40 < p.delta2 < 1.60
    assert p.sha256 == M.make_prototypes(geometry).sha256  # deterministic


def test_analytic_gaussian_sigma_known_value_and_dp_accounting():
    sigma = M.analytic_gaussian_sigma(1.0, 1e-5, 1.0)
    assert round(sigma, 6) == 3.730632
    plm = pytest.importorskip("dp_accounting.pld.privacy_loss_mechanism")
    for eps, sens in [(0.1, 1.0), (1.0, 1.543), (8.0, 1.0), (64.0, 2.0)]:
        s = M.analytic_gaussian_sigma(eps, 1e-5, sens)
        ref = plm.GaussianPrivacyLoss(s, sensitivity=sens).get_delta_for_epsilon(eps)
        assert ref == pytest.approx(1e-5, rel=1e-4)


def test_analytic_gaussian_epsilon_inverts_profile():
    plm = pytest.importorskip("dp_accounting.pld.privacy_loss_mechanism")
    for dist, sigma in [(1.0, 3.0), (0.5, 0.2), (1.4, 0.05)]:
        eps = M.analytic_gaussian_epsilon(dist, sigma, 1e-5)
        ref = plm.GaussianPrivacyLoss(sigma, sensitivity=dist).get_delta_for_epsilon(eps)
        assert ref == pytest.approx(1e-5, rel=1e-4)
    assert M.analytic_gaussian_epsilon(0.0, 1.0, 1e-5) == 0.0
    # Tiny distance: δ(0) below the target, so ε = 0 exactly.
    assert M.analytic_gaussian_epsilon(1e-7, 1.0, 1e-5) == 0.0


@pytest.mark.parametrize("name", ["laplace", "gaussian", "anisotropic_gaussian"])
def test_global_epsilon_is_the_worst_pair(name):
    p = M.make_prototypes("dispersed", n_identities=12, dim=8, seed=1)
    m = M.build_mechanism(name, p, 2.0)
    worst = max(m.pair_epsilon(i, j) for i in range(12) for j in range(i + 1, 12))
    assert worst == pytest.approx(2.0, rel=1e-6)


def test_null_mechanism_identical_laws():
    p = M.make_prototypes("dispersed", n_identities=5, dim=4, seed=1)
    m = M.build_mechanism("laplace", p, 0.0)
    a = m.sample(0, 5, np.random.default_rng(7))
    b = m.sample(3, 5, np.random.default_rng(7))
    assert np.array_equal(a, b)
    assert m.pair_epsilon(0, 3) == 0.0


def test_randomized_response_threshold_and_frequency():
    p = M.make_prototypes("dispersed", n_identities=400, dim=8, seed=1)
    m = M.RandomizedResponse(p, 8.0)
    p_ideal = math.exp(8) / (math.exp(8) + 399)
    assert m.p_true == pytest.approx(p_ideal, rel=1e-12)
    assert m.realised_epsilon == pytest.approx(8.0, abs=1e-9)
    labels = m.sample_labels(5, 20_000, np.random.default_rng(0))
    assert np.mean(labels == 5) == pytest.approx(p_ideal, abs=0.015)
    assert np.all((labels >= 0) & (labels < 400))
    # At ε = 256 the rounded threshold reaches the whole grid: the realised ε is infinite.
    assert math.isinf(M.RandomizedResponse(p, 256.0).realised_epsilon)
    null = M.build_mechanism("randomized_response", p, 0.0)
    assert null.realised_epsilon == pytest.approx(0.0, abs=1e-12)


def test_randomized_response_log_likelihood_ratio():
    p = M.make_prototypes("dispersed", n_identities=6, dim=3, seed=1)
    m = M.RandomizedResponse(p, 2.0)
    x = p.prototypes[[0, 1, 2]]
    assert np.allclose(m.log_likelihood_ratio(x, 0, 1), [-2.0, 2.0, 0.0])


def test_anisotropic_variances():
    lam = M.anisotropic_variances(512, 100.0)
    assert lam[0] / lam[-1] == pytest.approx(100.0)
    assert np.exp(np.log(lam).mean()) == pytest.approx(1.0)
    assert np.all(np.diff(lam) < 0)


def test_gaussian_optimal_auc_matches_monte_carlo_of_exact_score():
    p = M.make_prototypes("dispersed", n_identities=4, dim=16, seed=2)
    m = M.GaussianMechanism(p, 8.0)
    exact = M.optimal_auc_gaussian(m.pair_distance(0, 1), m.sigma)
    mc = M.optimal_auc_monte_carlo(m, 0, 1, draws=20_000, seed=1)
    assert mc == pytest.approx(exact, abs=0.01)


def test_laplace_llr_matches_log_densities():
    from scipy import stats

    p = M.make_prototypes("dispersed", n_identities=4, dim=5, seed=2)
    m = M.LaplaceMechanism(p, 3.0)
    x = m.sample(0, 7, np.random.default_rng(1))
    c = m.prototypes.prototypes  # the centres on the mechanism's grid
    ref = (stats.laplace.logpdf(x, c[2], m.scale).sum(1)
           - stats.laplace.logpdf(x, c[0], m.scale).sum(1))
    assert np.allclose(m.log_likelihood_ratio(x, 0, 2), ref)


@pytest.mark.parametrize("call, parameter", [
    (lambda: M.make_prototypes("round"), "geometry"),
    (lambda: M.make_prototypes(n_identities=1), "n_identities"),
    (lambda: M.analytic_gaussian_sigma(0.0), "epsilon"),
    (lambda: M.analytic_gaussian_sigma(1.0, delta=1.5), "delta"),
    (lambda: M.analytic_gaussian_epsilon(-1.0, 1.0), "distance"),
    (lambda: M.build_mechanism("cauchy", M.make_prototypes(n_identities=3, dim=2), 1.0), "name"),
    (lambda: M.build_mechanism("laplace", M.make_prototypes(n_identities=3, dim=2), -1.0),
     "epsilon"),
    (lambda: M.LaplaceMechanism(M.make_prototypes(n_identities=3, dim=2), 1.0).sample(
        7, 2, np.random.default_rng(0)), "identity"),
])
def test_bad_inputs_name_the_parameter(call, parameter):
    with pytest.raises(PrivlabValueError, match=f"'{parameter}'"):
        call()
