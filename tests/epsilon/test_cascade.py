"""The reserved test after every pass of a cascade: selection, one correction, Table 7/8."""

import math

import numpy as np
import pandas as pd
import pytest

from privlab.epsilon import MMDTV, certified_epsilon
from privlab.epsilon import cascade as C
from privlab.epsilon.pairs import PAPER_TABLE7, certify_pairs, split_rows
from privlab.errors import PrivlabTypeError, PrivlabValueError

# The module's shared fixtures are built once: its tests stay on one xdist worker.
pytestmark = pytest.mark.xdist_group("epsilon.test_cascade")

IDS = ("a", "b", "c", "d")
#: How far apart the identities' means are after each pass: well apart, close, identical.
SCALES = (8.0, 1.0, 0.0)
N = 40  # sequences per identity: 20 development, 20 test


def _cascade(seed=0, fail_rates=(0.0, 0.1, 0.1)):
    """Synthetic cascade: (passes, n, 3 + flag); identity k sits at SCALES[p] · e_k, and a
    share ``fail_rates[p]`` of pass p's outputs is "no face found" ([0, 0, 0, 1]), the same
    for every identity."""
    rng = np.random.default_rng(seed)
    y = np.repeat(IDS, N)
    centres = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    k = np.searchsorted(IDS, y)
    passes = []
    for s, rate in zip(SCALES, fail_rates):
        z = rng.normal(size=(len(y), 3)) + s * centres[k]
        fail = rng.random(len(y)) < rate
        x = np.hstack([z, np.zeros((len(y), 1))])
        x[fail] = [0, 0, 0, 1]
        passes.append(x)
    return np.stack(passes), y


PAIRS = [("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d")]


@pytest.fixture(scope="session")
def audited():
    x, y = _cascade()
    dev = split_rows(y, 0.5, seed=0)
    audit = C.audit_cascade(x, y, dev, PAIRS, alpha=0.05, delta=1e-5,
                            methods=["gaussmech", MMDTV(permutations=200), "roc-ht"])
    return x, y, dev, audit


def test_one_bonferroni_correction_over_every_pair_and_pass(audited):
    _, _, _, a = audited
    assert len(a.chosen) == 2  # four identities, none reused
    assert {i for p in a.chosen for i in p} == set(IDS)
    assert a.alpha_per_rate == pytest.approx(0.05 / (2 * 2 * 3)) == C.cascade_alpha(0.05, 2, 3)
    assert a.provenance["error_rates"] == 12
    assert np.array_equal(a.development, audited[2])
    assert (a.certificates["alpha_per_rate"] == a.alpha_per_rate).all()
    assert len(a.certificates) == 2 * 3 and sorted(set(a.certificates["pass"])) == [1, 2, 3]
    # the paper's 50 pairs × 5 passes: 500 error rates at 1e-4 each
    assert C.cascade_alpha(0.05, 50, 5) == pytest.approx(1e-4)


def test_bounds_are_recomputed_capped_and_censored_at_the_cap(audited):
    _, _, _, a = audited
    cert = a.certificates
    # zero test errors on 20 rows per class at α per rate 0.05/12, δ = 1e-5:
    # U = 1 − α^(1/20), cap = ln((1 − δ − U)/U)
    u = 1 - (0.05 / 12) ** (1 / 20)
    cap = math.log((1 - 1e-5 - u) / u)
    assert cap == pytest.approx(1.1544, abs=1e-4)
    assert (cert["n_test_a"] == 20).all() and (cert["n_test_b"] == 20).all()
    for _, row in cert.iterrows():
        expected = certified_epsilon(int(row["false_positives"]), 20,
                                     int(row["false_negatives"]), 20, a.alpha_per_rate, 1e-5)
        assert row["epsilon_lb"] == pytest.approx(expected)
        assert 0 <= row["epsilon_lb"] <= row["attainable"] == pytest.approx(cap)
        if row["false_positives"] == row["false_negatives"] == 0:
            assert row["epsilon_lb"] == pytest.approx(cap)
    t7 = a.table7()
    assert list(t7.columns) == [*PAPER_TABLE7.columns, "cap"] and list(t7.index) == [1, 2, 3]
    assert t7["cap"].tolist() == pytest.approx([cap] * 3)
    for p, g in cert.groupby("pass"):
        censored = int(((g["false_positives"] == 0) & (g["false_negatives"] == 0)).sum())
        assert t7.loc[p, "censored"] == f"{censored}/2"
        assert t7.loc[p, "median ε_LB"] == pytest.approx(g["epsilon_lb"].median())
    # well separated after pass 1 (and no failed detection there): both pairs are
    # error-free, so both bounds sit at the cap
    assert t7.loc[1, "censored"] == "2/2" and t7.loc[1, "median ε_LB"] == pytest.approx(cap)
    # identical distributions after pass 3: a valid test certifies nothing there
    assert t7.loc[3, "positive"] == "0/2"
    assert "lower bounds, not a measured change in ε" in a.summary_line()


def test_rows_without_a_face_are_kept_in_the_certificate_and_counted(audited):
    x, y, dev, a = audited
    failed = x[:, :, -1] == 1
    assert a.failures["no face (development)"].tolist() == failed[:, dev].sum(axis=1).tolist()
    assert a.failures["no face (test)"].tolist() == failed[:, ~dev].sum(axis=1).tolist()
    assert failed[:, ~dev].sum() > 0  # some test rows failed, and still every test row counts
    t8 = a.table8()
    assert t8[("rows left out (no face)", "")].tolist() == failed[:, dev].sum(axis=1).tolist()


def test_an_identity_dependent_failure_is_evidence_the_flag_keeps():
    # Two identities with the same face embeddings; only "b" often shows no face (80%).
    rng = np.random.default_rng(3)
    y = np.repeat(["a", "b"], 60)
    x = np.hstack([rng.normal(size=(120, 3)), np.zeros((120, 1))])
    fail = (y == "b") & (rng.random(120) < 0.8)
    x[fail] = [0, 0, 0, 1]
    dev = split_rows(y, 0.5, seed=0)
    a = C.audit_cascade(x[None], y, dev, [("a", "b")], delta=0.0, methods=["gaussmech"])
    row = a.certificates.iloc[0]
    assert (row["n_test_a"], row["n_test_b"]) == (30, 30)  # failed rows not dropped
    expected = certified_epsilon(int(row["false_positives"]), 30, int(row["false_negatives"]),
                                 30, 0.025, 0.0)
    assert row["epsilon_lb"] == pytest.approx(expected) and row["epsilon_lb"] > 0.5
    # dropping the failed rows leaves a few rows of "b" distributed as those of "a":
    # the same fixed test then certifies nothing
    kept = ~fail
    dropped = certify_pairs(x[kept, :3], y[kept], dev[kept], [("a", "b")], 0.025, 0.0)
    assert dropped.iloc[0]["epsilon_lb"] == 0.0
    # the descriptive route leaves the failed rows out, as the paper's Table 8 does
    assert a.failures.loc[1, "no face (development)"] == int(fail[dev].sum())
    assert a.table8()[("rows left out (no face)", "")].tolist() == [int(fail[dev].sum())]


def test_pairs_are_chosen_without_looking_at_test_rows(audited):
    x, y, dev, a = audited
    rng = np.random.default_rng(9)
    changed = x.copy()
    test_rows = np.flatnonzero(~dev)
    changed[:, test_rows, :3] = rng.normal(size=(3, len(test_rows), 3)) * 5
    changed[:, test_rows, 3] = 0.0
    b = C.audit_cascade(changed, y, dev, PAIRS, alpha=0.05, delta=1e-5)
    assert b.chosen == a.chosen and b.selection_auc == a.selection_auc
    assert b.certificates["dev_auc"].tolist() == a.certificates["dev_auc"].tolist()
    # the test rows do enter the evaluation: noise there makes errors
    assert (b.certificates["false_positives"] + b.certificates["false_negatives"]).sum() > \
        (a.certificates["false_positives"] + a.certificates["false_negatives"]).sum()


def test_table8_gives_each_route_per_pass_under_its_status(audited):
    _, _, _, a = audited
    t8 = a.table8({"gaussmech": "GaussMech", "mmd-tv": "MMD-TV"})
    assert list(t8.index) == [1, 2, 3]
    assert ("GaussMech", "diagnostic") in t8.columns
    assert ("MMD-TV", "uncertified population bound") in t8.columns
    assert ("OOF AUC", "descriptive") in t8.columns and ("pairs", "") in t8.columns
    assert (t8[("pairs", "")] == 6).all()
    auc = t8[("OOF AUC", "descriptive")]
    assert auc[1] > 0.95 and auc[3] < 0.75  # separation falls, as built
    gm = t8[("GaussMech", "diagnostic")]
    assert gm[1] > gm[2] > 0
    # MMD rejections after one Bonferroni correction over the 18 tests of the table:
    # at 200 permutations the smallest p is 1/201 > 0.05/18, so none can reject
    assert set(t8[("MMD reject (Bonferroni)", "permutation test")]) == {"0/6"}


def test_bad_input_names_the_parameter():
    x, y = _cascade()
    dev = split_rows(y, 0.5)
    with pytest.raises(PrivlabValueError, match="'vectors'.*passes, n, d"):
        C.audit_cascade(x[0], y, dev, PAIRS)
    flags = x.copy()
    flags[0, 0, -1] = 0.5
    with pytest.raises(PrivlabValueError, match="'vectors'.*flag"):
        C.audit_cascade(flags, y, dev, PAIRS)
    with pytest.raises(PrivlabValueError, match="'dev'.*split_rows"):
        C.audit_cascade(x, y, dev.astype(int), PAIRS)
    with pytest.raises(PrivlabValueError, match="'select_pass'.*between 1 and 3"):
        C.audit_cascade(x, y, dev, PAIRS, select_pass=4)
    with pytest.raises(PrivlabValueError, match="'pairs'.*unknown labels \\['z'\\]"):
        C.audit_cascade(x, y, dev, [("a", "z")])
    with pytest.raises(PrivlabValueError, match="'alpha'"):
        C.audit_cascade(x, y, dev, PAIRS, alpha=1.5)
    with pytest.raises(PrivlabTypeError, match="'vectors'"):
        C.audit_cascade("x", y, dev, PAIRS)
    with pytest.raises(PrivlabValueError, match="'n_passes'"):
        C.cascade_alpha(0.05, 2, 0)
    empty = C.audit_cascade(x, y, dev, PAIRS, methods=())
    assert empty.descriptive.empty and isinstance(empty.table8(), pd.DataFrame)
