"""Do planned sample sizes come true? The planner checked on fresh runs.

Run with ``nice -n 10 python benchmarks/planner.py [--runs 30] [--quick]`` (``--quick``:
the one-coordinate cases only). For each mechanism and
certificate: ``runs`` times a fresh 200-row pilot, a plan (half the pilot's point
estimate, probability 0.9, α = 0.025 per bound), and a fresh audit at the planned n
(:func:`privlab.epsilon.planner.check_plan`). Prints how many runs got a plan, how many
of those reached their target (the bar: at least 80 %), the median planned n and target.
Asserts nothing (tests/epsilon/test_planner.py asserts on smaller cases).
"""

from __future__ import annotations

import argparse
import time

import pandas as pd

from privlab.epsilon import mechanisms as M
from privlab.epsilon.planner import check_plan
from privlab.epsilon.validity import laplace_1d, response_2


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--quick", action="store_true", help="the one-coordinate cases only")
    args = parser.parse_args(argv)
    protos = M.make_prototypes("dispersed")
    cases = [("1-d Laplace, ε = 1", laplace_1d(1.0), (0, 1)),
             ("1-d Laplace, ε = 2", laplace_1d(2.0), (0, 1)),
             ("two-output response, ε = 2", response_2(2.0), (0, 1)),
             ("512-d randomized response, ε = 4",
              M.build_mechanism("randomized_response", protos, 4.0), protos.l2_pair),
             ("512-d Gaussian, ε = 4", M.build_mechanism("gaussian", protos, 4.0),
              protos.l2_pair)]
    if args.quick:
        cases = cases[1:3]
    rows = []
    start = time.perf_counter()
    for label, mech, (i, j) in cases:
        for method in ("reserved", "dp-sniper"):
            r = check_plan(mech, i, j, method=method, runs=args.runs, probability=0.9)
            rows.append({"mechanism": label, **r})
            print(f"{label:34} {method:10} planned {r['planned']:>3}/{r['runs']}, reached "
                  f"{r['successes']:>3} ({r['rate']:.0%}), median n {r['median_n']:.0f}, "
                  f"median target {r['median_target']:.3f}, exact ε {r['exact']:.3g}",
                  flush=True)
    frame = pd.DataFrame(rows)
    planned = int(frame["planned"].sum())
    print(f"\nall: {int(frame['successes'].sum())} of {planned} planned runs reached their "
          f"target ({frame['successes'].sum() / max(planned, 1):.0%}); "
          f"{int(frame['unplanned'].sum())} pilots gave no plan "
          f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
