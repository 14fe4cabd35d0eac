"""The approximate screen: exact values of what it finds, never above the exact answer."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.resolution import resolution
from privlab.scale.screen import STATUS, screen_resolution
from privlab.scale.synthetic import synthetic_audit
from tests.test_resolution import unit_rows


@pytest.mark.parametrize("index", ["hnsw", "ivf"])
def test_a_planted_leak_is_found_and_its_value_is_exact(index):
    audit = synthetic_audit(2000, 1500, 48, scenario="planted", seed=3)
    exact = resolution(audit.S, audit.T, top_k=3)
    screen = screen_resolution(audit.S, audit.T, index=index, k=4, top_k=3)
    assert exact.witness == audit.planted
    assert screen.recall(exact) and screen.witness == audit.planted
    assert screen.lower_bound == exact.value  # rescored with the kernel's own values
    assert screen.status == STATUS and screen.candidates <= 2000 * 4


@pytest.mark.parametrize("index", ["hnsw", "ivf"])
def test_the_screen_never_exceeds_the_exact_resolution(index):
    rng = np.random.default_rng(1)
    S = unit_rows(rng.standard_normal((600, 24)))
    T = rng.standard_normal((500, 24)) * rng.lognormal(-3, 1, (500, 1))
    exact = resolution(S, T, top_k=10)
    for k in (1, 3, 10):
        screen = screen_resolution(S, T, index=index, k=k, top_k=10, ef_search=8, nprobe=1)
        assert screen.best_found <= exact.max_difference
        assert screen.lower_bound <= exact.value
        values = [v for _, _, v in screen.top]
        assert values == sorted(values, reverse=True)
        for i, j, v in screen.top:  # every listed value is the exact trial value
            assert v == float(np.sum(S[i] * T[j])) + 0.0


def test_a_full_search_finds_the_exact_top_list():
    rng = np.random.default_rng(2)
    S = unit_rows(rng.standard_normal((50, 8)))
    T = rng.standard_normal((40, 8)) * 0.1
    exact = resolution(S, T, top_k=5)
    screen = screen_resolution(S, T, index="ivf", k=40, nlist=1, top_k=5)
    assert (screen.witness, screen.top) == (exact.witness, exact.top)


def test_extreme_magnitudes_are_screened_and_rescored_exactly():
    S = np.eye(3)
    T = np.diag([2.0**-900, 2.0**-899, 2.0**-901])
    screen = screen_resolution(S, T, index="ivf", k=3, nlist=1)
    assert screen.witness == (1, 1) and screen.best_found == 2.0**-899


@pytest.mark.parametrize("kwargs, parameter", [
    (dict(index="lsh"), "'index'"), (dict(k=0), "'k'"), (dict(top_k=-1), "'top_k'"),
    (dict(ef_search=0), "'ef_search'"), (dict(nlist=0), "'nlist'"),
    (dict(m_links=True), "'m_links'"),
])
def test_bad_settings_are_refused_with_the_parameter_named(kwargs, parameter):
    with pytest.raises(ValueError, match=parameter):
        screen_resolution(np.eye(3), np.ones((2, 3)), **kwargs)


def test_results_render_and_tabulate():
    screen = screen_resolution(np.eye(4), np.diag([0.1, 0.4, 0.0, 0.2]), k=2)
    assert "uncertified screen" in screen._repr_html_()
    assert screen.to_frame().iloc[0].tolist() == [1, 1, 0.4]
