"""Study 06 on smoke settings and on a table file: statuses, strong vs weak, the record."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from privlab.datasets.toy_cascade import (DONOR_INDEX_OFFSET, ToyDonorSwap, cascade_images,
                                          flagged_vectors, toy_cascade)
from privlab.encoders.lookup import get_encoder
from privlab.epsilon import cascade as cascade_module
from privlab.epsilon import certified_epsilon
from privlab.epsilon.cascade import audit_cascade
from privlab.epsilon.pairs import PAPER_TABLE7, split_rows
from privlab.errors import PrivlabValueError
from privlab.studies import face_generators as fg

# The module's shared fixtures are built once: its tests stay on one xdist worker.
pytestmark = pytest.mark.xdist_group("studies.test_face_generators")

PAPER_STATUS = {"gaussmech": "diagnostic", "kde-lr": "diagnostic", "kde-lr-0.01": "diagnostic",
                "mmd-tv": "uncertified population bound", "roc-ht": "descriptive",
                "certificate": "finite-sample certificate"}


@pytest.fixture(scope="session")
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
    main = cert[~cert["condition"].str.endswith(", faces only")]
    assert len(main) == 2  # three identities: one pair each without reusing an identity
    # one Bonferroni family over every bound reported, the faces-only twins' included
    assert len(cert) == r.provenance["selected_pairs_total"] > 2
    assert r.alpha_per_rate == pytest.approx(0.05 / (2 * len(cert)))
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


def test_no_face_rows_are_the_shared_vector():
    x = np.zeros((4, 5))
    x[0, -1] = x[2, -1] = 1.0
    x[1, 0] = 1.0
    x[3, [0, -1]] = [0.6, 0.8]  # a face vector never has weight on the last coordinate,
    assert fg.no_face_rows(x).tolist() == [True, False, True, False]  # but be strict
    with pytest.raises(PrivlabValueError, match="embeddings"):
        fg.no_face_rows(np.ones(3))


def test_outputs_without_a_face_are_counted_and_left_out_of_the_faces_only_figures(
        smoke_result):
    r = smoke_result
    counts = r.no_face_counts()
    for c in r.conditions:
        missing = fg.no_face_rows(c.table.embeddings)
        by_identity = {k: int(missing[c.table.labels == k].sum()) for k in counts.index}
        assert counts[c.name].to_dict() == by_identity
        assert c.no_face.to_dict() == by_identity
        assert c.no_face_line().startswith(f"{int(missing.sum())} of 90 outputs without")
    weak, strong = r.conditions
    # the strong toy generator hides most faces from the detector (measured: 61 of 90)
    assert strong.no_face.sum() > weak.no_face.sum() and strong.no_face.sum() >= 45
    assert counts["outputs"].tolist() == [30, 30, 30]
    for c in r.conditions:
        if not c.no_face.sum():
            assert c.faces is None
            continue
        twin = c.faces
        assert twin.name == f"{c.name}, faces only"
        face = ~fg.no_face_rows(c.table.embeddings)
        # same split, restricted to the rows with a face; no shared vector left
        assert (twin.split["development"] + twin.split["test"]).sum() == face.sum()
        for _, row in twin.certificate.iterrows():
            for side in ("a", "b"):
                label = row[f"id_{side}"]
                assert row[f"n_test_{side}"] == int(twin.split.loc[label, "test"])
                assert row[f"n_test_{side}"] <= int(c.split.loc[label, "test"])
        # routes only on pairs whose identities keep min_rows faces
        audited = twin.audit.to_frame()
        if len(audited):
            kept = set(map(tuple, audited[["id_a", "id_b"]].to_numpy().tolist()))
            faces_per = pd.Series(c.table.labels[face]).value_counts()
            assert all(min(faces_per.get(a, 0), faces_per.get(b, 0)) >= 10 for a, b in kept)
    text = " ".join(r.headline().details)
    assert f"{strong.name}: {strong.no_face_line()}, all on one shared vector" in text
    assert "with them" in text and "on the outputs with a face" in text
    assert "(faces only " in r.headline().text
    assert any("outputs with no detectable face" in c for c in r.headline().caveats)
    assert "Outputs with no detectable face" in r._repr_html_()


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
    monkeypatch.setattr(cascade_module, "audit_pairs", spy)
    with threadpool_limits(4):  # whatever the caller allows, the audits use one thread
        r = fg.run(fg.Config.smoke(methods=("gaussmech",), compare_strength=None))
    # the condition's audit (and its faces-only twin's where some outputs have no face),
    # then per cascade pass the selected pairs' AUC and the routes
    twins = sum(c.faces is not None and len(c.faces.audit.to_frame()) > 0
                for c in r.conditions)
    assert len(seen) == 1 + twins + 2 * r.config.cascade_passes
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
    cfg = fg.Config(data=str(path), methods=("gaussmech", "roc-ht"), n_pairs=4,
                    n_select=5, alpha=0.05)
    r = fg.run(cfg)
    assert len(r.conditions) == 1 and len(r.pairs) == 4
    assert r.cascade is None  # the toy cascade belongs to the offline default
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
    with pytest.raises(PrivlabValueError, match="'cascade_donors'.*at least cascade_passes"):
        fg.run(fg.Config(cascade_passes=5, cascade_donors=4))
    with pytest.raises(PrivlabValueError, match="'cascade_passes'.*at least 0"):
        fg.run(fg.Config(cascade_passes=-1))
    with pytest.raises(PrivlabValueError, match="'cascade_swap'"):
        fg.run(fg.Config(cascade_swap=1.5))
    with pytest.raises(PrivlabValueError, match="'cascade_sequences'.*5 development.*Got 9"):
        fg.run(fg.Config(cascade_sequences=9))  # 4 or 5 development sequences at 0.5
    with pytest.raises(PrivlabValueError, match="'cascade_identities'.*cascade_passes=0"):
        fg.run(fg.Config(cascade_identities=1))
    with pytest.raises(PrivlabValueError, match="'swap'.*in \\[0, 1\\]"):
        ToyDonorSwap(swap=2.0)
    with pytest.raises(PrivlabValueError, match="'n_donors'.*different donor"):
        toy_cascade(passes=5, n_donors=3)


# ----------------------------------------------------------------------------------
# The random-donor cascade (the paper's Appendix E) on smoke settings: 4 targets × 20
# sequences × 2 passes, 8 donors
# ----------------------------------------------------------------------------------

def test_cascade_keeps_every_output_with_its_no_face_flag(smoke_result):
    data = smoke_result.cascade_data
    passes, n, d = data.vectors.shape
    assert (passes, n, d) == (2, 80, 129)  # SFace: 128 identity coordinates and the flag
    failed = data.failed
    # the toy swap's blends and blur defeat the detector now and then: measured on these
    # settings, some outputs of every pass have no face, and they are kept as [0, 1]
    assert (failed.sum(axis=1) > 0).all() and failed.sum() < 0.25 * failed.size
    assert np.array_equal(data.vectors[failed][:, :-1], np.zeros((failed.sum(), 128)))
    faces = data.vectors[~failed]
    assert (faces[:, -1] == 0).all()
    assert np.allclose(np.linalg.norm(faces[:, :-1], axis=1), 1.0)
    assert data.provenance["no_face_per_pass"] == failed.sum(axis=1).tolist()
    audit = smoke_result.cascade
    dev = split_rows(data.labels, 0.5, smoke_result.config.seed)
    assert np.array_equal(dev, smoke_result.cascade.development)
    # sequences, not outputs, are split: 10 development and 10 test sequences per target
    assert set(np.unique(data.labels[dev], return_counts=True)[1]) == {10}
    assert (audit.failures["no face (development)"] + audit.failures["no face (test)"]
            ).tolist() == failed.sum(axis=1).tolist()
    assert data.failures(dev).equals(
        audit.failures.assign(outputs=80)[["no face (development)", "no face (test)",
                                           "outputs"]])
    # every test sequence, with or without a face, is a test row of the certificate
    assert (audit.certificates["n_test_a"] == 10).all()
    assert (audit.certificates["n_test_b"] == 10).all()


def test_cascade_draws_different_donors_from_a_pool_apart_from_the_targets(smoke_result):
    data = smoke_result.cascade_data
    assert data.donors.shape == (80, 2)
    assert (data.donors[:, 0] != data.donors[:, 1]).all()
    assert data.donors.min() >= 0 and data.donors.max() < 8
    assert sorted(set(data.labels)) == [f"target {k:02d}" for k in range(4)]
    assert DONOR_INDEX_OFFSET > 4  # donor identities are not target identities
    for target in set(data.labels):  # each target's sequences meet many donors
        assert len(set(data.donors[data.labels == target].ravel())) >= 6
    assert data.start.min() >= 0 and data.start.max() < smoke_result.config.cascade_pool
    # the notebook's pictures are the embedded outputs: same draws, same vectors
    cfg = smoke_result.config
    row = int(np.flatnonzero((data.labels == "target 01") & (data.sequence == 3))[0])
    images = cascade_images(1, 3, cfg.cascade_passes, cfg.cascade_donors, cfg.cascade_pool,
                            cfg.seed, ToyDonorSwap(swap=cfg.cascade_swap))
    assert len(images) == 1 + cfg.cascade_passes
    encoder = get_encoder(cfg.encoders[0])
    again = flagged_vectors(encoder.encode(images[1:]), encoder)
    assert np.allclose(again, data.vectors[:, row], atol=1e-6)


def test_cascade_bounds_are_simultaneous_and_capped(smoke_result):
    audit = smoke_result.cascade
    assert len(audit.chosen) == 2
    assert audit.alpha_per_rate == pytest.approx(0.05 / (2 * 2 * 2))
    cap = certified_epsilon(0, 10, 0, 10, audit.alpha_per_rate, 1e-5)
    cert = audit.certificates
    assert len(cert) == 4 and sorted(set(cert["pass"])) == [1, 2]
    for _, row in cert.iterrows():
        fp, fn = int(row["false_positives"]), int(row["false_negatives"])
        assert row["epsilon_lb"] == pytest.approx(
            certified_epsilon(fp, 10, fn, 10, audit.alpha_per_rate, 1e-5))
        assert 0 <= row["epsilon_lb"] <= cap == pytest.approx(row["attainable"])
        if fp == fn == 0:
            assert row["epsilon_lb"] == pytest.approx(cap)
    t7 = smoke_result.cascade_table7()
    assert list(t7.index) == [1, 2] and t7["cap"].tolist() == pytest.approx([cap, cap])
    for p, g in cert.groupby("pass"):
        censored = int(((g["false_positives"] == 0) & (g["false_negatives"] == 0)).sum())
        assert t7.loc[p, "censored"] == f"{censored}/2"
    both = smoke_result.cascade_comparison()
    assert list(both.index.get_level_values("source").unique()) == [
        "privlab toy cascade", "paper, FaceFusion (Table 7)"]
    assert both.loc["paper, FaceFusion (Table 7)"]["median ε_LB"].tolist() == \
        PAPER_TABLE7["median ε_LB"].tolist()
    caveat = [c for c in smoke_result.headline().caveats if "cascade" in c]
    assert len(caveat) == 1 and "not a measured change in ε" in caveat[0]
    assert f"{t7.loc[2, 'median ε_LB']:.3f} after pass 2" in caveat[0]


def test_cascade_pairs_are_chosen_without_the_test_sequences(smoke_result):
    data, audit = smoke_result.cascade_data, smoke_result.cascade
    dev = split_rows(data.labels, 0.5, smoke_result.config.seed)
    assert np.array_equal(dev, smoke_result.cascade.development)
    changed = data.vectors.copy()
    rng = np.random.default_rng(1)
    noise = rng.normal(size=changed[:, ~dev, :-1].shape)
    changed[:, ~dev, :-1] = noise / np.linalg.norm(noise, axis=2, keepdims=True)
    changed[:, ~dev, -1] = 0.0
    again = audit_cascade(changed, data.labels, dev, audit.pairs, alpha=0.05, delta=1e-5)
    assert again.chosen == audit.chosen and again.selection_auc == audit.selection_auc
    assert again.certificates["dev_auc"].tolist() == audit.certificates["dev_auc"].tolist()
    assert (again.certificates["epsilon_lb"] == 0).all()  # the test rows are pure noise now


def test_cascade_table8_reads_each_route_by_its_status(smoke_result):
    t8 = smoke_result.cascade_table8()
    assert list(t8.index) == [1, 2]
    for route, status in (("GaussMech", "diagnostic"), ("KDE-LR α=0", "diagnostic"),
                          ("MMD-TV", "uncertified population bound"),
                          ("OOF AUC", "descriptive"), ("exact (0,1) corner", "descriptive"),
                          ("ROC-HT (out of fold) = +∞", "descriptive")):
        assert (route, status) in t8.columns
    assert (t8[("pairs", "")] == 6).all()
    assert t8[("rows left out (no face)", "")].tolist() == \
        smoke_result.cascade.failures["no face (development)"].tolist()


def test_a_cascade_of_no_passes_is_skipped():
    r = fg.run(fg.Config.smoke(methods=("gaussmech",), compare_strength=None,
                               cascade_passes=0))
    assert r.cascade is None and r.cascade_data is None
    assert r.cascade_table7().empty and "cascade" not in r.provenance
    assert not any("cascade" in c for c in r.headline().caveats)


def test_the_ceiling_and_the_previews_are_part_of_the_result(smoke_result):
    from privlab.epsilon import certified_epsilon
    from privlab.datasets.toy_faces import ToyFaceGenerator, toy_sources

    r = smoke_result
    expected = [certified_epsilon(0, m, 0, m, alpha=r.alpha_per_rate) for m in fg.CEILING_ROWS]
    assert r.ceiling["rows per class"].tolist() == list(fg.CEILING_ROWS)
    np.testing.assert_allclose(r.ceiling["ε_LB with no test error"], expected)
    assert np.all(np.diff(expected) > 0)   # more test rows, a higher ceiling
    assert r.provenance["ceiling"] == r.ceiling.to_dict(orient="records")
    # One strip per toy generator, the same outputs the generator makes on its own.
    assert [s for s, _, _ in r.previews] == [r.config.strength, r.config.compare_strength]
    first = next(iter(toy_sources().values()))
    own = ToyFaceGenerator(strength=r.config.strength).outputs(first, 4, r.config.seed, 0)
    np.testing.assert_array_equal(r.previews[0][2][:, :own[0].shape[1] * 4], np.hstack(own))
    assert not np.array_equal(r.previews[0][2], r.previews[1][2])
    # The cascade's first sequences: three targets, the start and every pass side by side.
    image = r.cascade_preview
    assert image is not None and image.shape[1] == image.shape[0] // 3 * (
        r.config.cascade_passes + 1)

