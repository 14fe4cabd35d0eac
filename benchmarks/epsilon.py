"""Timings of the known-ε benchmark: the Table 4 sub-grid and one setting per auditor.

Run with ``python benchmarks/epsilon.py [--quick]``. Prints wall times so the slow step
is visible; asserts nothing. The store is bypassed (``cache=False``) so every number is
a fresh computation. Every auditor runs under the runner's thread limit
(:func:`privlab.epsilon.runtime.auditor_threads`, applied inside
:func:`privlab.epsilon.benchmark.run_setting`), so a time here is what one sweep worker
spends. MMD-TV runs its permutation test with ``--mmd-permutations`` permutations (the
paper's 10^4 by default; ``--quick`` uses 1,000 and says so).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from privlab.epsilon import benchmark as B
from privlab.epsilon import mechanisms as M
from privlab.epsilon.runtime import AUDITOR_THREADS, auditor_threads


def _time(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - start, out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="one repetition, 10 pairs, n in {30, 100}, 1,000 permutations")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--mmd-permutations", type=int, default=None,
                        help=f"MMD permutations (default {B.MMD_PERMUTATIONS}; --quick 1000)")
    args = parser.parse_args(argv)

    n_pairs = 10 if args.quick else B.N_PAIRS
    sizes = (30, 100) if args.quick else B.SAMPLE_SIZES
    perms = args.mmd_permutations if args.mmd_permutations is not None else (
        1000 if args.quick else B.MMD_PERMUTATIONS)
    print(f"# auditors run with {AUDITOR_THREADS} thread per library and process; "
          f"MMD-TV with {perms} permutations")

    print(f"# one full-grid setting per auditor (laplace, dispersed, ε = 1, {n_pairs} pairs)")
    for n in sizes:
        setting = B.Setting("laplace", "dispersed", 1.0, n)
        for method in B.benchmark_methods():
            seconds, _ = _time(B.run_setting, setting, [method], n_pairs, perms)
            print(f"n={n:>3}  {method:<15} {seconds:7.2f} s  ({seconds / n_pairs * 1e3:6.1f} ms/pair)")
        seconds, _ = _time(B.run_setting, setting, B.DEFAULT_METHODS, n_pairs, perms)
        print(f"n={n:>3}  {'all default':<15} {seconds:7.2f} s")

    print("\n# population references (per pair)")
    protos = B.prototypes("dispersed")
    lap = M.LaplaceMechanism(protos, 8.0)
    with auditor_threads():
        seconds, _ = _time(M.optimal_auc_monte_carlo, lap, *protos.l1_pair, draws=20_000)
    print(f"Laplace Monte Carlo optimal AUC (20,000 draws/class): {seconds:.2f} s")

    reps = (0,) if args.quick else B.REPETITIONS
    settings = B.grid(epsilons=[0.0], sizes=sizes, repetitions=reps)
    print(f"\n# Table 4 sub-grid: {len(settings)} settings, {n_pairs} pairs, {args.jobs} jobs")
    seconds, frame = _time(B.run_sweep, settings, n_pairs=n_pairs, mmd_permutations=perms,
                           n_jobs=args.jobs, cache=False, progress=False)
    print(f"Table 4 sub-grid: {seconds:.1f} s ({seconds / len(settings):.1f} s/setting)")
    print(B.null_table(frame).round(3).to_string())
    print(f"\nrows: {len(frame)}; finite values: {np.isfinite(frame['value']).mean():.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
