"""Power of the certificates on the known-ε benchmark's predeclared pairs.

Run with ``python benchmarks/auditor_power.py [--quick] [--jobs 2]``. Every certificate
runs through :func:`privlab.epsilon.benchmark.run_setting` (the 40 predeclared pairs of the
dispersed prototypes, family α = 0.05 per setting) at target ε where the learned reserved
test is neither always nor never informative, n ∈ {100, 300}. Prints, per mechanism,
target ε, n and method, the fraction of pairs with a positive bound and the median bound;
the oracle ``reserved-exact`` (the mechanism's exact likelihood ratio) is the ceiling of
any learned rule. Two comparisons are read off the table: the reserved test with
logistic regression against the same test with the small neural network
(``reserved`` vs ``reserved-mlp``), and DP-Sniper against the reserved test on the same
pairs and rows (``dp-sniper``/``dp-sniper-mlp`` vs ``reserved``/``reserved-mlp``).
Asserts nothing.
"""

from __future__ import annotations

import argparse
import time

import pandas as pd

from privlab.epsilon import benchmark as B

METHODS = ("reserved", "reserved-mlp", "dp-sniper", "dp-sniper-mlp", "reserved-sequential",
           "mmd-finite", "reserved-exact")
TARGETS = {"gaussian": (8.0, 16.0, 32.0), "laplace": (32.0, 64.0, 128.0),
           "anisotropic_gaussian": (8.0, 16.0, 32.0), "randomized_response": (2.0, 8.0)}


def _one(setting: B.Setting, n_pairs: int) -> pd.DataFrame:
    return B.run_setting(setting, methods=METHODS, n_pairs=n_pairs)


def power_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per mechanism, target ε, n and method: fraction positive and median bound."""
    keys = ["mechanism", "epsilon", "n", "method"]
    out = (frame.assign(positive=frame["value"] > 0)
           .groupby(keys, sort=False)
           .agg(pairs=("value", "size"), positive=("positive", "mean"),
                median_bound=("value", "median"), exact_median=("exact_epsilon", "median"))
           .reset_index())
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10 pairs, n = 100, one ε each")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    from joblib import Parallel, delayed

    start = time.perf_counter()
    sizes = (100,) if args.quick else (100, 300)
    n_pairs = 10 if args.quick else B.N_PAIRS
    settings = [B.Setting(m, "dispersed", e, n) for m, eps in TARGETS.items()
                for e in (eps[1:2] if args.quick else eps) for n in sizes]
    frames = Parallel(n_jobs=args.jobs)(delayed(_one)(s, n_pairs) for s in settings)
    table = power_table(pd.concat(frames, ignore_index=True))
    wide = table.pivot_table(index=["mechanism", "epsilon", "n"], columns="method",
                             values="positive", sort=False)[list(METHODS)]
    bounds = table.pivot_table(index=["mechanism", "epsilon", "n"], columns="method",
                               values="median_bound", sort=False)[list(METHODS)]
    with pd.option_context("display.width", 220, "display.max_columns", 20,
                           "display.float_format", "{:.3f}".format):
        print("# fraction of pairs with a positive bound\n", wide.to_string(), sep="")
        print("\n# median bound over pairs\n", bounds.to_string(), sep="")
    print(f"\n({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
