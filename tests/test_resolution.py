"""The exact kernel against a plain double loop, and its contract."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import privlab
from privlab.resolution import brute_force_resolution, reference_directions, resolution


def unit_rows(a: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(a, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out = a / norms
    out[np.linalg.norm(out, axis=1) == 0, 0] = 1.0
    return out


@st.composite
def problems(draw):
    """Small S, T with the shapes that break kernels: one row, block edges, ties, signs."""
    m = draw(st.integers(1, 17))
    n = draw(st.integers(1, 17))
    d = draw(st.integers(1, 9))
    # Coarse values create exact ties; the sign option creates all-negative differences.
    values = st.sampled_from([-1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0])
    S = unit_rows(draw(arrays(np.float64, (m, d), elements=values)))
    T = draw(arrays(np.float64, (n, d), elements=values)) * draw(st.sampled_from([1.0, 0.3]))
    if draw(st.booleans()):
        S, T = np.abs(S), -np.abs(T)  # every difference <= 0
    if draw(st.booleans()):
        T[draw(st.integers(0, n - 1))] = 0.0  # a reference the sanitizer left unchanged
    block = draw(st.sampled_from([1, 2, 3, 5, (1, 4), (4, 1), (3, 2), 4096]))
    top_k = draw(st.integers(0, 7))
    return S, T, block, top_k


#: Where the CPU screening library is chosen (the package re-exports the name, but the
#: kernel reads it here).
SCREENING = importlib.import_module("privlab.resolution.screening")


@pytest.fixture(params=["numpy", "torch"])
def screening(request, monkeypatch):
    """Run a test with each screening path (torch is the one CUDA uses)."""
    monkeypatch.setattr(SCREENING, "CPU_SCREENING", request.param)
    return request.param


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(problem=problems())
def test_matches_double_loop_on_every_field(screening, problem):
    S, T, block, top_k = problem
    a_max, witness, top = brute_force_resolution(S, T, top_k=top_k)
    mismatches = []
    for dtype in ("float32", "float64"):
        res = resolution(S, T, top_k=top_k, block_size=block, dtype=dtype)
        per_row = np.array([max(float(np.sum(S[i] * T[j])) + 0.0 for j in range(len(T)))
                            for i in range(len(S))])
        for name, got, want in [("max_difference", res.max_difference, a_max),
                                ("value", res.value, max(0.0, a_max)),
                                ("witness", res.witness, witness), ("top", res.top, top),
                                ("per_audited", res.per_audited.tolist(), per_row.tolist())]:
            if got != want:
                mismatches.append(f"{dtype} block={block} {name}: {got} != {want}")
    assert not mismatches, "\n".join(mismatches)


# Row scales that float32 cannot hold or that underflow its products: tiny, huge, mixed.
MAGNITUDES = [1.0, 2.0**-1000, 2.0**-150, 2.0**-70, 2.0**70, 2.0**130, 2.0**900]


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(problem=problems(), data=st.data())
def test_matches_double_loop_at_extreme_magnitudes(screening, problem, data):
    S, T, block, top_k = problem
    scales = np.array(data.draw(st.lists(st.sampled_from(MAGNITUDES), min_size=len(T),
                                         max_size=len(T))))
    if data.draw(st.booleans()):
        scales[:] = scales[0]  # one magnitude for every row
    T = T * scales[:, None]
    a_max, witness, top = brute_force_resolution(S, T, top_k=top_k)
    per_row = [max(float(np.sum(S[i] * T[j])) + 0.0 for j in range(len(T)))
               for i in range(len(S))]
    for dtype in ("float32", "float64"):
        res = resolution(S, T, top_k=top_k, block_size=block, dtype=dtype)
        assert (res.max_difference, res.witness, res.top) == (a_max, witness, top), dtype
        assert res.per_audited.tolist() == per_row, dtype


def test_witness_reproduces_the_maximum_exactly():
    rng = np.random.default_rng(7)
    S = unit_rows(rng.standard_normal((300, 64)))
    T = rng.standard_normal((250, 64)) * 0.2
    res = resolution(S, T, top_k=3)
    i, j = res.witness
    assert res.max_difference == float(np.sum(S[i] * T[j]))
    assert res.max_difference == pytest.approx(float((S @ T.T).max()), abs=1e-12)
    assert res.per_audited_reference[i] == j
    assert res.per_audited[i] == res.max_difference


def test_block_size_does_not_change_the_answer_on_near_ties(screening):
    rng = np.random.default_rng(3)
    S = unit_rows(rng.standard_normal((203, 96)).astype(np.float32))
    T = (rng.standard_normal((177, 96)) * 0.1).astype(np.float32)
    T[50] = T[10]  # exact duplicate references: tied trials in every row
    S[100] = S[20]
    results = [resolution(S, T, top_k=6, block_size=b) for b in (1, 7, 64, (13, 200), 4096)]
    answers = {(r.witness, tuple(r.top)) for r in results}
    assert len(answers) == 1


def test_adding_references_never_lowers_the_resolution():
    rng = np.random.default_rng(11)
    S = unit_rows(rng.standard_normal((40, 16)))
    T = rng.standard_normal((60, 16)) * 0.2
    values = [resolution(S, T[:n]).value for n in range(1, 61, 6)]
    assert all(b >= a for a, b in zip(values, values[1:]))


def test_symmetric_diagonal_is_never_positive_and_cannot_change_the_resolution():
    rng = np.random.default_rng(5)
    E = unit_rows(rng.standard_normal((30, 12)))
    E_san = unit_rows(E + rng.standard_normal((30, 12)) * 0.6)
    T = reference_directions(E, E_san)
    diag = np.sum(E_san * T, axis=1)
    assert (diag <= 1e-15).all()
    full = privlab.symmetric_resolution(E, E_san, top_k=0)
    # Off-diagonal only, by brute force.
    off = max(float(np.sum(E_san[i] * T[j])) for i in range(30) for j in range(30) if i != j)
    assert full.value == max(0.0, off)


def test_all_negative_differences_give_resolution_zero_and_report_the_margin():
    S = np.array([[1.0, 0.0], [0.0, 1.0]])
    T = np.array([[-0.5, -0.3], [-0.1, -0.2]])
    res = resolution(S, T, top_k=2)
    assert res.value == 0.0
    assert res.max_difference == pytest.approx(-0.1)
    assert res.witness == (0, 1)
    assert res.passes(0.0) and not res.passes(-0.2)


def test_unchanged_references_tie_at_zero_with_the_smallest_indices():
    S = np.array([[-1.0, 0.0], [0.0, 1.0]])
    T = np.array([[0.5, 0.0], [0.0, 0.0], [0.0, -0.5], [0.0, 0.0]])
    res = resolution(S, T, top_k=3)
    assert res.max_difference == 0.0 and res.witness == (0, 1)
    # (0, 2) is an exact zero from a non-zero reference; (0, 1), (0, 3) are unchanged ones.
    assert res.top == [(0, 1, 0.0), (0, 2, 0.0), (0, 3, 0.0)]


def test_torch_and_numpy_inputs_agree():
    rng = np.random.default_rng(2)
    S = unit_rows(rng.standard_normal((20, 8)))
    T = rng.standard_normal((15, 8))
    a = resolution(S, T, top_k=4)
    b = resolution(torch.from_numpy(S), torch.from_numpy(T), top_k=4)
    assert (a.witness, a.top) == (b.witness, b.top)


def test_flagged_items_are_those_with_a_positive_violation():
    S = np.eye(3)
    T = np.array([[0.2, -0.1, -0.3]])
    res = resolution(S, T)
    assert res.flagged().tolist() == [0]
    assert res.flagged(0.25).tolist() == []


@pytest.mark.parametrize("kwargs, parameter", [
    (dict(S=np.zeros(3), T=np.ones((2, 3))), "'S'"),
    (dict(S=np.eye(3), T=np.ones((2, 3, 1))), "'T'"),
    (dict(S=np.eye(3), T=np.ones((2, 4))), "'T'"),
    (dict(S=np.eye(3)[:0], T=np.ones((2, 3))), "'S'"),
    (dict(S=np.eye(3), T=np.full((2, 3), np.nan)), "'T'"),
    (dict(S=np.eye(3), T=np.array([[np.inf, 0, 0]])), "'T'"),
    (dict(S=2 * np.eye(3), T=np.ones((2, 3))), "normalize=True"),
    (dict(S=np.eye(3), T=np.ones((2, 3)), top_k=-1), "'top_k'"),
    (dict(S=np.eye(3), T=np.ones((2, 3)), dtype="float16"), "'dtype'"),
    (dict(S=np.eye(3), T=np.ones((2, 3)), block_size=0), "'block_size'"),
    (dict(S=np.eye(3), T=np.ones((2, 3)), device="tpu"), "'device'"),
])
def test_bad_input_is_refused_with_the_parameter_named(kwargs, parameter):
    with pytest.raises(ValueError, match=parameter.replace("(", r"\(")):
        resolution(**kwargs)


def test_non_arrays_are_refused():
    with pytest.raises(TypeError, match="'S'"):
        resolution("not an array", np.ones((1, 1)))


def test_normalize_true_accepts_non_unit_rows():
    res = resolution(np.array([[2.0, 0.0]]), np.array([[0.3, 0.0]]), normalize=True)
    assert res.value == pytest.approx(0.3)


def test_reference_directions_refuses_mismatched_shapes():
    with pytest.raises(ValueError, match="'E_ref_sanitized'.*same shape"):
        reference_directions(np.eye(3), np.eye(3)[:2])


def test_reference_directions_refuses_non_unit_rows_and_offers_normalize():
    with pytest.raises(ValueError, match="normalize=True"):
        reference_directions(np.eye(2) * 3, np.eye(2))


def test_result_renders_for_notebooks():
    res = resolution(np.eye(2), np.array([[0.4, 0.0]]), top_k=1)
    assert "Resolution 0.4000" in res._repr_html_()
    assert res.to_frame().iloc[0].tolist() == [0, 0, 0.4]


@pytest.mark.gpu
def test_cuda_matches_cpu_exactly():
    rng = np.random.default_rng(0)
    S = unit_rows(rng.standard_normal((3000, 384))).astype(np.float32)
    T = (rng.standard_normal((2500, 384)) * 0.1).astype(np.float32)
    cpu = resolution(S, T, top_k=10, device="cpu")
    for dtype in ("float32", "float64"):
        gpu = resolution(torch.from_numpy(S).cuda(), torch.from_numpy(T).cuda(), top_k=10,
                         device="cuda", dtype=dtype)
        assert (gpu.witness, gpu.top) == (cpu.witness, cpu.top)
        assert np.array_equal(gpu.per_audited, cpu.per_audited)
