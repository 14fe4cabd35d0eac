"""GaussMech: a signal-to-noise score that stays at its floor under the exact null."""

import numpy as np
import pytest

from privlab.epsilon import auditors as A
from privlab.epsilon import mechanisms as M
from privlab.errors import PrivlabValueError


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


def test_identical_samples_score_zero_and_the_callers_delta_is_ignored():
    x = np.random.default_rng(0).normal(size=(10, 3))
    assert A.GaussMech().audit(x, x).value == 0.0
    y = x + 1.0
    assert A.GaussMech().audit(x, y, delta=0.0).value == A.GaussMech().audit(x, y).value


@pytest.mark.parametrize("call, parameter", [
    (lambda: A.GaussMech(delta=0.0), "delta"),
    (lambda: A.gaussmech_null_floor(0, 10), "dim"),
    (lambda: A.gaussmech_null_floor(4, 0), "n"),
    (lambda: A.gaussmech_null_floor(4, 10, delta=0.0), "delta"),
])
def test_bad_inputs_name_the_parameter(call, parameter):
    with pytest.raises(PrivlabValueError, match=f"'{parameter}'"):
        call()
