"""The peers' mechanisms on privlab's certificates: each false claim refuted, and a table beside
DP-Sniper's published bounds.

Run with ``nice -n 10 python benchmarks/peers.py [--quick] [--full]``.

1. **Refutations** (:data:`privlab.epsilon.peers.PEERS`): every mechanism at the rows per
   input its entry states (20,000 for a true claim), the hockey-stick tester of the claimed
   (ε, δ = 0) at α = 0.025 per bound (refuted or not, and the ε every mechanism would need,
   ε_L), DP-Sniper's certificate and the reserved test on the same rows.
2. **Beside the peer**: the mechanisms at DP-Sniper's ε = 0.1 on the input pairs its
   published logs name as the strongest (eth-sri/dp-sniper,
   ``eval_sp2021/reference-results/dd_search_reg_data.log`` and
   ``floating_point_data.log``: its lower confidence bounds ``eps_lcb`` at c = 0.01, logistic
   regression, quoted to three decimals), privlab's streamed DP-Sniper (c = 0.01, 10^5
   training and 10^6 threshold rows per input, 10^6 final rows; ``--full``: 10^7). SVT at the
   peer's defaults (threshold 1, cutoff 2 where there is one); output encodings are
   privlab's, so a row compares two attacks on *similar* mechanisms; the floating-point row
   uses Mironov's reachability feature where the peer learned from the bits.

Prints tables; asserts nothing (tests/epsilon/test_peers.py asserts the refutations).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import pandas as pd

import privlab.epsilon.auditors as A
from privlab.epsilon import peers as P
from privlab.epsilon.auditors.streaming import mechanism_sampler

ALPHA = 0.025
#: DP-Sniper's published eps_lcb at ε = 0.1 (logistic regression), by privlab's name.
PUBLISHED = {"truncated-geometric": 0.116, "report-noisy-max-1": 0.092,
             "report-noisy-max-2": 0.098, "report-noisy-max-3": 0.248,
             "report-noisy-max-4": 0.346, "svt-1": 0.086, "svt-2": 0.086, "svt-3": 0.172,
             "svt-4": 0.169, "svt-5": 1.761, "svt-6": 0.272, "float-laplace": 0.252}


def _beside_mechanisms():
    """privlab's mechanisms at ε = 0.1 on the peer's strongest input pairs."""
    ones, v = np.ones(10), np.r_[2.0 * np.ones(5), np.zeros(5)]
    half = (np.r_[np.zeros(5), np.ones(5)], np.r_[np.ones(5), np.zeros(5)])
    return {
        "truncated-geometric": P.TruncatedGeometric(0.1, m=5, q=1),
        "report-noisy-max-1": P.ReportNoisyMax(0.1, "laplace", "index",
                                               (np.ones(5), np.r_[0.0, 2.0 * np.ones(4)])),
        "report-noisy-max-2": P.ReportNoisyMax(0.1, "exponential", "index",
                                               (np.ones(5), np.r_[0.0, 2.0 * np.ones(4)])),
        "report-noisy-max-3": P.ReportNoisyMax(0.1, "laplace", "value",
                                               (np.zeros(5), np.ones(5))),
        "report-noisy-max-4": P.ReportNoisyMax(0.1, "exponential", "value",
                                               (np.ones(5), 2.0 * np.ones(5))),
        "svt-1": P.SparseVector(1, 0.1, m=10, threshold=1.0, inputs=half, cutoff=2),
        "svt-2": P.SparseVector(2, 0.1, m=10, threshold=1.0, inputs=half, cutoff=2),
        "svt-3": P.SparseVector(3, 0.1, m=10, threshold=1.0, inputs=(ones, v), cutoff=2),
        "svt-4": P.SparseVector(4, 0.1, m=10, threshold=1.0, inputs=(ones, v), cutoff=2),
        "svt-5": P.SparseVector(5, 0.1, m=10, threshold=1.0, inputs=(v, ones),
                                encoding="bits"),
        "svt-6": P.SparseVector(6, 0.1, m=10, threshold=1.0, inputs=half[::-1],
                                encoding="bits"),
        "float-laplace": P.FloatLaplace(0.1),
        "snapping-laplace": P.SnappingLaplace(0.1),
    }


def refutations(quick: bool) -> pd.DataFrame:
    rows = []
    for peer in P.PEERS:
        n = peer.refute_n or 20_000
        if quick and n > 50_000:
            continue
        mech = peer.build()
        rng = np.random.default_rng(0)
        a, b = mech.sample(0, n, rng), mech.sample(1, n, rng)
        start = time.perf_counter()
        claim = A.HockeyStickTester(epsilon=peer.claimed, delta=0.0, alpha=ALPHA).test(a, b)
        sniper = A.DPSniper(alpha=ALPHA).audit(a, b, delta=0.0)
        reserved = A.ReservedTest(alpha=ALPHA).audit(a, b, delta=0.0)
        rows.append({"mechanism": peer.name, "claimed ε": peer.claimed, "holds": peer.holds,
                     "exact ε": math.nan if peer.exact is None else peer.exact,
                     "rows per input": n, "hockey-stick refutes": claim.reject,
                     "hockey-stick ε_L": claim.epsilon_lower, "DP-Sniper ε_L": sniper.value,
                     "reserved ε_L": reserved.value,
                     "seconds": time.perf_counter() - start})
        print(f"{peer.name:32s} n={n:>8,d} refuted={claim.reject!s:5s} "
              f"ε_L={claim.epsilon_lower:.3f} claim={peer.claimed:.3f}", flush=True)
    return pd.DataFrame(rows)


def beside(n_final: int) -> pd.DataFrame:
    rows = []
    for name, mech in _beside_mechanisms().items():
        start = time.perf_counter()
        r = A.DPSniper(alpha=ALPHA, c=0.01).audit_sampler(
            mechanism_sampler(mech, 0), mechanism_sampler(mech, 1), n_final,
            n_train=100_000, n_threshold=1_000_000, delta=0.0)
        rows.append({"mechanism": name, "claimed ε": 0.1,
                     "privlab DP-Sniper ε_L": r.value,
                     "DP-Sniper published ε_L": PUBLISHED.get(name, math.nan),
                     "final rows per input": n_final, "seconds": time.perf_counter() - start})
        print(f"{name:22s} privlab {r.value:.3f}  published "
              f"{PUBLISHED.get(name, math.nan):.3f}", flush=True)
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="skip the refutations above 50,000 rows; 10^5 final rows")
    parser.add_argument("--full", action="store_true", help="10^7 final rows beside the peer")
    args = parser.parse_args()
    pd.set_option("display.width", 220)
    fmt = {"float_format": lambda v: f"{v:.3f}", "index": False}
    table = refutations(args.quick)
    print("\nRefutations (α = 0.025 per bound; a true claim is refuted with probability ≤ 0.05)")
    print(table.to_string(**fmt))
    wrong = table[~table["holds"]]
    print(f"false claims refuted: {int(wrong['hockey-stick refutes'].sum())} of {len(wrong)}; "
          f"true claims refuted: {int(table[table['holds']]['hockey-stick refutes'].sum())} "
          f"of {int(table['holds'].sum())}")
    n_final = 100_000 if args.quick else 10_000_000 if args.full else 1_000_000
    print("\nBeside DP-Sniper's published bounds (ε = 0.1, the peer's strongest input pairs)")
    print(beside(n_final).to_string(**fmt))


if __name__ == "__main__":
    main()
