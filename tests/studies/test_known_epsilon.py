"""Study 05 on its smoke settings: the tables exist and say what the paper says."""

import math

import pytest

from privlab.epsilon.auditors import gaussmech_null_floor
from privlab.epsilon.summaries import ROW_KEY
from privlab.studies import known_epsilon as K
from smoke_results import smoke_result

# The module's shared fixtures are built once: its tests stay on one xdist worker.
pytestmark = pytest.mark.xdist_group("studies.test_known_epsilon")


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="session")
def smoke(_session_cache):
    # The contract test's smoke run (tests/smoke_results.py, same xdist group), computed
    # once into the session's cache (tests/conftest.py), which the notebook's runs read.
    mp = pytest.MonkeyPatch()
    mp.setenv("PRIVLAB_CACHE", str(_session_cache))
    try:
        result = smoke_result("known_epsilon")
        return result.config, result
    finally:
        mp.undo()


def test_smoke_study_runs_and_tells_the_lesson(smoke):
    cfg, res = smoke
    assert list(res.null_table.index) == [30, 100]
    for n in (30, 100):
        assert res.null_table.loc[n, "GaussMech"] == pytest.approx(gaussmech_null_floor(512, n),
                                                                  rel=0.1)
    pos, rows = res.null_certificates()
    assert pos == 0 and rows > 0  # no certificate claims privacy loss at ε = 0
    assert (res.validity["violations"] == 0).all()
    assert tuple(res.explore["method"]) == K.default_auditors()  # the paper's + certificates
    assert set(K.default_auditors()) >= set(K.B.DEFAULT_METHODS)
    assert "true ε=0" in res.headline().text
    assert "<b>" in res._repr_html_()
    assert "GaussMech paper" in res.to_frame().columns
    assert not math.isnan(res.curves["mean"].iloc[0])
    # Figure 2 carries a population-optimal AUC for both families.
    roc = res.curves[res.curves["method"] == "roc-ht"].set_index(["mechanism", "epsilon"])
    assert roc["reference"].notna().all()
    assert roc.loc[("laplace", 0.0), "reference"] == pytest.approx(0.5)
    assert roc.loc[("laplace", 64.0), "reference"] > 0.5
    assert len(res.laplace_reference) == 6 * 3  # pairs × Figure 2's ε
    assert (res.laplace_reference["draws"] == cfg.reference_draws).all()
    # ε = 256 at n = 100 with the exact score: every pair certified positive.
    top = res.power[(res.power.epsilon == 256) & (res.power.n == 100)
                    & (res.power.method == "reserved-exact")]
    assert top["fraction_positive"].iloc[0] == 1.0


def test_each_evaluation_is_counted_once(smoke):
    cfg, res = smoke
    assert not res.frame.duplicated(subset=list(ROW_KEY)).any()
    # ε = 0 certificates: the null table's settings (n = 30, 100) are the power sub-grid's,
    # so Laplace and Gaussian give 2 × {30, 100} = 4 settings × 6 pairs × 5 certificate
    # methods = 120 evaluations, each once (the null table's reserved and reserved-exact
    # rows are the power sub-grid's); the appendix adds randomized response and the anisotropic Gaussian at
    # n = 30, 100: 4 settings × 6 pairs × 2 certificates = 48; 168 in all.
    pos, rows = res.null_certificates()
    assert (pos, rows) == (0, 168)
    assert "0/168 tests;" in res.headline().text
    assert res.headline().details == ("the 168 certificate tests at true ε=0: 4 mechanisms, "
                                      "each test counted once",)
    # each auditor named beside the status it is registered with
    assert ("finite-sample certificate: reserved, reserved-exact, dp-sniper, mmd-finite, "
            "reserved-sequential") in res.headline().status_note
    main = res.null_counts.loc["laplace + gaussian", "certified > 0"]
    assert main == "0/120"
    assert res.provenance["n_rows"] == len(res.frame)


def test_appendix_tables_and_null_counts(smoke):
    cfg, res = smoke
    # Table 6 layout: (test, n) rows, requested ε columns; at ε = 0 nothing is certified
    assert list(res.table6.index) == [("exact", 30), ("exact", 100), ("learned", 30),
                                      ("learned", 100)]
    assert list(res.table6.columns) == [0.0, 32.0]
    assert (res.table6[0.0] == 0).all() and (res.rr_table[0.0] == 0).all()
    # ε = 32: randomized response is perfectly separable at n = 100 (exact test and learned)
    assert res.rr_table.loc[("exact", 100), 32.0] == 1.0
    assert list(res.paper_table6.columns) == [0.0, 0.5, 2.0, 8.0, 16.0, 32.0]
    assert res.paper_table6.loc[("learned", 300), 32.0] == 0.88
    # every null family is counted, each count out of its own rows
    counts = res.null_counts
    assert list(counts.index) == ["laplace + gaussian", "randomized_response",
                                  "anisotropic_gaussian"]
    assert counts.loc["randomized_response", "ROC +∞"].endswith("/12")  # 2 sizes × 6 pairs
    assert counts.loc["laplace + gaussian", "MMD reject"].endswith("/12")  # Laplace, 2 sizes
    # a p-value on every MMD row at ε = 0: Laplace and Gaussian, and the two appendix
    # mechanisms, at n = 30 and 100, 6 pairs each
    assert res.null_mmd_rejections()[1] == 2 * 2 * 6 + 2 * 2 * 6
    assert "MMD permutation test with 200 permutations (the paper: 10000)" in \
        res.headline().caveats
    side = res.side_by_side
    assert list(side.columns) == ["exact median ε", "reserved", "reserved-exact", "dp-sniper",
                                  "mmd-finite", "reserved-sequential", "hockey-stick"]
    assert side.loc[("gaussian", 0.0, 30)].tolist() == [0.0] * 7
    assert side.loc[("laplace", 256.0, 100), "reserved-exact"] == 1.0
    assert set(res.members["status"]) >= {"diagnostic", "finite-sample certificate"}


def test_hockey_stick_claims_on_the_power_grid(smoke):
    cfg, res = smoke
    # the power sub-grid: 2 mechanisms × 3 ε × 2 n = 12 settings × 6 pairs
    assert len(res.claims) == 72 and (res.claims["claim_epsilon"] == 1.0).all()
    true_claims = res.claims[res.claims["claim_true"]]
    assert len(true_claims) == 24 and not true_claims["reject"].any()  # ε = 0: 4 settings
    top = res.claim_table.loc[("laplace", 256.0, 100)]
    assert top["false claims refuted"] == "6/6" and top["status"] == "finite-sample certificate"


def test_notebook_config_follows_smoke(monkeypatch):
    monkeypatch.setenv("PRIVLAB_SMOKE", "1")
    assert K.Config.for_notebook().n_pairs == K.Config.smoke().n_pairs
    assert K.Config.for_notebook().mmd_permutations == 200
    monkeypatch.setenv("PRIVLAB_SMOKE", "0")
    assert K.Config.for_notebook().n_pairs == K.Config.demo().n_pairs == 10   # the demo
    monkeypatch.setenv("PRIVLAB_PROFILE", "full")
    assert K.Config.for_notebook().n_pairs == 40
    assert K.Config.default().n_pairs == 40
    assert K.Config.default().mmd_permutations == 10_000


def test_bad_auditor_named():
    with pytest.raises(ValueError, match="'auditors'"):
        K.run(K.Config.smoke(auditors=("nope",), progress=False))
    with pytest.raises(ValueError, match="'certificates'"):
        K.run(K.Config.smoke(certificates=("gaussmech",), progress=False))


def test_distinguishers_compared_on_their_own_pairs(smoke):
    cfg, res = smoke
    table = res.distinguisher_table
    assert list(table.index) == [("anisotropic_gaussian", 16.0, 100), ("laplace", 64.0, 100)]
    assert list(table.columns[1:]) == list(cfg.distinguishers)
    assert ((table[list(cfg.distinguishers)] >= 0) & (table[list(cfg.distinguishers)] <= 1)).all().all()
    # 2 settings × 4 pairs per method, kept apart from the 6-pair sub-grids
    counts = res.distinguisher_validity.groupby("method")["rows"].sum()
    assert (counts == 8).all() and set(counts.index) == set(cfg.distinguishers)
    assert res.distinguisher_validity["violations"].sum() == 0
    assert set(res.distinguisher_power["method"]) == set(cfg.distinguishers)


def test_quoted_figures_are_the_null_numbers_as_printed(smoke):
    cfg, res = smoke
    figures = res.quoted_figures()
    assert set(figures) == {"null.certified_positive", "null.certified_tests",
                            "null.mmd_rejects", "null.mmd_tests", "null.roc_infinite",
                            "null.mmd_positive", "null.n", "null.auc", "null.mmd_tv",
                            "null.gaussmech", "null.gaussmech_floor", "null.kde_lr"}
    pos, rows = res.null_certificates()
    rejected, tested = res.null_mmd_rejections()
    assert (figures["null.certified_positive"], figures["null.certified_tests"]) == ("0", "168")
    assert (figures["null.mmd_rejects"], figures["null.mmd_tests"]) == (str(rejected),
                                                                         str(tested))
    # the headline prints the same counts
    assert f"{pos}/{rows} tests" in res.headline().text
    assert f"rejects {rejected}/{tested}" in res.headline().text
    assert figures["null.roc_infinite"] == f"{res.null_infinite_share():.0%}"
    # half the Laplace MMD-TV values at ε = 0 by hand
    null = res.frame[(res.frame["epsilon"] == 0) & (res.frame["method"] == "mmd-tv")
                     & (res.frame["mechanism"] == "laplace")]
    assert len(null) == 12  # n = 30, 100; 6 pairs
    assert figures["null.mmd_positive"] == f"{(null['value'] > 0).mean():.0%}"
    # Table 4's row at its largest n (100): GaussMech on its Eq. 22 floor, KDE-LR in the
    # thousands
    row = res.null_table.loc[100]
    assert figures["null.n"] == "100"
    assert figures["null.auc"] == f"{row['AUC']:.2f}"
    assert figures["null.mmd_tv"] == f"{row['MMD-TV']:.3f}"
    assert figures["null.gaussmech"] == f"{row['GaussMech']:.2f}"
    assert figures["null.gaussmech_floor"] == f"{gaussmech_null_floor(512, 100):.2f}" == "15.50"
    assert figures["null.kde_lr"] == f"{row['KDE-LR α=0']:,.0f}"
    assert float(figures["null.kde_lr"].replace(",", "")) > 1000
