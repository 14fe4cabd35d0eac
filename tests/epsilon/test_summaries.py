"""Summaries of benchmark tables on hand-made tables whose answers are worked out here."""

import math

import numpy as np
import pandas as pd
import pytest

from privlab.epsilon import summaries as S

CERT = "finite-sample certificate"


def _rows(**columns):
    return pd.DataFrame(columns)


def test_unique_rows_keeps_each_evaluation_once():
    key = dict(mechanism="laplace", geometry="dispersed", epsilon=0.0, n=30, repetition=0)
    a = _rows(**key, pair_index=[0, 1], method="reserved", value=[0.0, 0.0])
    b = _rows(**key, pair_index=[1, 2], method="reserved", value=[0.0, 0.0])
    c = _rows(**key, pair_index=[1], method="reserved-exact", value=[0.0])
    both = S.unique_rows([a, b, c])
    assert len(both) == 4  # pairs 0, 1, 2 of one method and pair 1 of another
    assert S.unique_rows([]).empty


def test_appendix_table_averages_over_geometries_and_repetitions():
    rows = []
    # exact test, n = 30, ε = 8: dispersed r0 3/4 positive, r1 1/4, clustered r0 2/4 → 0.5
    for geometry, rep, positives in (("dispersed", 0, 3), ("dispersed", 1, 1),
                                     ("clustered", 0, 2)):
        for k in range(4):
            rows.append(dict(mechanism="anisotropic_gaussian", geometry=geometry, epsilon=8.0,
                             n=30, repetition=rep, pair_index=k, method="reserved-exact",
                             status=CERT, value=1.0 if k < positives else 0.0))
            rows.append(dict(mechanism="anisotropic_gaussian", geometry=geometry, epsilon=8.0,
                             n=30, repetition=rep, pair_index=k, method="reserved",
                             status=CERT, value=0.0))
    rows.append(dict(mechanism="laplace", geometry="dispersed", epsilon=8.0, n=30,
                     repetition=0, pair_index=0, method="reserved", status=CERT, value=5.0))
    t = S.appendix_table(pd.DataFrame(rows), "anisotropic_gaussian")
    assert list(t.index) == [("exact", 30), ("learned", 30)]
    assert t.loc[("exact", 30), 8.0] == pytest.approx(0.5)
    assert t.loc[("learned", 30), 8.0] == 0.0
    assert S.appendix_table(pd.DataFrame(rows), "randomized_response").empty


def test_null_counts_count_each_kind_of_claim():
    base = dict(geometry="dispersed", epsilon=0.0, n=30, repetition=0)
    rows = []
    for k in range(4):
        rows += [dict(base, mechanism="laplace", pair_index=k, method="mmd-tv",
                      status="uncertified population bound", value=[0.0, 0.01, 0.02, 0.0][k],
                      p_value=[0.5, 0.04, 0.2, 0.9][k], corner=False),
                 dict(base, mechanism="gaussian", pair_index=k, method="mmd-tv",
                      status="uncertified population bound", value=0.03, p_value=0.01,
                      corner=False),
                 dict(base, mechanism="laplace", pair_index=k, method="roc-ht",
                      status="descriptive", value=[math.inf, 0.4, math.inf, math.inf][k],
                      p_value=np.nan, corner=False),
                 dict(base, mechanism="gaussian", pair_index=k, method="reserved",
                      status=CERT, value=0.0, p_value=np.nan, corner=False)]
    t = S.null_counts(pd.DataFrame(rows))
    row = t.loc["laplace + gaussian"]
    assert row["certified > 0"] == "0/4"
    assert row["MMD-TV > 0"] == "2/4 (Laplace)"  # the Gaussian rows are not pure DP
    assert row["max MMD-TV"] == "0.020 (Laplace)"
    assert row["MMD reject"] == "1/4"  # p ≤ 0.05 per pair, Laplace only
    assert row["ROC +∞"] == "3/4" and row["(0,1) corner"] == "0/4"
    assert list(t.index) == ["laplace + gaussian"]


def test_side_by_side_has_one_column_per_certificate():
    rows = []
    for method, values in (("reserved", [0.0, 0.5]), ("dp-sniper", [0.2, 0.3]),
                           ("hockey-stick", [0.0, 0.0])):
        for k, v in enumerate(values):
            rows.append(dict(mechanism="gaussian", geometry="dispersed", epsilon=16.0, n=100,
                             repetition=0, pair_index=k, method=method, status=CERT, value=v,
                             exact_epsilon=[14.0, 16.0][k]))
    rows.append(dict(mechanism="gaussian", geometry="dispersed", epsilon=16.0, n=100,
                     repetition=0, pair_index=0, method="gaussmech", status="diagnostic",
                     value=30.0, exact_epsilon=14.0))
    t = S.certificates_side_by_side(pd.DataFrame(rows))
    assert list(t.columns) == ["exact median ε", "reserved", "dp-sniper", "hockey-stick"]
    assert t.loc[("gaussian", 16.0, 100)].tolist() == [15.0, 0.5, 1.0, 0.0]


def test_validity_by_mechanism_and_method():
    f = pd.DataFrame({"mechanism": ["laplace", "laplace", "gaussian"],
                      "method": ["reserved", "reserved", "reserved"], "status": CERT,
                      "value": [0.0, 2.0, 0.5], "exact_epsilon": [0.0, 1.0, 3.0],
                      "attainable": [1.2, 2.5, np.nan]})
    v = S.validity_summary(f, by=("mechanism", "method")).set_index("mechanism")
    assert v.loc["laplace", "violations"] == 1 and v.loc["laplace", "possible"] == 2
    # no ceiling reported: the row counts as one where a violation was possible
    assert v.loc["gaussian", "possible"] == 1 and v.loc["gaussian", "violations"] == 0
