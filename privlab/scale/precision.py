"""Reduced-precision screening (bfloat16, TF32) with a proven rounding bound.

The exact kernel may screen on tensor cores and stay exact: it keeps every trial within
a bound on the screening error of the best values and rescores those in float64. The
bound's derivation: ``docs/methods/scale-precision-bound.md``; its assumptions (checked
by :func:`accumulation_probe` where they can be) and the float32 fallback:
``docs/methods/scale.md``.
"""

from __future__ import annotations

import functools

import numpy as np

from privlab.resolution.screening import ScreeningPass, TorchBlocks
from privlab.scale.bounds import gamma

FLOAT32_TINY = float(np.finfo(np.float32).tiny)
# (u_in, u_acc, u_out) of each screening precision; see docs/methods/scale-precision-bound.md.
UNITS = {
    "bfloat16": (2.0**-8 + 2.0**-24, 2.0**-24, 2.0**-8),
    "tf32": (2.0**-10, 2.0**-24, 2.0**-24),
}


def relative_bound(precision: str, d: int) -> float:
    """The screening error bound divided by ``||s|| ||t||`` (derived in the docs).

    Example:
        >>> round(relative_bound("bfloat16", 768) / 2.0**-8, 3)
        3.024
    """
    u_in, u_acc, u_out = UNITS[precision]
    inner = 2 * u_in + u_in**2 + (1 + u_in) ** 2 * gamma(d, u_acc)
    return ((1 + u_out) * inner + u_out) * (1 + 2.0**-20)


class BFloat16Blocks(TorchBlocks):
    """Screening blocks in bfloat16 (torch; CPU or CUDA), products returned as float32."""

    def __init__(self, S, T, live_cols, dtype, device, shift):
        import torch

        super().__init__(S, T, live_cols, "float32", device, shift)
        self.S = self.S.to(torch.bfloat16)
        self.T = self.T.to(torch.bfloat16)

    def product(self, i0, i1, j0, j1):
        return (self.S[i0:i1] @ self.T[j0:j1].T).float()


class TF32Blocks(TorchBlocks):
    """Screening blocks in TF32 on CUDA (float32 storage, tensor-core products)."""

    def product(self, i0, i1, j0, j1):
        import torch

        saved = torch.backends.cuda.matmul.allow_tf32
        torch.backends.cuda.matmul.allow_tf32 = True
        try:
            return self.S[i0:i1] @ self.T[j0:j1].T
        finally:
            torch.backends.cuda.matmul.allow_tf32 = saved


BLOCKS = {"bfloat16": BFloat16Blocks, "tf32": TF32Blocks}


@functools.lru_cache(maxsize=None)
def accumulation_probe(precision: str, device: str) -> bool:
    """Whether ``device`` accumulates ``precision`` products in float32 or wider.

    Each row of ``A`` holds 4096 ones and ``B``'s column 4096 times ``2**-12``: the exact
    product is 1. A bfloat16 accumulator stalls at 0.0625 (adding ``2**-12`` to it is
    below half its spacing); a float32 one returns 1 exactly. The probe accepts an error
    within :func:`relative_bound` times ``||a|| ||b|| = 1``.

    Example:
        >>> accumulation_probe("bfloat16", "cpu")
        True
    """
    import torch

    d = 4096
    dtype = torch.bfloat16 if precision == "bfloat16" else torch.float32
    A = torch.ones((4, d), dtype=dtype, device=device)
    B = torch.full((d, 3), 2.0**-12, dtype=dtype, device=device)
    blocks = BLOCKS[precision].__new__(BLOCKS[precision])
    blocks.S, blocks.T = A, B.T.contiguous()
    product = blocks.product(0, 4, 0, 3).double().cpu().numpy()
    return bool(np.all(np.abs(product - 1.0) <= relative_bound(precision, d)))


def screening_for(dtype: str, d: int, device: str, *, max_candidates: int | None = None
                  ) -> tuple[str, ScreeningPass | None]:
    """The kernel dtype and screening pass for a tile precision.

    ``"float32"`` and ``"float64"`` are the kernel's own; ``"bfloat16"`` and ``"tf32"``
    return a :class:`~privlab.resolution.ScreeningPass` with :func:`relative_bound`, or
    plain float32 when :func:`accumulation_probe` fails on ``device``.

    Example:
        >>> screening_for("float64", 8, "cpu")
        ('float64', None)
        >>> screening_for("bfloat16", 8, "cpu")[1].name
        'bfloat16'
    """
    if dtype in ("float32", "float64"):
        return dtype, None
    if not accumulation_probe(dtype, device):
        return "float32", None
    return "float32", ScreeningPass(dtype, relative_bound(dtype, d), FLOAT32_TINY,
                                    BLOCKS[dtype], max_candidates)


def candidate_budget(rows: int, k: int) -> int:
    """Candidates a reduced-precision tile may rescore before it falls back to float32:
    ``8 (rows + k) + 4096`` (a screen that separates trials rescores about one per row).

    Example:
        >>> candidate_budget(100, 5)
        4936
    """
    return 8 * (rows + k) + 4096


__all__ = ["BLOCKS", "UNITS", "accumulation_probe", "candidate_budget", "relative_bound",
           "screening_for"]
