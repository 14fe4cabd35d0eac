"""The Laplace optimal-AUC reference: null value, monotone in ε, seeded, stored on disk."""

import numpy as np
import pandas as pd
import pytest

from privlab.epsilon import benchmark as B
from privlab.epsilon import mechanisms as M
from privlab.epsilon import reference as R
from privlab.errors import PrivlabValueError

DRAWS = 1000
EPSILONS = (0.0, 8.0, 64.0, 256.0)


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))


def _reference(**kw):
    args = dict(geometry="dispersed", epsilons=EPSILONS, n_pairs=4, draws=DRAWS, seed=3,
                n_jobs=1, cache=False)
    args.update(kw)
    return R.laplace_reference_auc(**args)


def test_null_is_one_half_and_reference_grows_with_epsilon():
    table, median = _reference()
    assert list(median.index) == list(EPSILONS)
    assert len(table) == 4 * len(EPSILONS)
    assert set(table.columns) >= {"geometry", "epsilon", "pair_index", "id_a", "id_b",
                                  "exact_epsilon", "optimal_auc"}
    # Standard error of an AUC near 0.5 with m draws per class: sqrt(1/(6m)).
    se = np.sqrt(1 / (6 * DRAWS))
    null = table[table["epsilon"] == 0.0]
    assert (null["optimal_auc"] - 0.5).abs().max() <= 4 * se
    assert (null["exact_epsilon"] == 0).all()
    assert np.all(np.diff(median.to_numpy()) > 0)
    assert median[256.0] > 0.9
    # Pairs are the benchmark's predeclared list.
    pairs = B.select_pairs(B.prototypes("dispersed"), 4)
    assert list(zip(table["id_a"][:4], table["id_b"][:4])) == pairs


def test_small_epsilon_is_near_one_half():
    _, median = _reference(epsilons=(0.1,), n_pairs=2)
    assert median[0.1] == pytest.approx(0.5, abs=4 * np.sqrt(1 / (6 * DRAWS)))


def test_reproducible_with_a_seed():
    a, _ = _reference(epsilons=(8.0,), n_pairs=3)
    b, _ = _reference(epsilons=(8.0,), n_pairs=3)
    pd.testing.assert_frame_equal(a, b)
    c, _ = _reference(epsilons=(8.0,), n_pairs=3, seed=4)
    assert not np.allclose(a["optimal_auc"], c["optimal_auc"])


def test_parallel_matches_serial():
    a, _ = _reference(epsilons=(0.0, 8.0), n_pairs=2, draws=300)
    b, _ = _reference(epsilons=(0.0, 8.0), n_pairs=2, draws=300, n_jobs=2)
    pd.testing.assert_frame_equal(a, b)


def test_stored_and_read_back_without_recomputing(monkeypatch):
    kw = dict(epsilons=(0.0, 16.0), n_pairs=2, draws=300, cache=True)
    path = R.laplace_reference_path("dispersed", [0.0, 16.0], 2, 300, 3)
    assert not path.exists()
    first, first_median = _reference(**kw)
    assert path.is_file()

    def refuse(*args, **kwargs):
        raise AssertionError("the Monte Carlo sampler ran although the table is stored")

    monkeypatch.setattr(M, "optimal_auc_monte_carlo", refuse)
    second, second_median = _reference(**kw)
    pd.testing.assert_frame_equal(first, second, check_dtype=False)
    pd.testing.assert_series_equal(first_median, second_median)
    # Any other argument is another key: it is computed, not read back.
    with pytest.raises(AssertionError, match="sampler ran"):
        _reference(**{**kw, "draws": 301})
    with pytest.raises(AssertionError, match="sampler ran"):
        _reference(**{**kw, "seed": 5})


@pytest.mark.parametrize("kw, parameter", [
    (dict(geometry="round"), "geometry"),
    (dict(epsilons=()), "epsilons"),
    (dict(epsilons=(1.0, -1.0)), "epsilons"),
    (dict(epsilons="1"), "epsilons"),
    (dict(draws=0), "draws"),
    (dict(seed=-1), "seed"),
    (dict(n_jobs=0), "n_jobs"),
    (dict(n_pairs=1), "n_pairs"),
])
def test_bad_arguments_are_named(kw, parameter):
    with pytest.raises(PrivlabValueError, match=f"'{parameter}'"):
        _reference(**kw)


def test_a_cut_table_is_recomputed_with_a_warning_naming_it():
    kw = dict(epsilons=(0.0, 16.0), n_pairs=2, draws=300, cache=True)
    first, _ = _reference(**kw)
    path = R.laplace_reference_path("dispersed", [0.0, 16.0], 2, 300, 3)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.warns(RuntimeWarning, match=f"{path.name} is damaged"):
        again, _ = _reference(**kw)
    assert len(again) == 4
    pd.testing.assert_frame_equal(first, again, check_dtype=False)
    assert path.read_bytes() == data
