"""The Laplace member is exactly ε-DP: lattice outputs, an exact sampler, no float tell.

Why: docs/decisions/2026-12-05-exact-benchmark-noise.md (the float sampler let
``reserved-exact`` certify ε ≥ 2.08 on ε = 1 at 16,000 rows per input).
"""

import math

import numpy as np
import pytest
from scipy import stats

from privlab.epsilon import auditors as A
from privlab.epsilon import discrete as D
from privlab.epsilon import mechanisms as M
from privlab.epsilon.validity import laplace_1d


def test_bernoulli_exp_matches_exp_of_minus_gamma():
    rng = np.random.default_rng(0)
    for num, den in ((0, 5), (1, 1), (2, 5), (4, 5)):
        draws = D.bernoulli_exp(np.full(40_000, num, np.int64), den, rng)
        p = math.exp(-num / den)
        assert abs(draws.mean() - p) < 4 * math.sqrt(p * (1 - p) / 40_000 + 1e-12)


@pytest.mark.parametrize("t", [1, 3, 40])
def test_discrete_laplace_follows_its_exact_pmf(t):
    y = D.discrete_laplace(t, 100_000, np.random.default_rng(t))
    q = math.exp(-1.0 / t)
    edges = np.arange(-4 * t, 4 * t + 1)  # every value in ±4t, the rest pooled
    pmf = (1 - q) / (1 + q) * q ** np.abs(edges)
    observed = np.array([np.sum(y == v) for v in edges] + [np.sum(np.abs(y) > 4 * t)])
    expected = np.r_[pmf, 1 - pmf.sum()] * len(y)
    assert stats.chisquare(observed, expected).pvalue > 1e-3


@pytest.mark.parametrize("t", [1, 2, 40, 29_519_369, 3_000_000_000])
def test_small_draws_on_python_integers_are_the_vectorised_loops_draws(t, monkeypatch):
    # the small-size path reads the generator's raw words itself: same values, same state
    # after, from a fresh state and from one holding half a word (numpy's 32-bit draws)
    def runs():
        rng = np.random.default_rng([7, t % 1000])
        rng.integers(0, 3, 1)
        out = [D.discrete_laplace(t, size, rng).tolist() for size in (0, 1, 2, 7, 20, 100)
               for _ in range(2)]
        return out + [D.discrete_laplace(t, 5, np.random.default_rng(t)).tolist(),
                      rng.integers(0, 2**40, 4).tolist()]

    small = runs()
    monkeypatch.setattr(D, "_SMALL", -1)  # every size through the vectorised loop
    assert small == runs()
    words = D._Words(np.random.default_rng(1))
    reference = np.random.default_rng(1)
    for high, size in ((2, 9), (3, 1), (2**32, 5), (1, 4), (2**33 + 5, 3), (1_000_003, 40)):
        assert words.integers(high, size) == reference.integers(0, high, size).tolist()
    words.close()
    assert words.bitgen.state == reference.bit_generator.state


def test_outputs_and_prototypes_lie_on_the_grid():
    m = M.LaplaceMechanism(M.make_prototypes(n_identities=6, dim=16, seed=3), 0.5)
    x = m.sample(2, 500, np.random.default_rng(1))
    assert np.all(x / M.LAPLACE_GRID % 1 == 0)
    assert np.all(m.prototypes.prototypes / M.LAPLACE_GRID % 1 == 0)
    # the reference is the lattice's: Δ1 / (t · grid) in integer steps, at most the target ε
    assert m.realised_epsilon == pytest.approx(0.5, rel=1e-5) and m.realised_epsilon <= 0.5
    assert m.pair_epsilon(*m.prototypes.l1_pair) == m.realised_epsilon


def test_event_ratios_of_the_exact_law_stay_within_the_pair_epsilon():
    # 1-d pair at lattice points 0 and 3, t = 2: every output's probability ratio is
    # exp((|y − 3| − |y|)/2), at most exp(3/2) = exp(pair ε), reached on the plateaus
    protos = M.PrototypeSet("dispersed", np.array([[0.0], [3.0 * M.LAPLACE_GRID]]), 0,
                            3.0 * M.LAPLACE_GRID, 3.0 * M.LAPLACE_GRID, (0, 1), (0, 1))
    m = M.LaplaceMechanism(protos, 1.5)
    assert m.steps == 2 and m.pair_epsilon(0, 1) == 1.5
    y = np.arange(-60, 64)
    q = math.exp(-1.0 / m.steps)
    pa = (1 - q) / (1 + q) * q ** np.abs(y)
    pb = (1 - q) / (1 + q) * q ** np.abs(y - 3)
    assert np.max(np.abs(np.log(pb / pa))) == pytest.approx(1.5, abs=1e-12)
    llr = m.log_likelihood_ratio(y[:, None] * M.LAPLACE_GRID, 0, 1)
    assert np.allclose(llr, np.log(pb / pa), atol=1e-12)


def test_the_exact_score_takes_exactly_plus_minus_epsilon_on_both_plateaus():
    # the float sampler's tell: input 0's outputs below 0 gave scores below −1 that input
    # 1 never gives; on the lattice both inputs give exactly ±1 there
    mech = laplace_1d(1.0)
    rng = np.random.default_rng(7)
    for identity in (0, 1):
        x = mech.sample(identity, 20_000, rng)
        s = mech.log_likelihood_ratio(x, 0, 1)
        outside = (x[:, 0] <= 0) | (x[:, 0] >= 1)
        assert set(np.unique(s[outside])) == {-1.0, 1.0}


def test_reserved_exact_no_longer_certifies_above_epsilon_at_16000_rows():
    # before the fix: 2.0773 (cut −1.0000000000000004, no false negative) on these rows'
    # seeds; benchmarks/exact_laplace.py repeats it at 64,000 and 200,000 rows
    mech = laplace_1d(1.0)
    rng = np.random.default_rng(16_000)
    a, b = mech.sample(0, 16_000, rng), mech.sample(1, 16_000, rng)
    r = A.reserved_exact(lambda x: mech.log_likelihood_ratio(x, 0, 1), alpha=0.025).audit(
        a, b, delta=0.0, seed=1)
    assert 0.9 < r.value <= 1.0
    assert r.details["false_negatives"] > 0


def test_setting_the_scale_rounds_to_whole_grid_steps():
    m = M.LaplaceMechanism(M.make_prototypes(n_identities=4, dim=8, seed=1), 1.0)
    steps = m.steps
    m.scale /= 200  # a broken mechanism: the pair ε it reports follows the noise
    assert m.steps == round(steps / 200) and m.realised_epsilon == pytest.approx(200, rel=1e-3)


def test_discrete_laplace_names_a_bad_scale():
    from privlab.errors import PrivlabValueError

    with pytest.raises(PrivlabValueError, match="'t'"):
        D.discrete_laplace(0, 5, np.random.default_rng(0))
