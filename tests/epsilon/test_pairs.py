"""The shared pair list, the development split, selection and the selected-pairs certificate."""

import math

import numpy as np
import pytest

from privlab.epsilon import auditors as A
from privlab.epsilon import pairs as P
from privlab.errors import PrivlabTypeError, PrivlabValueError


def _table(seed=0, n=30, shift=4.0):
    """Four identities; "d" sits far from the others, "a"–"c" overlap."""
    rng = np.random.default_rng(seed)
    y = np.repeat(["a", "b", "c", "d"], n)
    x = rng.normal(size=(4 * n, 3)) + shift * (y == "d")[:, None]
    return x, y


def test_identity_pairs_are_seeded_and_order_free():
    pairs = P.identity_pairs(list("abcd"), 3, seed=1)
    assert len(pairs) == 3 and pairs == P.identity_pairs(list("dcba"), 3, seed=1)
    assert all(a < b for a, b in pairs)
    assert sorted(P.identity_pairs(list("abcd"), 100)) == [
        ("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d")]


def test_split_rows_keeps_a_test_row_per_identity():
    dev = P.split_rows(["a"] * 10 + ["b"] * 3, 0.7, seed=0)
    assert dev[:10].sum() == 7 and dev[10:].sum() == 2
    assert P.split_rows(["a"] * 2 + ["b"], 0.99).tolist() == [True, False, True]
    assert np.array_equal(P.split_rows(["a"] * 10, 0.5, seed=3),
                          P.split_rows(["a"] * 10, 0.5, seed=3))


def test_select_distinguishable_pairs():
    pairs = [("a", "b"), ("a", "c"), ("c", "d")]
    assert P.select_distinguishable_pairs(pairs, [0.9, 0.99, 0.8], 2) == [1]
    assert P.select_distinguishable_pairs(pairs, [0.9, 0.99, 0.8], 2, False) == [1, 0]
    assert P.select_distinguishable_pairs(pairs, [0.5, 0.5, 0.5], 3) == [0, 2]  # ties: order


def test_fixed_rule_sees_development_rows_only():
    rng = np.random.default_rng(1)
    dev_a, dev_b = rng.normal(size=(20, 2)), rng.normal(size=(20, 2)) + 3
    score, orientation, cut = P.fixed_rule(dev_a, dev_b, 0.025, 0.0, (10, 10))
    assert orientation in (1, -1)
    s_a, s_b = orientation * score(dev_a), orientation * score(dev_b)
    assert np.mean(s_a <= orientation * cut) > 0.9 and np.mean(s_b > orientation * cut) > 0.9


def test_selection_on_development_rows():
    x, y = _table()
    dev = P.split_rows(y, 0.7, seed=0)
    pairs = P.identity_pairs(y, 6, seed=0)
    chosen, auc = P.select_on_development(x, y, dev, pairs, n_select=2)
    assert set(auc) == set(pairs)
    # the separable identity goes first; no identity is used twice
    assert "d" in chosen[0] and auc[chosen[0]] == max(auc.values())
    assert len(chosen) == 2 and len({i for p in chosen for i in p}) == 4
    # development rows alone decide: changing test rows changes nothing
    x2 = x.copy()
    x2[~dev] = 0.0
    assert P.select_on_development(x2, y, dev, pairs, n_select=2) == (chosen, auc)
    # identities with too few development rows are not usable
    assert P.select_on_development(x, y, dev, pairs, 2, min_dev_rows=100) == ([], {})


def test_certificate_rows_follow_eq16():
    x, y = _table(seed=2, n=40, shift=8.0)
    dev = P.split_rows(y, 0.5, seed=0)
    cert = P.certify_pairs(x, y, dev, [("a", "d"), ("a", "b")], alpha=0.0125,
                           dev_auc={("a", "d"): 1.0})
    assert cert.columns.tolist() == list(P.CERTIFICATE_COLUMNS)
    assert cert["n_test_a"].tolist() == [20, 20]
    for _, row in cert.iterrows():
        expected = A.certified_epsilon(int(row["false_positives"]), int(row["n_test_a"]),
                                       int(row["false_negatives"]), int(row["n_test_b"]),
                                       0.0125)
        assert row["epsilon_lb"] == pytest.approx(expected)
        assert row["u_fpr"] == pytest.approx(
            A.clopper_pearson_upper(int(row["false_positives"]), int(row["n_test_a"]), 0.0125))
        assert 0 <= row["epsilon_lb"] <= row["attainable"]
    far, near = cert.iloc[0], cert.iloc[1]
    assert far["epsilon_lb"] == far["attainable"] > 0 and near["epsilon_lb"] == 0
    assert far["dev_auc"] == 1.0 and math.isnan(near["dev_auc"])
    assert set(cert["status"]) == {"finite-sample certificate"}
    assert P.certify_pairs(x, y, dev, [], alpha=0.05).empty


@pytest.mark.parametrize("call, parameter, error", [
    (lambda: P.identity_pairs(["a", "a"], 1), "labels", PrivlabValueError),
    (lambda: P.identity_pairs(["a", "b"], 0), "n_pairs", PrivlabValueError),
    (lambda: P.split_rows(["a"], 1.0), "dev_fraction", PrivlabValueError),
    (lambda: P.select_distinguishable_pairs([("a", "b")], [0.5, 0.6], 1), "scores",
     PrivlabValueError),
    (lambda: P.select_distinguishable_pairs([("a", "b")], [0.5], 0), "n_select",
     PrivlabValueError),
    (lambda: P.select_on_development("x", ["a"], [True], [("a", "b")], 1), "embeddings",
     PrivlabTypeError),
    (lambda: P.select_on_development(np.zeros((2, 2)), ["a"], [True], [("a", "b")], 1),
     "labels", PrivlabValueError),
    (lambda: P.select_on_development(np.zeros((2, 2)), ["a", "b"], [1, 0], [("a", "b")], 1),
     "dev", PrivlabValueError),
    (lambda: P.certify_pairs(np.zeros((2, 2)), ["a", "b"], np.ones(2, bool), [("a", "b")],
                             alpha=0.05), "pairs", PrivlabValueError),
    (lambda: P.certify_pairs(np.zeros((2, 2)), ["a", "b"], np.ones(2, bool), [], alpha=1.0),
     "alpha", PrivlabValueError),
])
def test_bad_inputs_name_the_parameter(call, parameter, error):
    with pytest.raises(error, match=f"'{parameter}'"):
        call()
