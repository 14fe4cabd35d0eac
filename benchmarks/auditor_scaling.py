"""Time and peak memory of every ε auditor against the number of rows, with growth exponents.

Run with ``nice -n 10 python benchmarks/auditor_scaling.py [--quick] [--max-seconds 30]``.

1. **Array auditors**: every member of the registry on one pair of the 1-d Laplace
   mechanism (ε = 1, ``privlab.epsilon.validity.laplace_1d``), n rows per identity on a
   geometric grid; each auditor stops growing once one run takes ``--max-seconds`` or at
   its cap (the plug-in MMD holds an n × n Gram matrix by design); one untimed call at
   200 rows first takes the imports. Each run is timed untraced and repeated under
   tracemalloc for its memory. Prints wall and CPU seconds (the exponents use CPU
   time, which other processes on a shared machine do not inflate),
   peak traced memory (tracemalloc: NumPy's allocations; torch's are not traced, so the
   MLP rows understate) and the growth exponent: the least-squares slope of log time
   (and log memory) on log n, over every size, and between the last two sizes.
2. **Streamed certificates**: ``DPSniper.audit_sampler`` and
   ``ReservedTest.audit_sampler`` at 10^5 … 10^7 final rows per input (``--full``:
   10^8), the same memory columns (one batch of 2^20 rows at a time).
3. **MMD bandwidth rule**: the finite-sample MMD's bandwidth from every pooled
   development row (the rule before) against the 1,000-row subsample (the rule now), and
   the ε bound each gives, on the same rows.

Prints tables; asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import time
import tracemalloc

import numpy as np
import pandas as pd

import privlab.epsilon.auditors as A
from privlab.epsilon.auditors.mmd_finite import MMDFinite, median_bandwidth, mmd_biased, \
    mmd_lower_bound, tv_to_epsilon
from privlab.epsilon.auditors.streaming import mechanism_sampler
from privlab.epsilon.validity import laplace_1d

SIZES = (1_000, 4_000, 16_000, 64_000, 200_000)
QUICK_SIZES = (1_000, 4_000, 16_000)
#: Largest n per identity an auditor is run at (quadratic by construction).
CAPS = {"mmd-tv": 4_000, "kde-lr": 64_000, "kde-lr-0.01": 64_000, "mmd-finite": 16_000}
STREAM_SIZES = (100_000, 1_000_000, 10_000_000)


def measure(run) -> tuple[float, float, float, object]:
    """(wall seconds, CPU seconds of this process, peak traced MB, result) of ``run``.

    Timed once untraced (tracing slows code that makes many Python objects), then run again
    under tracemalloc for the memory. The CPU seconds are the fairer clock on a shared
    machine (wall time there also counts the other processes' turns).
    """
    start, cpu = time.perf_counter(), time.process_time()
    result = run()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    tracemalloc.start()
    run()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return seconds, cpu, peak, result


def exponent(ns, values) -> tuple[float, float]:
    """(slope of log value on log n over all points, slope between the last two)."""
    x, y = np.log(np.asarray(ns, float)), np.log(np.maximum(np.asarray(values, float), 1e-6))
    if len(x) < 2:
        return math.nan, math.nan
    return float(np.polyfit(x, y, 1)[0]), float((y[-1] - y[-2]) / (x[-1] - x[-2]))


def _auditor(name: str, mech):
    if name == "reserved-exact":
        return A.reserved_exact(lambda x: mech.log_likelihood_ratio(x, 0, 1), alpha=0.025)
    auditor = A.registry.create(name)
    return auditor.with_alpha(0.025) if hasattr(auditor, "with_alpha") else auditor


def array_auditors(sizes, max_seconds: float) -> pd.DataFrame:
    mech = laplace_1d(1.0)
    rows = []
    for name in A.registry.names():
        warm = np.random.default_rng(0)  # imports and first-call costs, not timed
        _auditor(name, mech).audit(mech.sample(0, 200, warm), mech.sample(1, 200, warm),
                                   delta=0.0, seed=1)
        for n in sizes:
            if n > CAPS.get(name, math.inf):
                break
            rng = np.random.default_rng(n)
            a, b = mech.sample(0, n, rng), mech.sample(1, n, rng)
            auditor = _auditor(name, mech)
            seconds, cpu, peak, r = measure(lambda: auditor.audit(a, b, delta=0.0, seed=1))
            rows.append({"auditor": name, "n": n, "seconds": seconds, "cpu_seconds": cpu,
                         "peak_mb": peak, "value": r.value})
            print(f"{name:22s} n={n:>8,d} {seconds:8.2f} s ({cpu:7.2f} s CPU) {peak:9.1f} MB"
                  f"  ε={r.value:.4f}", flush=True)
            if seconds > max_seconds:
                break
    return pd.DataFrame(rows)


def streamed(sizes) -> pd.DataFrame:
    mech = laplace_1d(0.1)
    a, b = mechanism_sampler(mech, 0), mechanism_sampler(mech, 1)
    runs = {"dp-sniper (c = 0.01)": lambda n: A.DPSniper(alpha=0.025, c=0.01).audit_sampler(
                a, b, n, delta=0.0),
            "reserved": lambda n: A.ReservedTest(alpha=0.025).audit_sampler(a, b, n)}
    rows = []
    for name, run in runs.items():
        for n in sizes:
            seconds, cpu, peak, r = measure(lambda: run(n))
            rows.append({"auditor": name + ", streamed", "n": n, "seconds": seconds,
                         "cpu_seconds": cpu, "peak_mb": peak, "value": r.value})
            print(f"{name + ', streamed':30s} n={n:>12,d} {seconds:8.1f} s {peak:8.1f} MB "
                  f"ε={r.value:.4f} (true 0.1)", flush=True)
    return pd.DataFrame(rows)


def growth(frame: pd.DataFrame) -> pd.DataFrame:
    out = []
    for name, block in frame.groupby("auditor", sort=False):
        t_all, t_last = exponent(block["n"], block["cpu_seconds"])
        m_all, m_last = exponent(block["n"], block["peak_mb"])
        out.append({"auditor": name, "largest n": int(block["n"].max()),
                    "seconds there": float(block["seconds"].iloc[-1]),
                    "CPU seconds there": float(block["cpu_seconds"].iloc[-1]),
                    "peak MB there": float(block["peak_mb"].iloc[-1]),
                    "CPU time exponent": t_all, "last-step CPU time exponent": t_last,
                    "memory exponent": m_all})
    return pd.DataFrame(out)


def bandwidth_rule(sizes=(2_000, 4_000), reps: int = 5) -> pd.DataFrame:
    """The MMD bandwidth on every development row against the 1,000-row subsample."""
    rows = []
    for n in sizes:
        for seed in range(reps):
            rng = np.random.default_rng(seed)
            a, b = rng.laplace(0.0, 1.0, (n, 1)), rng.laplace(1.0, 1.0, (n, 1))
            dev_a, ev_a, dev_b, ev_b = A.base.split_halves(a, b, seed)
            pooled = np.vstack([dev_a, dev_b])
            full = median_bandwidth(pooled, max_rows=len(pooled))[0]
            sub = median_bandwidth(pooled, seed=seed)[0]
            eps = {}
            for rule, bw in (("all rows", full), ("subsample", sub)):
                low = mmd_lower_bound(mmd_biased(ev_a, ev_b, bw), len(ev_a), len(ev_b), 0.05)
                eps[rule] = tv_to_epsilon(min(low / math.sqrt(2.0), 1.0), 0.0)
            assert MMDFinite(alpha=0.025).audit(a, b, delta=0.0, seed=seed).value == \
                eps["subsample"]
            rows.append({"n": n, "seed": seed, "bandwidth, all rows": full,
                         "bandwidth, subsample": sub, "ratio": sub / full,
                         "ε bound, all rows": eps["all rows"],
                         "ε bound, subsample": eps["subsample"]})
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    parser.add_argument("--full", action="store_true", help="stream 10^8 rows per input too")
    parser.add_argument("--max-seconds", type=float, default=30.0,
                        help="stop growing an auditor's n once one run takes this long")
    args = parser.parse_args()
    pd.set_option("display.width", 200)
    frame = array_auditors(QUICK_SIZES if args.quick else SIZES, args.max_seconds)
    stream_sizes = STREAM_SIZES[:2] if args.quick else STREAM_SIZES + (
        (100_000_000,) if args.full else ())
    frame = pd.concat([frame, streamed(stream_sizes)], ignore_index=True)
    print("\nGrowth against n (rows per identity; streamed: final/test rows per input)")
    print(growth(frame).to_string(index=False, float_format=lambda v: f"{v:.3g}"))
    print("\nFinite-sample MMD: bandwidth rule before (all rows) and now (1,000-row subsample)")
    rule = bandwidth_rule(reps=2 if args.quick else 5)
    print(rule.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    print(f"bandwidth ratio subsample/all: median {rule['ratio'].median():.4f}, range "
          f"{rule['ratio'].min():.4f}–{rule['ratio'].max():.4f}; ε bound change: largest "
          f"{(rule['ε bound, subsample'] - rule['ε bound, all rows']).abs().max():.2g}")


if __name__ == "__main__":
    main()
