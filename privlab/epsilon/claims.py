"""Claims tested on the known-ε grid: the hockey-stick tester where the truth is known.

Every benchmark setting gets one fixed claim, ε_c = :data:`CLAIM_EPSILON` at the family's
δ; the claim's truth is known pair by pair, so a refuted true claim is a validity failure
and a refuted false claim is power. See docs/methods/epsilon-validity.md.
"""

from __future__ import annotations

import functools
import math
import os
from dataclasses import asdict
from pathlib import Path
from typing import Sequence

import pandas as pd

from privlab.epsilon.auditors.base import Status, registry
from privlab.epsilon.benchmark import BENCHMARK_VERSION, FAMILY_ALPHA, N_PAIRS, Setting, \
    cache_folder, exact_reference, setting_samples
from privlab.epsilon.runtime import auditor_threads
from privlab.epsilon.store import exit_with_parent, read_stored, store_table, worker_pool
from privlab.errors import invalid
from privlab.hashing import settings_hash
from privlab.progress import substep

#: The claimed ε tested in every setting (the hockey-stick member's default claim).
CLAIM_EPSILON = 1.0
#: The columns of a :func:`claim_rows` table, in order.
CLAIM_COLUMNS = ("mechanism", "geometry", "epsilon", "n", "repetition", "delta", "pair_index",
                 "id_a", "id_b", "exact_epsilon", "method", "status", "claim_epsilon",
                 "claim_delta", "claim_true", "reject", "delta_lower", "value", "attainable",
                 "alpha", "seed")


def claim_rows(setting: Setting, claim_epsilon: float = CLAIM_EPSILON, n_pairs: int = N_PAIRS,
               family_alpha: float = FAMILY_ALPHA) -> pd.DataFrame:
    """Test the claim (claim_epsilon, δ of the family) on every predeclared pair of a setting.

    Args:
        setting: the benchmark setting (its samples are those of ``run_setting``).
        claim_epsilon: the claimed ε (≥ 0).
        n_pairs: predeclared pairs.
        family_alpha: simultaneous level of all refutations of the setting.

    Returns:
        DataFrame with :data:`CLAIM_COLUMNS`, one row per pair; ``value`` is the tester's
        lower confidence bound on ε at the family's δ.

    Example:
        >>> f = claim_rows(Setting("laplace", "dispersed", 0.0, 20), n_pairs=2)
        >>> f["claim_true"].tolist(), f["reject"].tolist()
        ([True, True], [False, False])
    """
    if not isinstance(setting, Setting):
        raise invalid("setting", "claim_rows", "a Setting", setting)
    if isinstance(claim_epsilon, bool) or not isinstance(claim_epsilon, (int, float)) \
            or not math.isfinite(claim_epsilon) or claim_epsilon < 0:
        raise invalid("claim_epsilon", "claim_rows", "a finite number >= 0", claim_epsilon)
    mech, pairs, samples = setting_samples(setting, n_pairs)
    alpha = family_alpha / (2 * len(pairs))
    claim = float(claim_epsilon)
    tester = registry.create("hockey-stick", epsilon=claim, delta=setting.delta, alpha=alpha)
    rows = []
    with auditor_threads():
        for k, (i, j) in enumerate(pairs):
            exact = exact_reference(mech, i, j)
            r = tester.audit(samples[i], samples[j], delta=setting.delta, seed=setting.seed + k)
            rows.append({**asdict(setting), "delta": setting.delta, "pair_index": k, "id_a": i,
                         "id_b": j, "exact_epsilon": exact, "method": "hockey-stick",
                         "status": r.status.value, "claim_epsilon": claim,
                         "claim_delta": setting.delta,
                         "claim_true": bool(exact <= claim + 1e-12),
                         "reject": bool(r.details["reject"]),
                         "delta_lower": float(r.details["delta_lower"]), "value": r.value,
                         "attainable": float(r.details["attainable"]), "alpha": alpha,
                         "seed": setting.seed + k})
    return pd.DataFrame(rows, columns=list(CLAIM_COLUMNS))


def claims_path(setting: Setting, claim_epsilon: float = CLAIM_EPSILON, n_pairs: int = N_PAIRS,
                family_alpha: float = FAMILY_ALPHA) -> Path:
    """Where :func:`run_claims` stores one setting's claim table."""
    digest = settings_hash({"version": BENCHMARK_VERSION, "claims": 1, "setting": asdict(setting),
                            "claim_epsilon": float(claim_epsilon), "n_pairs": int(n_pairs),
                            "family_alpha": float(family_alpha)}, 12)
    return cache_folder() / f"claims-{setting.key()}__{digest}.csv"


def _problem(frame: pd.DataFrame, setting: Setting, n_pairs: int) -> str | None:
    """Why ``frame`` is not the claim table of ``setting`` (None when it is)."""
    if tuple(frame.columns) != CLAIM_COLUMNS:
        return f"its columns are {list(frame.columns)}, not {list(CLAIM_COLUMNS)}"
    if len(frame) != n_pairs:
        return f"it has {len(frame)} rows, expected {n_pairs}"
    if any((frame[k] != v).any() for k, v in asdict(setting).items()):
        return f"its rows are not those of setting {setting.key()}"
    return None


def _run_and_store(setting, claim_epsilon, n_pairs, family_alpha, path, parent):
    """One setting's claims in a worker, stored (the worker dies with its parent)."""
    exit_with_parent(parent)
    frame = claim_rows(setting, claim_epsilon, n_pairs, family_alpha)
    if path is not None:
        store_table(frame, path)
    return frame


def run_claims(settings: Sequence[Setting], claim_epsilon: float = CLAIM_EPSILON,
               n_pairs: int = N_PAIRS, family_alpha: float = FAMILY_ALPHA, n_jobs: int = 2,
               cache: bool = True) -> pd.DataFrame:
    """:func:`claim_rows` for many settings, on ``n_jobs`` processes, stored and resumed.

    Returns:
        The concatenated claim tables, in the order of ``settings`` (duplicates once).
    """
    settings = list(dict.fromkeys(settings))
    if not settings or not all(isinstance(s, Setting) for s in settings):
        raise invalid("settings", "run_claims", "a nonempty list of Setting", settings)
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs < 1:
        raise invalid("n_jobs", "run_claims", "a positive integer", n_jobs)
    frames, todo = {}, []
    for s in settings:
        path = claims_path(s, claim_epsilon, n_pairs, family_alpha) if cache else None
        stored = None if path is None else read_stored(
            path, functools.partial(_problem, setting=s, n_pairs=n_pairs), "claim table")
        if stored is not None:
            frames[s] = stored
        else:
            todo.append((s, path))
    parent = os.getpid()
    if frames:  # said, so that a quick stage is not taken for a skipped one
        substep("settings read from the store", len(frames), len(settings))
    if n_jobs == 1 or len(todo) <= 1:
        for s, path in todo:
            substep("settings done", len(frames), len(settings))
            frames[s] = _run_and_store(s, claim_epsilon, n_pairs, family_alpha, path, parent)
    else:
        from joblib import delayed

        substep("settings done", len(frames), len(settings))
        jobs = (delayed(_run_and_store)(s, claim_epsilon, n_pairs, family_alpha, path, parent)
                for s, path in todo)
        for (s, _), frame in zip(todo, worker_pool(min(n_jobs, len(todo)),
                                                   return_as="generator")(jobs)):
            frames[s] = frame
            substep("settings done", len(frames), len(settings))
    substep("settings done", len(settings), len(settings))
    return pd.concat([frames[s] for s in settings], ignore_index=True)


def claim_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per mechanism, requested ε and n: refutations of true and of false claims.

    Returns:
        DataFrame indexed by (mechanism, epsilon, n): ``claim ε``, ``true claims refuted``
        and ``false claims refuted`` ("count/claims"), and the median lower bound on ε.
    """
    out = {}
    for key, g in frame.groupby(["mechanism", "epsilon", "n"], sort=True):
        true, false = g[g["claim_true"]], g[~g["claim_true"]]
        out[key] = {"status": Status.CERTIFICATE.value,
                    "claim ε": float(g["claim_epsilon"].iloc[0]),
                    "true claims refuted": f"{int(true['reject'].sum())}/{len(true)}",
                    "false claims refuted": f"{int(false['reject'].sum())}/{len(false)}",
                    "median ε_L": float(g["value"].median())}
    table = pd.DataFrame.from_dict(out, orient="index")
    if len(table):
        table.index = pd.MultiIndex.from_tuples(table.index, names=["mechanism", "epsilon", "n"])
    return table


__all__ = ["CLAIM_COLUMNS", "CLAIM_EPSILON", "claim_rows", "claim_summary", "claims_path",
           "run_claims"]
