"""The n log n searches make the same choices as the plain per-cut loops they replaced.

The references below are the loops as they were: every distinct pooled score, a pass over
all scores at each cut. The fast searches must return the very same rule (orientation,
cut and, for the hockey-stick tester, order) on random, tied, heavily tied and lopsided
data, at development sizes and at other test sizes; every mismatch is reported at once.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.epsilon.auditors import sweep
from privlab.epsilon.auditors.bounds import certified_epsilon
from privlab.epsilon.auditors.hockey_stick import _minus_scaled, choose_region, \
    hockey_stick_lower
from privlab.epsilon.auditors.reserved import choose_threshold


def _cuts(neg, pos):
    values = np.unique(np.concatenate([neg, pos]))
    return np.concatenate([[values[0] - 1.0], (values[:-1] + values[1:]) / 2.0,
                           [values[-1] + 1.0]])


def slow_choose_threshold(neg, pos, alpha, delta=0.0, test_sizes=None):
    neg, pos = np.asarray(neg, float), np.asarray(pos, float)
    n0, n1 = test_sizes or (len(neg), len(pos))
    best_key, best = None, []
    for orientation in (1, -1):
        for c in _cuts(neg, pos):
            fpr = float(np.mean(orientation * neg > orientation * c))
            fnr = float(np.mean(orientation * pos <= orientation * c))
            bound = certified_epsilon(int(round(fpr * n0)), n0, int(round(fnr * n1)), n1,
                                      alpha, delta)
            key = (round(bound, 12), round(1.0 - (fpr + fnr) / 2.0, 12))
            if best_key is None or key > best_key:
                best_key, best = key, [(orientation, c)]
            elif key == best_key:
                best.append((orientation, c))
    orientation = best[0][0]
    same = [c for o, c in best if o == orientation]
    return orientation, float(same[len(same) // 2] if len(same) % 2 else
                              (same[len(same) // 2 - 1] + same[len(same) // 2]) / 2.0)


def slow_choose_region(neg, pos, epsilon, alpha, test_sizes):
    neg, pos = np.asarray(neg, float), np.asarray(pos, float)
    n0, n1 = test_sizes
    best_key, best = None, None
    for o in (1, -1):
        for cut in _cuts(neg, pos):
            shares = {True: float(np.mean(o * pos > o * cut)),
                      False: float(np.mean(o * neg > o * cut))}
            for p_is_positive in (True, False):
                p_share, q_share = shares[p_is_positive], shares[not p_is_positive]
                n_p, n_q = (n1, n0) if p_is_positive else (n0, n1)
                promised = hockey_stick_lower(int(math.floor(p_share * n_p)), n_p,
                                              min(n_q, int(math.ceil(q_share * n_q))), n_q,
                                              epsilon, alpha)
                key = (round(promised, 12), round(_minus_scaled(p_share, epsilon, q_share), 12))
                if best_key is None or key > best_key:
                    best_key, best = key, (o, float(cut), p_is_positive)
    return best


def _case(rng, kind):
    """One pair of score arrays: continuous, tied, heavily tied, separated or lopsided."""
    n0, n1 = rng.integers(1, 40, size=2)
    shift = rng.choice([0.0, 0.5, 2.0, 8.0])
    if kind == "continuous":
        return rng.normal(size=n0), rng.normal(size=n1) + shift
    if kind == "tied":
        return rng.integers(0, 6, n0).astype(float), rng.integers(0, 6, n1) + shift
    if kind == "two values":
        return rng.integers(0, 2, n0).astype(float), rng.integers(0, 2, n1).astype(float)
    if kind == "constant":
        return np.full(n0, 1.0), np.full(n1, 1.0)
    return rng.normal(size=n0) * 1e-3, rng.exponential(size=n1)  # lopsided scales


KINDS = ("continuous", "tied", "two values", "constant", "lopsided")


def test_threshold_search_matches_the_per_cut_loop_on_seeded_cases():
    mismatches = []
    for seed in range(300):
        rng = np.random.default_rng(seed)
        neg, pos = _case(rng, KINDS[seed % len(KINDS)])
        alpha = float(rng.choice([0.05, 0.025, 0.05 / 80]))
        delta = float(rng.choice([0.0, 1e-5, 0.1]))
        sizes = None if seed % 2 else tuple(int(v) for v in rng.integers(1, 200, size=2))
        fast = choose_threshold(neg, pos, alpha, delta, sizes)
        slow = slow_choose_threshold(neg, pos, alpha, delta, sizes)
        if fast != slow:
            mismatches.append((seed, KINDS[seed % len(KINDS)], fast, slow))
    assert mismatches == []


def test_region_search_matches_the_per_cut_loop_on_seeded_cases():
    mismatches = []
    for seed in range(300):
        rng = np.random.default_rng(1000 + seed)
        neg, pos = _case(rng, KINDS[seed % len(KINDS)])
        epsilon = float(rng.choice([0.0, 0.1, 1.0, 5.0, 800.0]))
        alpha = float(rng.choice([0.05, 0.025, 0.05 / 80]))
        sizes = tuple(int(v) for v in rng.integers(1, 200, size=2)) if seed % 2 else \
            (len(neg), len(pos))
        fast = choose_region(neg, pos, epsilon, alpha, sizes)
        slow = slow_choose_region(neg, pos, epsilon, alpha, sizes)
        if fast != slow:
            mismatches.append((seed, KINDS[seed % len(KINDS)], fast, slow))
    assert mismatches == []


scores = st.lists(st.integers(-4, 4), min_size=1, max_size=25).map(
    lambda v: np.array(v, float) / 2.0)


@settings(max_examples=150, deadline=None)
@given(neg=scores, pos=scores, alpha=st.sampled_from([0.05, 0.01]),
       delta=st.sampled_from([0.0, 0.05]),
       sizes=st.one_of(st.none(), st.tuples(st.integers(1, 60), st.integers(1, 60))))
def test_threshold_search_matches_on_generated_ties(neg, pos, alpha, delta, sizes):
    assert choose_threshold(neg, pos, alpha, delta, sizes) == \
        slow_choose_threshold(neg, pos, alpha, delta, sizes)


@settings(max_examples=150, deadline=None)
@given(neg=scores, pos=scores, epsilon=st.sampled_from([0.0, 0.5, 3.0]),
       sizes=st.tuples(st.integers(1, 60), st.integers(1, 60)))
def test_region_search_matches_on_generated_ties(neg, pos, epsilon, sizes):
    assert choose_region(neg, pos, epsilon, 0.05, sizes) == \
        slow_choose_region(neg, pos, epsilon, 0.05, sizes)


def test_adjacent_floats_and_huge_scores_are_counted_as_the_loop_counts_them():
    # the midpoint of two adjacent floats is one of them: the cut then equals a score
    a = 1.0
    b = np.nextafter(a, 2.0)
    neg, pos = np.array([a, a, b]), np.array([b, b, a, 3.0])
    assert choose_threshold(neg, pos, 0.05) == slow_choose_threshold(neg, pos, 0.05)
    assert choose_region(neg, pos, 0.1, 0.05, (3, 4)) == slow_choose_region(neg, pos, 0.1,
                                                                           0.05, (3, 4))
    big = np.array([1e17, 2e17])  # values[0] − 1 is values[0] itself
    assert choose_threshold(big, big[::-1] + 1e17, 0.05) == \
        slow_choose_threshold(big, big[::-1] + 1e17, 0.05)


def test_cp_upper_many_equals_the_scalar_bound_bit_for_bit():
    from privlab.epsilon.auditors.bounds import clopper_pearson_upper
    ks = np.array([0, 1, 5, 5, 49, 50])
    assert sweep.cp_upper_many(ks, 50, 0.01).tolist() == \
        [clopper_pearson_upper(int(k), 50, 0.01) for k in ks]


def test_best_indices_keeps_every_tie_in_order_and_handles_infinities():
    keys = np.array([1.0, 1.0 + 1e-14, 0.5, 1.0])
    assert sweep.best_indices(keys, np.zeros(4)).tolist() == [0, 1, 3]
    assert sweep.best_indices(np.array([-math.inf, -math.inf]),
                              np.array([0.0, 1.0])).tolist() == [1]
    assert sweep.best_indices(np.array([1.0, math.inf]), np.zeros(2)).tolist() == [1]


@pytest.mark.parametrize("n", [2_000])
def test_search_at_a_size_the_loop_still_manages(n):
    rng = np.random.default_rng(7)
    neg, pos = rng.normal(size=n), rng.normal(size=n) + 0.3
    assert choose_threshold(neg, pos, 0.025) == slow_choose_threshold(neg, pos, 0.025)
    assert choose_region(neg, pos, 0.2, 0.025, (n, n)) == \
        slow_choose_region(neg, pos, 0.2, 0.025, (n, n))
