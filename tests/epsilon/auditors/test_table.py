"""audit_pairs on identity-labelled tables: Bonferroni levels, frames, refusals."""

import numpy as np
import pytest

from privlab.epsilon import auditors as A
from privlab.epsilon import mechanisms as M
from privlab.errors import PrivlabTypeError, PrivlabValueError


def test_broken_laplace_caught_by_audit_pairs():
    p = M.make_prototypes("dispersed", n_identities=10, dim=64, seed=9)
    broken = M.LaplaceMechanism(p, 0.5)
    broken.scale /= 200  # claims ε = 0.5
    rng = np.random.default_rng(1)
    x = np.vstack([broken.sample(i, 120, rng) for i in range(4)])
    y = np.repeat(np.arange(4), 120)
    table = A.audit_pairs(x, y, [(0, 1), (2, 3)], methods=["reserved", "gaussmech"], delta=0.0)
    frame = table.to_frame()
    certs = frame[frame.method == "reserved"]
    assert (certs.value > 0.5).all()
    assert set(certs.status) == {"finite-sample certificate"}
    # Bonferroni over 2 pairs x 2 error rates.
    assert table.results[0].provenance["alpha"] == pytest.approx(0.05 / 4)


def test_result_frames_and_registry():
    assert set(A.AUDITORS) >= {"gaussmech", "kde-lr", "kde-lr-0.01", "mmd-tv", "roc-ht", "reserved"}
    for name, auditor in A.AUDITORS.items():
        assert isinstance(auditor, A.Auditor) and auditor.name == name
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(60, 4)), np.repeat(["u", "v", "w"], 20)
    t = A.audit_pairs(x, y, [("u", "v"), ("v", "w")], methods=list(A.AUDITORS))
    assert isinstance(t, A.EpsilonAuditTable)
    f = t.to_frame()
    assert len(f) == 2 * len(A.AUDITORS)
    assert {"pair_index", "id_a", "id_b", "method", "status", "value"} <= set(f.columns)
    assert "finite-sample certificate" in t._repr_html_() or "certificate" in t._repr_html_()
    assert t.summary()["method"].tolist() == list(A.AUDITORS)
    assert "descriptive" in t.results[4].to_frame()["status"].iloc[0]


def test_instances_and_an_empty_table():
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=(40, 3)), np.repeat(["p", "q"], 20)
    t = A.audit_pairs(x, y, [("p", "q")], methods=[A.KDELR(alpha=0.5)], seed=7)
    assert t.to_frame()["method"].tolist() == ["kde-lr-0.5"]
    assert t.results[0].provenance["seed"] == 7 and t.provenance["n_pairs"] == 1
    assert A.EpsilonAuditTable([]).summary().empty


@pytest.mark.parametrize("call, parameter, error", [
    (lambda: A.audit_pairs(np.zeros((4, 2)), [0, 0, 1], [(0, 1)]), "labels", PrivlabValueError),
    (lambda: A.audit_pairs(np.zeros((4, 2)), [0, 0, 1, 1], [(0, 1)], methods=["nope"]),
     "methods", PrivlabValueError),
    (lambda: A.audit_pairs(np.zeros((4, 2)), [0, 0, 1, 1], [(0, 1)], methods=[3]),
     "methods", PrivlabTypeError),
    (lambda: A.audit_pairs(np.zeros((4, 2)), [0, 0, 1, 1], [(0, 1)], methods=[]),
     "methods", PrivlabValueError),
    (lambda: A.audit_pairs(np.zeros((4, 2)), [0, 0, 1, 1], []), "pairs", PrivlabValueError),
    (lambda: A.audit_pairs(np.zeros((4, 2)), [0, 0, 1, 1], [(0, 1)]), "pairs",
     PrivlabValueError),
    (lambda: A.get_auditor("nope"), "methods", PrivlabValueError),
])
def test_bad_inputs_name_the_parameter(call, parameter, error):
    with pytest.raises(error, match=f"'{parameter}'"):
        call()


def test_family_level_is_split_across_the_certificates_run_together():
    rng = np.random.default_rng(3)
    x = np.vstack([rng.normal(size=(40, 2)), rng.normal(size=(40, 2)) + 5,
                   rng.normal(size=(40, 2)) - 5])
    y = np.repeat(["p", "q", "r"], 40)
    pairs = [("p", "q"), ("q", "r")]
    methods = ["reserved", "dp-sniper", "mmd-finite", "gaussmech"]
    t = A.audit_pairs(x, y, pairs, methods=methods, family_alpha=0.06)
    want = 0.06 / (2 * len(pairs) * 3)  # three certificates, two bounds each, two pairs
    levels = {r.method: r.provenance.get("alpha") for r in t.results}
    assert levels["reserved"] == levels["dp-sniper"] == levels["mmd-finite"] \
        == pytest.approx(want)
    assert levels["gaussmech"] is None  # a diagnostic has no level
    assert t.provenance["certificates"] == 3
    assert t.provenance["alpha_per_rate"] == pytest.approx(want)
    # run alone, a certificate keeps the whole family level
    alone = A.audit_pairs(x, y, pairs, methods=["dp-sniper"], family_alpha=0.06)
    assert alone.results[0].provenance["alpha"] == pytest.approx(0.06 / (2 * len(pairs)))
