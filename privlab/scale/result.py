"""What a scaled audit returns: the exact answer, the mode it answers, the work skipped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.errors import invalid
from privlab.resolution.result import Resolution, TopFrame

EXACT = "exact (certified pruning: equal to the plain kernel)"
#: The status of a ``"flagged"`` call in which no trial reaches ``delta > 0``: the value
#: is not computed, only known to be below ``delta``.
BELOW_DELTA = ("bounded (flagged mode: every trial is below delta; the value was not "
               "computed, only bounded by delta)")


@dataclass(frozen=True)
class Work:
    """How much of the ``m x n`` trial matrix a call scored, and how.

    Attributes:
        trials: ``m * n``.
        scored: trials the exact kernel scored; the rest were skipped by a bound.
        tiles: tiles (a block of audited rows against a group of references) in all.
        tiles_scored: tiles with at least one trial scored.
        references_untouched: references no trial was scored against.
        rescored: trials rescored in float64 by the kernel's screening.
        bound: ``"norm"``, ``"cluster"`` or ``"none"``.
        clusters: k-means centres used by the cluster bound (0 otherwise).
        fallbacks: tiles whose reduced-precision screen kept too many candidates and
            were screened again in float32.
        scheduler: ``"local"`` or the dask scheduler that ran the tiles.
        plain_remainder: references scored against every audited row in one pass of the
            plain kernel's own blocks, because the bound would have kept nearly every
            remaining trial (0 when the walk visited every group itself). Their trials
            count in ``scored`` and their tiles in ``tiles_scored``.
    """

    trials: int
    scored: int
    tiles: int
    tiles_scored: int
    references_untouched: int
    rescored: int
    bound: str
    clusters: int = 0
    fallbacks: int = 0
    scheduler: str = "local"
    plain_remainder: int = 0

    @property
    def skipped(self) -> int:
        """Trials never scored."""
        return self.trials - self.scored

    @property
    def skipped_fraction(self) -> float:
        """``skipped / trials`` (0 = the plain kernel's work, 1 = none of it)."""
        return self.skipped / self.trials if self.trials else 0.0

    def describe(self) -> str:
        """One line, e.g. ``"scored 1.2% of 1,000,000 trials (norm bound, ...)"``.

        Example:
            >>> work = Work(trials=100, scored=100, tiles=4, tiles_scored=4,
            ...             references_untouched=0, rescored=12, bound="norm",
            ...             plain_remainder=9)
            >>> work.describe().split("; ")[1]
            '9 references in one plain-kernel pass (their bound would skip almost nothing))'
        """
        extra = f", {self.fallbacks} tiles fell back to float32" if self.fallbacks else ""
        if self.plain_remainder:
            extra += (f"; {self.plain_remainder:,} references in one plain-kernel pass (their "
                      f"bound would skip almost nothing)")
        return (f"scored {100 * (1 - self.skipped_fraction):.3g}% of {self.trials:,} trials "
                f"({self.bound} bound, {self.tiles_scored}/{self.tiles} tiles, "
                f"{self.references_untouched:,} references untouched{extra})")


@dataclass(frozen=True)
class CertifiedResolution(TopFrame):
    """The exact answer of a scaled audit, for the mode that was asked.

    Every field that the mode computes equals the plain kernel's
    (:func:`privlab.resolution.resolution`) bit for bit: the bounds only skip trials that
    provably cannot change it.

    Attributes:
        mode: ``"max"`` (value, witness, top), ``"per_audited"`` (also every item's
            maximum) or ``"flagged"`` (the items at or above ``delta`` and their maxima).
        delta: the threshold of ``"flagged"`` mode (None otherwise).
        value: ``max(0, max_difference)``. In ``"flagged"`` mode, None when no trial
            reaches ``delta > 0`` (then the value is known only to be below ``delta``).
        max_difference: the largest signed difference (None when not known, as above).
        witness: the decisive witness ``(i, j)`` (ties: smallest i, then j), or None.
        top: the ``top_k`` largest trials ``(i, j, difference)``; in ``"flagged"``
            mode only those at or above ``delta`` (above 0 when ``delta = 0``).
        per_audited: ``(m,)`` float64 maxima (``"per_audited"`` mode, else None).
        per_audited_reference: ``(m,)`` int64 references attaining them (or None).
        flagged_items: ``"flagged"`` mode: audited indices whose maximum reaches
            ``delta`` (exceeds 0 when ``delta = 0``), increasing.
        flagged_values: their maxima, exact.
        flagged_references: the references attaining them.
        shape: ``(m, n, d)``.
        dtype: the screening precision of the tiles.
        device: where the tiles ran.
        block_size: rows of S per tile, rows of T per group.
        work: the :class:`Work` done and skipped.
        status: what kind of number this is: :data:`EXACT`, or :data:`BELOW_DELTA` when
            ``value`` is None (flagged mode, nothing reaches ``delta``).
    """

    mode: str
    delta: float | None
    value: float | None
    max_difference: float | None
    witness: tuple[int, int] | None
    top: list
    per_audited: np.ndarray | None = field(repr=False)
    per_audited_reference: np.ndarray | None = field(repr=False)
    flagged_items: np.ndarray | None = field(repr=False)
    flagged_values: np.ndarray | None = field(repr=False)
    flagged_references: np.ndarray | None = field(repr=False)
    shape: tuple[int, int, int]
    dtype: str
    device: str
    block_size: tuple[int, int]
    work: Work
    status: str = EXACT

    def passes(self, delta: float) -> bool:
        """Whether the strict test ``a_ij < delta`` holds for every trial.

        Raises:
            PrivlabValueError: in ``"flagged"`` mode for a ``delta`` below the one the
                call was made with, when the answer is not known.
        """
        if self.max_difference is not None:
            return self.max_difference < delta
        if delta >= self.delta:
            return True
        raise invalid("delta", "CertifiedResolution.passes",
                      f"at least the delta of the flagged-mode call ({self.delta})", delta,
                      "Run certified_resolution with mode='per_audited' or a smaller delta.")

    def flagged(self, delta: float = 0.0) -> np.ndarray:
        """Audited items with a positive violation at or above ``delta`` (see
        :meth:`privlab.resolution.Resolution.flagged`).

        Raises:
            PrivlabValueError: in ``"max"`` mode (per-item maxima were not computed), or in
                ``"flagged"`` mode for a ``delta`` below the call's.
        """
        if self.per_audited is not None:
            values, items = self.per_audited, np.arange(self.per_audited.size)
        elif self.flagged_items is not None and delta >= self.delta:
            values, items = self.flagged_values, self.flagged_items
        else:
            raise invalid("delta" if self.mode == "flagged" else "mode",
                          "CertifiedResolution.flagged",
                          "answerable from this result" + (
                              f" (at least {self.delta})" if self.mode == "flagged" else ""),
                          delta if self.mode == "flagged" else self.mode,
                          "Call certified_resolution with mode='per_audited', or "
                          "mode='flagged' with this delta.")
        keep = values >= delta if delta > 0 else values > 0
        return items[keep]

    def to_resolution(self) -> Resolution:
        """The plain kernel's :class:`~privlab.resolution.Resolution` (``"per_audited"`` mode).

        Raises:
            PrivlabValueError: in another mode (it lacks the per-item maxima).
        """
        if self.per_audited is None:
            raise invalid("mode", "CertifiedResolution.to_resolution", "'per_audited'",
                          self.mode, "Call certified_resolution with mode='per_audited'.")
        return Resolution(value=self.value, max_difference=self.max_difference,
                          witness=self.witness, top=list(self.top),
                          per_audited=self.per_audited,
                          per_audited_reference=self.per_audited_reference, shape=self.shape,
                          dtype=self.dtype, device=self.device, block_size=self.block_size,
                          rescored=self.work.rescored)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        arrays = {name: (None if getattr(self, name) is None else getattr(self, name).tolist())
                  for name in ("per_audited", "per_audited_reference", "flagged_items",
                               "flagged_values", "flagged_references")}
        return {"mode": self.mode, "delta": self.delta, "value": self.value,
                "max_difference": self.max_difference,
                "witness": None if self.witness is None else list(self.witness),
                "top": [[i, j, v] for i, j, v in self.top], **arrays,
                "shape": list(self.shape), "dtype": self.dtype, "device": self.device,
                "block_size": list(self.block_size), "status": self.status,
                "work": {**self.work.__dict__, "skipped_fraction": self.work.skipped_fraction}}

    def _repr_html_(self) -> str:
        m, n, d = self.shape
        if self.value is None:
            head = f"every trial is below delta = {self.delta:g}"
        else:
            head = (f"<b>Resolution {self.value:.4f}</b>; decisive witness: audited "
                    f"{self.witness[0]} vs reference {self.witness[1]}")
        return (f"<div>{head} ({self.status}; mode {self.mode}). {m} audited x {n} "
                f"references, d={d}; {self.work.describe()}.</div>")


__all__ = ["BELOW_DELTA", "CertifiedResolution", "EXACT", "Work"]
