"""The known-ε benchmark's grid: settings, prototypes, predeclared pairs and exact ε.

Re-exported by :mod:`privlab.epsilon.benchmark`; see docs/methods/epsilon-benchmark.md.
"""

from __future__ import annotations

import functools
import math
import zlib
from dataclasses import dataclass
from typing import Iterable

import numpy as np

import privlab.epsilon.mechanisms as M
from privlab.errors import invalid

#: Target global ε values of the main grid (Section 6.2).
EPSILON_GRID = (0.0, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0)
#: The validity/power grid of Section 6.5.
VALIDITY_GRID = (0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0)
#: Requested ε of the anisotropic-Gaussian experiment (Table 6).
ANISOTROPIC_GRID = (0.0, 0.5, 2.0, 8.0, 16.0, 32.0)
#: Randomized-response grid used in Appendix B.
RR_GRID_EPSILONS = (0.0, 0.5, 2.0, 8.0, 16.0, 32.0)
SAMPLE_SIZES = (30, 100, 300)
#: The largest ``n`` a setting accepts: every identity's ``n`` outputs of dimension 512
#: are held in float64 (about 3 GB for the 80 identities of 40 pairs at this limit).
MAX_N = 10_000
REPETITIONS = (0, 1, 2)
N_PAIRS = 40
FAMILY_ALPHA = 0.05
#: Permutations of MMD-TV's equal-distribution test (the paper: 10^4, Phipson–Smyth
#: p = (b + 1)/(P + 1)); every benchmark MMD row carries its p-value.
MMD_PERMUTATIONS = 10_000
#: Largest negative rounding error of an exact pairwise ε that is read as 0 (the rounded
#: randomized-response null gives ln(p (K−1)/(1−p)) ≈ −2.1e−14 on its 2^53 grid).
EXACT_ROUNDING = 1e-12


def format_epsilon(epsilon: float) -> str:
    """ε as short text that reads back as the same number: ``{:g}`` when exact, else repr.

    Example:
        >>> format_epsilon(0.25), format_epsilon(256.0), format_epsilon(1.0000001)
        ('0.25', '256', '1.0000001')
    """
    short = f"{float(epsilon):g}"
    return short if float(short) == float(epsilon) else repr(float(epsilon))


#: The range of a nonzero target ε: beyond it the noise scale 1/ε leaves float64.
MIN_EPSILON, MAX_EPSILON = 1e-6, 1000.0


@dataclass(frozen=True)
class Setting:
    """One cell of the benchmark grid.

    Attributes:
        mechanism: one of ``privlab.epsilon.mechanisms.MECHANISMS``.
        geometry: ``"dispersed"`` or ``"clustered"``.
        epsilon: target global ε (0 gives the exact null).
        n: outputs per identity.
        repetition: repetition index (changes the seed only).
    """

    mechanism: str
    geometry: str
    epsilon: float
    n: int
    repetition: int = 0

    def __post_init__(self):
        if self.mechanism not in M.MECHANISMS:
            raise invalid("mechanism", "Setting", f"one of {M.MECHANISMS}", self.mechanism)
        if self.geometry not in M.GEOMETRIES:
            raise invalid("geometry", "Setting", f"one of {M.GEOMETRIES}", self.geometry)
        if not (isinstance(self.epsilon, (int, float)) and math.isfinite(self.epsilon)
                and (self.epsilon == 0 or MIN_EPSILON <= self.epsilon <= MAX_EPSILON)):
            raise invalid("epsilon", "Setting", f"0 (the exact null) or a number in "
                          f"[{MIN_EPSILON:g}, {MAX_EPSILON:g}]", self.epsilon,
                          "Outside it a mechanism's noise scale 1/ε under- or overflows "
                          "float64.")
        if isinstance(self.n, bool) or not isinstance(self.n, (int, np.integer)) or self.n < 10:
            raise invalid("n", "Setting", "an integer >= 10", self.n,
                          "The out-of-fold ROC needs at least two rows per fold and class.")
        if self.n > MAX_N:
            raise invalid("n", "Setting", f"at most {MAX_N:,}", self.n,
                          "Every identity's n outputs (512 numbers each) are held in memory; "
                          "the paper's grid uses n <= 300.")
        if isinstance(self.repetition, bool) or not isinstance(self.repetition, (int, np.integer)) \
                or self.repetition < 0:
            raise invalid("repetition", "Setting", "a nonnegative integer", self.repetition)
        # + 0.0 turns -0.0 into 0.0: one setting, one key
        object.__setattr__(self, "epsilon", float(self.epsilon) + 0.0)
        object.__setattr__(self, "n", int(self.n))
        object.__setattr__(self, "repetition", int(self.repetition))

    def key(self) -> str:
        """A readable, exact, file-name-safe identifier (ε by :func:`format_epsilon`).

        Example:
            >>> Setting("laplace", "dispersed", 1.0000001, 100).key()
            'laplace-dispersed-eps1.0000001-n100-r0'
        """
        return (f"{self.mechanism}-{self.geometry}-eps{format_epsilon(self.epsilon)}"
                f"-n{self.n}-r{self.repetition}")

    @property
    def seed(self) -> int:
        """Deterministic seed: the crc32 of :meth:`key` (stable across runs and machines)."""
        return zlib.crc32(self.key().encode())

    @property
    def delta(self) -> float:
        """δ used by the ROC conversions: 0 for pure-DP families, 1e-5 for Gaussian ones."""
        return 0.0 if self.mechanism in ("laplace", "randomized_response") else M.GAUSSIAN_DELTA


def grid(mechanisms: Iterable[str] = ("laplace", "gaussian"),
         geometries: Iterable[str] = M.GEOMETRIES, epsilons: Iterable[float] = EPSILON_GRID,
         sizes: Iterable[int] = SAMPLE_SIZES,
         repetitions: Iterable[int] = REPETITIONS) -> list[Setting]:
    """All settings of a (sub-)grid, in a fixed order.

    Example:
        >>> len(grid())  # the paper's 468 settings
        468
    """
    return [Setting(m, g, float(e), int(n), int(r)) for m in mechanisms for g in geometries
            for e in epsilons for n in sizes for r in repetitions]


@functools.lru_cache(maxsize=8)
def prototypes(geometry: str) -> M.PrototypeSet:
    """The fixed prototype set of a geometry (cached)."""
    return M.make_prototypes(geometry)


def select_pairs(protos: M.PrototypeSet, n_pairs: int = N_PAIRS) -> list[tuple[int, int]]:
    """The predeclared pair list: Δ1- and Δ2-attaining pairs, then distance strata.

    Deterministic: depends only on the prototypes (docs/methods/epsilon-benchmark.md).

    Args:
        protos: the prototype set.
        n_pairs: list length (≥ 2, at most the number of pairs).

    Returns:
        ``n_pairs`` distinct pairs (i, j), i < j.

    Example:
        >>> p = M.make_prototypes(n_identities=12, dim=4, seed=0)
        >>> pairs = select_pairs(p, 6)
        >>> pairs[:2] == [p.l1_pair, p.l2_pair] or pairs[0] == p.l1_pair
        True
    """
    from scipy.spatial.distance import pdist

    total = protos.n_identities * (protos.n_identities - 1) // 2
    if isinstance(n_pairs, bool) or not isinstance(n_pairs, (int, np.integer)) \
            or not 2 <= n_pairs <= total:
        raise invalid("n_pairs", "select_pairs", f"an integer in [2, {total}]", n_pairs)
    chosen: list[tuple[int, int]] = []
    for p in (protos.l1_pair, protos.l2_pair):
        if p not in chosen:
            chosen.append(p)
    iu = np.triu_indices(protos.n_identities, k=1)
    dists = {"l1": pdist(protos.prototypes, "cityblock"),
             "l2": pdist(protos.prototypes, "euclidean")}
    orders = {k: np.argsort(v, kind="stable") for k, v in dists.items()}
    remaining = n_pairs - len(chosen)
    per_metric = {"l1": (remaining + 1) // 2, "l2": remaining // 2}
    targets = []
    for metric, m in per_metric.items():
        qs = (np.arange(m) + 0.5) / max(m, 1)
        targets.append([(metric, q) for q in qs])
    # Interleave l1 and l2 targets.
    sequence = [t for pair in zip(*[t + [None] * (max(map(len, targets)) - len(t))
                                    for t in targets]) for t in pair if t is not None]
    for metric, q in sequence:
        order = orders[metric]
        pos = int(round(q * (len(order) - 1)))
        # Walk outward from the quantile position to the nearest unused pair.
        for step in range(len(order)):
            for cand in (pos + step, pos - step):
                if 0 <= cand < len(order):
                    k = int(order[cand])
                    pair = (int(iu[0][k]), int(iu[1][k]))
                    if pair not in chosen:
                        chosen.append(pair)
                        break
            else:
                continue
            break
    return chosen[:n_pairs]



def exact_reference(mech, i: int, j: int) -> float:
    """The exact pairwise ε of a mechanism, with rounding below zero read as exactly 0.

    A value in [−:data:`EXACT_ROUNDING`, 0) is returned as 0.0; a larger negative value
    is an error.

    Example:
        >>> mech = M.build_mechanism("randomized_response", prototypes("dispersed"), 0.0)
        >>> mech.pair_epsilon(0, 1) < 0, exact_reference(mech, 0, 1)
        (True, 0.0)
    """
    value = float(mech.pair_epsilon(i, j))
    if value < 0:
        if value < -EXACT_ROUNDING:
            raise ValueError(f"the exact ε of pair ({i}, {j}) of {mech.name} is {value!r}, "
                             "below zero beyond rounding")
        return 0.0
    return value
