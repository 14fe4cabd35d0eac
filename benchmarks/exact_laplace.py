"""The oracle reserved test on the 1-d Laplace member of ε = 1: float noise against the lattice.

Run with ``nice -n 10 python benchmarks/exact_laplace.py``.

``reserved-exact`` (the exact log-likelihood ratio as score, α = 0.025 per error rate)
on n rows per input of ``privlab.epsilon.validity.laplace_1d(1.0)``, drawn two ways from
the same seeds: the float sampler the member used before (c + numpy's Laplace) and the
member's exact discrete Laplace on the 2⁻²⁰ grid. The float sampler is certified above
ε = 1 because input 0's outputs below 0 carry bits that input 1's cannot
(docs/decisions/2026-12-05-exact-benchmark-noise.md); the lattice stays at or below 1.
Prints a table; asserts nothing (tests/epsilon/test_exact_laplace.py asserts n = 16,000).
"""

from __future__ import annotations

import time

import numpy as np

from privlab.epsilon import auditors as A
from privlab.epsilon.validity import laplace_1d

SIZES = (4_000, 16_000, 64_000, 200_000)


def float_sample(mech, identity: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """The former sampler: the prototype plus inverse-CDF Laplace noise on doubles."""
    c = mech.prototypes.prototypes[identity]
    return c + rng.laplace(0.0, mech.scale, size=(n, c.size))


def main() -> None:
    mech = laplace_1d(1.0)
    auditor = A.reserved_exact(lambda x: mech.log_likelihood_ratio(x, 0, 1), alpha=0.025)
    print(f"{'sampler':8s} {'n':>8s} {'certified ε':>12s} {'cut':>22s} {'FP':>7s} {'FN':>7s}"
          f" {'seconds':>8s}")
    for n in SIZES:
        for name, draw in (("float", lambda i, k, g: float_sample(mech, i, k, g)),
                           ("lattice", mech.sample)):
            rng = np.random.default_rng(n)
            start = time.perf_counter()
            a, b = draw(0, n, rng), draw(1, n, rng)
            r = auditor.audit(a, b, delta=0.0, seed=1)
            d = r.details
            print(f"{name:8s} {n:8,d} {r.value:12.4f} {d['threshold']!r:>22} "
                  f"{d['false_positives']:7d} {d['false_negatives']:7d} "
                  f"{time.perf_counter() - start:8.2f}", flush=True)


if __name__ == "__main__":
    main()
