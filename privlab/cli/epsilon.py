"""``privlab epsilon-benchmark``: one (or a few) known-ε benchmark settings to CSV.

    privlab epsilon-benchmark --mechanism laplace --geometry dispersed --epsilon 0 \\
        --n 100 --repetition 0 --out table.csv

Each setting yields one row per identity pair and method, with the exact pairwise ε, the
method's value and its status (diagnostic, uncertified population bound, descriptive or
finite-sample certificate). Finished settings are stored in the cache, so repeating a
command, or a sweep over several values, only computes what is missing.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers) -> None:
    """Add the ``epsilon-benchmark`` subcommand."""
    from privlab.epsilon.benchmark import BENCHMARK_METHODS, DEFAULT_METHODS, N_PAIRS
    from privlab.epsilon.mechanisms import GEOMETRIES, MECHANISMS

    parser = subparsers.add_parser(
        "epsilon-benchmark", help="run known-ε benchmark settings and write a tidy CSV",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mechanism", nargs="+", choices=MECHANISMS, default=["laplace"])
    parser.add_argument("--geometry", nargs="+", choices=GEOMETRIES, default=["dispersed"])
    parser.add_argument("--epsilon", nargs="+", type=float, default=[0.0],
                        help="target global ε values (0 is the exact null)")
    parser.add_argument("--n", nargs="+", type=int, default=[100],
                        help="outputs per identity")
    parser.add_argument("--repetition", nargs="+", type=int, default=[0])
    parser.add_argument("--methods", nargs="+", choices=BENCHMARK_METHODS,
                        default=list(DEFAULT_METHODS))
    parser.add_argument("--pairs", type=int, default=N_PAIRS, help="identity pairs per setting")
    parser.add_argument("--mmd-permutations", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the store")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--out", type=Path, required=True, help="CSV file to write")
    parser.set_defaults(handler=run)


def run(args) -> int:
    """Run the requested grid and write the CSV; prints a per-method summary."""
    from privlab.epsilon.benchmark import grid, per_setting, run_sweep

    settings = grid(args.mechanism, args.geometry, args.epsilon, args.n, args.repetition)
    frame = run_sweep(settings, methods=args.methods, n_pairs=args.pairs,
                      mmd_permutations=args.mmd_permutations, n_jobs=args.jobs,
                      cache=not args.no_cache, progress=not args.quiet)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(args.out, index=False)
    summary = per_setting(frame)[["mechanism", "geometry", "epsilon", "n", "repetition",
                                  "method", "status", "median", "infinite", "exact_median"]]
    print(summary.to_string(index=False))
    print(f"wrote {len(frame)} rows to {args.out}")
    return 0
