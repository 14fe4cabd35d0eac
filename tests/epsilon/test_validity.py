"""The tight-case validity sweep: its reference probabilities, its cells and its power."""

import importlib
import math

import numpy as np
import pytest

from privlab.epsilon import validity as V
from privlab.epsilon.auditors import bounds
from privlab.epsilon.auditors.bounds import clopper_pearson_upper
from privlab.errors import PrivlabValueError


def test_tight_cases_attain_epsilon():
    lap = V.laplace_1d(1.5)
    # every region x > t, t ≥ 1, has probability ratio e^ε: check two by the cdf
    for t in (1.0, 2.5):
        p_a = 0.5 * math.exp(-1.5 * t)
        p_b = 0.5 * math.exp(-1.5 * (t - 1.0))
        assert math.log(p_b / p_a) == pytest.approx(1.5)
    rng = np.random.default_rng(0)
    a = lap.sample(0, 200_000, rng)
    assert np.mean(a[:, 0] > 1.0) == pytest.approx(0.5 * math.exp(-1.5), abs=0.003)
    rr = V.response_2(1.0)
    x = rr.sample(0, 200_000, rng)[:, 0]
    share = np.mean(x == 0.0)
    assert math.log(share / (1 - share)) == pytest.approx(rr.pair_epsilon(0, 1), abs=0.03)


def test_fixed_region_probability_matches_simulation():
    cells = V.fixed_region_sweep([2.0], [100], reps=3000, seed=1)
    p = V.fixed_region_probability(2.0, 100)
    assert 0.002 < p < 0.01  # far below the nominal 2α = 0.05
    k, n = int(cells["violations"].iloc[0]), 3000
    # the simulated count sits inside a 99.9 % binomial range of the exact probability
    from scipy import stats
    lo, hi = stats.binom.ppf([0.0005, 0.9995], n, p)
    assert lo <= k <= hi


def test_sweep_detects_an_off_by_one_clopper_pearson_and_passes_the_library():
    # both bounds on the same draws, each table its own sweep's (checked at one size)
    cells_ok, cells_bad = V.fixed_region_sweeps([2.0], [100, 300], reps=800, seed=3,
                                                uppers=[None, V.off_by_one_upper])
    alone = V.fixed_region_sweep([2.0], [100], reps=100, seed=3, upper=V.off_by_one_upper)
    shared = V.fixed_region_sweeps([2.0], [100], reps=100, seed=3,
                                   uppers=[None, V.off_by_one_upper])
    assert alone.equals(shared[1]) and shared[0].equals(V.fixed_region_sweep([2.0], [100],
                                                                            reps=100, seed=3))
    ok, bad = V.power_table(cells_ok), V.power_table(cells_bad)
    assert ok["p_value"].iloc[-1] > 0.05
    assert bad["p_value"].iloc[-1] < 0.001
    assert bad["violations"].iloc[-1] > 2 * bad["expected"].iloc[-1]
    # the off-by-one bound is below the exact one whenever there is at least one error
    for k in (1, 5, 30):
        assert V.off_by_one_upper(k, 100, 0.025) < clopper_pearson_upper(k, 100, 0.025)


def test_with_upper_bound_reaches_every_clopper_pearson_route_and_restores_it():
    dpsniper = importlib.import_module("privlab.epsilon.auditors.dpsniper")
    hockey_stick = importlib.import_module("privlab.epsilon.auditors.hockey_stick")
    before = (bounds.clopper_pearson_upper, dpsniper.clopper_pearson_upper,
              hockey_stick.clopper_pearson_lower)
    with V.with_upper_bound(V.off_by_one_upper):
        loose = bounds.certified_epsilon(3, 100, 3, 100, 0.025)
        sniper = dpsniper.sniper_epsilon(97, 100, 3, 100, 0.025)
        hockey = hockey_stick.hockey_stick_lower(60, 100, 3, 100, 1.0, 0.025)
    assert (bounds.clopper_pearson_upper, dpsniper.clopper_pearson_upper,
            hockey_stick.clopper_pearson_lower) == before
    assert loose > bounds.certified_epsilon(3, 100, 3, 100, 0.025)
    assert sniper > dpsniper.sniper_epsilon(97, 100, 3, 100, 0.025)
    assert hockey > hockey_stick.hockey_stick_lower(60, 100, 3, 100, 1.0, 0.025)
    with pytest.raises(PrivlabValueError, match="'upper'"):
        with V.with_upper_bound("not a function"):
            pass


def test_tight_sweep_rows_and_uninformative_cells():
    frame = V.tight_sweep([1.0, 4.0], [100], reps=2)
    assert set(frame.columns) == set(V.COLUMNS)
    assert (frame["nominal"] == 2 * V.TIGHT_ALPHA).all()
    certs = frame[~frame["method"].str.contains("refuted")]
    assert (certs["value"] <= certs["attainable"] + 1e-12).all()
    cells = V.cell_table(frame)
    # at ε = 4 and 100 rows no certificate can reach ε: those cells carry no information
    at4 = cells[(cells["epsilon"] == 4.0) & ~cells["method"].str.contains("refuted")]
    assert (at4["informative"] == 0).all()
    at1 = cells[(cells["epsilon"] == 1.0) & (cells["method"] == "fixed region")]
    assert at1["informative"].iloc[0] == 1.0
    table = V.violation_table(frame)
    fixed = table[table["method"] == "fixed region"].iloc[0]
    assert fixed["informative"] == 2 and fixed["nominal"] == 0.05


def test_bad_inputs_name_the_parameter():
    with pytest.raises(PrivlabValueError, match="'n'"):
        V.tight_replicate(1.0, 3, 0)
    with pytest.raises(PrivlabValueError, match="'reps'"):
        V.tight_sweep([1.0], [100], reps=0)
    with pytest.raises(PrivlabValueError, match="'alpha'"):
        V.tight_replicate(1.0, 100, 0, alpha=0.0)
