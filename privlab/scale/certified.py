"""Certified pruning: the exact resolution with less work when the data allow.

References are grouped, each group carries a proven upper bound on every trial against
it, and a block of trials is scored by the exact kernel only where the bound reaches what
is already known (strictly, so ties keep their rule): the result equals the plain
kernel's in every field the mode computes. The rule: ``docs/methods/scale-internals.md``;
how much is skipped and when the walk switches (:data:`SWITCH_SHARE`):
``docs/methods/scale.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.arrays import check_flag
from privlab.errors import check_seed, invalid
from privlab.resolution.inputs import (DEFAULT_BLOCK_SIZE, check_device, check_pair, check_top_k,
                                       parse_block)
from privlab.resolution.magnitudes import row_stats
import privlab.scale.groups as grouping
from privlab.scale.result import CertifiedResolution, Work
from privlab.scale.rules import (WINDOW_BLOCKS, Known, assemble, below_everything, kept_share,
                                 needed)
from privlab.scale.tiles import Accumulator, score_tile, take_rows

MODES = ("max", "per_audited", "flagged")
DTYPES = ("float32", "float64", "bfloat16", "tf32")
# From this estimated share of remaining trials kept by the bound, the rest is scored by
# the plain kernel's blocks: a tile walk costs 1.3-1.5x the plain kernel per trial, and
# the estimate errs high (bounds only sharpen as the walk goes on), so the switch waits
# until the bound would skip almost nothing.
SWITCH_SHARE = 0.9
# Audited rows (evenly spaced) on which that share is estimated: a few milliseconds per
# estimate whatever m is.
ESTIMATE_ROWS = 4096
# References of the first group in the product that gives the first estimates.
PREVIEW_REFERENCES = grouping.FIRST_GROUP


@dataclass
class Prepared:
    """Validated inputs and their row statistics."""

    S: Any
    T: Any
    s_norm: np.ndarray
    t_absmax: np.ndarray
    t_exps: np.ndarray
    t_hat: np.ndarray

    @property
    def shape(self) -> tuple[int, int, int]:
        return int(self.S.shape[0]), int(self.T.shape[0]), int(self.S.shape[1])


def prepare(S, T, *, normalize: bool, caller: str) -> Prepared:
    """Validate S and T exactly as :func:`privlab.resolution.resolution` does."""
    S, T, s_norm = check_pair(S, T, normalize, caller)
    t_absmax, t_exps, t_scaled = row_stats(T)
    with np.errstate(over="ignore"):
        t_hat = np.ldexp(t_scaled, t_exps)
    return Prepared(S, T, s_norm, t_absmax, t_exps, t_hat)


def check_options(*, mode: Any, delta: Any, bound: Any, clusters: Any, dtype: Any,
                  device: Any, caller: str) -> tuple[float | None, str]:
    """Validate the scaled call's own options; returns ``(delta, device)``."""
    if mode not in MODES:
        raise invalid("mode", caller, f"one of {list(MODES)}", mode)
    if mode == "flagged":
        if isinstance(delta, bool) or not isinstance(delta, (int, float, np.floating, np.integer)) \
                or not np.isfinite(delta) or delta < 0:
            raise invalid("delta", caller, "a finite number >= 0 in mode='flagged'", delta,
                          "Pass the resolution you require, e.g. delta=0.05.")
        delta = float(delta)
    elif delta is not None:
        raise invalid("delta", caller, "None unless mode='flagged'", delta,
                      "Pass mode='flagged' to flag items at a threshold.")
    if bound not in grouping.BOUNDS:
        raise invalid("bound", caller, f"one of {list(grouping.BOUNDS)}", bound)
    if clusters is not None and (isinstance(clusters, bool) or not isinstance(
            clusters, (int, np.integer)) or clusters < 1):
        raise invalid("clusters", caller, "None or an int >= 1", clusters)
    if dtype not in DTYPES:
        raise invalid("dtype", caller, f"one of {list(DTYPES)}", dtype)
    device = check_device(device, caller)
    if dtype == "tf32" and not device.startswith("cuda"):
        raise invalid("dtype", caller, "'tf32' only on a CUDA device", dtype,
                      "Use dtype='bfloat16' on the CPU, or device='cuda'.")
    return delta, device


def estimate_rows(m: int) -> np.ndarray:
    """At most :data:`ESTIMATE_ROWS` evenly spaced audited rows, increasing.

    Example:
        >>> estimate_rows(5).tolist(), estimate_rows(10**6).size
        ([0, 1, 2, 3, 4], 4096)
    """
    if m <= ESTIMATE_ROWS:
        return np.arange(m)
    # Steps longer than 1: the rounded-down positions are distinct and increasing.
    return np.linspace(0, m - 1, ESTIMATE_ROWS).astype(np.int64)


def preview(data: Prepared, cols: np.ndarray, k: int, chunk: int = 8192) -> Known:
    """Estimates of each row's best value and of the k-th largest trial against ``cols``.

    Computed once in the inputs' own precision, not rescored: they only choose between
    the tile walk and the plain kernel's blocks, never what is skipped.

    Args:
        data: the validated inputs.
        cols: reference indices (a few dozen: the cost is ``m * len(cols) * d``).
        k: the rank of the value to estimate (the mode's top list length, at least 1).
        chunk: audited rows per product.

    Returns:
        A :class:`~privlab.scale.rules.Known` (``kth_lower`` is ``-inf`` when there are
        fewer than ``k`` trials).
    """
    import torch

    from privlab.resolution.magnitudes import times_pow2

    m = data.shape[0]
    exps = data.t_exps[cols]
    T_cols = take_rows(data.T, cols)
    if exps.any():
        T_cols = times_pow2(T_cols, -exps)
    on_torch = isinstance(data.S, torch.Tensor)
    if on_torch:
        T_cols = torch.as_tensor(T_cols).to(device=data.S.device, dtype=data.S.dtype)
    else:
        if isinstance(T_cols, torch.Tensor):
            T_cols = T_cols.detach().cpu().numpy()
        T_cols = np.asarray(T_cols, dtype=data.S.dtype)
    best = np.empty(m)
    largest = np.empty(0)
    for start in range(0, m, chunk):
        product = data.S[start:start + chunk] @ T_cols.T
        values = (product.double().cpu().numpy() if on_torch else product).astype(
            np.float64, copy=False)
        if exps.any():
            with np.errstate(over="ignore"):
                values = np.ldexp(values, exps[None, :])
        best[start:start + values.shape[0]] = values.max(axis=1)
        flat = values.ravel()
        if flat.size > k:
            flat = np.partition(flat, flat.size - k)[flat.size - k:]
        largest = np.concatenate([largest, flat])
        if largest.size > k:
            largest = np.partition(largest, largest.size - k)[largest.size - k:]
    kth = float(np.min(largest)) if largest.size >= k else -np.inf
    return Known(best=best, kth_lower=kth)


def _is_dask(x: Any) -> bool:
    return type(x).__module__.split(".")[0] == "dask"


def certified_resolution(S, T, *, mode: str = "max", delta: float | None = None,
                         top_k: int = 5, bound: str = "norm", clusters: int | None = None,
                         normalize: bool = False, dtype: str = "float32",
                         device: str | None = None,
                         block_size: int | tuple[int, int] = DEFAULT_BLOCK_SIZE,
                         client: Any = None, seed: int = 0) -> CertifiedResolution:
    """The exact resolution (Algorithm 1), skipping trials that provably cannot matter.

    Args:
        S: ``(m, d)`` unit rows, the sanitized audited items (NumPy, torch or dask).
        T: ``(n, d)`` reference directions ``E(y) - E(X_c(y))`` (NumPy, torch or dask).
        mode: ``"max"`` (value, witness, top list), ``"per_audited"`` (also every item's
            maximum) or ``"flagged"`` (items at or above ``delta`` and their maxima).
        delta: the threshold of ``"flagged"`` mode; trials bounded below it are skipped.
        top_k: how many of the largest trials to return (0 for none).
        bound: ``"norm"``, ``"cluster"`` (k-means centres of T) or ``"none"`` (score
            every tile: the tiling's own cost).
        clusters: k-means centres for ``bound="cluster"`` (default: at most 64).
        normalize: normalise the rows of S instead of refusing non-unit rows.
        dtype: tile screening precision: ``"float32"``, ``"float64"``, ``"bfloat16"`` or
            ``"tf32"`` (CUDA); values are rescored in float64 whatever it is.
        device: ``"cpu"``, ``"cuda"`` or None for :func:`privlab.config.default_device`.
        block_size: audited rows per tile and references per group (an int or a pair).
        client: a ``dask.distributed.Client`` to run the tiles on a cluster.
        seed: seed of the k-means sample (the answer never depends on it).

    Returns:
        A :class:`~privlab.scale.result.CertifiedResolution` whose fields equal the plain
        kernel's, with the :class:`~privlab.scale.result.Work` it skipped.

    Raises:
        ValueError: the kernel's input errors, or a bad ``mode``, ``delta``, ``bound``,
            ``clusters``, ``dtype``, ``device``, ``top_k`` or ``block_size``.

    Example:
        >>> import numpy as np
        >>> S = np.eye(3)
        >>> T = np.array([[0.9, 0, 0], [0, 0.01, 0], [0, 0, 0.02]])
        >>> res = certified_resolution(S, T, top_k=1, block_size=1)
        >>> res.value, res.witness, res.work.scored, res.work.trials
        (0.9, (0, 0), 3, 9)
    """
    caller = "certified_resolution"
    top_k = check_top_k(top_k, caller)
    delta, device = check_options(mode=mode, delta=delta, bound=bound, clusters=clusters,
                                  dtype=dtype, device=device, caller=caller)
    bm, bn = parse_block(block_size, caller)
    normalize = check_flag(normalize, "normalize", caller)
    seed = check_seed(seed, "seed", caller)
    if client is not None or _is_dask(S) or _is_dask(T):
        from privlab.scale.distributed import distributed_resolution

        return distributed_resolution(S, T, mode=mode, delta=delta, top_k=top_k, bound=bound,
                                      clusters=clusters, normalize=normalize, dtype=dtype,
                                      device=device, block_size=(bm, bn), client=client,
                                      seed=seed)
    data = prepare(S, T, normalize=normalize, caller=caller)
    return run_local(data, mode=mode, delta=delta, top_k=top_k, bound=bound,
                     clusters=clusters, dtype=dtype, device=device, bm=bm, bn=bn, seed=seed)


def run_local(data: Prepared, *, mode: str, delta: float | None, top_k: int, bound: str,
              clusters: int | None, dtype: str, device: str, bm: int, bn: int,
              seed: int = 0) -> CertifiedResolution:
    """The certified walk on one machine (inputs already validated)."""
    from privlab.scale.precision import screening_for

    m, n, d = data.shape
    k = max(min(top_k, m * n), 1)
    plan = grouping.build(bound, S=data.S, s_hat=data.s_norm, T=data.T, t_hat=data.t_hat,
                          t_exps=data.t_exps, t_absmax=data.t_absmax, block=bn,
                          clusters=clusters, seed=seed)
    kernel_dtype, screen = screening_for(dtype, d, device)
    # Each group's largest bound orders the walk; the bounds themselves are recomputed
    # when a group is visited (O(m) memory instead of O(m * groups)).
    gmax = np.array([float(np.max(plan.upper(g, data.s_norm))) for g in plan.groups])
    order = np.argsort(-gmax, kind="stable")
    acc = Accumulator(m, k)
    touched = np.zeros(n, dtype=bool)
    tiles_scored = 0
    window = WINDOW_BLOCKS * bm
    windows = -(-m // window)
    plain_remainder = 0
    sample = estimate_rows(m)
    may_switch = plan.bound != "none"
    visited = next_estimate = 0  # references in the groups visited so far
    for position, g_index in enumerate(order):
        group = plan.groups[g_index]
        if below_everything(gmax[g_index], acc, mode, delta):
            break
        if may_switch and visited >= next_estimate:
            # Estimate again each time the references visited have doubled: a few
            # dozen estimates at most, however many groups there are.
            next_estimate = max(1, 2 * visited)
            remaining = [plan.groups[g] for g in order[position:]]
            if position == 0:  # nothing scored yet: estimates from the first group
                first = group.cols[np.argsort(-data.t_hat[group.cols], kind="stable")]
                known = preview(data, np.sort(first[:PREVIEW_REFERENCES]), k)
            else:
                known = acc
            if kept_share(plan, remaining, data.s_norm, known, sample, mode,
                          delta) >= SWITCH_SHARE:
                cols = np.sort(np.concatenate([g.cols for g in remaining]))
                # Every remaining trial, in the plain kernel's blocks: the same rescoring
                # as the plain kernel (a few trials per row, not one per row per group).
                acc.add(score_tile(data.S, take_rows(data.T, cols), np.arange(m), cols,
                                   data.s_norm, k=k, dtype=kernel_dtype, device=device,
                                   screen=screen, block_rows=bm, block_cols=bn))
                touched[cols] = True
                tiles_scored += len(remaining) * windows
                plain_remainder = int(cols.size)
                break
        visited += group.cols.size
        upper = plan.upper(group, data.s_norm)
        keep = needed(upper, acc, slice(None), mode, delta)
        if not keep.any():
            continue
        T_group = take_rows(data.T, group.cols)
        for i0 in range(0, m, window):
            rows = np.flatnonzero(keep[i0:i0 + window]) + i0
            if not rows.size:
                continue
            # Bounds sharpen as tiles land: re-check these rows against the latest ones.
            rows = rows[needed(upper[rows], acc, rows, mode, delta)]
            if not rows.size:
                continue
            part = score_tile(take_rows(data.S, rows), T_group, rows, group.cols,
                              data.s_norm[rows], k=k, dtype=kernel_dtype, device=device,
                              screen=screen, block_rows=bm)
            acc.add(part)
            tiles_scored += 1
            touched[group.cols] = True
    work = Work(trials=m * n, scored=acc.trials, tiles=len(plan.groups) * windows,
                tiles_scored=tiles_scored, references_untouched=int(n - touched.sum()),
                rescored=acc.rescored, bound=plan.bound, clusters=plan.clusters,
                fallbacks=acc.fallbacks, plain_remainder=plain_remainder)
    return assemble(acc, mode=mode, delta=delta, top_k=top_k, shape=(m, n, d), dtype=dtype,
                    device=device, block=(bm, bn), work=work)


__all__ = ["DTYPES", "ESTIMATE_ROWS", "MODES", "PREVIEW_REFERENCES", "Prepared",
           "SWITCH_SHARE", "certified_resolution", "check_options", "estimate_rows", "prepare",
           "preview", "run_local"]
