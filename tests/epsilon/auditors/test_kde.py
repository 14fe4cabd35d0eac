"""KDE-LR: the fast grid matches scipy's gaussian_kde, and the sum is large at the null."""

import numpy as np
import pytest
from scipy import stats

from privlab.epsilon import auditors as A
from privlab.errors import PrivlabValueError


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


def test_kde_lr_is_large_at_the_null():
    rng = np.random.default_rng(14)
    r = A.KDELR(alpha=0.01).audit(rng.normal(size=(100, 512)), rng.normal(size=(100, 512)))
    assert r.value > 300  # a diagnostic far from the true ε = 0
    assert r.status is A.Status.DIAGNOSTIC


def test_several_weights_from_one_pass_match_single_runs():
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(20, 5)), rng.normal(size=(20, 5)) + 0.5
    both = A.KDELR().per_coordinate_alphas(a, b, [0.0, 0.01])
    assert np.allclose(both[0], A.KDELR(alpha=0.0).per_coordinate(a, b))
    assert np.allclose(both[1], A.kde_lr_smoothed().per_coordinate(a, b))


def test_silverman_bandwidth_stays_positive_on_constant_columns():
    h = A.silverman_bandwidth(np.c_[np.zeros(6), np.arange(6.0)])
    assert h[0] > 0 and h[1] == pytest.approx(np.arange(6.0).std(ddof=1) * 4.5 ** -0.2)


@pytest.mark.parametrize("kw, parameter", [(dict(alpha=2.0), "alpha"), (dict(grid=1), "grid"),
                                           (dict(floor=0.0), "floor")])
def test_bad_settings_name_the_parameter(kw, parameter):
    with pytest.raises(PrivlabValueError, match=f"'{parameter}'"):
        A.KDELR(**kw)
