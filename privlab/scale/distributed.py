"""The certified kernel on dask: tiles as tasks, a max-reduction that keeps the witness.

:func:`privlab.scale.certified_resolution` comes here for dask arrays or a ``client``;
the work is the single-machine walk in two rounds, merged by an associative and
commutative tree, so the answer equals the single-machine one whatever the task order or
retries. The rounds, fault tolerance and pointing it at a cluster:
``docs/methods/scale-internals.md``.
"""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np

from privlab.arrays import check_array
from privlab.errors import invalid, require
from privlab.resolution.inputs import HALF_UNIT_EPS, UNIT_TOLERANCE, check_unit, to_array
from privlab.resolution.magnitudes import row_stats
import privlab.scale.groups as grouping
from privlab.scale.precision import screening_for
from privlab.scale.result import Work
from privlab.scale.rules import WINDOW_BLOCKS, assemble, below_everything, needed
from privlab.scale.tiles import Accumulator, merge, score_tile

CALLER = "certified_resolution"


def _dask():
    require("distributed", "distributed==2026.8.0", "Running the kernel on dask")
    return require("dask.array", "dask==2026.8.0", "Running the kernel on dask")


def _as_dask(x: Any, name: str, rows_per_chunk: int):
    """A 2-D dask array with whole rows per chunk (NumPy and torch inputs are wrapped),
    and the tolerance its rows get when checked for unit length."""
    da = _dask()
    if not isinstance(x, da.Array):
        import torch

        if isinstance(x, torch.Tensor):
            x = x.detach().cpu()
        x, tolerance = to_array(x, name, CALLER)  # refuses bad input before sending it
        x = x.numpy() if isinstance(x, torch.Tensor) else np.asarray(x)
        return da.from_array(x, chunks=(rows_per_chunk, -1), name=False), tolerance
    x = check_array(x, name, CALLER, dask_ok=True, finite=False)  # dtype and chunks only
    half = x.dtype == np.float16
    tolerance = max(UNIT_TOLERANCE, HALF_UNIT_EPS * float(np.finfo(np.float16).eps)) \
        if half else UNIT_TOLERANCE
    if x.ndim != 2:
        raise invalid(name, CALLER, "2-D with shape (rows, d)",
                      f"a dask array with shape {x.shape}", given_is_text=True)
    x = x.astype(np.float32) if half else x
    return x.rechunk((rows_per_chunk, -1)), tolerance


def _stats(block: np.ndarray) -> tuple:
    """``(all finite, absmax, exponents, scaled norms)`` of one chunk of rows."""
    block = np.asarray(block)
    if block.dtype == np.float16:
        block = block.astype(np.float32)
    elif block.dtype.kind != "f":
        block = block.astype(np.float64)
    if not np.isfinite(block).all():
        return (False, None, None, None)
    return (True, *row_stats(block))


def _row_statistics(x, name: str, compute) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    import dask

    chunks = [dask.delayed(_stats)(b) for b in x.to_delayed().ravel()]
    parts = compute(chunks)
    if not all(p[0] for p in parts):
        raise invalid(name, CALLER, "finite (no NaN or inf)", "non-finite entries",
                      "Check the encoder's output for the affected rows.", given_is_text=True)
    return tuple(np.concatenate([p[i] for p in parts]) for i in (1, 2, 3))


def _task(S_rows, T_cols, rows, cols, s_norm, k, device, precision, block_rows):
    """One tile on a worker (inputs arrive as NumPy blocks)."""
    S_rows = to_array(np.asarray(S_rows), "S", CALLER)[0]
    T_cols = to_array(np.asarray(T_cols), "T", CALLER)[0]
    kernel_dtype, screen = screening_for(precision, S_rows.shape[1], device)
    return score_tile(S_rows, T_cols, rows, cols, s_norm, k=k, dtype=kernel_dtype,
                      device=device, screen=screen, block_rows=block_rows)


def _take(x, rows: np.ndarray):
    if rows.size and rows[-1] - rows[0] + 1 == rows.size:
        return x[int(rows[0]):int(rows[-1]) + 1]
    return x[rows]


def distributed_resolution(S, T, *, mode: str, delta: float | None, top_k: int, bound: str,
                           clusters: int | None, normalize: bool, dtype: str, device: str,
                           block_size: tuple[int, int], client: Any = None, seed: int = 0):
    """The certified resolution with tiles run by dask (docs/methods/scale-internals.md).

    Arguments are those of :func:`privlab.scale.certified_resolution`, validated; S and
    T may be NumPy arrays, torch tensors or dask arrays.

    Returns:
        A :class:`~privlab.scale.result.CertifiedResolution` equal to the single-machine
        one, whose ``work.scheduler`` names the scheduler.
    """
    import dask

    if client is not None and not hasattr(client, "compute"):
        raise invalid("client", CALLER, "a dask.distributed.Client", type(client).__name__,
                      "Create one with Client('tcp://scheduler:8786') or LocalCluster().",
                      given_is_text=True)
    bm, bn = block_size
    S, tolerance = _as_dask(S, "S", bm)
    T, _ = _as_dask(T, "T", bn)
    if S.shape[0] == 0 or T.shape[0] == 0 or S.shape[1] == 0:
        bad = "S" if S.shape[0] == 0 or S.shape[1] == 0 else "T"
        raise invalid(bad, CALLER, "non-empty (at least one row and one column)",
                      f"shape {(S if bad == 'S' else T).shape}", given_is_text=True)
    if S.shape[1] != T.shape[1]:
        raise invalid("T", CALLER, f"of the same dimension d as S (d={S.shape[1]})",
                      f"d={T.shape[1]}", given_is_text=True)

    if client is not None:
        # Load the inputs into the workers' memory once: the statistics and both rounds
        # read them again. A chunk lost with a worker is recomputed from its lineage.
        S, T = client.persist([S, T])

    def compute(values):
        if client is not None:
            return client.gather(client.compute(values))
        return list(dask.compute(*values))

    s_stats = _row_statistics(S, "S", compute)
    s_norm = np.ldexp(s_stats[2], s_stats[1])
    if normalize:
        zero = np.flatnonzero(s_norm == 0)
        if zero.size:
            raise invalid("S", CALLER, "made of rows that can be normalised",
                          f"zero rows at {zero[:5].tolist()}", given_is_text=True)
        S = S / dask.array.from_array(s_norm, chunks=bm)[:, None]
        S = client.persist(S) if client is not None else S
        s_stats = _row_statistics(S, "S", compute)
        s_norm = np.ldexp(s_stats[2], s_stats[1])
    else:
        check_unit(S, "S", CALLER, tolerance, norms=s_norm)
    t_absmax, t_exps, t_scaled = _row_statistics(T, "T", compute)
    with np.errstate(over="ignore"):
        t_hat = np.ldexp(t_scaled, t_exps)

    m, d = S.shape
    n = T.shape[0]
    k = max(min(top_k, m * n), 1)
    plan = grouping.build(bound, S=S, s_hat=s_norm, T=T, t_hat=t_hat, t_exps=t_exps,
                          t_absmax=t_absmax, block=bn, clusters=clusters, seed=seed)
    gmax = np.array([float(np.max(plan.upper(g, s_norm))) for g in plan.groups])
    order = np.argsort(-gmax, kind="stable")
    token = uuid.uuid4().hex[:12]
    acc = Accumulator(m, k)
    touched = np.zeros(n, dtype=bool)
    tiles_scored = 0
    window = WINDOW_BLOCKS * bm

    def tiles(g_index: int) -> list:
        nonlocal tiles_scored
        group = plan.groups[g_index]
        keep = needed(plan.upper(group, s_norm), acc, slice(None), mode, delta)
        out = []
        for i0 in range(0, m, window):
            rows = np.flatnonzero(keep[i0:i0 + window]) + i0
            if rows.size:
                out.append(dask.delayed(_task, pure=True)(
                    _take(S, rows), T[group.cols], rows, group.cols, s_norm[rows], k, device,
                    dtype, bm, dask_key_name=f"privlab-tile-{token}-{g_index}-{i0}"))
                tiles_scored += 1
                touched[group.cols] = True
        return out

    first = order[0]
    for part in compute(tiles(first)):
        acc.add(part)
    pending = []
    for g_index in order[1:]:
        if below_everything(gmax[g_index], acc, mode, delta):
            break
        pending += tiles(g_index)
    level = 0
    while len(pending) > 1:  # a balanced tree of merges, as tasks
        pending = [dask.delayed(merge, pure=True)(
            pending[i], pending[i + 1], k, dask_key_name=f"privlab-merge-{token}-{level}-{i}")
                   if i + 1 < len(pending) else pending[i] for i in range(0, len(pending), 2)]
        level += 1
    if pending:
        acc.add(compute(pending)[0])
    scheduler = (f"dask.distributed {client.scheduler.address}" if client is not None
                 else f"dask {dask.config.get('scheduler', 'default')}")
    work = Work(trials=m * n, scored=acc.trials, tiles=len(plan.groups) * -(-m // window),
                tiles_scored=tiles_scored, references_untouched=int(n - touched.sum()),
                rescored=acc.rescored, bound=plan.bound, clusters=plan.clusters,
                fallbacks=acc.fallbacks, scheduler=scheduler)
    return assemble(acc, mode=mode, delta=delta, top_k=top_k, shape=(m, n, d), dtype=dtype,
                    device=device, block=(bm, bn), work=work)


__all__ = ["distributed_resolution"]
