"""The resolution test's outcome: the value, its decisive witness and the top trials."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


class TopFrame:
    """Mixin of the results that keep ``top`` trials ``(audited, reference, difference)``."""

    def to_frame(self):
        """The top trials as a DataFrame (columns audited, reference, difference)."""
        import pandas as pd

        return pd.DataFrame(self.top, columns=["audited", "reference", "difference"])


@dataclass(frozen=True)
class Resolution(TopFrame):
    """The outcome of the resolution test over every (audited, reference) trial.

    Attributes:
        value: the resolution ``delta* = max(0, max_difference)``. The strict test
            passes for every ``delta > value``; at ``value`` every trial satisfies the
            weak inequality. 0 means no violation was detected *for these audited
            items, these references and this encoder*; it is not unconditional privacy.
        max_difference: ``a_max``, the largest signed difference (may be negative).
        witness: ``(i, j)``, a decisive witness: audited item ``i`` against reference
            ``j`` attains ``max_difference``; ties go to the smallest i, then j.
        top: the ``top_k`` largest trials (all ``m * n`` if fewer) as
            ``(i, j, difference)``, descending.
        per_audited: ``(m,)`` float64, the largest signed difference of each audited
            item (flag or withhold items whose value is at or above a chosen delta).
        per_audited_reference: ``(m,)`` int64, the reference attaining each item's maximum.
        shape: ``(m, n, d)``.
        dtype: working precision of the screening pass (values are rescored in float64).
        device: where the screening pass ran.
        block_size: ``(rows of S, rows of T)`` per block.
        rescored: number of candidate trials rescored in float64 (a diagnostic).
    """

    value: float
    max_difference: float
    witness: tuple[int, int]
    top: list[tuple[int, int, float]]
    per_audited: np.ndarray = field(repr=False)
    per_audited_reference: np.ndarray = field(repr=False)
    shape: tuple[int, int, int]
    dtype: str
    device: str
    block_size: tuple[int, int]
    rescored: int = 0

    def passes(self, delta: float) -> bool:
        """Whether the strict test ``a_ij < delta`` holds for every trial."""
        return self.max_difference < delta

    def flagged(self, delta: float = 0.0) -> np.ndarray:
        """Indices of audited items with a positive violation at or above ``delta`` (to withhold).

        An item is flagged when one of its trials has ``a_ij > 0`` and ``a_ij >= delta``.
        A difference of exactly 0 is no violation (the violation is ``max(0, a_ij)``), so
        a sanitizer that changes nothing flags nothing, also at ``delta = 0``.
        """
        return np.flatnonzero(self.per_audited >= delta) if delta > 0 else np.flatnonzero(
            self.per_audited > 0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (the command line prints this)."""
        return {
            "value": self.value,
            "max_difference": self.max_difference,
            "witness": list(self.witness),
            "top": [[i, j, v] for i, j, v in self.top],
            "per_audited": self.per_audited.tolist(),
            "per_audited_reference": self.per_audited_reference.tolist(),
            "shape": list(self.shape),
            "dtype": self.dtype,
            "device": self.device,
            "block_size": list(self.block_size),
            "rescored": self.rescored,
        }

    def _repr_html_(self) -> str:
        m, n, d = self.shape
        verdict = ("no violation detected" if self.max_difference <= 0
                   else f"violation: passes only for delta &gt; {self.value:.4f}")
        rows = "".join(f"<tr><td>{i}</td><td>{j}</td><td>{v:+.4f}</td></tr>" for i, j, v in self.top)
        return (f"<div><b>Resolution {self.value:.4f}</b> ({verdict}); "
                f"decisive witness: audited {self.witness[0]} vs reference {self.witness[1]}; "
                f"{m} audited x {n} references, d={d}, {self.dtype} on {self.device}."
                f"<table><tr><th>audited</th><th>reference</th><th>difference</th></tr>"
                f"{rows}</table></div>")

