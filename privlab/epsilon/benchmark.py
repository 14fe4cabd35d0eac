"""The known-ε benchmark: every auditor on mechanisms whose pairwise ε is exact.

:func:`run_setting` audits the predeclared pairs of one setting (mechanism, geometry, ε,
n, repetition) into a tidy table with the exact ε beside each value; :func:`run_sweep`
runs many settings on several processes and resumes from an on-disk store. See
docs/methods/epsilon-benchmark.md.
"""

from __future__ import annotations

import functools
import math
import os
from dataclasses import asdict
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pandas as pd

import privlab.epsilon.mechanisms as M
from privlab.config import cache_dir
from privlab.epsilon.auditors.base import AuditResult, Status, registry
from privlab.epsilon.auditors.kde import KDELR
from privlab.epsilon.auditors.mmd import MMDTV
from privlab.epsilon.auditors.reserved import ReservedTest
from privlab.epsilon.auditors.table import AUDITORS, get_auditor
from privlab.epsilon.benchmark_grid import (  # noqa: F401  (re-exported)
    ANISOTROPIC_GRID,
    EPSILON_GRID,
    EXACT_ROUNDING,
    FAMILY_ALPHA,
    MAX_N,
    MMD_PERMUTATIONS,
    N_PAIRS,
    REPETITIONS,
    RR_GRID_EPSILONS,
    SAMPLE_SIZES,
    VALIDITY_GRID,
    Setting,
    exact_reference,
    format_epsilon,
    grid,
    prototypes,
    select_pairs,
)
from privlab.epsilon.benchmark_power import power_experiment  # noqa: F401  (re-exported)
from privlab.epsilon.runtime import auditor_threads
from privlab.epsilon.store import exit_with_parent, read_stored, store_table, tick_file, \
    tick_folder, ticked_results, worker_pool
from privlab.epsilon.summaries import (  # noqa: F401  (re-exported)
    PAPER_TABLE4,
    method_curves,
    null_table,
    per_setting,
    power_curves,
    validity_summary,
)
from privlab.errors import invalid
from privlab.hashing import settings_hash
from privlab.progress import listening, substep

DEFAULT_METHODS = ("gaussmech", "kde-lr", "kde-lr-0.01", "mmd-tv", "roc-ht", "reserved",
                   "reserved-exact")


def benchmark_methods() -> tuple[str, ...]:
    """The methods :func:`run_setting` accepts: auditors registered with ``benchmark=True``.

    Returns:
        Registry names in registration order, the oracle ``reserved-exact`` included.

    Example:
        >>> benchmark_methods()[5:7]
        ('reserved', 'reserved-exact')
    """
    return tuple(registry.names(benchmark=True))


#: :func:`benchmark_methods` when the built-in auditors are registered (widgets, the CLI).
BENCHMARK_METHODS = benchmark_methods()
#: Version of the code behind a stored setting (:func:`run_setting`, the mechanisms and
#: the auditors). It is part of every cache key: bump it whenever any of them changes what
#: a setting computes, so no stored result of the old code is read back.
BENCHMARK_VERSION = 4  # 4: exact discrete Laplace on a grid (the Laplace member's samples)
#: The columns of a :func:`run_setting` table, in order. ``alpha`` is the per-test level
#: of a certificate row (NaN for the other statuses); ``alpha_tests`` is the number of
#: tests (error rates) of that method in the setting the family level is split over.
TABLE_COLUMNS = ("mechanism", "geometry", "epsilon", "n", "repetition", "delta", "pair_index",
                 "id_a", "id_b", "l1", "l2", "exact_epsilon", "method", "status", "value",
                 "auc", "corner", "attainable", "optimal_auc", "mmd_tighter", "p_value",
                 "alpha", "alpha_tests", "seed")
# Columns a finished table never leaves empty (the others are NaN when a method has no
# such quantity); a NaN there means the stored file was cut or edited.
_NOT_NULL = ("mechanism", "geometry", "epsilon", "n", "repetition", "delta", "pair_index",
             "id_a", "id_b", "l1", "l2", "exact_epsilon", "method", "status", "corner", "seed")


def bounds_per_pair(name: str) -> int | None:
    """How many tests (error rates) a certificate method spends on one pair; None otherwise.

    The reserved tests bound two error rates per pair; another certificate member states
    its count with the registry metadata ``bounds_per_pair`` (2 when it does not say: the
    smaller per-test α is the safe side).

    Example:
        >>> bounds_per_pair("reserved"), bounds_per_pair("gaussmech")
        (2, None)
    """
    meta = registry.entry(name).meta
    if meta.get("status") is not Status.CERTIFICATE:
        return None
    return int(meta.get("bounds_per_pair", 2))


def _takes(factory, parameter: str) -> bool:
    """Whether ``factory`` accepts a parameter of that name."""
    import inspect

    try:
        return parameter in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


def _auditor_for(name: str, mech, i: int, j: int, alpha: float, mmd_permutations: int):
    """The auditor ``name`` for one pair, at the setting's per-test α."""
    if name == "mmd-tv":
        return MMDTV(permutations=mmd_permutations)
    entry = registry.entry(name)
    kwargs = {}
    if entry.meta.get("oracle"):
        # an oracle scores with the mechanism's exact likelihood ratio of this pair
        kwargs["scorer"] = functools.partial(_llr, mech, i, j)
    if entry.meta.get("status") is Status.CERTIFICATE and _takes(entry.factory, "alpha"):
        kwargs["alpha"] = alpha
    if entry.factory is ReservedTest or kwargs:
        return registry.create(name, **kwargs)
    return get_auditor(name)


def _llr(mech, i, j, x):
    """The mechanism's exact log-likelihood ratio of the pair (a picklable scorer)."""
    return mech.log_likelihood_ratio(x, i, j)


def _shared_kde(methods, a, b) -> dict[str, AuditResult]:
    """KDE-LR results for every requested smoothing weight from one density pass."""
    built = {m: AUDITORS.get(m) for m in methods}
    names = [m for m in methods if isinstance(built[m], KDELR)]
    if len(names) < 2:
        return {}
    auditors = [built[m] for m in names]
    per = auditors[0].per_coordinate_alphas(a, b, [x.alpha for x in auditors])
    return {name: AuditResult(name, aud.status, float(row.sum()),
                              {"max_coordinate": float(row.max())}, aud.settings())
            for name, aud, row in zip(names, auditors, per)}


def _check_methods(methods: Sequence[str], caller: str) -> tuple[str, ...]:
    """A nonempty tuple of benchmark method names."""
    known = benchmark_methods()
    if isinstance(methods, str) or not len(methods):
        raise invalid("methods", caller, f"a nonempty list from {known}", methods)
    for m in methods:
        if m not in known:
            raise invalid("methods", caller, f"names from {known}", m)
    return tuple(methods)


def run_setting(setting: Setting, methods: Sequence[str] = DEFAULT_METHODS,
                n_pairs: int = N_PAIRS, mmd_permutations: int = MMD_PERMUTATIONS,
                family_alpha: float = FAMILY_ALPHA, *,
                pair_done: Callable[[], None] | None = None) -> pd.DataFrame:
    """Run one benchmark setting and return its tidy table.

    Args:
        setting: the grid cell.
        methods: names from :func:`benchmark_methods` (``reserved-exact`` is the oracle
            test that scores with the mechanism's exact likelihood ratio).
        n_pairs: number of predeclared pairs.
        mmd_permutations: permutations for MMD-TV's test (0 skips it; default 10^4).
        family_alpha: simultaneous level of each certificate method over all pairs,
            split over its tests (:func:`bounds_per_pair` per pair).
        pair_done: called after each pair is audited (progress; None: nothing).

    Returns:
        DataFrame with :data:`TABLE_COLUMNS`, one row per pair and method.

    Raises:
        PrivlabValueError: on unknown methods or a bad setting.

    Example:
        >>> s = Setting("gaussian", "dispersed", 1.0, 10)
        >>> f = run_setting(s, methods=["gaussmech"], n_pairs=2)
        >>> list(f["method"]), bool((f["exact_epsilon"] <= 1.0 + 1e-9).all())
        (['gaussmech', 'gaussmech'], True)
    """
    if not isinstance(setting, Setting):
        raise invalid("setting", "run_setting", "a Setting", setting)
    methods = _check_methods(methods, "run_setting")
    mech, pairs, samples = setting_samples(setting, n_pairs)
    # Bonferroni per certificate method over every test of every pair of this setting
    family = {}
    for name in methods:
        per_pair = bounds_per_pair(name)
        family[name] = (per_pair * len(pairs), family_alpha / (per_pair * len(pairs))) \
            if per_pair else (math.nan, math.nan)
    rows = []
    with auditor_threads():
        for k, (i, j) in enumerate(pairs):
            rows.extend(_pair_rows(setting, methods, mech, k, i, j, samples, family,
                                   mmd_permutations))
            if pair_done is not None:
                pair_done()
    return pd.DataFrame(rows, columns=list(TABLE_COLUMNS))


def setting_samples(setting: Setting, n_pairs: int = N_PAIRS):
    """The mechanism, the predeclared pairs and every identity's outputs of one setting.

    Drawn from the setting's seed, so every method sees the same samples.

    Returns:
        ``(mechanism, pairs, {identity: array (n, d)})``.
    """
    protos = prototypes(setting.geometry)
    mech = M.build_mechanism(setting.mechanism, protos, setting.epsilon)
    pairs = select_pairs(protos, n_pairs)
    rng = np.random.default_rng(setting.seed)
    ids = sorted({i for p in pairs for i in p})
    return mech, pairs, {i: mech.sample(i, setting.n, rng) for i in ids}


def _pair_rows(setting, methods, mech, k, i, j, samples, family, mmd_permutations):
    """The rows of one pair: every method on the same samples."""
    c = mech.prototypes.prototypes
    l1 = float(np.abs(c[i] - c[j]).sum())
    l2 = float(np.linalg.norm(c[i] - c[j]))
    opt_auc = math.nan
    if isinstance(mech, M.GaussianMechanism):
        opt_auc = M.optimal_auc_gaussian(l2, mech.sigma)
    elif isinstance(mech, M.AnisotropicGaussianMechanism):
        opt_auc = M.optimal_auc_gaussian(mech.pair_distance(i, j), mech.scale)
    elif isinstance(mech, M.NullMechanism):
        opt_auc = 0.5
    common = {**asdict(setting), "delta": setting.delta, "pair_index": k, "id_a": i, "id_b": j,
              "l1": l1, "l2": l2, "exact_epsilon": exact_reference(mech, i, j)}
    kde = _shared_kde(methods, samples[i], samples[j])
    seed = setting.seed + k
    rows = []
    for name in methods:
        alpha = family[name][1]
        if name in kde:
            r = kde[name]
        else:
            auditor = _auditor_for(name, mech, i, j, alpha, mmd_permutations)
            r = auditor.audit(samples[i], samples[j], delta=setting.delta, seed=seed)
            if not math.isnan(family[name][0]):  # a certificate: the level it really used
                alpha = float(getattr(auditor, "alpha", alpha))
        d = r.details
        rows.append({**common, "method": name, "status": r.status.value, "value": r.value,
                     "auc": d.get("auc", math.nan), "corner": bool(d.get("corner", False)),
                     "attainable": d.get("attainable", math.nan), "optimal_auc": opt_auc,
                     "mmd_tighter": d.get("tighter", math.nan),
                     "p_value": d.get("p_value", math.nan), "alpha": alpha,
                     "alpha_tests": family[name][0], "seed": seed})
    return rows


def cache_folder() -> Path:
    """Where finished settings are stored (``<cache>/epsilon-benchmark``)."""
    path = cache_dir() / "epsilon-benchmark"
    path.mkdir(parents=True, exist_ok=True)
    return path


def setting_path(setting: Setting, methods: Sequence[str] = DEFAULT_METHODS,
                 n_pairs: int = N_PAIRS, mmd_permutations: int = MMD_PERMUTATIONS,
                 family_alpha: float = FAMILY_ALPHA) -> Path:
    """Where :func:`run_sweep` stores one setting: its readable key, then a hash.

    The hash covers the setting, every option and :data:`BENCHMARK_VERSION`.

    Example:
        >>> a = setting_path(Setting("laplace", "dispersed", 1.0, 100))
        >>> b = setting_path(Setting("laplace", "dispersed", 1.0000001, 100))
        >>> a.name.startswith("laplace-dispersed-eps1-n100-r0__"), a == b
        (True, False)
    """
    digest = settings_hash({"version": BENCHMARK_VERSION, "setting": asdict(setting),
                            "methods": list(methods), "n_pairs": int(n_pairs),
                            "mmd_permutations": int(mmd_permutations),
                            "family_alpha": float(family_alpha)}, 12)
    return cache_folder() / f"{setting.key()}__{digest}.csv"


def _setting_problem(frame: pd.DataFrame, setting: Setting, methods, n_pairs) -> str | None:
    """Why ``frame`` is not the finished table of ``setting`` (None when it is)."""
    if tuple(frame.columns) != TABLE_COLUMNS:
        return f"its columns are {list(frame.columns)}, not {list(TABLE_COLUMNS)}"
    if len(frame) != n_pairs * len(methods):
        return f"it has {len(frame)} rows, expected {n_pairs * len(methods)}"
    empty = [c for c in _NOT_NULL if frame[c].isna().any()]
    if empty:
        return f"columns {empty} have missing values"
    if any((frame[k] != v).any() for k, v in asdict(setting).items()):
        return f"its rows are not those of setting {setting.key()}"
    if sorted(zip(frame["pair_index"], frame["method"])) != sorted(
            (k, m) for k in range(n_pairs) for m in methods):
        return "its (pair, method) rows are not the expected ones"
    return None


def _run_and_store(setting: Setting, methods, n_pairs, mmd_permutations, family_alpha,
                   path: Path | None, parent: int, pair_done=None) -> pd.DataFrame:
    """One setting in a worker: run it and store it (the worker dies with its parent)."""
    exit_with_parent(parent)
    frame = run_setting(setting, methods, n_pairs, mmd_permutations, family_alpha,
                        pair_done=pair_done)
    if path is not None:
        store_table(frame, path)
    return frame


def _check_options(settings, n_pairs, mmd_permutations, family_alpha, n_jobs, caller) -> None:
    """Refuse bad sweep options before anything is computed."""
    if not settings or not all(isinstance(s, Setting) for s in settings):
        raise invalid("settings", caller, "a nonempty list of Setting", settings)
    for g in dict.fromkeys(s.geometry for s in settings):
        select_pairs(prototypes(g), n_pairs)  # refuses a bad n_pairs, naming it
    if isinstance(mmd_permutations, bool) or not isinstance(mmd_permutations, (int, np.integer)) \
            or mmd_permutations < 0:
        raise invalid("mmd_permutations", caller, "an integer >= 0", mmd_permutations)
    if isinstance(family_alpha, bool) or not isinstance(family_alpha, (int, float)) \
            or not 0 < family_alpha < 1:
        raise invalid("family_alpha", caller, "a number in (0, 1)", family_alpha)
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs < 1:
        raise invalid("n_jobs", caller, "a positive integer", n_jobs)


def run_sweep(settings: Sequence[Setting], methods: Sequence[str] = DEFAULT_METHODS,
              n_pairs: int = N_PAIRS, mmd_permutations: int = MMD_PERMUTATIONS,
              family_alpha: float = FAMILY_ALPHA, n_jobs: int = 2, cache: bool = True,
              progress: bool = True) -> pd.DataFrame:
    """Run many settings; resume from the on-disk store; show a progress bar.

    A stored setting that fails its checks is recomputed with a ``RuntimeWarning``
    naming the file.

    Args:
        settings: the settings to run (e.g. from :func:`grid`).
        methods: method names, as for :func:`run_setting`.
        n_pairs: pairs per setting.
        mmd_permutations: MMD permutation count (0 skips the test; default 10^4).
        family_alpha: simultaneous level of each reserved test.
        n_jobs: worker processes (1 runs in this process).
        cache: read and write the store.
        progress: show a tqdm progress bar.

    Returns:
        The concatenated tidy table of all settings.

    Raises:
        PrivlabValueError: on malformed settings, methods or options, before any work.
    """
    if isinstance(settings, Setting) or not hasattr(settings, "__iter__"):
        raise invalid("settings", "run_sweep", "a nonempty list of Setting", settings,
                      "Wrap a single Setting in a list: [setting].")
    settings = list(settings)
    _check_options(settings, n_pairs, mmd_permutations, family_alpha, n_jobs, "run_sweep")
    methods = _check_methods(methods, "run_sweep")
    options = (methods, n_pairs, mmd_permutations, family_alpha)
    frames: dict[Setting, pd.DataFrame] = {}
    todo = []
    for s in dict.fromkeys(settings):
        path = setting_path(s, *options) if cache else None
        stored = None if path is None else read_stored(
            path, functools.partial(_setting_problem, setting=s, methods=methods,
                                    n_pairs=n_pairs), "ε-benchmark setting")
        if stored is not None:
            frames[s] = stored
        else:
            todo.append((s, path))
    from tqdm.auto import tqdm

    bar = tqdm(total=len(frames) + len(todo), initial=len(frames), desc="ε benchmark",
               disable=not progress, unit="setting")
    # Progress in pairs audited (a setting of many pairs takes up to a minute on two busy
    # cores); settings read from the store count as all their pairs.
    total = (len(frames) + len(todo)) * n_pairs
    if frames:  # said, so that a quick sweep is not taken for a skipped one
        substep("settings read from the store", len(frames), len(frames) + len(todo))
    parent = os.getpid()
    if n_jobs == 1 or len(todo) <= 1:
        for s, path in todo:
            start = len(frames) * n_pairs
            substep("pairs audited", start, total)
            counted = iter(range(start + 1, start + n_pairs + 1))
            frames[s] = _run_and_store(s, *options, path, parent, pair_done=lambda: substep(
                "pairs audited", min(next(counted, total), total), total))
            bar.update(1)
    else:
        from joblib import delayed

        substep("pairs audited", len(frames) * n_pairs, total)
        pool = worker_pool(min(n_jobs, len(todo)), return_as="generator")
        if not listening():  # nobody to tell: the pool's results as they come
            jobs = (delayed(_run_and_store)(s, *options, path, parent) for s, path in todo)
            for (s, _), frame in zip(todo, pool(jobs)):
                frames[s] = frame
                bar.update(1)
        else:  # the workers count their pairs in files this process reads while it waits
            with tick_folder() as folder:
                jobs = [delayed(_run_and_store)(s, *options, path, parent, functools.partial(
                    tick_file, str(folder / str(k)))) for k, (s, path) in enumerate(todo)]
                stored = len(frames) * n_pairs
                results = ticked_results(lambda: pool(jobs), folder, lambda pairs: substep(
                    "pairs audited", min(stored + pairs, total), total))
                for (s, _), frame in zip(todo, results):
                    frames[s] = frame
                    bar.update(1)
    substep("pairs audited", total, total)
    bar.close()
    return pd.concat([frames[s] for s in settings], ignore_index=True)
