"""Anytime-valid certificate: coverage under optional stopping, and the price against
the fixed-n Clopper–Pearson bound."""

import math

import numpy as np
import pytest
from scipy import special

from privlab.epsilon import auditors as A
from privlab.epsilon import mechanisms as M
from privlab.epsilon.auditors.bounds import clopper_pearson_upper, epsilon_from_rates
from privlab.errors import PrivlabTypeError, PrivlabValueError


def _peeking_coverage(p, alpha, runs, looks, step, seed):
    """Share of runs where some look's bound falls below p: (betting, repeated CP, last CP)."""
    ts = np.arange(step, looks * step + 1, step)
    rng = np.random.default_rng(seed)
    k = np.cumsum(rng.random((runs, ts[-1])) < p, axis=1)[:, ts - 1]
    cp = np.where(k == ts, 1.0, special.betaincinv(k + 1, ts - k, 1 - alpha))
    seq = np.array([[A.betting_upper(int(e), int(t), alpha) for e, t in zip(row, ts)]
                    for row in k])
    return (seq < p).any(axis=1).mean(), (cp < p).any(axis=1).mean(), (cp[:, -1] < p).mean()


def test_betting_bound_covers_under_optional_stopping_where_repeated_cp_fails():
    alpha = 0.05
    seq, peeking, single = _peeking_coverage(0.2, alpha, runs=600, looks=60, step=10, seed=0)
    # Ville: P(some look below p) <= alpha; 3 binomial standard errors of slack.
    slack = 3 * math.sqrt(alpha * (1 - alpha) / 600)
    assert seq <= alpha + slack
    assert single <= alpha + slack  # one look: Clopper–Pearson is valid
    assert peeking > 2 * alpha  # looking at every batch breaks the fixed-n bound


def test_never_tighter_than_clopper_pearson_with_no_errors_and_close_to_it():
    # With no error, 1 - alpha^(1/t) is the smallest valid upper bound of any kind.
    for alpha in (0.05, 0.000625):
        for t in (1, 2, 5, 10, 30, 100, 300, 1000, 5000):
            seq, cp = A.betting_upper(0, t, alpha), clopper_pearson_upper(0, t, alpha)
            assert seq >= cp
            if t >= 30:  # the price of optional stopping on the rate: at most 30 %
                assert seq <= 1.3 * cp
    # With errors it stays within a quarter of the fixed-n bound at the benchmark's level.
    for k, t in ((1, 100), (10, 100), (30, 300), (500, 1000)):
        assert clopper_pearson_upper(k, t, 0.000625) < A.betting_upper(k, t, 0.000625) \
            <= 1.25 * clopper_pearson_upper(k, t, 0.000625)


def test_betting_upper_known_edges_and_monotone_in_errors():
    assert A.betting_upper(0, 0, 0.05) == 1.0
    assert A.betting_upper(7, 7, 0.05) == 1.0  # every indicator an error: nothing refuted
    values = [A.betting_upper(k, 200, 0.01) for k in range(0, 200, 20)]
    assert values == sorted(values) and len(set(values)) == len(values)
    # The bound is the smallest refuted rate: just below it the capital is under 1/alpha.
    from privlab.epsilon.auditors.sequential import _log_capital

    u = A.betting_upper(5, 100, 0.01)
    logit = math.log(u / (1 - u))
    assert _log_capital(5, 100, logit) >= math.log(100)
    assert _log_capital(5, 100, logit - 1e-6) < math.log(100)


def _laplace_1d(epsilon):
    """A one-coordinate Laplace mechanism with prototypes 0 and 1: pair ε = epsilon exactly."""
    protos = M.PrototypeSet("dispersed", np.array([[0.0], [1.0]]), 0, 1.0, 1.0, (0, 1), (0, 1))
    return M.LaplaceMechanism(protos, epsilon)


def test_stopping_when_above_the_truth_rarely_succeeds():
    # The rule "x > 1" attains the pair's ε exactly: FPR = e^-ε/2, FNR = 1/2, so
    # ln((1 - FNR)/FPR) = ε and sampling noise alone can push a bound above the truth.
    eps, alpha = 1.0, 0.05
    mech = _laplace_1d(eps)
    assert mech.pair_epsilon(0, 1) == eps
    rule = A.FixedRule(lambda x: x[:, 0], 1, 1.0)
    exceeded = peeking = 0
    runs = 150
    for r in range(runs):
        rng = np.random.default_rng(r)
        cert = A.SequentialCertificate(rule, alpha, 0.0)
        # the adversarial stopping rule: stop as soon as the bound passes the truth
        cert.run(lambda k: (mech.sample(0, k, rng), mech.sample(1, k, rng)), batch=20,
                 target=eps + 1e-9, max_rows=1000)
        exceeded += cert.bound > eps
        h = cert.history()
        naive = [epsilon_from_rates(clopper_pearson_upper(fp, n, alpha),
                                    clopper_pearson_upper(fn, n, alpha))
                 for fp, fn, n in zip(h.false_positives, h.false_negatives, h.negatives)]
        peeking += max(naive) > eps
        assert h.epsilon_lb.is_monotonic_increasing  # never looser than an earlier look
    assert exceeded / runs <= 2 * alpha
    assert exceeded < peeking  # the same looks with fixed-n bounds cross more often


def test_sequential_member_close_to_reserved_and_valid_on_mechanisms():
    p = M.make_prototypes("dispersed")
    m = M.build_mechanism("gaussian", p, 32.0)
    i, j = p.l2_pair
    rng = np.random.default_rng(3)
    a, b = m.sample(i, 300, rng), m.sample(j, 300, rng)
    seq = A.reserved_sequential().audit(a, b, delta=m.delta, seed=1)
    fixed = A.ReservedTest().audit(a, b, delta=m.delta, seed=1)
    assert seq.details["looks"] == 15 and seq.details["negatives"] == 150
    # same rule, same test rows: the sequential bound pays for optional stopping only
    assert 0 < seq.value <= fixed.value <= m.pair_epsilon(i, j)
    assert fixed.value - seq.value < 0.35
    null = M.build_mechanism("gaussian", p, 0.0)
    for s in range(3):
        r = A.reserved_sequential().audit(null.sample(0, 100, rng), null.sample(1, 100, rng),
                                          delta=1e-5, seed=s)
        assert r.value == 0.0 < r.details["attainable"]


def test_target_stops_early():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(200, 2)), rng.normal(size=(200, 2)) + 8
    full = A.SequentialReservedTest(alpha=0.025).audit(a, b, delta=0)
    early = A.SequentialReservedTest(alpha=0.025, target=1.0).audit(a, b, delta=0)
    assert early.details["looks"] < full.details["looks"] == 10
    assert 1.0 <= early.value <= full.value


@pytest.mark.slow
def test_rate_coverage_sweep():
    """10^4 optional-stopping runs over rates and levels: betting never below its level."""
    for p, alpha, seed in ((0.01, 0.05, 1), (0.1, 0.05, 2), (0.3, 0.01, 3), (0.5, 0.1, 4)):
        seq, peeking, _ = _peeking_coverage(p, alpha, runs=2500, looks=100, step=10, seed=seed)
        assert seq <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / 2500), (p, alpha, seq)


@pytest.mark.parametrize("call, parameter, error", [
    (lambda: A.betting_upper(3, 2, 0.05), "errors", PrivlabValueError),
    (lambda: A.betting_upper(0, 5, 1.0), "alpha", PrivlabValueError),
    (lambda: A.FixedRule("x", 1, 0.0), "score", PrivlabTypeError),
    (lambda: A.FixedRule(abs, 0, 0.0), "orientation", PrivlabValueError),
    (lambda: A.SequentialCertificate("rule"), "rule", PrivlabTypeError),
    (lambda: A.SequentialCertificate(A.FixedRule(abs, 1, 0.0)).update(np.zeros(3)), "rows_a",
     PrivlabValueError),
    (lambda: A.SequentialReservedTest(batch=0), "batch", PrivlabValueError),
    (lambda: A.SequentialReservedTest(target=-1.0), "target", PrivlabValueError),
    (lambda: A.SequentialReservedTest(classifier="svm"), "classifier", PrivlabValueError),
])
def test_bad_inputs_name_the_parameter(call, parameter, error):
    with pytest.raises(error, match=f"'{parameter}'"):
        call()


def _halves_test_rows(n_a, n_b, seed):
    """The rows split_halves keeps for evaluation (the second half of a seeded shuffle)."""
    rng = np.random.default_rng(seed)
    pa, pb = rng.permutation(n_a), rng.permutation(n_b)
    return pa[n_a // 2:], pb[n_b // 2:]


@pytest.mark.parametrize("classifier", ["logistic", "mlp"])
def test_rule_is_fixed_on_development_rows_only(classifier):
    # The reserved rows fed batch by batch are swapped between the identities: the rule
    # (classifier, orientation, threshold) is fixed on the development half and may not
    # move, so every look sees errors and the bound stays 0. A rule fixed on the reserved
    # rows would flip its orientation.
    rng = np.random.default_rng(5)
    a = rng.normal(size=(60, 3))
    b = rng.normal(size=(60, 3)) + [4.0, 0.0, 0.0]
    test = A.SequentialReservedTest(classifier, alpha=0.0125)
    before = test.audit(a, b, delta=0, seed=3)
    ta, tb = _halves_test_rows(60, 60, 3)
    a2, b2 = a.copy(), b.copy()
    a2[ta], b2[tb] = b[tb], a[ta]
    after = test.audit(a2, b2, delta=0, seed=3)
    for key in ("orientation", "threshold"):
        assert after.details[key] == before.details[key], key
    assert before.value > 1.0
    assert after.details["false_positives"] >= 28 and after.details["false_negatives"] >= 28
    assert after.value == 0.0
