"""Mechanisms whose privacy is known exactly, for checking ε auditors.

Each maps an identity label to a random vector and gives the exact pairwise ε and the
exact log-likelihood ratio of an output. The Laplace member is exact to the bit: discrete
Laplace noise, sampled exactly, on a power-of-two grid that holds its prototypes
(docs/decisions/2026-12-05-exact-benchmark-noise.md); the Gaussian references are exact
for the ideal real-valued mechanisms. See docs/methods/epsilon-benchmark.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Protocol, runtime_checkable

import numpy as np
from scipy import optimize, special, stats
from scipy.spatial.distance import pdist

from privlab.epsilon.discrete import discrete_laplace
from privlab.errors import invalid
from privlab.hashing import bytes_hash

#: Seeds of the two prototype sets (fixed before any data are generated).
PROTOTYPE_SEEDS = {"dispersed": 20_240_501, "clustered": 20_240_502}
GEOMETRIES = ("dispersed", "clustered")
#: δ used by the Gaussian family (Section 6.1).
GAUSSIAN_DELTA = 1e-5
#: Randomized response resolution: probabilities are integer thresholds on this grid.
RR_GRID = 2**53
#: Grid of the Laplace member: prototypes and outputs are integer multiples of it.
LAPLACE_GRID = 2.0**-20


# --------------------------------------------------------------------------- prototypes


@dataclass(frozen=True)
class PrototypeSet:
    """A fixed set of identity prototypes with exact sensitivities.

    Attributes:
        geometry: ``"dispersed"`` or ``"clustered"``.
        prototypes: float64 array (n_identities, dim), unit-norm rows.
        seed: the seed that generated them.
        delta1: max over pairs i != j of ||c_i - c_j||_1.
        delta2: max over pairs i != j of ||c_i - c_j||_2.
        l1_pair: a pair (i, j), i < j, attaining ``delta1``.
        l2_pair: a pair (i, j), i < j, attaining ``delta2``.
        centers: cluster index per identity (clustered set) or None.
    """

    geometry: str
    prototypes: np.ndarray = field(repr=False)
    seed: int
    delta1: float
    delta2: float
    l1_pair: tuple[int, int]
    l2_pair: tuple[int, int]
    centers: np.ndarray | None = field(default=None, repr=False)

    @property
    def n_identities(self) -> int:
        """Number of identities (rows)."""
        return int(self.prototypes.shape[0])

    @property
    def dim(self) -> int:
        """Dimension of the output space."""
        return int(self.prototypes.shape[1])

    @property
    def sha256(self) -> str:
        """Hash of the prototype array (float64, C order), for provenance."""
        return bytes_hash(np.ascontiguousarray(self.prototypes).tobytes())


def _unit_rows(x: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length."""
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def make_prototypes(geometry: str = "dispersed", n_identities: int = 400, dim: int = 512,
                    seed: int | None = None) -> PrototypeSet:
    """Build one of the two prototype sets and its exact sensitivities.

    The constructions are in docs/methods/epsilon-benchmark.md.

    Args:
        geometry: ``"dispersed"`` or ``"clustered"``.
        n_identities: number of identities (at least 2).
        dim: dimension (at least 1).
        seed: generator seed; default the fixed seed of that geometry.

    Returns:
        A :class:`PrototypeSet` with Δ1, Δ2 over all pairs and the pairs attaining them.

    Raises:
        PrivlabValueError: on an unknown geometry or too few identities.

    Example:
        >>> p = make_prototypes("dispersed", n_identities=20, dim=8, seed=0)
        >>> p.prototypes.shape, round(float(np.linalg.norm(p.prototypes[0])), 6)
        ((20, 8), 1.0)
    """
    if geometry not in GEOMETRIES:
        raise invalid("geometry", "make_prototypes", f"one of {GEOMETRIES}", geometry)
    if int(n_identities) < 2:
        raise invalid("n_identities", "make_prototypes", "at least 2", n_identities)
    if int(dim) < 1:
        raise invalid("dim", "make_prototypes", "at least 1", dim)
    seed = PROTOTYPE_SEEDS[geometry] if seed is None else int(seed)
    rng = np.random.default_rng(seed)
    centers = None
    if geometry == "dispersed":
        protos = _unit_rows(rng.standard_normal((n_identities, dim)))
    else:
        hubs = _unit_rows(rng.standard_normal((4, dim)))
        centers = np.arange(n_identities) % 4
        offsets = _unit_rows(rng.standard_normal((n_identities, dim)))
        protos = _unit_rows(hubs[centers] + 0.18 * offsets)
    return PrototypeSet(geometry, protos, seed, *_sensitivities(protos), centers)


def _sensitivities(protos: np.ndarray) -> tuple[float, float, tuple[int, int], tuple[int, int]]:
    """(Δ1, Δ2, a pair attaining Δ1, a pair attaining Δ2) over all pairs of rows."""
    d1 = pdist(protos, "cityblock")
    d2 = pdist(protos, "euclidean")
    k1, k2 = int(np.argmax(d1)), int(np.argmax(d2))
    iu = np.triu_indices(len(protos), k=1)  # the order of pdist's condensed vector
    return (float(d1[k1]), float(d2[k2]), (int(iu[0][k1]), int(iu[1][k1])),
            (int(iu[0][k2]), int(iu[1][k2])))


# --------------------------------------------------------------- analytic Gaussian profile


def _gaussian_delta(epsilon: float, mu: float) -> float:
    """δ(ε) of the Gaussian mechanism at distance/σ ratio ``mu`` (Balle & Wang, Thm 8)."""
    if mu <= 0:
        return 0.0
    a = mu / 2.0 - epsilon / mu
    b = -mu / 2.0 - epsilon / mu
    return float(special.ndtr(a) - math.exp(epsilon + special.log_ndtr(b)))


def analytic_gaussian_epsilon(distance: float, sigma: float, delta: float = GAUSSIAN_DELTA) -> float:
    """Smallest ε such that the Gaussian mechanism is (ε, δ)-DP for one pair.

    Inverts the exact privacy profile δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ), μ = distance/σ.

    Args:
        distance: ||c_i − c_j||_2 (≥ 0).
        sigma: noise standard deviation per coordinate (> 0).
        delta: target δ in (0, 1).

    Returns:
        ε ≥ 0.

    Raises:
        PrivlabValueError: on a negative distance, nonpositive sigma, or δ outside (0, 1).

    Example:
        >>> round(analytic_gaussian_epsilon(1.0, 3.730632, 1e-5), 4)
        1.0
    """
    if not np.isfinite(distance) or distance < 0:
        raise invalid("distance", "analytic_gaussian_epsilon", "finite and >= 0", distance)
    if not np.isfinite(sigma) or sigma <= 0:
        raise invalid("sigma", "analytic_gaussian_epsilon", "finite and > 0", sigma)
    if not 0 < delta < 1:
        raise invalid("delta", "analytic_gaussian_epsilon", "in (0, 1)", delta)
    mu = float(distance) / float(sigma)
    if _gaussian_delta(0.0, mu) <= delta:
        return 0.0
    hi = 1.0
    while _gaussian_delta(hi, mu) > delta:
        hi *= 2.0
        if hi > 1e8:  # pragma: no cover - only for absurd μ
            return math.inf
    return float(optimize.brentq(lambda e: _gaussian_delta(e, mu) - delta, 0.0, hi,
                                 xtol=1e-12, rtol=1e-12))


def analytic_gaussian_sigma(epsilon: float, delta: float = GAUSSIAN_DELTA,
                            sensitivity: float = 1.0) -> float:
    """Smallest σ making the Gaussian mechanism (ε, δ)-DP at the given L2 sensitivity.

    Args:
        epsilon: target ε (> 0).
        delta: target δ in (0, 1).
        sensitivity: L2 sensitivity Δ2 (> 0).

    Returns:
        σ, the per-coordinate standard deviation.

    Raises:
        PrivlabValueError: on ε ≤ 0, δ outside (0, 1) or nonpositive sensitivity.

    Example:
        >>> round(analytic_gaussian_sigma(1.0, 1e-5), 6)
        3.730632
    """
    if not np.isfinite(epsilon) or epsilon <= 0:
        raise invalid("epsilon", "analytic_gaussian_sigma", "finite and > 0", epsilon,
                      "Use NullMechanism for ε = 0.")
    if not 0 < delta < 1:
        raise invalid("delta", "analytic_gaussian_sigma", "in (0, 1)", delta)
    if not np.isfinite(sensitivity) or sensitivity <= 0:
        raise invalid("sensitivity", "analytic_gaussian_sigma", "finite and > 0", sensitivity)
    # δ(ε; μ) increases with μ = Δ/σ; find μ* with δ(ε; μ*) = δ, then σ = Δ / μ*.
    lo, hi = 1e-12, 1.0
    while _gaussian_delta(epsilon, hi) < delta:
        hi *= 2.0
    mu = optimize.brentq(lambda m: _gaussian_delta(epsilon, m) - delta, lo, hi,
                         xtol=1e-15, rtol=1e-14)
    return float(sensitivity) / float(mu)


# ------------------------------------------------------------------------ mechanisms


@runtime_checkable
class Mechanism(Protocol):
    """A randomized map from identity labels to vectors with known pairwise ε."""

    name: str
    epsilon: float
    delta: float

    def sample(self, identity: int, n: int, rng: np.random.Generator) -> np.ndarray:
        """Draw ``n`` outputs (float64, (n, d)) for one identity."""

    def pair_epsilon(self, i: int, j: int) -> float:
        """Exact ε of the pair (at the mechanism's δ)."""

    def log_likelihood_ratio(self, x: np.ndarray, i: int, j: int) -> np.ndarray:
        """log p_j(x) − log p_i(x) per row of ``x``: large values point to ``j``."""


def _check_identity(mech, identity: int, caller: str) -> int:
    """An identity index of the mechanism's prototype set."""
    n_ids = mech.prototypes.n_identities
    if not (isinstance(identity, (int, np.integer)) and 0 <= int(identity) < n_ids):
        raise invalid("identity", caller, f"an integer in [0, {n_ids})", identity)
    return int(identity)


def _check_n(n: int, caller: str) -> int:
    """A positive number of draws."""
    if not isinstance(n, (int, np.integer)) or int(n) < 1:
        raise invalid("n", caller, "a positive integer", n)
    return int(n)


def _check_target(epsilon: float, caller: str) -> float:
    """A finite target ε > 0."""
    if not np.isfinite(epsilon) or epsilon <= 0:
        raise invalid("epsilon", caller, "finite and > 0", epsilon,
                      "Use NullMechanism for ε = 0.")
    return float(epsilon)


def on_laplace_grid(prototypes: PrototypeSet) -> PrototypeSet:
    """The prototype set rounded to :data:`LAPLACE_GRID`, with its sensitivities recomputed.

    Example:
        >>> p = on_laplace_grid(make_prototypes(n_identities=5, dim=3, seed=0))
        >>> bool(np.all(p.prototypes / LAPLACE_GRID % 1 == 0))
        True
    """
    protos = np.rint(prototypes.prototypes / LAPLACE_GRID) * LAPLACE_GRID
    # Δ1 is exact: sums of grid multiples far below 2^53 grid steps
    d1, d2, l1_pair, l2_pair = _sensitivities(protos)
    return replace(prototypes, prototypes=protos, delta1=d1, delta2=d2, l1_pair=l1_pair,
                   l2_pair=l2_pair)


class LaplaceMechanism:
    """Discrete Laplace noise on a 2⁻²⁰ grid, scale b ≥ Δ1/ε_g: exactly ε_g-DP, bit for bit.

    The prototypes are rounded to the grid (``self.prototypes``), the noise is t grid
    steps with t = ⌈Δ1/(ε_g · grid)⌉ an integer, sampled exactly, so every output is a
    grid point and every pair's ε is ||c_i − c_j||_1 / b ≤ ε_g exactly
    (``realised_epsilon`` is the largest). Why: docs/decisions/2026-12-05-exact-benchmark-noise.md.

    Example:
        >>> m = LaplaceMechanism(make_prototypes(n_identities=10, dim=4, seed=0), 2.0)
        >>> round(m.pair_epsilon(*m.prototypes.l1_pair), 5), m.realised_epsilon <= 2.0
        (2.0, True)
    """

    name = "laplace"
    delta = 0.0

    def __init__(self, prototypes: PrototypeSet, epsilon: float):
        self.prototypes = on_laplace_grid(prototypes)
        self.epsilon = _check_target(epsilon, "LaplaceMechanism")
        self._lattice = np.rint(self.prototypes.prototypes / LAPLACE_GRID).astype(np.int64)
        self._sensitivity = int(np.rint(self.prototypes.delta1 / LAPLACE_GRID))  # grid steps
        #: t, the noise scale in grid steps: the smallest integer with Δ1 / (t·grid) ≤ ε.
        self.steps = max(1, math.ceil(Fraction(self._sensitivity) / Fraction(self.epsilon)))

    @property
    def scale(self) -> float:
        """b = t · grid (setting it rounds to whole grid steps, at least one)."""
        return self.steps * LAPLACE_GRID

    @scale.setter
    def scale(self, value: float) -> None:
        self.steps = max(1, round(value / LAPLACE_GRID))

    @property
    def realised_epsilon(self) -> float:
        """The largest pairwise ε, Δ1 / b (at most the target ``epsilon``)."""
        return self._sensitivity / self.steps

    @property
    def noise_std(self) -> float:
        """Standard deviation of one coordinate's discrete Laplace noise."""
        q = math.exp(-1.0 / self.steps)
        return math.sqrt(2.0 * q) / -math.expm1(-1.0 / self.steps) * LAPLACE_GRID

    def sample(self, identity: int, n: int, rng: np.random.Generator) -> np.ndarray:
        """Draw ``n`` outputs (z_i + discrete Laplace(t)^d) · grid."""
        i = _check_identity(self, identity, "LaplaceMechanism.sample")
        n = _check_n(n, "LaplaceMechanism.sample")
        z = self._lattice[i]
        noise = discrete_laplace(self.steps, n * z.size, rng).reshape(n, z.size)
        return (z + noise) * LAPLACE_GRID

    def pair_epsilon(self, i: int, j: int) -> float:
        """||c_i − c_j||_1 / b, exactly (integer grid steps over t)."""
        z = self._lattice
        return int(np.abs(z[i] - z[j]).sum()) / self.steps

    def log_likelihood_ratio(self, x: np.ndarray, i: int, j: int) -> np.ndarray:
        """Σ_k (|x_k − c_ik| − |x_k − c_jk|) / b."""
        c = self.prototypes.prototypes
        return (np.abs(x - c[i]) - np.abs(x - c[j])).sum(axis=1) / self.scale


class GaussianMechanism:
    """Isotropic Gaussian noise calibrated by the analytic Gaussian mechanism at Δ2.

    Example:
        >>> m = GaussianMechanism(make_prototypes(n_identities=10, dim=4, seed=0), 1.0)
        >>> round(m.pair_epsilon(*m.prototypes.l2_pair), 6)
        1.0
    """

    name = "gaussian"

    def __init__(self, prototypes: PrototypeSet, epsilon: float, delta: float = GAUSSIAN_DELTA):
        self.prototypes = prototypes
        self.epsilon = _check_target(epsilon, "GaussianMechanism")
        self.delta = float(delta)
        self.sigma = analytic_gaussian_sigma(self.epsilon, self.delta, prototypes.delta2)
        self.noise_std = self.sigma

    def sample(self, identity: int, n: int, rng: np.random.Generator) -> np.ndarray:
        """Draw ``n`` outputs c_i + N(0, σ² I)."""
        i = _check_identity(self, identity, "GaussianMechanism.sample")
        n = _check_n(n, "GaussianMechanism.sample")
        c = self.prototypes.prototypes[i]
        return c + self.sigma * rng.standard_normal((n, c.size))

    def pair_distance(self, i: int, j: int) -> float:
        """||c_i − c_j||_2."""
        c = self.prototypes.prototypes
        return float(np.linalg.norm(c[i] - c[j]))

    def pair_epsilon(self, i: int, j: int) -> float:
        """The analytic profile evaluated at ||c_i − c_j||_2."""
        return analytic_gaussian_epsilon(self.pair_distance(i, j), self.sigma, self.delta)

    def log_likelihood_ratio(self, x: np.ndarray, i: int, j: int) -> np.ndarray:
        """(x·(c_j − c_i) − (|c_j|² − |c_i|²)/2) / σ²."""
        c = self.prototypes.prototypes
        diff = c[j] - c[i]
        return (x @ diff - 0.5 * (c[j] @ c[j] - c[i] @ c[i])) / self.sigma**2


class NullMechanism:
    """The exact null: every identity maps to one shared prototype, then common noise.

    Every pairwise ε is exactly 0; the noise is ``family``'s at ``reference_epsilon``.

    Example:
        >>> m = NullMechanism(make_prototypes(n_identities=10, dim=4, seed=0), "laplace")
        >>> m.pair_epsilon(0, 1), m.epsilon
        (0.0, 0.0)
    """

    name = "null"
    epsilon = 0.0

    def __init__(self, prototypes: PrototypeSet, family: str = "laplace",
                 reference_epsilon: float = 1.0, delta: float | None = None):
        if family not in ("laplace", "gaussian", "anisotropic_gaussian"):
            raise invalid("family", "NullMechanism",
                          "'laplace', 'gaussian' or 'anisotropic_gaussian'", family)
        self.prototypes = prototypes
        self.family = family
        self.delta = (0.0 if family == "laplace" else GAUSSIAN_DELTA) if delta is None else float(delta)
        if family == "laplace":
            self._noise = LaplaceMechanism(prototypes, reference_epsilon)
        elif family == "gaussian":
            self._noise = GaussianMechanism(prototypes, reference_epsilon, self.delta)
        else:
            self._noise = AnisotropicGaussianMechanism(prototypes, reference_epsilon, self.delta)
        self.noise_std = self._noise.noise_std
        self.shared = 0

    def sample(self, identity: int, n: int, rng: np.random.Generator) -> np.ndarray:
        """Draw ``n`` outputs of the shared prototype plus the family's noise."""
        _check_identity(self, identity, "NullMechanism.sample")
        return self._noise.sample(self.shared, _check_n(n, "NullMechanism.sample"), rng)

    def pair_epsilon(self, i: int, j: int) -> float:
        """Always 0."""
        return 0.0

    def log_likelihood_ratio(self, x: np.ndarray, i: int, j: int) -> np.ndarray:
        """Always 0: the two laws are the same."""
        return np.zeros(len(x))


class RandomizedResponse:
    """K-ary randomized response over the identity labels, releasing prototypes.

    The truth is kept with probability e^ε/(e^ε + K − 1) on a 2^53 grid; the realised ε
    of that grid is the exact reference for every pair.

    Example:
        >>> m = RandomizedResponse(make_prototypes(n_identities=10, dim=4, seed=0), 2.0)
        >>> round(m.realised_epsilon, 9)
        2.0
    """

    name = "randomized_response"
    delta = 0.0

    def __init__(self, prototypes: PrototypeSet, epsilon: float):
        self.prototypes = prototypes
        self.epsilon = _check_target(epsilon, "RandomizedResponse")
        self.k = prototypes.n_identities
        # p = 1 / (1 + (K-1) e^{-ε}) computed stably for large ε.
        p = 1.0 / (1.0 + (self.k - 1) * math.exp(-self.epsilon))
        self.threshold = int(min(RR_GRID, round(p * RR_GRID)))
        self.p_true = self.threshold / RR_GRID
        q_num = RR_GRID - self.threshold  # (1 - p) on the grid
        if q_num == 0:
            self.realised_epsilon = math.inf
        else:
            self.realised_epsilon = math.log(self.threshold * (self.k - 1) / q_num)
        self.noise_std = 0.0

    def sample_labels(self, identity: int, n: int, rng: np.random.Generator) -> np.ndarray:
        """Draw ``n`` reported labels for one identity."""
        i = _check_identity(self, identity, "RandomizedResponse.sample")
        n = _check_n(n, "RandomizedResponse.sample")
        keep = rng.integers(0, RR_GRID, size=n, dtype=np.int64) < self.threshold
        other = rng.integers(0, self.k - 1, size=n)
        other = other + (other >= i)
        return np.where(keep, i, other)

    def sample(self, identity: int, n: int, rng: np.random.Generator) -> np.ndarray:
        """Draw ``n`` released prototypes."""
        return self.prototypes.prototypes[self.sample_labels(identity, n, rng)].copy()

    def pair_epsilon(self, i: int, j: int) -> float:
        """The realised ε (identical for every pair)."""
        return float(self.realised_epsilon)

    def log_likelihood_ratio(self, x: np.ndarray, i: int, j: int) -> np.ndarray:
        """+ε_realised where x is c_j, −ε_realised where x is c_i, 0 elsewhere."""
        c = self.prototypes.prototypes
        at_i = np.all(np.isclose(x, c[i], rtol=0, atol=1e-12), axis=1)
        at_j = np.all(np.isclose(x, c[j], rtol=0, atol=1e-12), axis=1)
        e = min(self.realised_epsilon, 1e300)
        return np.where(at_j, e, np.where(at_i, -e, 0.0))


def anisotropic_variances(dim: int, condition: float = 100.0) -> np.ndarray:
    """Diagonal Λ with Λ_kk ∝ C^(1/2 − k/(d − 1)), descending, geometric mean 1.

    Example:
        >>> lam = anisotropic_variances(5, 100.0)
        >>> round(float(lam[0] / lam[-1]), 6), round(float(np.exp(np.log(lam).mean())), 6)
        (100.0, 1.0)
    """
    if int(dim) < 2:
        raise invalid("dim", "anisotropic_variances", "at least 2", dim)
    if not condition >= 1:
        raise invalid("condition", "anisotropic_variances", ">= 1", condition)
    k = np.arange(dim)
    lam = condition ** (0.5 - k / (dim - 1))
    return lam / np.exp(np.log(lam).mean())


class AnisotropicGaussianMechanism:
    """c_i + s Λ^(1/2) z with s calibrated on the whitened sensitivity D_Λ.

    Example:
        >>> m = AnisotropicGaussianMechanism(make_prototypes(n_identities=10, dim=4, seed=0), 1.0)
        >>> round(max(m.pair_epsilon(i, j) for i in range(10) for j in range(i + 1, 10)), 6)
        1.0
    """

    name = "anisotropic_gaussian"

    def __init__(self, prototypes: PrototypeSet, epsilon: float, delta: float = GAUSSIAN_DELTA,
                 condition: float = 100.0):
        self.prototypes = prototypes
        self.epsilon = _check_target(epsilon, "AnisotropicGaussianMechanism")
        self.delta = float(delta)
        self.variances = anisotropic_variances(prototypes.dim, condition)
        self._root = np.sqrt(self.variances)
        self.whitened = prototypes.prototypes / self._root
        self.whitened_sensitivity = float(pdist(self.whitened, "euclidean").max())
        self.scale = analytic_gaussian_sigma(self.epsilon, self.delta, self.whitened_sensitivity)
        self.noise_std = float(self.scale * np.sqrt(self.variances.mean()))

    def sample(self, identity: int, n: int, rng: np.random.Generator) -> np.ndarray:
        """Draw ``n`` outputs c_i + s Λ^(1/2) z."""
        i = _check_identity(self, identity, "AnisotropicGaussianMechanism.sample")
        n = _check_n(n, "AnisotropicGaussianMechanism.sample")
        c = self.prototypes.prototypes[i]
        return c + self.scale * self._root * rng.standard_normal((n, c.size))

    def pair_distance(self, i: int, j: int) -> float:
        """Whitened distance ||c_i − c_j||_{Λ^{-1}}."""
        return float(np.linalg.norm(self.whitened[i] - self.whitened[j]))

    def pair_epsilon(self, i: int, j: int) -> float:
        """The analytic Gaussian profile at the whitened distance."""
        return analytic_gaussian_epsilon(self.pair_distance(i, j), self.scale, self.delta)

    def log_likelihood_ratio(self, x: np.ndarray, i: int, j: int) -> np.ndarray:
        """The exact score along the whitening direction Λ^{-1}(c_j − c_i)."""
        w = x / self._root
        a, b = self.whitened[i], self.whitened[j]
        return (w @ (b - a) - 0.5 * (b @ b - a @ a)) / self.scale**2


MECHANISMS = ("laplace", "gaussian", "randomized_response", "anisotropic_gaussian")


def build_mechanism(name: str, prototypes: PrototypeSet, epsilon: float):
    """The benchmark's mechanism ``name`` at target global ε (ε = 0 gives the null).

    Args:
        name: one of :data:`MECHANISMS`.
        prototypes: the prototype set.
        epsilon: target global ε ≥ 0.

    Returns:
        A :class:`Mechanism`.

    Raises:
        PrivlabValueError: on an unknown name or a negative ε.

    Example:
        >>> p = make_prototypes(n_identities=10, dim=4, seed=0)
        >>> build_mechanism("gaussian", p, 0).name
        'null'
    """
    if name not in MECHANISMS:
        raise invalid("name", "build_mechanism", f"one of {MECHANISMS}", name)
    if not np.isfinite(epsilon) or epsilon < 0:
        raise invalid("epsilon", "build_mechanism", "finite and >= 0", epsilon)
    if epsilon == 0:
        if name == "randomized_response":
            # ε = 0: every label reported uniformly at random, identical laws.
            mech = RandomizedResponse(prototypes, 1.0)
            mech.epsilon = 0.0
            mech.threshold = RR_GRID // mech.k  # p = 1/K on the grid
            mech.p_true = mech.threshold / RR_GRID
            mech.realised_epsilon = math.log(mech.threshold * (mech.k - 1)
                                             / (RR_GRID - mech.threshold))
            return mech
        return NullMechanism(prototypes, name)
    cls = {"laplace": LaplaceMechanism, "gaussian": GaussianMechanism,
           "randomized_response": RandomizedResponse,
           "anisotropic_gaussian": AnisotropicGaussianMechanism}[name]
    return cls(prototypes, epsilon)


# ----------------------------------------------------------------- population references


def optimal_auc_gaussian(distance: float, sigma: float) -> float:
    """Population-optimal AUC Φ(||c_i − c_j||_2 / (√2 σ)) for isotropic Gaussian noise.

    Example:
        >>> optimal_auc_gaussian(0.0, 1.0)
        0.5
    """
    if not sigma > 0:
        raise invalid("sigma", "optimal_auc_gaussian", "> 0", sigma)
    return float(stats.norm.cdf(distance / (math.sqrt(2.0) * sigma)))


def optimal_auc_monte_carlo(mechanism, i: int, j: int, draws: int = 20_000,
                            seed: int = 0) -> float:
    """Monte Carlo AUC of the exact likelihood-ratio score (the best possible test).

    Args:
        mechanism: a :class:`Mechanism`.
        i: identity of the negative class.
        j: identity of the positive class.
        draws: Monte Carlo draws per class.
        seed: generator seed.

    Returns:
        The AUC (ties count one half) of log p_j/p_i on draws from j versus draws from i.

    Example:
        >>> m = LaplaceMechanism(make_prototypes(n_identities=4, dim=3, seed=0), 8.0)
        >>> 0.5 < optimal_auc_monte_carlo(m, 0, 1, draws=2000) <= 1.0
        True
    """
    draws = _check_n(draws, "optimal_auc_monte_carlo")
    rng = np.random.default_rng(seed)
    s0 = mechanism.log_likelihood_ratio(mechanism.sample(i, draws, rng), i, j)
    s1 = mechanism.log_likelihood_ratio(mechanism.sample(j, draws, rng), i, j)
    return auc_from_scores(s0, s1)


def auc_from_scores(negative: np.ndarray, positive: np.ndarray) -> float:
    """AUC = P(score_pos > score_neg) + P(tie)/2, by ranks (Mann–Whitney).

    Example:
        >>> auc_from_scores(np.array([0.0, 1.0]), np.array([1.0, 2.0]))
        0.875
    """
    negative = np.asarray(negative, dtype=float)
    positive = np.asarray(positive, dtype=float)
    ranks = stats.rankdata(np.concatenate([negative, positive]))
    n0, n1 = len(negative), len(positive)
    u = ranks[n0:].sum() - n1 * (n1 + 1) / 2.0
    return float(u / (n0 * n1))
