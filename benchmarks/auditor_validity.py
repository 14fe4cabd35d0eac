"""Validity of the finite-sample auditors: tight cases first, with the power to see a fault.

Run with ``nice -n 10 python benchmarks/auditor_validity.py [--quick] [--jobs 2]``.

1. **Tight sweep** (:func:`privlab.epsilon.validity.tight_sweep`): 1-d Laplace and
   two-output randomized response, where every region attains the exact ε, at
   α = 0.025 per bound (each certificate promises a violation rate ≤ 2α = 0.05), ε in
   {0.5, 1, 2, 4}, n in {100, 300, 1000}, ``--reps`` fresh replicates per cell. Prints per
   method the violation rate among informative evaluations (largest attainable bound
   above ε) with one-sided exact 95 % bounds beside the nominal 0.05, and the cells that
   carry no information.
2. **Power check**: the fixed-region certificate (nothing learned, so the exact
   violation probability of a valid bound is known) over the same cells, ``--fixed-reps``
   replicates each, with the library's Clopper–Pearson bound and with a deliberately
   off-by-one one (Beta(k, n − k + 1)); a one-sided p-value against the valid
   probability says whether the sweep tells them apart.
3. ``--grid``: the known-ε benchmark grid (each certificate at the benchmark's family α),
   counting bounds above the exact ε (half an hour on two cores; most bounds there sit
   far below ε, so these counts have little power).

Prints tables; asserts nothing (tests/epsilon/test_validity.py asserts, on a smaller
sweep).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

import privlab.epsilon.auditors as A
from privlab.epsilon import benchmark as B
from privlab.epsilon import validity as V
from privlab.epsilon.auditors.bounds import clopper_pearson_upper

METHODS = ("dp-sniper", "mmd-finite", "reserved-sequential")
#: The neural-network methods cost seconds per pair: they run at the smaller sizes only.
MLP_METHODS = ("reserved-mlp", "dp-sniper-mlp")
MLP_SIZES = (30, 100)
TOL = 1e-9
COLUMNS = ("mechanism", "epsilon", "n", "method", "value", "exact_epsilon", "attainable")


def _grid_block(setting: B.Setting, n_pairs: int) -> pd.DataFrame:
    methods = METHODS + (MLP_METHODS if setting.n in MLP_SIZES else ())
    frame = B.run_setting(setting, methods=methods, n_pairs=n_pairs)
    rows = frame[["mechanism", "epsilon", "n", "method", "value", "exact_epsilon", "attainable"]]
    mech, pairs, samples = B.setting_samples(setting, n_pairs)
    alpha = B.FAMILY_ALPHA / (2 * len(pairs))
    claims = []
    for k, (i, j) in enumerate(pairs):
        exact = B.exact_reference(mech, i, j)
        tester = A.HockeyStickTester(epsilon=exact, delta=setting.delta, alpha=alpha)
        r = tester.audit(samples[i], samples[j], delta=setting.delta, seed=setting.seed + k)
        claims.append({"mechanism": setting.mechanism, "epsilon": setting.epsilon,
                       "n": setting.n, "method": "hockey-stick", "value": r.value,
                       "exact_epsilon": exact, "attainable": r.details["attainable"]})
        claims.append({"mechanism": setting.mechanism, "epsilon": setting.epsilon,
                       "n": setting.n, "method": "hockey-stick (true claim refuted)",
                       "value": float(r.details["reject"]), "exact_epsilon": 0.0,
                       "attainable": 1.0})
    return pd.concat([rows, pd.DataFrame(claims)], ignore_index=True)


def summarise(frame: pd.DataFrame) -> pd.DataFrame:
    out = []
    for method, g in frame.groupby("method", sort=True):
        violations = int((g["value"] > g["exact_epsilon"] + TOL).sum())
        possible = int((g["attainable"] > g["exact_epsilon"]).sum())
        out.append({"method": method, "evaluations": len(g), "possible": possible,
                    "violations": violations,
                    "rate_upper_95": clopper_pearson_upper(violations, possible, 0.05)
                    if possible else np.nan})
    return pd.DataFrame(out)


def _tight(args) -> None:
    start = time.perf_counter()
    epsilons, sizes = (1.0, 2.0), (100, 300)
    reps, fixed_reps = (4, 300) if args.quick else (args.reps, args.fixed_reps)
    if not args.quick:
        epsilons, sizes = (0.5, 1.0, 2.0, 4.0), (100, 300, 1000)
    frame = V.tight_sweep(epsilons, sizes, reps, alpha=V.TIGHT_ALPHA, n_jobs=args.jobs)
    table = V.violation_table(frame)
    cells = V.cell_table(frame)
    empty = cells[cells["informative"] == 0]
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(f"tight 1-d cases, α = {V.TIGHT_ALPHA} per bound (nominal violation rate "
              f"2α = {2 * V.TIGHT_ALPHA:g}), ε in {epsilons}, n in {sizes}, {reps} replicates "
              "per cell; rate among informative evaluations, one-sided exact 95 % bounds:")
        print(table.round(4).to_string(index=False))
        print("\ncells with no information (no bound there could exceed the exact ε):")
        for (e, n), g in empty.groupby(["epsilon", "n"]):
            print(f"  ε = {e:g}, n = {n}: " + ", ".join(f"{m} ({c})" for m, c in
                                                      zip(g["method"], g["case"])))
    print(f"({time.perf_counter() - start:.0f} s)")
    start = time.perf_counter()
    for label, upper in (("library Clopper–Pearson", None),
                         ("off-by-one Clopper–Pearson (Beta(k, n−k+1))", V.off_by_one_upper)):
        power = V.power_table(V.fixed_region_sweep(epsilons, sizes, fixed_reps, upper=upper))
        pooled = power.iloc[-1]
        print(f"\nfixed region x > 1, {label}: {int(pooled['violations'])} violations in "
              f"{int(pooled['reps'])} runs, {pooled['expected']:.1f} expected of a valid bound, "
              f"one-sided p = {pooled['p_value']:.2g}")
        print(power.iloc[:-1].round(4).to_string(index=False))
    print(f"({time.perf_counter() - start:.0f} s)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few settings only")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--reps", type=int, default=30,
                        help="replicates per (ε, n) cell of the tight sweep")
    parser.add_argument("--fixed-reps", type=int, default=2000,
                        help="replicates per cell of the fixed-region power check")
    parser.add_argument("--grid", action="store_true",
                        help="also run the known-ε benchmark grid (half an hour)")
    parser.add_argument("--store", default=None,
                        help="CSV file that keeps finished grid blocks, so a rerun resumes")
    args = parser.parse_args(argv)
    _tight(args)
    if args.grid:
        _grid(args)
    return 0


def _grid(args) -> None:
    from joblib import Parallel, delayed

    start = time.perf_counter()
    if args.quick:
        settings = B.grid(["laplace", "gaussian"], ["dispersed"], [0.0, 1.0], [30], [0])
        n_pairs = 4
    else:
        settings = B.grid(["laplace", "gaussian", "randomized_response", "anisotropic_gaussian"],
                          ["dispersed", "clustered"], [0.0, 0.5, 1.0, 2.0, 4.0], [30, 100, 300],
                          [0])
        n_pairs = 10
    keys = [("grid", s.key()) for s in settings]
    jobs = [delayed(_grid_block)(s, n_pairs) for s in settings]
    store = Path(args.store) if args.store else None
    done = {}
    if store is not None and store.exists():  # resume: blocks already computed
        old = pd.read_csv(store)
        done = {k: g.drop(columns="block") for k, g in old.groupby("block", sort=False)}
    todo = [(k, j) for k, j in zip(keys, jobs) if "/".join(k) not in done]
    results = Parallel(n_jobs=args.jobs, return_as="generator")(j for _, j in todo)
    for (k, _), part in zip(todo, results):
        done["/".join(k)] = part
        if store is not None:
            part[list(COLUMNS)].assign(block="/".join(k)).to_csv(
                store, mode="a", index=False, header=not store.exists())
    frame = pd.concat([done["/".join(k)] for k in keys], ignore_index=True)
    table = summarise(frame)
    print("\nknown-ε benchmark grid (its family α per method; most bounds sit far below ε, "
          "so these counts have little power):")
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(table.to_string(index=False))
    runs = int((~frame["method"].str.contains("true claim")).sum())
    print(f"\nauditor runs: {runs}, rows: {len(frame)}, possible: {int(table['possible'].sum())}, "
          f"violations: {int(table['violations'].sum())}  "
          f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    raise SystemExit(main())
