"""The known-ε benchmark: pair list, tidy tables, resumable sweeps, summaries, CLI."""

import numpy as np
import pandas as pd
import pytest

from privlab.epsilon import benchmark as B
from privlab.epsilon import mechanisms as M
from privlab.errors import PrivlabValueError


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLAB_CACHE", str(tmp_path / "cache"))


def test_grid_size_matches_paper():
    assert len(B.grid()) == 468
    assert len(B.grid(epsilons=B.VALIDITY_GRID)) == 360


@pytest.mark.parametrize("geometry", ["dispersed", "clustered"])
def test_pair_list(geometry):
    p = B.prototypes(geometry)
    pairs = B.select_pairs(p)
    assert len(pairs) == 40 == len(set(pairs))
    assert pairs[0] == p.l1_pair and p.l2_pair in pairs
    assert all(i < j for i, j in pairs)
    l2 = sorted(np.linalg.norm(p.prototypes[i] - p.prototypes[j]) for i, j in pairs)
    assert l2[-1] == pytest.approx(p.delta2)
    assert l2[0] < np.quantile(l2, 0.5) < l2[-1]  # spread over strata
    if geometry == "clustered":
        within = sum(p.centers[i] == p.centers[j] for i, j in pairs)
        assert 5 <= within <= 15  # about a quarter of all pairs are within a cluster


def test_run_setting_tidy_table_and_exact_reference():
    s = B.Setting("gaussian", "dispersed", 4.0, 20)
    f = B.run_setting(s, methods=["gaussmech", "kde-lr", "kde-lr-0.01", "roc-ht",
                                  "reserved", "reserved-exact"], n_pairs=4)
    assert len(f) == 4 * 6
    assert {"mechanism", "geometry", "epsilon", "n", "repetition", "pair_index", "id_a",
            "id_b", "exact_epsilon", "method", "value", "status", "auc", "corner"} <= set(f.columns)
    assert f["exact_epsilon"].max() <= 4.0 + 1e-9
    assert f.loc[f.pair_index == 0, "exact_epsilon"].iloc[0] < 4.0  # pair 0 attains Δ1, not Δ2
    statuses = dict(zip(f["method"], f["status"]))
    assert statuses["reserved-exact"] == "finite-sample certificate"
    assert statuses["kde-lr"] == "diagnostic"
    # Shared KDE pass gives the same numbers as the registry auditor.
    mech = M.build_mechanism("gaussian", B.prototypes("dispersed"), 4.0)
    rng = np.random.default_rng(s.seed)
    pairs = B.select_pairs(B.prototypes("dispersed"), 4)
    ids = sorted({i for p in pairs for i in p})
    samples = {i: mech.sample(i, 20, rng) for i in ids}
    i, j = pairs[0]
    from privlab.epsilon.auditors import AUDITORS
    ref = AUDITORS["kde-lr-0.01"].audit(samples[i], samples[j]).value
    got = f[(f.pair_index == 0) & (f.method == "kde-lr-0.01")]["value"].iloc[0]
    assert got == pytest.approx(ref, rel=1e-12)
    # Deterministic: same setting, same table.
    again = B.run_setting(s, methods=["gaussmech", "kde-lr", "kde-lr-0.01", "roc-ht",
                                      "reserved", "reserved-exact"], n_pairs=4)
    pd.testing.assert_frame_equal(f, again)


def test_sweep_resumes_from_store(monkeypatch):
    settings = B.grid(["laplace"], ["dispersed"], [0.0, 2.0], [12], [0])
    first = B.run_sweep(settings, methods=["gaussmech"], n_pairs=3, n_jobs=1, progress=False)
    files = sorted(B.cache_folder().glob("*.csv"))
    assert len(files) == 2

    def boom(*args, **kwargs):
        raise RuntimeError("recomputed a stored setting")

    monkeypatch.setattr(B, "run_setting", boom)
    again = B.run_sweep(settings, methods=["gaussmech"], n_pairs=3, n_jobs=2, progress=False)
    pd.testing.assert_frame_equal(first.reset_index(drop=True), again, check_dtype=False)


def test_sweep_parallel_matches_serial():
    settings = B.grid(["gaussian"], ["clustered"], [1.0, 8.0], [12], [0])
    serial = B.run_sweep(settings, methods=["gaussmech", "reserved"], n_pairs=3, n_jobs=1,
                         cache=False, progress=False)
    parallel = B.run_sweep(settings, methods=["gaussmech", "reserved"], n_pairs=3, n_jobs=2,
                           cache=False, progress=False)
    pd.testing.assert_frame_equal(serial, parallel)


def test_summaries_on_a_small_null_sweep():
    settings = B.grid(["laplace", "gaussian"], ["dispersed"], [0.0], [20], [0])
    f = B.run_sweep(settings, methods=["gaussmech", "mmd-tv", "roc-ht", "kde-lr-0.01",
                                       "reserved"], n_pairs=6, n_jobs=1, progress=False)
    t = B.null_table(f)
    assert list(t.index) == [20]
    assert t.loc[20, "GaussMech"] == pytest.approx(M_floor(20), rel=0.15)
    assert 0.3 < t.loc[20, "AUC"] < 0.7
    assert t.loc[20, "MMD-TV"] < 0.1
    curves = B.method_curves(f)
    assert set(curves["method"]) >= {"gaussmech", "roc-ht", "mmd-tv", "mmd-tv (tighter)"}
    v = B.validity_summary(f)
    assert v["violations"].sum() == 0 and v["rows"].sum() == 12
    power = B.power_curves(f)
    assert (power["fraction_positive"] == 0).all()


def M_floor(n):
    from privlab.epsilon.auditors import gaussmech_null_floor
    return gaussmech_null_floor(512, n)


def test_power_experiment_small():
    out = B.power_experiment("gaussian", 256.0, sizes=[60], replications=2)
    row = out.iloc[0]
    assert row["trials"] == 10 and row["violations"] == 0
    assert row["ci_low"] <= row["fraction_positive"] <= row["ci_high"]
    assert row["fraction_positive"] == 1.0  # ε = 256: perfectly separable


@pytest.mark.parametrize("kwargs, parameter", [
    (dict(mechanism="cauchy", geometry="dispersed", epsilon=1.0, n=30), "mechanism"),
    (dict(mechanism="laplace", geometry="ring", epsilon=1.0, n=30), "geometry"),
    (dict(mechanism="laplace", geometry="dispersed", epsilon=-1.0, n=30), "epsilon"),
    (dict(mechanism="laplace", geometry="dispersed", epsilon=1.0, n=3), "n"),
    (dict(mechanism="laplace", geometry="dispersed", epsilon=1.0, n=30, repetition=-1),
     "repetition"),
])
def test_bad_settings_name_the_parameter(kwargs, parameter):
    with pytest.raises(PrivlabValueError, match=f"'{parameter}'"):
        B.Setting(**kwargs)


def test_bad_methods_and_settings_lists():
    s = B.Setting("laplace", "dispersed", 1.0, 30)
    with pytest.raises(PrivlabValueError, match="'methods'"):
        B.run_setting(s, methods=["nope"])
    with pytest.raises(PrivlabValueError, match="'settings'"):
        B.run_sweep([])
    with pytest.raises(PrivlabValueError, match="'n_pairs'"):
        B.select_pairs(B.prototypes("dispersed"), 1)


def test_cli_writes_table(tmp_path, capsys):
    from privlab.cli import main

    out = tmp_path / "table.csv"
    code = main(["epsilon-benchmark", "--mechanism", "laplace", "--geometry", "dispersed",
                 "--epsilon", "0", "--n", "12", "--repetition", "0", "--pairs", "3",
                 "--methods", "gaussmech", "reserved", "--jobs", "1", "--quiet",
                 "--out", str(out)])
    assert code == 0
    f = pd.read_csv(out)
    assert len(f) == 6 and set(f["method"]) == {"gaussmech", "reserved"}
    assert "wrote 6 rows" in capsys.readouterr().out


def test_cli_bad_value_exits_2(tmp_path, capsys):
    from privlab.cli import main

    code = main(["epsilon-benchmark", "--epsilon", "-1", "--n", "12", "--quiet",
                 "--out", str(tmp_path / "t.csv")])
    assert code == 2
    assert "'--epsilon' option of privlab epsilon-benchmark" in capsys.readouterr().err


@pytest.mark.parametrize("mechanism", ["randomized_response", "anisotropic_gaussian"])
def test_appendix_mechanisms_reserved_validity(mechanism):
    s = B.Setting(mechanism, "clustered", 2.0, 100)
    f = B.run_setting(s, methods=["reserved", "reserved-exact"], n_pairs=10)
    v = B.validity_summary(f)
    assert (v["violations"] == 0).all()
    assert v["possible"].sum() > 0


@pytest.mark.slow
def test_validity_sweep_reserved_never_above_exact():
    settings = B.grid(["laplace", "gaussian", "randomized_response", "anisotropic_gaussian"],
                      ["dispersed", "clustered"],
                      [0.0, 1.0, 2.0, 4.0], [30, 100], [0, 1, 2])
    f = B.run_sweep(settings, methods=["reserved", "reserved-exact"], cache=False,
                    progress=False)
    v = B.validity_summary(f)
    assert (v["violations"] == 0).all() and (v["possible"] > 0).all()


def _old_key(s):
    """The key as every release before exact keys wrote it (ε with {:g})."""
    return f"{s.mechanism}-{s.geometry}-eps{s.epsilon:g}-n{s.n}-r{s.repetition}"


def test_seeds_of_every_published_grid_are_unchanged():
    import zlib

    grids = [B.EPSILON_GRID, B.VALIDITY_GRID, B.ANISOTROPIC_GRID, B.RR_GRID_EPSILONS]
    settings = [s for eps in grids for s in B.grid(M.MECHANISMS, M.GEOMETRIES, eps,
                                                   B.SAMPLE_SIZES + (12, 20), B.REPETITIONS)]
    assert len(settings) > 1000
    for s in settings:
        assert s.key() == _old_key(s)
        assert s.seed == zlib.crc32(_old_key(s).encode())
    assert B.Setting("laplace", "dispersed", 0.0, 100).seed == 3998781437


def test_keys_are_exact_where_the_short_form_is_not():
    one = B.Setting("laplace", "dispersed", 1.0, 100)
    near = B.Setting("laplace", "dispersed", 1.0000001, 100)
    assert _old_key(near) == _old_key(one)  # the collision exact keys remove
    assert near.key() == "laplace-dispersed-eps1.0000001-n100-r0" != one.key()
    assert near.seed != one.seed
    assert B.Setting("laplace", "dispersed", -0.0, 100).key() == B.Setting(
        "laplace", "dispersed", 0.0, 100).key()
    for e in (1 / 3, 123456789.0, 1e-300, 2.5e17, 0.1 + 0.2):
        assert float(B.format_epsilon(e)) == e


def test_table_columns_are_those_of_run_setting():
    f = B.run_setting(B.Setting("laplace", "dispersed", 1.0, 10), ["gaussmech"], 2)
    assert tuple(f.columns) == B.TABLE_COLUMNS
    assert f[list(B._NOT_NULL)].notna().all().all()


def test_stored_settings_carry_a_completion_marker():
    import json

    settings = B.grid(["gaussian"], ["dispersed"], [1.0], [12], [0])
    B.run_sweep(settings, methods=["gaussmech"], n_pairs=3, n_jobs=1, progress=False)
    path = B.setting_path(settings[0], ["gaussmech"], 3)
    meta = json.loads(path.with_name(path.name + ".done").read_text())
    assert meta["rows"] == 3 and meta["columns"] == list(B.TABLE_COLUMNS)


def test_certificate_alpha_covers_every_error_rate_of_the_setting():
    import math

    s = B.Setting("laplace", "dispersed", 256.0, 60)
    f = B.run_setting(s, methods=["gaussmech", "reserved", "reserved-exact"], n_pairs=4,
                      mmd_permutations=0)
    for method in ("reserved", "reserved-exact"):
        rows = f[f["method"] == method]
        rates = 2 * len(rows)  # two error rates (FPR, FNR) per pair of the setting: 8
        assert rates == 8
        assert (rows["alpha_tests"] == rates).all()
        assert (rows["alpha"] == 0.05 / rates).all()
    assert f.loc[f["method"] == "gaussmech", ["alpha", "alpha_tests"]].isna().all().all()
    # Known answer: no error on m = 30 test rows per class at α = 0.05/8 gives the
    # Clopper–Pearson bound U = 1 − α^(1/m) = 0.15564 and ε = ln((1 − U)/U) = 1.6911.
    u = 1 - (0.05 / 8) ** (1 / 30)
    ceiling = math.log((1 - u) / u)
    assert u == pytest.approx(0.15564, abs=1e-5) and ceiling == pytest.approx(1.6911, abs=1e-4)
    cert = f[f["method"].isin(["reserved", "reserved-exact"])]
    assert cert["attainable"].to_numpy() == pytest.approx(ceiling, rel=1e-9)
    # ε = 256: the exact likelihood ratio separates every pair, so it certifies the ceiling
    oracle = f.loc[f["method"] == "reserved-exact", "value"].to_numpy()
    assert oracle == pytest.approx(ceiling, rel=1e-9)


def test_null_rows_carry_exactly_zero():
    mech = M.build_mechanism("randomized_response", B.prototypes("dispersed"), 0.0)
    assert -1e-13 < mech.pair_epsilon(0, 1) < 0  # the rounded null's signed log-ratio
    assert B.exact_reference(mech, 0, 1) == 0.0
    for mechanism in M.MECHANISMS:
        f = B.run_setting(B.Setting(mechanism, "clustered", 0.0, 12), ["gaussmech"], 3)
        assert (f["exact_epsilon"] == 0.0).all() and not np.signbit(f["exact_epsilon"]).any()

    class Broken:
        name = "broken"

        def pair_epsilon(self, i, j):
            return -1e-6

    with pytest.raises(ValueError, match="below zero"):
        B.exact_reference(Broken(), 0, 1)
    assert B.exact_reference(M.build_mechanism("laplace", B.prototypes("dispersed"), 2.0),
                             *B.prototypes("dispersed").l1_pair) == pytest.approx(2.0)


def _roc_frame(values):
    """One ROC-HT setting whose pairs have the given values."""
    rows = [dict(mechanism="laplace", geometry="dispersed", epsilon=0.0, n=30, repetition=0,
                 pair_index=k, method="roc-ht", status="descriptive", value=v, auc=0.5,
                 exact_epsilon=0.0, optimal_auc=0.5, mmd_tighter=float("nan"))
            for k, v in enumerate(values)]
    return pd.DataFrame(rows)


def test_medians_count_infinite_values():
    inf = float("inf")
    # 29 of 40 values +∞ (as the out-of-fold ROC at the null): the median is +∞
    values = [0.2 + 0.1 * k for k in range(11)] + [inf] * 29
    row = B.per_setting(_roc_frame(values)).iloc[0]
    assert row["median"] == inf and row["infinite"] == 29
    assert row["median_finite"] == pytest.approx(0.7)  # the finite values alone: 0.2 … 1.2
    # 11 of 40: the median is the 20th/21st value of the sorted list, finite
    values = [0.1 * k for k in range(29)] + [inf] * 11
    row = B.per_setting(_roc_frame(values)).iloc[0]
    assert row["median"] == pytest.approx((1.9 + 2.0) / 2) and row["infinite"] == 11
    from privlab.epsilon.summaries import median_with_inf
    assert median_with_inf([1.0, inf, inf]) == inf
    assert median_with_inf([1.0, 2.0, inf]) == 2.0
    assert median_with_inf([1.0, float("nan"), inf]) == inf  # NaN left out: [1, ∞]
    assert np.isnan(median_with_inf([]))


def test_cli_summary_reports_infinite_medians(tmp_path, capsys, monkeypatch):
    from privlab.cli import main

    inf = float("inf")
    frame = _roc_frame([0.693] * 11 + [inf] * 29)
    monkeypatch.setattr(B, "run_sweep", lambda *a, **k: frame)
    code = main(["epsilon-benchmark", "--epsilon", "0", "--n", "30", "--methods", "roc-ht",
                 "--quiet", "--out", str(tmp_path / "t.csv")])
    assert code == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "roc-ht" in x)
    assert " inf " in f" {line} " and "29/40" in line and "0.693" not in line


def test_auditors_run_under_the_runners_thread_limit(monkeypatch):
    from threadpoolctl import threadpool_info, threadpool_limits

    from privlab.epsilon.runtime import AUDITOR_THREADS, auditor_threads

    seen = []
    real = B._pair_rows

    def spy(*args, **kwargs):
        seen.append({p["num_threads"] for p in threadpool_info()})
        return real(*args, **kwargs)

    monkeypatch.setattr(B, "_pair_rows", spy)
    with threadpool_limits(4):  # a caller that allows more threads (the timing script)
        B.run_setting(B.Setting("laplace", "dispersed", 1.0, 12), ["gaussmech"], 3)
    assert AUDITOR_THREADS == 1 and len(seen) == 3 and all(s == {1} for s in seen)
    with pytest.raises(PrivlabValueError, match="'limit'"):
        with auditor_threads(0):
            pass


def test_mmd_rows_carry_the_papers_permutation_test_by_default(tmp_path):
    from privlab.cli import main

    assert B.MMD_PERMUTATIONS == 10_000
    s = B.Setting("laplace", "dispersed", 256.0, 12)
    f = B.run_setting(s, ["mmd-tv"], 2)
    # ε = 256: the two identities' outputs are far apart, no relabelling of the 24 rows
    # reaches the observed MMD², so p = (0 + 1)/(10^4 + 1), the Phipson–Smyth floor
    assert f["p_value"].tolist() == [1 / 10_001] * 2
    out = tmp_path / "t.csv"
    assert main(["epsilon-benchmark", "--epsilon", "256", "--n", "12", "--pairs", "2",
                 "--methods", "mmd-tv", "--quiet", "--no-cache", "--out", str(out)]) == 0
    assert pd.read_csv(out)["p_value"].tolist() == [1 / 10_001] * 2
    skipped = B.run_setting(s, ["mmd-tv"], 2, mmd_permutations=0)
    assert skipped["p_value"].isna().all()
