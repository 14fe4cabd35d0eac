"""Certified pruning returns the plain kernel's answer, field for field, with less work."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from privlab.resolution import brute_force_resolution, resolution
from privlab.scale import certified_resolution
from privlab.scale.groups import FIRST_GROUP
from tests.test_resolution import MAGNITUDES, problems, unit_rows

DELTAS = [0.0, 0.1, 0.25, 0.5]


def mismatches(S, T, *, block, top_k, bound, clusters, dtype, delta) -> list[str]:
    """Every field of every mode that differs from the plain kernel (all reported at once)."""
    plain = resolution(S, T, top_k=top_k, block_size=block)
    out = []

    def check(label, got, want):
        if got != want:
            out.append(f"{label}: {got} != {want}")

    options = dict(top_k=top_k, block_size=block, bound=bound, clusters=clusters, dtype=dtype)
    full = certified_resolution(S, T, mode="per_audited", **options)
    for name in ("value", "max_difference", "witness", "top"):
        check(f"per_audited {name}", getattr(full, name), getattr(plain, name))
    check("per_audited per_audited", full.per_audited.tolist(), plain.per_audited.tolist())
    check("per_audited reference", full.per_audited_reference.tolist(),
          plain.per_audited_reference.tolist())
    check("to_resolution", full.to_resolution().top, plain.top)
    check("flagged(delta)", full.flagged(delta).tolist(), plain.flagged(delta).tolist())
    quick = certified_resolution(S, T, mode="max", **options)
    for name in ("value", "max_difference", "witness", "top"):
        check(f"max {name}", getattr(quick, name), getattr(plain, name))
    flag = certified_resolution(S, T, mode="flagged", delta=delta, **options)
    items = plain.flagged(delta)
    check("flagged items", flag.flagged_items.tolist(), items.tolist())
    check("flagged values", flag.flagged_values.tolist(), plain.per_audited[items].tolist())
    check("flagged refs", flag.flagged_references.tolist(),
          plain.per_audited_reference[items].tolist())
    reaches = (lambda v: v >= delta) if delta > 0 else (lambda v: v > 0)
    check("flagged top", flag.top, [t for t in plain.top if reaches(t[2])])
    if reaches(plain.max_difference):
        check("flagged witness", (flag.value, flag.witness), (plain.value, plain.witness))
    else:
        check("flagged passes", flag.passes(delta if delta > 0 else 1e-300), True)
    return [f"bound={bound} dtype={dtype} block={block} top_k={top_k} delta={delta} {m}"
            for m in out]


SETTINGS = settings(max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("bound", ["norm", "cluster", "none"])
@SETTINGS
@given(problem=problems(), dtype=st.sampled_from(["float32", "float64", "bfloat16"]),
       delta=st.sampled_from(DELTAS), clusters=st.integers(1, 4))
def test_every_mode_equals_the_plain_kernel(bound, problem, dtype, delta, clusters):
    S, T, block, top_k = problem
    # The plain kernel itself is checked against the double loop in tests/test_resolution.py;
    # check the value once more here so a shared mistake cannot hide.
    assert resolution(S, T, top_k=top_k).max_difference == \
        brute_force_resolution(S, T, top_k=top_k)[0]
    problems_found = mismatches(S, T, block=block, top_k=top_k, bound=bound,
                                clusters=clusters, dtype=dtype, delta=delta)
    assert not problems_found, "\n".join(problems_found)


@pytest.mark.parametrize("bound", ["norm", "cluster"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=problems(), data=st.data())
def test_every_mode_equals_the_plain_kernel_at_extreme_magnitudes(bound, problem, data):
    S, T, block, top_k = problem
    scales = np.array(data.draw(st.lists(st.sampled_from(MAGNITUDES), min_size=len(T),
                                         max_size=len(T))))
    T = T * scales[:, None]
    delta = data.draw(st.sampled_from([0.0, 2.0**-149, 0.1, 2.0**69]))
    found = mismatches(S, T, block=block, top_k=top_k, bound=bound, clusters=2,
                       dtype="float32", delta=delta)
    assert not found, "\n".join(found)


def test_block_edges_and_many_ties_on_a_larger_input():
    rng = np.random.default_rng(3)
    S = unit_rows(np.round(rng.standard_normal((301, 24)) * 2) / 2)
    T = np.round(rng.standard_normal((257, 24)) * 2) / 8
    T[100:140] = T[7]  # forty identical references: ties in every row
    T[200:210] = 0.0
    for block in (17, 64, (300, 5), (1, 300), 4096):
        for bound in ("norm", "cluster"):
            found = mismatches(S, T, block=block, top_k=9, bound=bound, clusters=5,
                               dtype="float32", delta=0.25)
            assert not found, "\n".join(found)


def planted(m=4000, n=3000, d=64, seed=0):
    rng = np.random.default_rng(seed)
    S = unit_rows(rng.standard_normal((m, d))).astype(np.float32)
    T = (rng.standard_normal((n, d)) * 0.02 / np.sqrt(d)).astype(np.float32)
    T[1234 % n] = 0.5 * S[321 % m]  # a planted leak: audited 321 carries reference 1234
    return S, T


def test_a_planted_leak_is_found_exactly_while_almost_everything_is_skipped():
    S, T = planted()
    plain = resolution(S, T, top_k=3)
    res = certified_resolution(S, T, top_k=3, block_size=256)
    assert (res.value, res.witness, res.top) == (plain.value, plain.witness, plain.top)
    assert res.witness == (321, 1234)
    # After the first group (the 64 largest norms) the leak bounds every other group away.
    assert FIRST_GROUP == 64
    assert res.work.scored == 4000 * 64
    assert res.work.skipped_fraction == pytest.approx(1 - 64 / 3000)
    assert res.work.references_untouched == 3000 - 64


def test_per_audited_mode_skips_rows_whose_maximum_is_already_out_of_reach():
    rng = np.random.default_rng(1)
    S = unit_rows(rng.standard_normal((2000, 32))).astype(np.float32)
    T = (unit_rows(rng.standard_normal((1500, 32))) * 0.01).astype(np.float32)
    T[:100] = S[:100] * 0.3  # each of the first 100 items leaks through its own reference
    res = certified_resolution(S, T, mode="per_audited", block_size=100)
    plain = resolution(S, T)
    assert np.array_equal(res.per_audited, plain.per_audited)
    assert np.array_equal(res.per_audited_reference, plain.per_audited_reference)
    assert res.per_audited_reference[:100].tolist() == list(range(100))
    assert 0 < res.work.scored < res.work.trials


def test_flagged_mode_never_touches_references_below_delta():
    rng = np.random.default_rng(2)
    S = unit_rows(rng.standard_normal((500, 16)))
    T = unit_rows(rng.standard_normal((400, 16)))
    norms = np.where(np.arange(400) % 4 == 0, 0.3, 0.04)  # 300 references below delta
    T = T * norms[:, None]
    res = certified_resolution(S, T, mode="flagged", delta=0.05, block_size=50)
    plain = resolution(S, T)
    assert res.flagged_items.tolist() == plain.flagged(0.05).tolist()
    assert res.work.references_untouched >= 300
    assert res.flagged(0.1).tolist() == plain.flagged(0.1).tolist()


def test_cluster_bound_skips_more_when_references_cluster():
    rng = np.random.default_rng(4)
    d = 48
    concepts = unit_rows(rng.standard_normal((6, d)))
    S = unit_rows(rng.standard_normal((3000, d))).astype(np.float32)
    labels = rng.integers(0, 6, 4000)
    T = (concepts[labels] + 0.05 * rng.standard_normal((4000, d))) * 0.2
    S[17] = unit_rows(concepts[2:3] + 0.1 * rng.standard_normal((1, d)))[0]  # the leak
    plain = resolution(S, T, top_k=4)
    norm = certified_resolution(S, T, top_k=4, bound="norm", block_size=256)
    cluster = certified_resolution(S, T, top_k=4, bound="cluster", clusters=6, block_size=256)
    assert (cluster.witness, cluster.top) == (norm.witness, norm.top) == (plain.witness, plain.top)
    assert cluster.work.clusters == 6
    assert cluster.work.scored < norm.work.scored / 2


def test_torch_inputs_give_the_same_answer():
    import torch

    S, T = planted(500, 400, 16)
    a = certified_resolution(S, T, mode="per_audited", block_size=64)
    b = certified_resolution(torch.from_numpy(S), torch.from_numpy(T), mode="per_audited",
                             block_size=64, bound="cluster", clusters=3)
    assert (a.witness, a.top) == (b.witness, b.top)
    assert np.array_equal(a.per_audited, b.per_audited)


def test_results_refuse_questions_their_mode_cannot_answer():
    S, T = planted(50, 40, 8)
    quick = certified_resolution(S, T)
    with pytest.raises(ValueError, match="'mode' parameter of CertifiedResolution.flagged"):
        quick.flagged(0.1)
    with pytest.raises(ValueError, match="mode='per_audited'"):
        quick.to_resolution()
    flag = certified_resolution(S, T * 0.0 + 1e-3, mode="flagged", delta=0.5)
    assert flag.value is None and flag.passes(0.5) and flag.flagged(0.6).size == 0
    with pytest.raises(ValueError, match="'delta' parameter of CertifiedResolution.passes"):
        flag.passes(0.1)
    with pytest.raises(ValueError, match="'delta' parameter of CertifiedResolution.flagged"):
        flag.flagged(0.1)
    assert "Resolution" in quick._repr_html_() and quick.to_frame().shape[1] == 3
    assert quick.to_dict()["work"]["trials"] == 2000


@pytest.mark.parametrize("kwargs, parameter", [
    (dict(mode="fastest"), "'mode'"),
    (dict(mode="flagged"), "'delta'"),
    (dict(mode="flagged", delta=-0.1), "'delta'"),
    (dict(delta=0.1), "'delta'"),
    (dict(bound="ball"), "'bound'"),
    (dict(clusters=0), "'clusters'"),
    (dict(dtype="float16"), "'dtype'"),
    (dict(dtype="tf32", device="cpu"), "'dtype'.*bfloat16"),
    (dict(device="tpu"), "'device'"),
    (dict(block_size=0), "'block_size'"),
    (dict(top_k=-2), "'top_k'"),
])
def test_bad_options_are_refused_with_the_parameter_named(kwargs, parameter):
    with pytest.raises(ValueError, match=parameter):
        certified_resolution(np.eye(3), np.ones((2, 3)), **kwargs)


def test_bad_inputs_get_the_kernels_messages():
    with pytest.raises(ValueError, match="'S' parameter of certified_resolution.*normalize=True"):
        certified_resolution(2 * np.eye(3), np.ones((2, 3)))
    with pytest.raises(ValueError, match="'T' parameter of certified_resolution"):
        certified_resolution(np.eye(3), np.ones((2, 4)))
    with pytest.raises(TypeError, match="'S'"):
        certified_resolution("S", np.ones((2, 3)))
