"""Reduced-precision screening: the written rounding bound against float64, on the CPU."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from privlab.resolution import resolution
from privlab.scale import certified_resolution, precision
from privlab.scale.precision import BFloat16Blocks, relative_bound
from tests.test_resolution import unit_rows


def screened(S: np.ndarray, T: np.ndarray) -> np.ndarray:
    """The bfloat16 screening pass's values, as the kernel sees them."""
    blocks = BFloat16Blocks(S, T, np.arange(len(T)), "float32", "cpu", 0)
    return blocks.product(0, len(S), 0, len(T)).double().numpy()


def worst_ratio(S: np.ndarray, T: np.ndarray) -> float:
    """max |screened - exact| / (relative_bound ||s|| ||t||) over all trials."""
    exact = S.astype(np.float64) @ T.astype(np.float64).T
    scale = np.outer(np.linalg.norm(S, axis=1), np.linalg.norm(T, axis=1))
    error = np.abs(screened(S, T) - exact)
    return float((error / (relative_bound("bfloat16", S.shape[1]) * scale)).max())


def test_bound_holds_where_every_input_rounds_the_same_way():
    # 1 + 0.99 * 2**-8 lies just below the midpoint between two bfloat16 numbers: every
    # entry rounds down by almost half a unit, so the errors add up instead of cancelling.
    d = 1024
    x = np.full((4, d), 1.0 + 0.99 * 2.0**-8) / np.sqrt(d)
    ratio = worst_ratio(x, x)
    assert ratio <= 1.0
    assert ratio > 0.3, "the input is not adversarial: the bound was far from attained"


def test_bound_holds_for_long_sums_and_output_rounding():
    rng = np.random.default_rng(0)
    for d in (7, 256, 4096, 16384):
        S = unit_rows(np.abs(rng.standard_normal((8, d))))
        T = np.abs(rng.standard_normal((9, d))) * rng.choice([1e-3, 1.0, 1e3], (9, 1))
        assert worst_ratio(S, T) <= 1.0, d


def test_bound_holds_on_random_signed_inputs_at_many_scales():
    rng = np.random.default_rng(1)
    for d in (3, 64, 768):
        S = unit_rows(rng.standard_normal((64, d)))
        T = rng.standard_normal((64, d)) * 10.0 ** rng.uniform(-6, 6, (64, 1))
        assert worst_ratio(S, T) <= 1.0


def test_the_probe_accepts_float32_accumulation_and_refuses_bfloat16_accumulation(monkeypatch):
    assert precision.accumulation_probe("bfloat16", "cpu")

    class Bfloat16Accumulator(BFloat16Blocks):
        def product(self, i0, i1, j0, j1):  # a running sum kept in bfloat16
            terms = self.S[i0:i1, None, :] * self.T[None, j0:j1, :]
            total = torch.zeros(terms.shape[:2], dtype=torch.bfloat16)
            for k in range(terms.shape[2]):
                total = total + terms[:, :, k]
            return total.float()

    monkeypatch.setitem(precision.BLOCKS, "bfloat16", Bfloat16Accumulator)
    precision.accumulation_probe.cache_clear()
    try:
        assert not precision.accumulation_probe("bfloat16", "cpu")
        assert precision.screening_for("bfloat16", 16, "cpu") == ("float32", None)
    finally:
        precision.accumulation_probe.cache_clear()


def test_bfloat16_screening_gives_the_exact_answer_and_skips_float32_work():
    rng = np.random.default_rng(2)
    S = unit_rows(rng.standard_normal((1500, 96))).astype(np.float32)
    T = (rng.standard_normal((1200, 96)) * 0.01).astype(np.float32)
    T[700] = 0.4 * S[12]  # a leak that stands far above the rounding bound
    plain = resolution(S, T, top_k=4)
    res = certified_resolution(S, T, mode="per_audited", bound="none", dtype="bfloat16",
                               top_k=4, block_size=512)
    assert res.dtype == "bfloat16"
    assert (res.value, res.witness, res.top) == (plain.value, plain.witness, plain.top)
    assert np.array_equal(res.per_audited, plain.per_audited)


def test_tiles_whose_candidates_the_bound_cannot_separate_fall_back_to_float32():
    # Every trial within a hair of the others: bfloat16's bound keeps them all.
    rng = np.random.default_rng(3)
    S = unit_rows(1.0 + 1e-4 * rng.standard_normal((300, 32))).astype(np.float32)
    T = (1.0 + 1e-4 * rng.standard_normal((400, 32))).astype(np.float32) * 0.1
    plain = resolution(S, T, top_k=3)
    res = certified_resolution(S, T, mode="per_audited", bound="none", dtype="bfloat16",
                               top_k=3, block_size=100)
    assert res.work.fallbacks == res.work.tiles > 0
    assert (res.witness, res.top) == (plain.witness, plain.top)
    assert np.array_equal(res.per_audited, plain.per_audited)


@pytest.mark.gpu
def test_tf32_and_bfloat16_on_cuda_equal_the_cpu_answer():
    rng = np.random.default_rng(4)
    S = unit_rows(rng.standard_normal((4000, 384))).astype(np.float32)
    T = (rng.standard_normal((3000, 384)) * 0.05).astype(np.float32)
    T[17] = 0.3 * S[2999]
    cpu = resolution(S, T, top_k=6, device="cpu")
    for dtype in ("tf32", "bfloat16"):
        assert precision.accumulation_probe(dtype, "cuda")
        res = certified_resolution(torch.from_numpy(S).cuda(), torch.from_numpy(T).cuda(),
                                   mode="per_audited", bound="none", dtype=dtype, top_k=6,
                                   device="cuda")
        assert (res.witness, res.top) == (cpu.witness, cpu.top), dtype
        assert np.array_equal(res.per_audited, cpu.per_audited), dtype


@pytest.mark.gpu
def test_tf32_bound_holds_on_adversarial_inputs_on_cuda():
    from privlab.scale.precision import TF32Blocks

    d = 1024
    x = torch.full((4, d), (1.0 + 0.99 * 2.0**-11) / np.sqrt(d), dtype=torch.float32)
    blocks = TF32Blocks(x, x, np.arange(4), "float32", "cuda", 0)
    got = blocks.product(0, 4, 0, 4).double().cpu().numpy()
    exact = x.double().numpy() @ x.double().numpy().T
    assert (np.abs(got - exact) <= relative_bound("tf32", d) * exact).all()
