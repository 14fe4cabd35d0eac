"""Eq. 16 arithmetic: known answers, scipy's exact intervals, the omission rules."""

import math

import pytest
from scipy import stats

from privlab.epsilon import auditors as A
from privlab.errors import PrivlabValueError


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


@pytest.mark.parametrize("call, parameter, error", [
    (lambda: A.certified_epsilon(-1, 30, 0, 30, 0.05), "false_positives", PrivlabValueError),
    (lambda: A.certified_epsilon(0, 0, 0, 30, 0.05), "negatives", PrivlabValueError),
    (lambda: A.certified_epsilon(0, 30, 31, 30, 0.05), "false_negatives", PrivlabValueError),
    (lambda: A.certified_epsilon(0, 30, 0, 30, 1.5), "alpha", PrivlabValueError),
    (lambda: A.certified_epsilon(0, 30, 0, 30, 0.05, delta=-0.1), "delta", PrivlabValueError),
    (lambda: A.clopper_pearson_upper(3, 2, 0.05), "errors", PrivlabValueError),
    (lambda: A.clopper_pearson_upper(0, 0, 0.05), "trials", PrivlabValueError),
    (lambda: A.clopper_pearson_lower(3, 2, 0.05), "errors", PrivlabValueError),
])
def test_bad_inputs_name_the_parameter(call, parameter, error):
    with pytest.raises(error, match=f"'{parameter}'"):
        call()
