"""The sample-size planner: its vectorized bounds, its plans, and that they come true."""

import math

import numpy as np
import pytest

from privlab.epsilon import planner as P
from privlab.epsilon.auditors.bounds import certified_epsilon, clopper_pearson_upper
from privlab.epsilon.auditors.dpsniper import sniper_epsilon
from privlab.epsilon.validity import laplace_1d, response_2
from privlab.errors import PrivlabValueError


def test_vectorized_bounds_are_the_library_ones():
    rng = np.random.default_rng(0)
    for _ in range(300):
        m = int(rng.integers(1, 300))
        k1, k0 = rng.integers(0, m + 1, size=2)
        alpha = float(rng.choice([0.025, 0.000625]))
        delta = float(rng.choice([0.0, 1e-5, 0.3]))
        u1, u0 = P._cp_upper(np.array([k1]), m, alpha), P._cp_upper(np.array([k0]), m, alpha)
        assert u1[0] == pytest.approx(clopper_pearson_upper(int(k1), m, alpha), abs=1e-12)
        assert P._from_rates(u1, u0, delta)[0] == pytest.approx(
            certified_epsilon(int(k1), m, int(k0), m, alpha, delta), abs=1e-9)
    draws = np.random.default_rng(1).random((50, 4))
    rates = {"counts": (60, 100, 5, 100)}
    sims = P._bounds_at("dp-sniper", rates, 200, 0.025, 0.0, draws)
    assert sims.shape == (50,) and (sims >= 0).all()
    # the draw with both rates at their posterior medians and counts at their medians
    mid = P._bounds_at("dp-sniper", rates, 200, 0.025, 0.0, np.full((1, 4), 0.5))[0]
    m = P._test_rows("dp-sniper", 200)
    from scipy import stats
    r1 = stats.beta.ppf(0.5, 60.5, 40.5)
    r0 = stats.beta.ppf(0.5, 5.5, 95.5)
    k1, k0 = int(stats.binom.ppf(0.5, m, r1)), int(stats.binom.ppf(0.5, m, r0))
    assert mid == pytest.approx(sniper_epsilon(k1, m, k0, m, 0.025, 0.0))


def test_plan_is_smallest_size_reaching_the_probability():
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=(200, 1)), rng.normal(size=(200, 1)) + 2.0
    plan = P.plan_sample_size(a, b, methods=["reserved", "dp-sniper"], fraction=0.5,
                              probability=0.8, alpha=0.025, delta=0.0)
    for method in ("reserved", "dp-sniper"):
        row = plan.plan[plan.plan["method"] == method].iloc[0]
        assert row["target"] == pytest.approx(0.5 * row["point"]) and row["point"] > 1.0
        n = plan.n_for(method)
        assert 16 <= n < 5000 and row["probability_at_n"] >= 0.8
        draws = np.random.default_rng([0, 7]).random((400, 4))
        rates = P._pilot_rates(method, a, b, 0.025, 0.0, 0)
        below = P._bounds_at(method, rates, int(n) - 1, 0.025, 0.0, draws)
        assert np.mean(below >= row["target"] - 1e-12) < 0.8  # one row fewer falls short
        curve = plan.curve[plan.curve["method"] == method]
        assert curve["median"].iloc[-1] > curve["median"].iloc[0]
        assert (curve["reached"] <= curve["median"] + 1e-12).all()


def test_no_signal_gives_no_plan():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(200, 2))
    plan = P.plan_sample_size(x[:100], x[100:], methods=["dp-sniper"], alpha=0.025,
                              delta=0.0, max_n=2000)
    assert math.isnan(plan.n_for("dp-sniper"))


@pytest.mark.parametrize("mech, method, runs", [(laplace_1d(2.0), "reserved", 15),
                                                (laplace_1d(2.0), "dp-sniper", 60),
                                                (response_2(2.0), "reserved", 15)])
def test_planned_size_reaches_the_target_in_most_fresh_runs(mech, method, runs):
    # each run: a fresh 200-row pilot, a plan at probability 0.9, a fresh audit at the
    # planned n; the bar is 80 % of the runs. DP-Sniper's rate on Laplace sits near
    # it (0.84 over 435 fresh runs, 0.88 with the former float sampler), so 15 runs decide
    # by luck (10 of 15 here): it gets 60 (48 of 60)
    r = P.check_plan(mech, 0, 1, method=method, runs=runs, probability=0.9, seed=5)
    assert r["planned"] >= 0.8 * runs
    assert r["rate"] >= 0.8, r


def test_bad_inputs_name_the_parameter():
    x = np.zeros((20, 1))
    with pytest.raises(PrivlabValueError, match="'methods'"):
        P.plan_sample_size(x, x + 1, methods=["gaussmech"])
    with pytest.raises(PrivlabValueError, match="'fraction'"):
        P.plan_sample_size(x, x + 1, fraction=0.0)
    with pytest.raises(PrivlabValueError, match="'probability'"):
        P.plan_sample_size(x, x + 1, probability=1.0)
    with pytest.raises(PrivlabValueError, match="'a'"):
        P.plan_sample_size(x[:4], x[:4] + 1)
    with pytest.raises(PrivlabValueError, match="'runs'"):
        P.check_plan(laplace_1d(1.0), 0, 1, runs=0)
