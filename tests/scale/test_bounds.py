"""The pruning bounds hold for the kernel's own float64 values, on adversarial inputs."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.resolution import canonical_dots, row_norms, row_stats
from privlab.scale import bounds


def canonical(S, T):
    """The kernel's float64 value of every trial (pair by pair)."""
    m, n = len(S), len(T)
    rows, cols = np.repeat(np.arange(m), n), np.tile(np.arange(n), m)
    return canonical_dots(S, T, rows, cols, row_stats(T)[1]).reshape(m, n)


def norm_upper(S, T):
    d = S.shape[1]
    _, exps, _ = row_stats(T)
    s_hat, t_hat = row_norms(S), row_norms(T)
    eta = bounds.underflow_slack(d, float(s_hat.max()), exps)
    return bounds.norm_bound(s_hat[:, None], t_hat[None, :], d, eta[None, :])


def test_norm_bound_holds_and_is_tight_when_s_and_t_are_parallel():
    rng = np.random.default_rng(0)
    for d in (1, 7, 768, 4096):
        s = rng.standard_normal(d)
        s /= np.linalg.norm(s)
        T = np.stack([s * c for c in (0.3, 1.0, 2.0**-70, 2.0**70)])
        v, U = canonical(s[None], T), norm_upper(s[None], T)
        assert (v <= U).all()
        assert (U <= np.abs(v) * (1 + 1e-10) + 1e-300).all(), (d, (U / v).max())


def test_norm_bound_holds_where_rounding_errors_all_point_up():
    # Entries just above a rounding boundary: every product and partial sum rounds up.
    d = 4096
    s = np.full(d, 1.0 / 64.0)
    t = np.full(d, (1.0 + 2.0**-52) / 64.0) * (1 + np.arange(d) * 2.0**-40)
    v, U = canonical(s[None], t[None]), norm_upper(s[None], t[None])
    assert v[0, 0] <= U[0, 0]


finite = st.floats(-1.0, 1.0, allow_nan=False, width=64)


@settings(max_examples=300, deadline=None)
@given(d=st.integers(1, 40), data=st.data(),
       scale=st.sampled_from([1.0, 2.0**-1000, 2.0**-149, 2.0**-70, 2.0**70, 2.0**900]))
def test_norm_bound_holds_on_random_rows_of_any_magnitude(d, data, scale):
    s = np.array(data.draw(st.lists(finite, min_size=d, max_size=d)))
    if not np.any(s):
        s[0] = 1.0
    s /= np.max(np.abs(s))  # first to magnitude 1, so that squaring cannot underflow
    s /= np.linalg.norm(s)
    T = np.array(data.draw(st.lists(st.lists(finite, min_size=d, max_size=d), min_size=1,
                                    max_size=5))) * scale
    T = np.vstack([T, s * scale])  # and one row parallel to s
    assert (canonical(s[None], T) <= norm_upper(s[None], T)).all()


@settings(max_examples=300, deadline=None)
@given(d=st.integers(2, 64), seed=st.integers(0, 2**32 - 1),
       radius=st.sampled_from([0.0, 1e-12, 1e-3, 0.1, 1.0]),
       scale=st.sampled_from([1.0, 2.0**-50, 2.0**50]))
def test_cluster_bound_holds_when_t_sits_on_the_radius_pointing_at_s(d, seed, radius, scale):
    rng = np.random.default_rng(seed)
    S = rng.standard_normal((6, d))
    S /= np.linalg.norm(S, axis=1, keepdims=True)
    c = rng.standard_normal(d) * scale
    # Adversarial members: t = c + r s_i / ||s_i|| attains s_i . c + ||s_i|| r exactly.
    T = np.vstack([c + radius * scale * S, c + radius * scale * rng.standard_normal((4, d))
                   / np.sqrt(d)])
    C = T.mean(axis=0)
    dist = np.linalg.norm(T - C, axis=1)
    sc = S @ C
    t_hat = row_norms(T)
    eta = float(bounds.underflow_slack(d, 1.0, np.zeros(1, dtype=np.int64))[0])
    U = bounds.cluster_bound(sc, row_norms(S), float(np.linalg.norm(C)),
                             bounds.radius_upper(dist, d), float(t_hat.max()), d, eta)
    v = canonical(S, T)
    assert (v <= U[:, None]).all()
    # Stored as float32 rounded up, the table still bounds the float64 values.
    U32 = bounds.cluster_bound(bounds.round_up_float32(sc), row_norms(S),
                               float(np.linalg.norm(C)), bounds.radius_upper(dist, d),
                               float(t_hat.max()), d, eta)
    assert (U32 >= U).all()


def test_round_up_float32_never_lowers_a_value():
    rng = np.random.default_rng(5)
    x = np.r_[rng.standard_normal(10_000), 1e-45, -1e-45, 3.5e38, 1e39, -1e39]
    y = bounds.round_up_float32(x)
    assert y.dtype == np.float32
    assert (y.astype(np.float64) >= x).all()
    f = np.isfinite(y)  # and it is the smallest float32 that does
    with np.errstate(over="ignore"):
        below = np.nextafter(y[f], np.float32(-np.inf)).astype(np.float64)
    assert (below < x[f]).all()
