"""The pruning rules shared by the single-machine and the dask walks.

A trial ``(i, j)`` with upper bound ``U`` (:mod:`privlab.scale.bounds`) is needed only
if it may still change what the mode reports:

* ``"max"``: ``U >= kth``, the k-th largest value found so far (it may enter the top
  list, or tie with it and win on the index rule);
* ``"per_audited"``: ``U >= min(best_i, kth)``, where ``best_i`` is item i's largest
  value found so far;
* ``"flagged"``: as ``"per_audited"``, and ``U >= delta`` (``U > 0`` when ``delta = 0``).

Both ``kth`` and ``best_i`` are exact values of trials already scored, hence lower bounds
of what they estimate; a trial whose bound is *strictly* below them cannot be needed.
"""

from __future__ import annotations

import numpy as np

from privlab.scale.result import CertifiedResolution, Work
from privlab.scale.tiles import Accumulator, Partial

# A tile holds the needed rows among this many blocks of audited rows (the kernel walks
# them a block at a time): fewer, larger calls share the reference group's statistics.
WINDOW_BLOCKS = 4


def needed(upper: np.ndarray, acc: Accumulator, rows, mode: str, delta: float | None
           ) -> np.ndarray:
    """Which rows' trials against a group may still change the answer (see module doc)."""
    if mode == "max":
        keep = upper >= acc.kth_lower
    else:
        keep = upper >= np.minimum(acc.best[rows], acc.kth_lower)
    if mode == "flagged":
        keep &= (upper >= delta) if delta > 0 else (upper > 0)
    return keep


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
                               dtype=dtype, device=device, block_size=block, work=work)


__all__ = ["WINDOW_BLOCKS", "assemble", "below_everything", "needed"]
