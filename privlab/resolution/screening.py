"""The screening pass: the blocked matrix products the kernel screens trials with.

NumPy on the CPU (:data:`CPU_SCREENING`), torch on CUDA (:class:`TorchBlocks`, which
:mod:`privlab.scale.precision` extends for lower precisions described by a
:class:`ScreeningPass`), and the context that keeps CUDA products in IEEE float32.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from privlab.arrays import is_tensor
from privlab.resolution.magnitudes import times_pow2

# Which library screens blocks on the CPU: NumPy's BLAS measured faster than torch's on
# the development machine; "torch" is the path CUDA takes, kept selectable for tests.
CPU_SCREENING = "numpy"


def default_blocks(device: str) -> type:
    """The screening backend for ``device`` (:data:`CPU_SCREENING` on the CPU)."""
    return _NumpyBlocks if device == "cpu" and CPU_SCREENING == "numpy" else TorchBlocks


@dataclass(frozen=True)
class ScreeningPass:
    """A screening precision beyond float32 / float64, plugged into the exact kernel.

    The kernel keeps every trial whose screened value lies within ``relative * ||s|| *
    ||t||`` (plus its own float64 and underflow terms) of the bounds it holds, and
    rescores those in float64, so the answer stays exact whenever ``relative`` truly
    bounds the screening pass's error (:mod:`privlab.scale.precision` derives it).

    Attributes:
        name: the precision, reported as :attr:`Resolution.dtype` (e.g. ``"bfloat16"``).
        relative: upper bound of ``|screened(s . t) - s . t| / (||s|| ||t||)``.
        tiny: the absolute error one underflowing operation may add.
        blocks: the screening backend (the interface of the kernel's torch backend).
        max_candidates: raise :class:`ScreeningTooCoarse` once more trials than this
            would need rescoring (None: no limit).
    """

    name: str
    relative: float
    tiny: float
    blocks: type
    max_candidates: int | None = None


class ScreeningTooCoarse(RuntimeError):
    """A :class:`ScreeningPass` kept more candidates than its ``max_candidates``."""


class _NumpyBlocks:
    """Screening on the CPU with NumPy's BLAS (faster than torch's here, and zero-copy
    for float32 NumPy inputs)."""

    def __init__(self, S, T, live_cols: np.ndarray, dtype: str, device: str, shift: int):
        def host(array):
            if is_tensor(array):
                array = array.detach().cpu().numpy()
            return np.asarray(array, dtype=dtype)

        self.S = host(S)
        if shift:  # an extreme T: screen a scaled copy, T * 2**-shift
            T = T.detach().cpu().numpy() if is_tensor(T) else np.asarray(T)
            self.Tt = times_pow2(T[live_cols], np.full(live_cols.size, -shift)).astype(dtype).T
            return
        T = host(T)
        self.Tt = (T if live_cols.size == T.shape[0] else T[live_cols]).T  # a view: no copy

    def product(self, i0: int, i1: int, j0: int, j1: int) -> np.ndarray:
        return self.S[i0:i1] @ self.Tt[:, j0:j1]

    def row_max(self, P: np.ndarray) -> np.ndarray:
        # Each row's largest and second-largest entries: most rows then need no scan.
        rows = np.arange(P.shape[0])
        self._argmax = P.argmax(axis=1)
        largest = P[rows, self._argmax]
        P[rows, self._argmax] = -np.inf
        self._second = P.max(axis=1)
        P[rows, self._argmax] = largest
        return largest.astype(np.float64)

    def at_least(self, P: np.ndarray, threshold: np.ndarray) -> np.ndarray:
        """Flat indices of entries >= their row's threshold (after :meth:`row_max`)."""
        width = P.shape[1]
        largest_only = np.flatnonzero((P[np.arange(P.shape[0]), self._argmax] >= threshold)
                                      & (self._second < threshold))
        hits = [largest_only * width + self._argmax[largest_only]]
        several = np.flatnonzero(self._second >= threshold)
        if several.size:
            sub = np.flatnonzero(P[several] >= threshold[several, None])
            hits.append(several[sub // width] * width + sub % width)
        return np.sort(np.concatenate(hits))


class TorchBlocks:
    """Screening with torch on a CUDA device."""

    def __init__(self, S, T, live_cols: np.ndarray, dtype: str, device: str, shift: int):
        import torch

        torch_dtype = torch.float32 if dtype == "float32" else torch.float64
        self.S = torch.as_tensor(S).to(device=device, dtype=torch_dtype)
        T = torch.as_tensor(T)
        if live_cols.size != T.shape[0]:
            T = T.index_select(0, torch.as_tensor(live_cols, device=T.device))
        if shift:  # an extreme T: screen T * 2**-shift
            T = times_pow2(T, np.full(T.shape[0], -shift))
        self.T = T.to(device=device, dtype=torch_dtype)

    def product(self, i0: int, i1: int, j0: int, j1: int):
        return self.S[i0:i1] @ self.T[j0:j1].T

    @staticmethod
    def row_max(P) -> np.ndarray:
        return P.amax(dim=1).double().cpu().numpy()

    @staticmethod
    def at_least(P, threshold: np.ndarray) -> np.ndarray:
        import torch

        mask = P >= torch.as_tensor(threshold, device=P.device)[:, None]
        return torch.nonzero(mask.view(-1)).squeeze(1).cpu().numpy()


class _exact_matmul:
    """Context that forbids reduced-precision (TF32) float32 products on CUDA.

    The rounding bound used to screen trials assumes IEEE float32 products.
    """

    def __init__(self, device: str):
        self.cuda = str(device).startswith("cuda")

    def __enter__(self):
        if self.cuda:
            import torch

            self.saved = torch.backends.cuda.matmul.allow_tf32
            torch.backends.cuda.matmul.allow_tf32 = False
        return self

    def __exit__(self, *exc):
        if self.cuda:
            import torch

            torch.backends.cuda.matmul.allow_tf32 = self.saved
        return False

