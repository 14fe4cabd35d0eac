"""The power experiment of Section 6.5: the learned reserved test, repeated on five
predeclared pairs, and how often it certifies a positive ε (re-exported by
:mod:`privlab.epsilon.benchmark`).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
from scipy import stats

import privlab.epsilon.mechanisms as M
from privlab.epsilon.auditors.reserved import ReservedTest
from privlab.epsilon.benchmark_grid import (FAMILY_ALPHA, N_PAIRS, SAMPLE_SIZES, Setting,
                                            exact_reference, prototypes)
from privlab.epsilon.runtime import auditor_threads
from privlab.errors import invalid


def power_experiment(mechanism: str = "gaussian", epsilon: float = 16.0,
                     sizes: Sequence[int] = SAMPLE_SIZES, replications: int = 200,
                     geometry: str = "dispersed", family_alpha: float = FAMILY_ALPHA,
                     n_pairs_corrected: int = N_PAIRS, seed: int = 0,
                     progress: bool = False) -> pd.DataFrame:
    """Repeat the learned reserved test on five predeclared pairs (Section 6.5).

    The pairs attain Δ1 and Δ2 and sit at the 25th, 50th and 75th percentile of L2
    distance. Each replication draws fresh samples; α per error rate is
    ``family_alpha / (2 n_pairs_corrected)`` as in the main experiment.

    Returns:
        Per n: replications, fraction with a positive bound, its exact 95% binomial
        interval, the number of bounds above the exact ε, and how many could have been.
    """
    if isinstance(replications, bool) or not isinstance(replications, int) or replications < 1:
        raise invalid("replications", "power_experiment", "a positive integer", replications)
    from scipy.spatial.distance import pdist
    from tqdm.auto import tqdm

    protos = prototypes(geometry)
    mech = M.build_mechanism(mechanism, protos, epsilon)
    d2 = pdist(protos.prototypes, "euclidean")
    iu = np.triu_indices(protos.n_identities, k=1)
    order = np.argsort(d2)
    pairs = [protos.l1_pair, protos.l2_pair]
    for q in (0.25, 0.5, 0.75):
        k = int(order[int(q * (len(order) - 1))])
        pairs.append((int(iu[0][k]), int(iu[1][k])))
    alpha = family_alpha / (2 * n_pairs_corrected)
    delta = Setting(mechanism, geometry, epsilon, 30).delta
    test = ReservedTest(alpha)
    rows = []
    for n in sizes:
        rng = np.random.default_rng([seed, int(n)])
        positive = violations = possible = 0
        with auditor_threads():
            for rep in tqdm(range(replications), disable=not progress, desc=f"n={n}"):
                for i, j in pairs:
                    r = test.audit(mech.sample(i, n, rng), mech.sample(j, n, rng),
                                   delta=delta, seed=rep)
                    exact = exact_reference(mech, i, j)
                    positive += r.value > 0
                    violations += r.value > exact + 1e-9
                    possible += r.details["attainable"] > exact
        total = replications * len(pairs)
        ci = stats.binomtest(positive, total).proportion_ci(0.95, method="exact")
        rows.append({"mechanism": mechanism, "epsilon": epsilon, "n": n, "trials": total,
                     "fraction_positive": positive / total, "ci_low": ci.low,
                     "ci_high": ci.high, "violations": violations, "possible": possible})
    return pd.DataFrame(rows)
