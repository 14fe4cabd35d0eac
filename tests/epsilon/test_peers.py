"""The peers' mechanisms: each false claim refuted at its stated size, no true one refuted."""

import math

import numpy as np
import pytest

from privlab.epsilon import peers as P
from privlab.epsilon.auditors.hockey_stick import HockeyStickTester
from privlab.errors import PrivlabValueError

FALSE = [p for p in P.PEERS if not p.holds]
TRUE = [p for p in P.PEERS if p.holds]


def _test(peer, n, seed=0):
    mech = peer.build()
    rng = np.random.default_rng(seed)
    a, b = mech.sample(0, n, rng), mech.sample(1, n, rng)
    return HockeyStickTester(epsilon=peer.claimed, delta=0.0, alpha=0.025).test(a, b, seed=seed)


@pytest.mark.parametrize("peer", [pytest.param(p, id=p.name, marks=[pytest.mark.slow]
                                               if p.refute_n > 50_000 else [])
                                  for p in FALSE])
def test_each_false_claim_is_refuted_at_its_stated_size(peer):
    claim = _test(peer, peer.refute_n)
    assert claim.reject, (peer.name, claim.epsilon_lower, claim.details)
    assert claim.epsilon_lower > peer.claimed


@pytest.mark.parametrize("peer", TRUE, ids=[p.name for p in TRUE])
def test_no_true_claim_is_refuted(peer):
    claim = _test(peer, 20_000)
    assert not claim.reject and claim.epsilon_lower <= peer.claimed
    if peer.exact is not None:
        assert claim.epsilon_lower <= peer.exact


def test_the_catalogue_has_the_peers_suite():
    names = {p.name for p in P.PEERS}
    assert {f"svt-{k}" for k in range(1, 7)} <= names
    assert {f"report-noisy-max-{k}" for k in range(1, 5)} <= names
    assert {"truncated-geometric", "one-time-rappor", "float-laplace",
            "snapping-laplace"} <= names
    assert all(p.refute_n > 0 for p in FALSE) and all(p.refute_n == 0 for p in TRUE)
    with pytest.raises(PrivlabValueError, match="name"):
        P.get_peer("svt-7")


def _clamped_law(eps, m, q):
    """P(clamp(q + G, 0, m) = y), worked from P(G = g) = (1 − r)/(1 + r)·r^|g|, r = e^-ε."""
    r = math.exp(-eps)
    law = np.array([r ** abs(y - q) for y in range(m + 1)]) * (1 - r) / (1 + r)
    law[0] = r ** q / (1 + r)  # P(G <= −q) = r^q/(1 + r)
    law[m] = r ** (m - q) / (1 + r)
    return law


def test_truncated_geometric_frequencies_follow_the_clamped_two_sided_law():
    eps, m, q = 1.0, 5, 2
    law = _clamped_law(eps, m, q)
    assert law.sum() == pytest.approx(1.0)
    draws = P.TruncatedGeometric(eps, m, q).sample(0, 200_000, np.random.default_rng(1))
    assert np.abs(draws.mean(axis=0) - law).max() < 0.005
    # the neighbouring count: every output's probability ratio is at most e^ε, attained
    assert np.max(np.abs(np.log(law / _clamped_law(eps, m, q + 1)))) == pytest.approx(eps)


def test_rappor_epsilon_and_bits():
    assert P.rappor_epsilon(0.5, 2) == pytest.approx(4 * math.log(3))
    mech = P.OneTimeRappor(0.5, 2)
    bits = mech.sample(0, 100_000, np.random.default_rng(2)).mean(axis=0)
    # set bits read 1 with probability 1 − f/2 = 0.75, the others with f/2 = 0.25
    assert np.allclose(bits, [0.75, 0.75] + [0.25] * 6, atol=0.01)


def test_mironovs_feature_separates_the_float_laplace_and_not_the_snapped_one():
    rng = np.random.default_rng(3)
    plain = P.FloatLaplace(0.5)
    assert plain.sample(0, 5_000, rng)[:, 1].all()  # every output of input 0 is reachable
    assert plain.sample(1, 5_000, rng)[:, 1].mean() < 0.2
    snap = P.SnappingLaplace(0.5)
    out = snap.release(1.0, 5_000, rng)
    assert np.all(np.abs(out) <= 20) and np.all(out % snap.grid == 0) and snap.grid == 2.0
    assert snap.claimed_epsilon() == pytest.approx(0.5, abs=1e-12) and \
        snap.claimed_epsilon() > 0.5


def test_sparse_vector_variants_follow_their_descriptions():
    rng = np.random.default_rng(4)
    # variant 5 adds no query noise: with counts 0,0,0,1,1,1 a ⊤ on a 0 means ⊤ on every 1
    codes = P.SparseVector(5, 1.0).sample(0, 2_000, rng).argmax(axis=1)
    patterns = (codes[:, None] >> np.arange(6)) & 1
    assert np.all(patterns[:, 3:].min(axis=1) >= patterns[:, :3].max(axis=1))
    # cutoff variants stop at the first ⊤: one category of m + 1, and variant 3 releases
    # the value at that position only
    out = P.SparseVector(3, 2.0, m=6).sample(0, 1_000, rng)
    first = out[:, :7].argmax(axis=1)
    assert np.all(out[:, :7].sum(axis=1) == 1)
    assert np.all((out[:, 7:] != 0).sum(axis=1) == (first < 6))
    with pytest.raises(PrivlabValueError, match="variant"):
        P.SparseVector(7, 1.0)
    with pytest.raises(PrivlabValueError, match="identity"):
        P.SparseVector(1, 1.0).sample(2, 3, rng)


def test_sparse_vector_with_a_cutoff_of_two_answers_until_the_second_top():
    rng = np.random.default_rng(5)
    for variant in (1, 2, 3, 4):
        mech = P.SparseVector(variant, 1.0, m=8, cutoff=2)
        out = mech.sample(0, 3_000, rng)
        top, bottom = out[:, :8].astype(bool), out[:, 8:16].astype(bool)
        assert not (top & bottom).any() and top.sum(axis=1).max() == 2
        answered = top | bottom
        # answers stop right after the second ⊤: answered positions form a prefix
        assert np.all(np.diff(answered.astype(int), axis=1) <= 0)
        stopped = top.sum(axis=1) == 2
        last = np.where(stopped, 8 - np.argmax(top[:, ::-1], axis=1), 8)
        assert np.all(answered.sum(axis=1) == last)
        if variant == 3:
            assert np.all((out[:, 16:] != 0) == top)
    with pytest.raises(PrivlabValueError, match="cutoff"):
        P.SparseVector(1, 1.0, cutoff=0)


def test_the_refutation_table_refutes_every_false_claim_and_no_true_one():
    frame = P.refutations()
    assert list(frame["mechanism"]) == [p.name for p in P.PEERS]
    false, true = frame[~frame["claim holds"]], frame[frame["claim holds"]]
    assert false["refuted"].all() and (false["certified ε ≥"] > false["claimed ε"]).all()
    assert not true["refuted"].any() and (true["certified ε ≥"] <= true["claimed ε"]).all()
    assert (false["rows per input"] == [P.get_peer(m).refute_n for m in false["mechanism"]]).all()
    assert (true["rows per input"] == P.TRUE_CLAIM_ROWS).all()
