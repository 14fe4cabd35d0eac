"""The hockey-stick tester on the known-ε grid: true claims stand, false ones fall."""

import math

import pandas as pd
import pytest

from privlab.epsilon import benchmark as B
from privlab.epsilon import claims as C
from privlab.errors import PrivlabValueError


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))


def _ceiling(m, alpha, delta):
    """All m reserved rows of P in the region, none of Q's: ln((L_P − δ)/U_Q) with the
    one-sided Clopper–Pearson bounds L_P = α^(1/m) and U_Q = 1 − α^(1/m)."""
    low = alpha ** (1 / m)
    return math.log((low - delta) / (1 - low))


def test_claims_at_the_null_are_true_and_stand():
    f = C.claim_rows(B.Setting("gaussian", "dispersed", 0.0, 40), n_pairs=4)
    assert len(f) == 4 and tuple(f.columns) == C.CLAIM_COLUMNS
    assert f["claim_true"].all() and not f["reject"].any()
    assert (f["claim_epsilon"] == 1.0).all() and (f["claim_delta"] == 1e-5).all()
    assert (f["value"] == 0).all() and (f["status"] == "finite-sample certificate").all()


def test_false_claims_fall_where_the_data_allow_it():
    # Laplace at ε = 256: every pair's exact ε is far above the claim ε = 1, and the
    # outputs separate completely, so every claim is refuted and the lower bound is the
    # ceiling of 50 reserved rows per identity at α = 0.05/(2·6) per bound: 2.1555.
    f = C.claim_rows(B.Setting("laplace", "dispersed", 256.0, 100), n_pairs=6)
    assert (~f["claim_true"]).all() and f["reject"].all()
    assert (f["alpha"] == 0.05 / 12).all()
    ceiling = _ceiling(50, 0.05 / 12, 0.0)
    assert ceiling == pytest.approx(2.1555, abs=1e-4)
    assert f["attainable"].to_numpy() == pytest.approx(ceiling)
    assert f["value"].to_numpy() == pytest.approx(ceiling)
    assert (f["value"] <= f["exact_epsilon"]).all()
    # the same pairs under a claim above every exact ε: all true, none refuted
    g = C.claim_rows(B.Setting("laplace", "dispersed", 256.0, 100), 300.0, n_pairs=6)
    assert g["claim_true"].all() and not g["reject"].any()


def test_summary_counts_true_and_false_claims():
    f = pd.DataFrame({"mechanism": "laplace", "epsilon": [0.0, 0.0, 4.0, 4.0, 4.0], "n": 30,
                      "claim_epsilon": 1.0, "claim_true": [True, True, False, False, True],
                      "reject": [False, False, True, False, False],
                      "value": [0.0, 0.0, 1.2, 0.4, 0.0]})
    t = C.claim_summary(f)
    assert t.loc[("laplace", 0.0, 30), "true claims refuted"] == "0/2"
    assert t.loc[("laplace", 4.0, 30), "false claims refuted"] == "1/2"
    assert t.loc[("laplace", 4.0, 30), "true claims refuted"] == "0/1"
    assert t.loc[("laplace", 4.0, 30), "median ε_L"] == pytest.approx(0.4)


def test_run_claims_stores_and_resumes(monkeypatch):
    settings = B.grid(["gaussian"], ["dispersed"], [0.0, 64.0], [20], [0])
    first = C.run_claims(settings, n_pairs=3, n_jobs=1)
    assert len(first) == 6

    def boom(*args, **kwargs):
        raise RuntimeError("recomputed a stored claim table")

    monkeypatch.setattr(C, "claim_rows", boom)
    again = C.run_claims(settings, n_pairs=3, n_jobs=2)
    pd.testing.assert_frame_equal(first, again, check_dtype=False)


def test_bad_arguments_are_named():
    with pytest.raises(PrivlabValueError, match="'claim_epsilon'"):
        C.claim_rows(B.Setting("laplace", "dispersed", 0.0, 20), -1.0)
    with pytest.raises(PrivlabValueError, match="'settings'"):
        C.run_claims([])
