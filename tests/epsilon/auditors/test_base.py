"""The auditor protocol, the shared input checks, results and the auditor registry."""

import numpy as np
import pandas as pd
import pytest

from privlab.epsilon import auditors as A
from privlab.epsilon import benchmark as B
from privlab.epsilon.auditors import base
from privlab.errors import PrivlabTypeError, PrivlabValueError


# ------------------------------------------------------------------------- statuses

def test_only_the_certificate_is_evidence_about_dp():
    assert [s for s in A.Status if s.is_evidence_about_dp] == [A.Status.CERTIFICATE]
    assert A.Status.POPULATION_BOUND.value == "uncertified population bound"


def test_result_frame_and_html():
    r = A.AuditResult("gaussmech", A.Status.DIAGNOSTIC, 1.5, {"mean_distance": 0.2},
                      {"seed": 0})
    f = r.to_frame()
    assert f.columns.tolist() == ["method", "status", "value", "mean_distance"]
    assert f.iloc[0].tolist() == ["gaussmech", "diagnostic", 1.5, 0.2]
    assert "gaussmech: diagnostic" in r._repr_html_()


def test_base_auditor_fills_provenance():
    rng = np.random.default_rng(0)
    r = A.GaussMech().audit(rng.normal(size=(6, 3)), pd.DataFrame(rng.normal(size=(5, 3))),
                            delta=0.0, seed=np.int64(4))
    assert r.provenance == {"n_a": 6, "n_b": 5, "dim": 3, "delta": 0.0, "seed": 4,
                            "formula_delta": 1e-5}
    assert repr(A.GaussMech()) == "GaussMech(formula_delta=1e-05)"


@pytest.mark.parametrize("call, parameter, error", [
    (lambda: A.GaussMech().audit(np.zeros(5), np.zeros((5, 2))), "a", PrivlabValueError),
    (lambda: A.GaussMech().audit(np.zeros((5, 2)), np.zeros((5, 3))), "b", PrivlabValueError),
    (lambda: A.GaussMech().audit(np.full((5, 2), np.nan), np.zeros((5, 2))), "a",
     PrivlabValueError),
    (lambda: A.GaussMech().audit("x", np.zeros((5, 2))), "a", PrivlabTypeError),
    (lambda: A.GaussMech().audit(np.zeros((1, 2)), np.zeros((5, 2))), "a", PrivlabValueError),
    (lambda: A.ROCHT().audit(np.zeros((5, 2)), np.zeros((4, 2))), "b", PrivlabValueError),
    (lambda: A.GaussMech().audit(np.zeros((5, 2)), np.zeros((5, 2)), delta=1.0), "delta",
     PrivlabValueError),
    (lambda: A.GaussMech().audit(np.zeros((5, 2)), np.zeros((5, 2)), seed=0.5), "seed",
     PrivlabTypeError),
])
def test_bad_samples_name_the_parameter(call, parameter, error):
    with pytest.raises(error, match=f"'{parameter}'"):
        call()


# ------------------------------------------------------------------------- registry

STATUSES = {"gaussmech": A.Status.DIAGNOSTIC, "kde-lr": A.Status.DIAGNOSTIC,
            "kde-lr-0.01": A.Status.DIAGNOSTIC, "mmd-tv": A.Status.POPULATION_BOUND,
            "roc-ht": A.Status.DESCRIPTIVE, "reserved": A.Status.CERTIFICATE,
            "reserved-exact": A.Status.CERTIFICATE, "reserved-mlp": A.Status.CERTIFICATE,
            "dp-sniper": A.Status.CERTIFICATE, "dp-sniper-mlp": A.Status.CERTIFICATE,
            "hockey-stick": A.Status.CERTIFICATE, "mmd-finite": A.Status.CERTIFICATE,
            "reserved-sequential": A.Status.CERTIFICATE}


def _build(entry):
    if entry.meta.get("oracle"):
        return entry.factory(scorer=lambda x: x[:, 0])
    return entry.factory()


def test_every_member_is_listed_with_its_status():
    assert A.registry is base.registry
    # The built-in members in their order (a new file may register more) ...
    assert [n for n in A.registry.names() if n in STATUSES] == list(STATUSES)
    for entry in A.registry.entries():
        assert entry.description
        assert isinstance(entry.meta["status"], A.Status)
        # ... each with the status it formally has.
        assert entry.meta["status"] is STATUSES.get(entry.name, entry.meta["status"])
        auditor = _build(entry)
        assert isinstance(auditor, A.Auditor)
        assert auditor.name == entry.name and auditor.status is entry.meta["status"]
    labels = [label for label, _ in A.registry.options(benchmark=True)]
    assert labels[0].startswith("gaussmech — ")


def test_registered_settings_are_the_specifications():
    assert A.get_auditor("kde-lr").alpha == 0.0
    assert A.get_auditor("kde-lr-0.01").alpha == 0.01
    assert A.get_auditor("mmd-tv").permutations == 0
    assert A.get_auditor("reserved").alpha == pytest.approx(0.05 / 80)
    assert A.registry.create("reserved", alpha=0.01).alpha == 0.01


def test_benchmark_methods_are_derived_from_the_registry():
    benchmark = tuple(e.name for e in A.registry.entries() if e.meta.get("benchmark"))
    assert B.BENCHMARK_METHODS == B.benchmark_methods() == benchmark
    assert [m for m in B.BENCHMARK_METHODS if m in STATUSES] == [
        "gaussmech", "kde-lr", "kde-lr-0.01", "mmd-tv", "roc-ht", "reserved", "reserved-exact",
        "reserved-mlp", "dp-sniper", "dp-sniper-mlp", "mmd-finite", "reserved-sequential"]
    assert set(B.DEFAULT_METHODS) <= set(B.BENCHMARK_METHODS)


def test_auditors_view_is_read_only_and_leaves_out_oracles():
    assert list(A.AUDITORS) == [n for n in A.registry.names()
                                if not A.registry.entry(n).meta.get("oracle")]
    assert "reserved-exact" in A.registry and "reserved-exact" not in A.AUDITORS
    assert A.AUDITORS.get("reserved-exact") is None and len(A.AUDITORS) == \
        len(A.registry) - len(A.registry.names(oracle=True))
    assert "kde-lr" in repr(A.AUDITORS)
    with pytest.raises(TypeError):
        A.AUDITORS["mine"] = A.GaussMech()  # members join through the registry
    with pytest.raises(PrivlabValueError, match="'methods'"):
        A.get_auditor("reserved-exact")
