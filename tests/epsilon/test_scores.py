"""Scores in, ε out: valid on mechanisms of known ε, exact on hand-worked counts."""

import math

import numpy as np
import pytest
from scipy import special, stats

from privlab.epsilon.scores import from_scores, gdp_mu, one_run_epsilon
from privlab.epsilon.validity import laplace_1d, response_2
from privlab.errors import PrivlabTypeError, PrivlabValueError


def _canaries(mech, n, rng):
    """n canaries, each in (input 1) or out (input 0) by a fair coin; the output as score."""
    inside = rng.random(n) < 0.5
    scores = np.where(inside, mech.sample(1, n, rng)[:, 0], mech.sample(0, n, rng)[:, 0])
    return scores[inside], scores[~inside]


@pytest.mark.parametrize("make, eps", [(laplace_1d, 1.0), (laplace_1d, 2.0),
                                       (response_2, 1.0), (response_2, 2.0)])
def test_bounds_stay_below_the_exact_epsilon_within_their_level(make, eps):
    mech, alpha, reps = make(eps), 0.1, 120
    exact = mech.pair_epsilon(0, 1)
    above = {"threshold": 0, "one-run": 0}
    informative = 0
    for seed in range(reps):
        rng = np.random.default_rng(seed)
        members, nonmembers = _canaries(mech, 600, rng)
        r = from_scores(members, nonmembers, alpha=alpha, seed=seed)
        above["threshold"] += r.epsilon > exact + 1e-9
        above["one-run"] += r.one_run_epsilon > exact + 1e-9
        informative += r.one_run_epsilon > 0.3 * exact
    # each bound fails with probability ≤ alpha: allow the binomial 99.9% quantile
    limit = stats.binom.ppf(0.999, reps, alpha)
    assert above["threshold"] <= limit and above["one-run"] <= limit, above
    assert informative > reps / 2


def test_identical_laws_give_nothing_beyond_the_control():
    rng = np.random.default_rng(0)
    hits = 0
    for seed in range(40):
        r = from_scores(rng.normal(size=500), rng.normal(size=500), alpha=0.05, seed=seed)
        hits += r.epsilon > 0 or r.one_run_epsilon > 0
    assert hits <= 6  # each of two bounds false with probability ≤ 0.05


def test_one_run_epsilon_by_hand():
    # all r guesses right: the tail is p^r, so p = beta^(1/r) and ε = logit(p)
    r, beta = 40, 0.05
    assert one_run_epsilon(r, r, beta) == pytest.approx(special.logit(beta ** (1 / r)),
                                                        abs=1e-8)
    # at the bound the binomial tail equals beta
    eps = one_run_epsilon(70, 100, 0.01)
    assert stats.binom.sf(69, 100, special.expit(eps)) == pytest.approx(0.01, rel=1e-6)
    assert one_run_epsilon(55, 100, 0.01) == 0.0 and one_run_epsilon(0, 0, 0.01) == 0.0


def test_gdp_reading_by_hand_and_status_columns():
    assert gdp_mu(0.1, 0.1) == pytest.approx(2 * stats.norm.ppf(0.9))
    assert gdp_mu(0.6, 0.6) == 0.0 and gdp_mu(1.0, 0.5) == 0.0
    rng = np.random.default_rng(1)
    r = from_scores(rng.normal(2.0, 1.0, 3000), rng.normal(0.0, 1.0, 3000), delta=1e-5)
    # outputs of a Gaussian mechanism with μ = 2: the reading sits below the truth
    assert 1.0 < r.gdp_mu <= 2.0 + 0.2 and math.isfinite(r.gdp_epsilon)
    frame = r.to_frame()
    assert list(frame["reading"]) == ["threshold certificate", "one-run (δ = 0)",
                                      "GDP reading, ε at δ", "shuffled-label control"]
    assert frame.loc[2, "status"] == "diagnostic"
    assert "shuffled-label control" in r.headline() and r.excess == r.epsilon - r.placebo_epsilon
    assert r.provenance["n_members"] == 3000 and len(r.provenance["members_sha256"]) == 64


def test_inputs_are_checked():
    good = np.arange(10.0)
    with pytest.raises(PrivlabValueError, match="member_scores"):
        from_scores(np.zeros((3, 2)), good)
    with pytest.raises(PrivlabValueError, match="nonmember_scores"):
        from_scores(good, [1.0, 2.0])
    with pytest.raises(PrivlabValueError, match="alpha"):
        from_scores(good, good, alpha=1.5)
    with pytest.raises(PrivlabValueError, match="delta"):
        from_scores(good, good, delta=1.0)
    with pytest.raises(PrivlabTypeError, match="member_scores"):
        from_scores(None, good)
