"""The shared pair list, the development split, selection and the selected-pairs certificate."""

import math

import numpy as np
import pandas as pd
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


def test_certificate_rule_never_sees_the_test_rows():
    # "b" sits 4 units from "a" on every coordinate; its test rows are then swapped with
    # those of "a". A rule fixed on development rows makes every test error; a rule fixed
    # (or a classifier fitted) on the test rows would separate them again.
    rng = np.random.default_rng(2)
    y = np.repeat(["a", "b"], 40)
    x = rng.normal(size=(80, 3)) + 4.0 * (y == "b")[:, None]
    dev = P.split_rows(y, 0.5, seed=1)
    before = P.certify_pairs(x, y, dev, [("a", "b")], alpha=0.025).iloc[0]
    ta, tb = np.flatnonzero((y == "a") & ~dev), np.flatnonzero((y == "b") & ~dev)
    assert len(ta) == len(tb) == 20
    swapped = x.copy()
    swapped[ta], swapped[tb] = x[tb], x[ta]
    after = P.certify_pairs(swapped, y, dev, [("a", "b")], alpha=0.025).iloc[0]
    assert before["false_positives"] + before["false_negatives"] <= 1 and before["epsilon_lb"] > 0
    assert (after["false_positives"], after["false_negatives"]) == (20, 20)
    assert after["epsilon_lb"] == 0.0


def test_cascade_table_summarises_each_pass_like_table_7():
    # The paper's ceiling: zero errors on 100 test rows per class at α = 0.05/500 and
    # δ = 1e-5: U = 1 − (1e-4)^(1/100) = 0.08799, ε = ln((1 − δ − U)/U) = 2.338.
    ceiling = A.certified_epsilon(0, 100, 0, 100, 0.05 / 500, 1e-5)
    u = 1 - 1e-4 ** (1 / 100)
    assert ceiling == pytest.approx(math.log((1 - 1e-5 - u) / u)) == pytest.approx(2.338,
                                                                                   abs=5e-4)
    assert P.PAPER_TABLE7.loc[1, "range"].endswith("2.338")
    rows = pd.DataFrame({
        "pass": [1, 1, 1, 2, 2, 2],
        "epsilon_lb": [ceiling, 1.5, 0.8, 1.2, 0.0, 0.671],
        "false_positives": [0, 1, 3, 2, 40, 5],
        "false_negatives": [0, 0, 2, 0, 45, 4]})
    table = P.cascade_table(rows)
    assert list(table.columns) == list(P.PAPER_TABLE7.columns)
    assert table.loc[1].tolist() == [1.5, "0.800–2.338", "3/3", "2/3", "1/3"]
    assert table.loc[2].tolist() == [0.671, "0.000–1.200", "2/3", "1/3", "0/3"]
    with pytest.raises(PrivlabValueError, match="'certificates'"):
        P.cascade_table(rows.drop(columns="pass"))
