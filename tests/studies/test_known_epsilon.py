"""Study 05 on its smoke settings: the tables exist and say what the paper says."""

import math

import pytest

from privlab.epsilon.auditors import gaussmech_null_floor
from privlab.studies import known_epsilon as K


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))


def test_smoke_study_runs_and_tells_the_lesson():
    cfg = K.Config.smoke(n_pairs=4, null_sizes=(30,), power_sizes=(30, 100),
                         curve_epsilons=(0.0, 64.0), progress=False, n_jobs=1)
    res = K.run(cfg)
    assert list(res.null_table.index) == [30]
    assert res.null_table.loc[30, "GaussMech"] == pytest.approx(gaussmech_null_floor(512, 30),
                                                               rel=0.1)
    pos, rows = res.null_certificates()
    assert pos == 0 and rows > 0  # no certificate claims privacy loss at ε = 0
    assert (res.validity["violations"] == 0).all()
    assert set(res.explore["method"]) == set(cfg.auditors)
    assert "true ε=0" in res.headline().text
    assert "<b>" in res._repr_html_()
    assert "GaussMech paper" in res.to_frame().columns
    assert not math.isnan(res.curves["mean"].iloc[0])
    # Figure 2 carries a population-optimal AUC for both families.
    roc = res.curves[res.curves["method"] == "roc-ht"].set_index(["mechanism", "epsilon"])
    assert roc["reference"].notna().all()
    assert roc.loc[("laplace", 0.0), "reference"] == pytest.approx(0.5)
    assert roc.loc[("laplace", 64.0), "reference"] > 0.5
    assert len(res.laplace_reference) == 4 * 2
    assert (res.laplace_reference["draws"] == cfg.reference_draws).all()
    # ε = 256 at n = 100 with the exact score: every pair certified positive.
    top = res.power[(res.power.epsilon == 256) & (res.power.n == 100)
                    & (res.power.method == "reserved-exact")]
    assert top["fraction_positive"].iloc[0] == 1.0


def test_notebook_config_follows_smoke(monkeypatch):
    monkeypatch.setenv("PRIVLAB_SMOKE", "1")
    assert K.Config.for_notebook().n_pairs == K.Config.smoke().n_pairs
    monkeypatch.setenv("PRIVLAB_SMOKE", "0")
    assert K.Config.for_notebook().n_pairs == 40
    assert K.Config.default().n_pairs == 40


def test_bad_auditor_named():
    with pytest.raises(ValueError, match="'auditors'"):
        K.run(K.Config.smoke(auditors=("nope",), progress=False))
