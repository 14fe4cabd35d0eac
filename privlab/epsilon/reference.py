"""Population references of the known-ε benchmark: how much a mechanism hides, at best.

The Laplace family's optimal AUC has no closed form, so :func:`laplace_reference_auc`
estimates it by Monte Carlo per predeclared pair and stores the table. See
docs/methods/epsilon-benchmark.md.
"""

from __future__ import annotations

import functools
import json
import math
import os
import zlib
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

import privlab.epsilon.mechanisms as M
from privlab.epsilon.benchmark import EPSILON_GRID, N_PAIRS, cache_folder, prototypes, \
    select_pairs
from privlab.epsilon.runtime import auditor_threads
from privlab.epsilon.store import exit_with_parent, read_stored, store_table, worker_pool
from privlab.errors import invalid
from privlab.hashing import bytes_hash
from privlab.progress import substep

#: Version of the code behind a stored reference table, part of its cache key: bump it
#: when the Monte Carlo estimate or the table changes (2: tables carry a completion marker;
#: 3: the Laplace member's discrete noise on a grid).
_LAPLACE_REFERENCE_VERSION = "3"
#: The columns of a reference table, in order; none is ever empty.
REFERENCE_COLUMNS = ("geometry", "epsilon", "pair_index", "id_a", "id_b", "l1", "l2",
                     "exact_epsilon", "draws", "seed", "optimal_auc")


def _laplace_reference_rows(geometry: str, epsilon: float, pairs, draws: int,
                            pair_seeds, parent: int | None = None) -> list[dict]:
    """Monte Carlo optimal AUC of every pair at one ε (one worker task)."""
    if parent is not None:
        exit_with_parent(parent)
    protos = prototypes(geometry)
    mech = M.build_mechanism("laplace", protos, epsilon)
    c = protos.prototypes
    rows = []
    with auditor_threads():
        for k, ((i, j), seed) in enumerate(zip(pairs, pair_seeds)):
            rows.append({"geometry": geometry, "epsilon": float(epsilon), "pair_index": k,
                         "id_a": i, "id_b": j, "l1": float(np.abs(c[i] - c[j]).sum()),
                         "l2": float(np.linalg.norm(c[i] - c[j])),
                         "exact_epsilon": mech.pair_epsilon(i, j), "draws": draws,
                         "seed": int(seed),
                         "optimal_auc": M.optimal_auc_monte_carlo(mech, i, j, draws, int(seed))})
    return rows


def _reference_problem(table: pd.DataFrame, geometry, epsilons, pairs, draws,
                       pair_seeds) -> str | None:
    """Why ``table`` is not the reference table of these arguments (None when it is)."""
    if tuple(table.columns) != REFERENCE_COLUMNS:
        return f"its columns are {list(table.columns)}, not {list(REFERENCE_COLUMNS)}"
    if len(table) != len(epsilons) * len(pairs):
        return f"it has {len(table)} rows, expected {len(epsilons) * len(pairs)}"
    if table.isna().any().any():
        return f"columns {list(table.columns[table.isna().any()])} have missing values"
    expected = pd.DataFrame([{"geometry": geometry, "epsilon": e, "pair_index": k, "id_a": i,
                              "id_b": j, "draws": draws, "seed": s} for e in epsilons
                             for k, ((i, j), s) in enumerate(zip(pairs, pair_seeds))])
    if not table[list(expected.columns)].astype(object).equals(expected.astype(object)):
        return "its rows are not those of these arguments (geometry, ε, pairs, draws, seeds)"
    return None


def laplace_reference_path(geometry: str, epsilons: Sequence[float], n_pairs: int = N_PAIRS,
                           draws: int = 20_000, seed: int = 0) -> Path:
    """Where :func:`laplace_reference_auc` stores the table for these arguments.

    Example:
        >>> laplace_reference_path("dispersed", [0.0, 8.0], 2, 100).name.startswith(
        ...     "laplace-reference-dispersed__")
        True
    """
    blob = json.dumps([_LAPLACE_REFERENCE_VERSION, geometry, [float(e) for e in epsilons],
                       int(n_pairs), int(draws), int(seed)])
    digest = bytes_hash(blob.encode(), 12)
    return cache_folder() / f"laplace-reference-{geometry}__{digest}.csv"


def laplace_reference_auc(geometry: str, epsilons: Sequence[float] = EPSILON_GRID,
                          n_pairs: int = N_PAIRS, draws: int = 20_000, seed: int = 0,
                          n_jobs: int = 2, cache: bool = True
                          ) -> tuple[pd.DataFrame, pd.Series]:
    """Population-optimal AUC of the Laplace mechanism, per predeclared pair (Monte Carlo).

    A population reference, not a finite-sample bound: how much the mechanism hides,
    whatever the classifier. Stored and read back like a benchmark setting; ``n_jobs``
    changes only the speed. See docs/methods/epsilon-benchmark.md.

    Args:
        geometry: ``"dispersed"`` or ``"clustered"``.
        epsilons: target global ε values (0 gives the exact null, AUC 0.5).
        n_pairs: number of predeclared pairs (the benchmark's list).
        draws: Monte Carlo draws per class (the paper: 20,000).
        seed: base seed (nonnegative integer).
        n_jobs: worker processes (1 runs in this process).
        cache: read and write the stored table.

    Returns:
        ``(table, median)``: one row per (geometry, epsilon, pair) with ``optimal_auc``,
        and its median over pairs per epsilon.

    Raises:
        PrivlabValueError: on a bad geometry, ε list, draws, n_pairs or n_jobs.

    Example:
        >>> table, median = laplace_reference_auc("dispersed", [0.0, 256.0], n_pairs=2,
        ...                                       draws=200, n_jobs=1, cache=False)
        >>> len(table), float(median[0.0]), bool(median[256.0] > 0.5)
        (4, 0.5, True)
    """
    caller = "laplace_reference_auc"
    if geometry not in M.GEOMETRIES:
        raise invalid("geometry", caller, f"one of {M.GEOMETRIES}", geometry)
    if isinstance(epsilons, (str, bytes)) or not hasattr(epsilons, "__iter__"):
        raise invalid("epsilons", caller, "a nonempty list of numbers >= 0", epsilons)
    epsilons = list(epsilons)
    if not epsilons or not all(
            isinstance(e, (int, float, np.integer, np.floating)) and not isinstance(e, bool)
            and math.isfinite(e) and e >= 0 for e in epsilons):
        raise invalid("epsilons", caller, "a nonempty list of finite numbers >= 0", epsilons)
    epsilons = [float(e) for e in epsilons]
    for name, value, low in (("draws", draws, 1), ("seed", seed, 0), ("n_jobs", n_jobs, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise invalid(name, caller, f"an integer >= {low}", value)
    draws, seed, n_jobs = int(draws), int(seed), int(n_jobs)
    protos = prototypes(geometry)
    pairs = select_pairs(protos, n_pairs)
    geometry_key = zlib.crc32(geometry.encode())
    pair_seeds = [int(np.random.SeedSequence([seed, geometry_key, i, j]).generate_state(1)[0])
                  for i, j in pairs]
    path = laplace_reference_path(geometry, epsilons, len(pairs), draws, seed) if cache else None
    table = None if path is None else read_stored(
        path, functools.partial(_reference_problem, geometry=geometry, epsilons=epsilons,
                                pairs=pairs, draws=draws, pair_seeds=pair_seeds),
        "Laplace reference table")
    if table is None:
        args = [(geometry, e, pairs, draws, pair_seeds) for e in epsilons]
        chunks = []
        substep(f"ε values of the {geometry} reference", 0, len(args))
        if n_jobs == 1 or len(args) == 1:
            for a in args:
                chunks.append(_laplace_reference_rows(*a))
                substep(f"ε values of the {geometry} reference", len(chunks), len(args))
        else:
            from joblib import delayed

            for chunk in worker_pool(min(n_jobs, len(args)), return_as="generator")(
                    delayed(_laplace_reference_rows)(*a, os.getpid()) for a in args):
                chunks.append(chunk)
                substep(f"ε values of the {geometry} reference", len(chunks), len(args))
        table = pd.DataFrame([row for chunk in chunks for row in chunk])
        if path is not None:
            store_table(table, path)
    median = table.groupby("epsilon", sort=False)["optimal_auc"].median()
    return table, median
