"""The pruning rules shared by the single-machine and the dask walks.

A trial is needed only if its upper bound may still change what the mode reports;
:func:`kept_share` estimates how much a bound would keep, which decides how the work is
done, never which trials are skipped. The rules per mode:
``docs/methods/scale-internals.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from privlab.scale.result import BELOW_DELTA, EXACT, CertifiedResolution, Work
from privlab.scale.tiles import Accumulator, Partial

# A tile holds the needed rows among this many blocks of audited rows (the kernel walks
# them a block at a time): fewer, larger calls share the reference group's statistics.
WINDOW_BLOCKS = 4


@dataclass(frozen=True)
class Known:
    """What the rules compare bounds with, when it does not come from an
    :class:`~privlab.scale.tiles.Accumulator` (for example estimates that only guide how
    the work is done, see :func:`kept_share`).

    Attributes:
        best: ``(m,)`` float64, each audited row's best value (``-inf`` when unknown).
        kth_lower: the k-th largest value (``-inf`` when unknown).
    """

    best: np.ndarray
    kth_lower: float


def needed(upper: np.ndarray, acc: Accumulator | Known, rows, mode: str, delta: float | None
           ) -> np.ndarray:
    """Which rows' trials against a group may still change the answer (see module doc)."""
    if mode == "max":
        keep = upper >= acc.kth_lower
    else:
        keep = upper >= np.minimum(acc.best[rows], acc.kth_lower)
    if mode == "flagged":
        keep &= (upper >= delta) if delta > 0 else (upper > 0)
    return keep


def kept_share(plan, groups: list, s_norm: np.ndarray, known: Accumulator | Known,
               rows: np.ndarray, mode: str, delta: float | None) -> float:
    """The share of the trials of ``rows`` against ``groups`` that :func:`needed` keeps.

    Args:
        plan: the :class:`~privlab.scale.groups.Grouping` the groups belong to.
        groups: the groups still to visit.
        s_norm: ``(m,)`` computed norms of the rows of S.
        known: the values bounds are compared with (scored trials, or estimates).
        rows: the audited rows to count over (a sample keeps this cheap).
        mode, delta: as for :func:`needed`.

    Returns:
        A number in [0, 1], weighted by group size; 1.0 when there is nothing to count.

    Example:
        >>> import privlab.scale.groups as grouping
        >>> T = np.array([[0.5, 0.0], [0.0, 0.1]])
        >>> plan = grouping.build("norm", S=np.eye(2), s_hat=np.ones(2), T=T, t_hat=np.array(
        ...     [0.5, 0.1]), t_exps=np.zeros(2, dtype=int), t_absmax=np.array([0.5, 0.1]),
        ...     block=1, clusters=None, seed=0)
        >>> known = Known(best=np.array([0.5, 0.0]), kth_lower=0.5)
        >>> kept_share(plan, plan.groups, np.ones(2), known, np.arange(2), "max", None)
        0.5
    """
    kept = total = 0
    for group in groups:
        upper = plan.upper(group, s_norm, rows)
        kept += int(np.count_nonzero(needed(upper, known, rows, mode, delta))) * group.cols.size
        total += rows.size * group.cols.size
    return kept / total if total else 1.0


def below_everything(gmax: float, acc: Accumulator, mode: str, delta: float | None) -> bool:
    """True when no trial of this group, and (groups being in decreasing order of
    ``gmax``) of any later group, can be needed."""
    if mode == "max":
        return gmax < acc.kth_lower
    if mode == "flagged":
        return gmax < delta if delta > 0 else gmax <= 0
    return False


def assemble(acc: Accumulator | Partial, *, mode: str, delta: float | None, top_k: int,
             shape: tuple[int, int, int], dtype: str, device: str, block: tuple[int, int],
             work: Work) -> CertifiedResolution:
    """The result of ``mode`` from the merged tiles."""
    m = shape[0]
    best, best_ref = acc.best, acc.best_ref
    if isinstance(acc, Partial):  # rows listed, not indexed: spread over all m rows
        best, best_ref = np.full(m, -np.inf), np.full(m, -1, dtype=np.int64)
        best[acc.rows], best_ref[acc.rows] = acc.best, acc.best_ref
    top = list(acc.top)
    per, per_ref = (best.copy(), best_ref.copy()) if mode == "per_audited" else (None, None)
    items = values = refs = None
    if mode == "flagged":
        reaches = (lambda v: v >= delta) if delta > 0 else (lambda v: v > 0)
        top = [t for t in top if reaches(t[2])]
        items = np.flatnonzero(reaches(best))
        values, refs = best[items], best_ref[items]
    head = top[0] if top else None
    if head is not None:
        value, a_max, witness = max(0.0, head[2]), head[2], (head[0], head[1])
    else:  # flagged mode with nothing at or above delta
        value = 0.0 if delta == 0 else None
        a_max = witness = None
    return CertifiedResolution(mode=mode, delta=delta, value=value, max_difference=a_max,
                               witness=witness, top=top[:top_k], per_audited=per,
                               per_audited_reference=per_ref, flagged_items=items,
                               flagged_values=values, flagged_references=refs, shape=shape,
                               dtype=dtype, device=device, block_size=block, work=work,
                               status=EXACT if value is not None else BELOW_DELTA)


__all__ = ["WINDOW_BLOCKS", "Known", "assemble", "below_everything", "kept_share", "needed"]
