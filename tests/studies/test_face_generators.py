"""Study 06 on smoke settings and on a table file: statuses, strong vs weak, the record."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.epsilon import certified_epsilon
from privlab.errors import PrivlabValueError
from privlab.studies import face_generators as fg

PAPER_STATUS = {"gaussmech": "diagnostic", "kde-lr": "diagnostic", "kde-lr-0.01": "diagnostic",
                "mmd-tv": "uncertified population bound", "roc-ht": "descriptive",
                "certificate": "finite-sample certificate"}


@pytest.fixture(scope="module")
def smoke_result():
    return fg.run(fg.Config.smoke(methods=("gaussmech", "kde-lr", "mmd-tv", "roc-ht")))


def test_smoke_study_runs_and_keeps_the_papers_statuses(smoke_result):
    r = smoke_result
    assert [c.name for c in r.conditions] == ["toy weak (strength 0.1)",
                                             "toy strong (strength 0.4)"]
    assert len(r.pairs) == 3
    summary = r.summary()
    for _, row in summary.iterrows():
        assert row["status"] == PAPER_STATUS[row["method"]]
    assert set(summary["method"]) == set(PAPER_STATUS) - {"kde-lr-0.01"}
    html = r._repr_html_()
    assert "finite-sample certificate" in html and "iid rows assumed" in html
    assert r.to_frame().equals(summary)


def test_strong_generator_is_less_separable_on_the_same_pairs(smoke_result):
    weak, strong = smoke_result.conditions
    w, s = weak.audit.to_frame(), strong.audit.to_frame()
    assert w[["id_a", "id_b"]].equals(s[["id_a", "id_b"]])
    for method in ("gaussmech", "mmd-tv"):
        wv = w.loc[w["method"] == method, "value"].to_numpy()
        sv = s.loc[s["method"] == method, "value"].to_numpy()
        assert np.median(sv) < np.median(wv), method
    w_auc = w.loc[w["method"] == "roc-ht", "auc"].to_numpy()
    s_auc = s.loc[s["method"] == "roc-ht", "auc"].to_numpy()
    assert s_auc.mean() < w_auc.mean()
    assert w_auc.min() > 0.95 and s_auc.mean() < 0.95
    # the strong generator's undetected faces all share the "no face" vector
    assert strong.table.report.duplicate_groups("across identities") >= 1


def test_certificate_uses_the_family_level_and_untouched_rows(smoke_result):
    r = smoke_result
    cert = r.certificates()
    assert len(cert) == 2  # three identities: one pair each without reusing an identity
    assert r.alpha_per_rate == pytest.approx(0.05 / (2 * 2))
    for _, row in cert.iterrows():
        expected = certified_epsilon(int(row["false_positives"]), int(row["n_test_a"]),
                                     int(row["false_negatives"]), int(row["n_test_b"]),
                                     r.alpha_per_rate)
        assert row["epsilon_lb"] == pytest.approx(expected)
        assert 0 <= row["epsilon_lb"] <= row["attainable"]
    for c in r.conditions:
        split = c.split
        assert (split["development"] + split["test"]).tolist() == [30, 30, 30]
        assert split["test"].tolist() == [9, 9, 9]
    assert "certified ε ≥" in r.headline().text


def test_mmd_permutation_test_runs_and_is_counted(smoke_result):
    r = smoke_result
    assert r.config.mmd_permutations == 10_000 == r.provenance["mmd_permutations"]
    weak = r.conditions[0].audit.to_frame()
    p = weak.loc[weak["method"] == "mmd-tv", "p_value"]
    # the weak generator's identities are perfectly separated: no permutation reaches the
    # observed statistic, so every p-value is the Phipson–Smyth floor (0 + 1)/(10^4 + 1)
    assert len(p) == 3 and (p == 1 / 10_001).all()
    row = r.summary().set_index(["condition", "method"]).loc[(r.conditions[0].name, "mmd-tv")]
    assert row["MMD reject p≤0.05"] == "3/3" and row["MMD reject (Bonferroni)"] == "3/3"
    assert row["min p"] == pytest.approx(1 / 10_001)


def test_summary_median_counts_infinite_values(smoke_result):
    summary = smoke_result.summary()
    roc = summary[summary["method"] == "roc-ht"]
    # every out-of-fold conversion is +∞ here: the median says so, the finite one has none
    assert (roc["+inf"] == roc["pairs"]).all()
    assert (roc["median"] == np.inf).all() and roc["median (finite)"].isna().all()


def test_audits_run_under_the_runners_thread_limit(monkeypatch):
    from threadpoolctl import threadpool_info, threadpool_limits

    seen = []
    real = fg.audit_pairs

    def spy(*args, **kwargs):
        seen.append({p["num_threads"] for p in threadpool_info()})
        return real(*args, **kwargs)

    monkeypatch.setattr(fg, "audit_pairs", spy)
    with threadpool_limits(4):  # whatever the caller allows, the audits use one thread
        fg.run(fg.Config.smoke(methods=("gaussmech",), compare_strength=None))
    assert seen and all(s == {1} for s in seen)


def test_record_lists_the_appendix_fields(smoke_result):
    record = smoke_result.record.set_index("field")
    for name in ("generator and revision", "generator seeds", "encoder and checkpoint",
                 "software environment", "identity pairs and seed",
                 "duplicate vectors across identities (groups)", "table sha256"):
        assert name in record.index
    assert record["recorded"].all()


def test_study_on_a_table_file_marks_unknown_generation(tmp_path):
    rng = np.random.default_rng(0)
    centres = rng.normal(size=(5, 8))
    x = np.vstack([c + 0.3 * rng.normal(size=(20, 8)) for c in centres])
    labels = np.repeat([f"id{k}" for k in range(5)], 20)
    x[3] = 0.0  # one zero-norm row, dropped and counted
    path = tmp_path / "gen.csv"
    path.write_text("label," + ",".join(f"e{k}" for k in range(8)) + "\n" + "".join(
        lab + "," + ",".join(repr(float(v)) for v in row) + "\n" for lab, row in zip(labels, x)))
    cfg = fg.Config(table=str(path), methods=("gaussmech", "roc-ht"), n_pairs=4,
                    n_select=5, alpha=0.05)
    r = fg.run(cfg)
    assert len(r.conditions) == 1 and len(r.pairs) == 4
    t = r.conditions[0].table
    assert t.report.dropped_zero_norm == [5]  # CSV line of array row 3 (header is line 1)
    record = r.record.set_index("field")
    assert record.loc["generator and revision", "value"] == "not recorded"
    assert not record.loc["row model", "recorded"]
    chosen = r.certificates()[["id_a", "id_b"]].to_numpy().ravel().tolist()
    assert len(chosen) == len(set(chosen))  # no identity used twice
    assert r.alpha_per_rate == pytest.approx(0.05 / (2 * len(r.certificates())))


def test_refusals():
    # the pair list, split and certificate are tested in tests/epsilon/test_pairs.py
    with pytest.raises(PrivlabValueError, match="alpha"):
        fg.run(fg.Config(alpha=1.5))
    with pytest.raises(PrivlabValueError, match="methods"):
        fg.run(fg.Config(methods=("no-such-route",)))
    with pytest.raises(PrivlabValueError, match="dev_fraction"):
        fg.run(fg.Config(dev_fraction=1.0))
    with pytest.raises(PrivlabValueError, match="mmd_permutations"):
        fg.run(fg.Config(mmd_permutations=-1))
