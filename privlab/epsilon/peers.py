"""The peers' test mechanisms, right and wrong, each with the ε it claims and one input pair.

The small mechanisms DP-Sniper and StatDP check their auditors on, implemented from the
published descriptions; :data:`PEERS` lists each claim and whether it holds. Which claims
hold and why: docs/methods/epsilon.md; the interface: docs/methods/epsilon-validity.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from privlab.errors import invalid

#: Machine epsilon of doubles in Mironov's snapping bound.
ETA = 2.0 ** -53


def _one_hot(codes: np.ndarray, k: int) -> np.ndarray:
    """Integer codes as one-hot rows of width k."""
    out = np.zeros((len(codes), k))
    out[np.arange(len(codes)), codes] = 1.0
    return out


def _check_identity(identity, caller: str) -> int:
    """0 or 1, the two inputs of the pair."""
    if identity not in (0, 1):
        raise invalid("identity", caller, "0 or 1 (the two inputs of the pair)", identity)
    return int(identity)


class PairMechanism:
    """Two inputs, a claimed ε; subclasses fill :meth:`_sample` (rows of features)."""

    name = "pair"
    inputs: tuple = ((), ())

    def sample(self, identity: int, n: int, rng: np.random.Generator) -> np.ndarray:
        """n outputs of input ``identity`` (0 or 1), as float features (n, d)."""
        identity = _check_identity(identity, f"{type(self).__name__}.sample")
        return np.asarray(self._sample(self.inputs[identity], int(n), rng), dtype=float)

    def _sample(self, value, n, rng):  # pragma: no cover - abstract
        raise NotImplementedError


class TruncatedGeometric(PairMechanism):
    """clamp(q + G, 0, m), G two-sided geometric with P(G = g) ∝ e^(−ε|g|); inputs q, q + 1.

    Example:
        >>> TruncatedGeometric(1.0).sample(0, 3, np.random.default_rng(0)).shape
        (3, 6)
    """

    name = "truncated-geometric"

    def __init__(self, epsilon: float, m: int = 5, q: int = 2):
        self.epsilon, self.m, self.inputs = float(epsilon), int(m), (q, q + 1)

    def _sample(self, q, n, rng):
        p = 1.0 - math.exp(-self.epsilon)
        noise = rng.geometric(p, n) - rng.geometric(p, n)
        return _one_hot(np.clip(q + noise, 0, self.m), self.m + 1)


class ReportNoisyMax(PairMechanism):
    """Noise of scale 2/ε on k counts; the argmax index (right) or the maximum (wrong).

    Args:
        epsilon: the claimed ε.
        noise: ``"laplace"`` or ``"exponential"``.
        release: ``"index"`` (variants 1, 2) or ``"value"`` (3, 4).
        inputs: the two count vectors (neighbours: each count moves by at most 1).

    Example:
        >>> ReportNoisyMax(1.0, "laplace", "index").sample(1, 4, np.random.default_rng(0)).shape
        (4, 5)
    """

    def __init__(self, epsilon: float, noise: str = "laplace", release: str = "index",
                 inputs=None):
        self.epsilon, self.noise, self.release = float(epsilon), noise, release
        if inputs is None:  # the index variants: one count up, the others down
            inputs = (np.ones(5), np.r_[2.0, np.zeros(4)]) if release == "index" else \
                (np.zeros(10), np.ones(10))  # the value variants: every count up by 1
        self.inputs = tuple(np.asarray(v, float) for v in inputs)
        number = {("laplace", "index"): 1, ("exponential", "index"): 2,
                  ("laplace", "value"): 3, ("exponential", "value"): 4}[(noise, release)]
        self.name = f"report-noisy-max-{number}"

    def _sample(self, q, n, rng):
        scale = 2.0 / self.epsilon
        noise = rng.laplace(0.0, scale, (n, len(q))) if self.noise == "laplace" else \
            rng.exponential(scale, (n, len(q)))
        noisy = q + noise
        if self.release == "index":
            return _one_hot(np.argmax(noisy, axis=1), len(q))
        return noisy.max(axis=1)[:, None]


#: Lyu, Su and Li's variants: (ε₁ share, threshold noise scale in Δ/ε₁ units, query noise
#: scale in Δ/ε₂ units (c = cutoff), whether ρ is redrawn after ⊤, cutoff, value released).
SVT_VARIANTS = {
    1: dict(eps1=0.5, rho_units=1.0, nu_units=lambda c: 2.0 * c, redraw=False, cutoff=True,
            value=False),
    2: dict(eps1=0.5, rho_units=None, nu_units=lambda c: 2.0 * c, redraw=True, cutoff=True,
            value=False),
    3: dict(eps1=0.5, rho_units=1.0, nu_units=lambda c: float(c), redraw=False, cutoff=True,
            value=True),
    4: dict(eps1=0.25, rho_units=1.0, nu_units=lambda c: 1.0, redraw=False, cutoff=True,
            value=False),
    5: dict(eps1=0.5, rho_units=1.0, nu_units=None, redraw=False, cutoff=False, value=False),
    6: dict(eps1=0.5, rho_units=1.0, nu_units=lambda c: 1.0, redraw=False, cutoff=False,
            value=False),
}


class SparseVector(PairMechanism):
    """Sparse vector variant 1–6 of Lyu, Su and Li on m queries (Δ = 1, threshold T, cutoff c).

    Outputs, one-hot: with a cutoff c = 1, the position of the first ⊤ (or none); with
    c > 1, per query a ⊤ and a ⊥ indicator (neither once stopped); without a cutoff, the
    whole ⊤/⊥ pattern (2^m categories; ``encoding="bits"``: the m answers themselves).
    Variant 3 adds, per position, the released noisy value.

    Example:
        >>> SparseVector(5, 1.0).sample(0, 2, np.random.default_rng(0)).shape
        (2, 64)
    """

    def __init__(self, variant: int, epsilon: float, m: int | None = None,
                 threshold: float = 0.0, inputs=None, encoding: str = "one-hot",
                 cutoff: int = 1):
        if variant not in SVT_VARIANTS:
            raise invalid("variant", "SparseVector", "one of 1–6", variant)
        if isinstance(cutoff, bool) or not isinstance(cutoff, int) or cutoff < 1:
            raise invalid("cutoff", "SparseVector", "an int >= 1", cutoff)
        self.cutoff = cutoff
        if encoding not in ("one-hot", "bits"):
            raise invalid("encoding", "SparseVector", "'one-hot' or 'bits'", encoding)
        self.encoding = encoding
        self.variant, self.epsilon, self.threshold = variant, float(epsilon), float(threshold)
        self.spec = SVT_VARIANTS[variant]
        self.m = m or (6 if not self.spec["cutoff"] else 10)
        half = self.m // 2
        if inputs is None:
            if variant == 3:  # ⊥ answers on counts that move, then a ⊤ on one that stays
                inputs = (np.zeros(self.m), np.r_[np.ones(self.m - 1), 0.0])
            else:  # half the counts up, half down
                inputs = (np.r_[np.zeros(half), np.ones(self.m - half)],
                          np.r_[np.ones(half), np.zeros(self.m - half)])
        self.inputs = tuple(np.asarray(v, float) for v in inputs)
        self.name = f"svt-{variant}"

    def _sample(self, q, n, rng):
        s, eps, c = self.spec, self.epsilon, self.cutoff
        eps1 = s["eps1"] * eps
        eps2 = eps - eps1
        rho_scale = (c if s["rho_units"] is None else s["rho_units"]) / eps1
        rho = rng.laplace(0.0, rho_scale, n)
        nu = np.zeros((n, self.m)) if s["nu_units"] is None else \
            rng.laplace(0.0, s["nu_units"](c) / eps2, (n, self.m))
        noisy = q + nu
        if not s["cutoff"]:
            above = noisy >= self.threshold + rho[:, None]
            if self.encoding == "bits":  # the ⊤/⊥ pattern itself, m columns
                return above.astype(float)
            return _one_hot(above.astype(np.int64) @ (1 << np.arange(self.m)), 1 << self.m)
        if c > 1:
            return self._answers(noisy, rho, rho_scale, rng)
        # c = 1: the answer stops at the first ⊤ (variant 2 would redraw ρ after it)
        above = noisy >= self.threshold + rho[:, None]
        first = np.where(above.any(axis=1), above.argmax(axis=1), self.m)
        features = _one_hot(first, self.m + 1)
        if s["value"]:
            value = np.zeros((n, self.m))
            hit = first < self.m
            value[np.flatnonzero(hit), first[hit]] = noisy[hit, first[hit]]
            features = np.hstack([features, value])
        return features

    def _answers(self, noisy, rho, rho_scale, rng):
        """Query by query up to c ⊤ answers; ⊤ and ⊥ indicators (and values for variant 3)."""
        n = len(noisy)
        top, bottom = np.zeros((n, self.m), bool), np.zeros((n, self.m), bool)
        count = np.zeros(n, np.int64)
        for i in range(self.m):
            live = count < self.cutoff
            hit = live & (noisy[:, i] >= self.threshold + rho)
            top[:, i], bottom[:, i] = hit, live & ~hit
            count += hit
            if self.spec["redraw"]:  # variant 2: a fresh threshold noise after each ⊤
                rho = np.where(hit, rng.laplace(0.0, rho_scale, n), rho)
        features = [top, bottom] + ([np.where(top, noisy, 0.0)] if self.spec["value"] else [])
        return np.hstack(features).astype(float)


def rappor_epsilon(f: float, hashes: int) -> float:
    """ε of one-time RAPPOR: 2h·ln((1 − f/2)/(f/2)).

    Example:
        >>> round(rappor_epsilon(0.5, 1), 4)
        2.1972
    """
    return 2.0 * hashes * math.log((1.0 - f / 2.0) / (f / 2.0))


class OneTimeRappor(PairMechanism):
    """Bloom filter of k bits, h hashes; each bit a fair coin with probability f (else kept).

    Inputs 0 and 1 set disjoint bits (0..h−1 and h..2h−1).

    Example:
        >>> OneTimeRappor(0.5).sample(0, 3, np.random.default_rng(0)).shape
        (3, 8)
    """

    name = "one-time-rappor"

    def __init__(self, f: float = 0.5, hashes: int = 2, bits: int = 8):
        self.f, self.hashes, self.bits = float(f), int(hashes), int(bits)
        self.inputs = tuple(np.isin(np.arange(bits), np.arange(h * hashes, (h + 1) * hashes))
                            for h in (0, 1))

    def _sample(self, filt, n, rng):
        coin = rng.random((n, self.bits)) < self.f
        return np.where(coin, rng.random((n, self.bits)) < 0.5, filt[None, :]).astype(float)


def _float_laplace(u: np.ndarray, scale: float) -> np.ndarray:
    """Inverse-CDF Laplace noise on doubles from uniforms u in (0, 1), as samplers do it."""
    out = np.empty_like(u)
    hi = u >= 0.5
    out[hi] = -scale * np.log(2.0 - u[hi] - u[hi])
    out[~hi] = scale * np.log(u[~hi] + u[~hi])
    return out


def _uniform53(n: int, rng: np.random.Generator) -> np.ndarray:
    """n uniforms in (0, 1) on the 2⁻⁵³ grid, as samplers draw them."""
    return rng.integers(1, 2**53, n, dtype=np.int64) * 2.0 ** -53


def reachable_from_zero(x: np.ndarray, scale: float) -> np.ndarray:
    """Mironov's test: can input 0 of the floating-point Laplace output exactly ``x``?

    Inverts the sampler on the 2⁻⁵³ grid of uniforms and checks the neighbouring grid
    points: True when one of them gives ``x`` bit for bit.

    Example:
        >>> u = np.array([3.0, 7.0]) / 8  # uniforms on the 2⁻⁵³ grid
        >>> reachable_from_zero(_float_laplace(u, 2.0), 2.0).tolist()
        [True, True]
    """
    x = np.asarray(x, float)
    u = np.where(x >= 0, 1.0 - np.exp(-x / scale) / 2.0, np.exp(x / scale) / 2.0)
    k = np.rint(u * 2.0**53)
    found = np.zeros(len(x), bool)
    for step in range(-3, 4):
        cand = np.clip(k + step, 1, 2**53 - 1) * 2.0 ** -53
        found |= _float_laplace(cand, scale) == x
    return found


class FloatLaplace(PairMechanism):
    """q + inverse-CDF Laplace noise of scale 1/ε on doubles; inputs 0 and 1.

    Features: the output and :func:`reachable_from_zero` of it.

    Example:
        >>> FloatLaplace(1.0).sample(0, 5, np.random.default_rng(0))[:, 1].tolist()
        [1.0, 1.0, 1.0, 1.0, 1.0]
    """

    name = "float-laplace"

    def __init__(self, epsilon: float):
        self.epsilon, self.inputs = float(epsilon), (0.0, 1.0)

    def release(self, q, n, rng):
        return q + _float_laplace(_uniform53(n, rng), 1.0 / self.epsilon)

    def _sample(self, q, n, rng):
        x = self.release(q, n, rng)
        return np.c_[x, reachable_from_zero(x, 1.0 / self.epsilon)]


class SnappingLaplace(FloatLaplace):
    """Mironov's snapping mechanism: clamp to [−B, B], add the noise, round to Λ, clamp.

    Λ is the smallest power of two ≥ 1/ε. Same features as :class:`FloatLaplace`.

    Example:
        >>> SnappingLaplace(1.0).claimed_epsilon() > 1.0
        True
    """

    name = "snapping-laplace"

    def __init__(self, epsilon: float, bound: float = 20.0):
        super().__init__(epsilon)
        self.bound = float(bound)
        self.grid = 2.0 ** math.ceil(math.log2(1.0 / self.epsilon))

    def claimed_epsilon(self) -> float:
        """Mironov's bound: ε(1 + 12Bη) + 2η."""
        return self.epsilon * (1.0 + 12.0 * self.bound * ETA) + 2.0 * ETA

    def release(self, q, n, rng):
        x = np.clip(q, -self.bound, self.bound) + _float_laplace(_uniform53(n, rng),
                                                                 1.0 / self.epsilon)
        return np.clip(self.grid * np.rint(x / self.grid), -self.bound, self.bound)


@dataclass(frozen=True)
class Peer:
    """One benchmark entry: a mechanism, the ε it claims and whether the claim holds.

    Attributes:
        name: the mechanism's name.
        build: builds the mechanism.
        claimed: the ε claimed (δ = 0).
        holds: whether the claim is true.
        exact: the exact ε of the pair where known (None otherwise; inf when unbounded).
        refute_n: rows per input at which the hockey-stick tester (α = 0.025 per bound)
            refutes the false claim (0 for a true one).
        why: one line on the claim.
    """

    name: str
    build: Callable[[], PairMechanism]
    claimed: float
    holds: bool
    exact: float | None
    refute_n: int
    why: str


def _peers() -> tuple[Peer, ...]:
    """The benchmark entries (built once, into :data:`PEERS`)."""
    snap = SnappingLaplace(0.5)
    return (
        Peer("truncated-geometric", lambda: TruncatedGeometric(1.0), 1.0, True, 1.0, 0,
             "two-sided geometric, clamped: exactly ε"),
        Peer("report-noisy-max-1", lambda: ReportNoisyMax(1.0, "laplace", "index"), 1.0, True,
             None, 0, "Laplace noise 2/ε, argmax released"),
        Peer("report-noisy-max-2", lambda: ReportNoisyMax(1.0, "exponential", "index"), 1.0,
             True, None, 0, "exponential noise 2/ε, argmax released"),
        Peer("report-noisy-max-3", lambda: ReportNoisyMax(1.0, "laplace", "value"), 1.0, False,
             None, 2_000, "the maximum noisy value released: about kε/2 for k = 10 counts"),
        Peer("report-noisy-max-4", lambda: ReportNoisyMax(1.0, "exponential", "value", inputs=(
            np.zeros(2), np.ones(2))), 1.0, False, math.inf, 500,
             "the maximum of 2 counts released; exponential support moves: ∞"),
        Peer("svt-1", lambda: SparseVector(1, 1.0), 1.0, True, None, 0,
             "Lyu et al. Alg. 1: ε-DP"),
        Peer("svt-2", lambda: SparseVector(2, 1.0), 1.0, True, None, 0,
             "Dwork and Roth: ε-DP"),
        Peer("svt-3", lambda: SparseVector(3, 2.0, m=6), 2.0, False, None, 200_000,
             "noisy value released above the threshold: ⊥ answers before it cost ε/2 each"),
        Peer("svt-4", lambda: SparseVector(4, 2.0), 2.0, False, None, 20_000,
             "query noise Δ/ε₂, ε₁ = ε/4: ((1 + 6c)/4)·ε-DP"),
        Peer("svt-5", lambda: SparseVector(5, 1.0), 1.0, False, math.inf, 500,
             "no query noise: ∞"),
        Peer("svt-6", lambda: SparseVector(6, 1.0), 1.0, False, None, 20_000,
             "no cutoff: the loss grows with the number of queries"),
        Peer("one-time-rappor", lambda: OneTimeRappor(0.5, 2), rappor_epsilon(0.5, 2), True,
             rappor_epsilon(0.5, 2), 0, "2h·ln((1 − f/2)/(f/2)) with h = 2"),
        Peer("one-time-rappor-one-hash-claim", lambda: OneTimeRappor(0.5, 2),
             rappor_epsilon(0.5, 1), False, rappor_epsilon(0.5, 2), 5_000,
             "claims the one-hash ε while using two hashes"),
        Peer("float-laplace", lambda: FloatLaplace(0.5), 0.5, False, math.inf, 2_000,
             "doubles an input cannot produce (Mironov)"),
        Peer("snapping-laplace", lambda: snap, snap.claimed_epsilon(), True, None, 0,
             "Mironov's fix: ε(1 + 12Bη) + 2η"),
    )


#: The peers' mechanisms, right and wrong.
PEERS: tuple[Peer, ...] = _peers()


def get_peer(name: str) -> Peer:
    """The :data:`PEERS` entry ``name``.

    Example:
        >>> get_peer("svt-5").holds
        False
    """
    for peer in PEERS:
        if peer.name == name:
            return peer
    raise invalid("name", "get_peer", f"one of {[p.name for p in PEERS]}", name)


#: Rows per input at which a true claim is put to the test (no refutation expected).
TRUE_CLAIM_ROWS = 20_000


def refutations(*, alpha: float = 0.025, seed: int = 0, true_rows: int = TRUE_CLAIM_ROWS):
    """Every peer's claim put to the hockey-stick tester at its stated rows per input.

    A false claim is tested at ``refute_n`` rows, a true one at ``true_rows``; a true
    claim must never be refuted.

    Returns:
        A DataFrame, one row per mechanism: ``mechanism``, ``claimed ε``, ``claim holds``
        (known), ``rows per input``, ``certified ε ≥`` and ``refuted``, ``why``.

    Example:
        >>> frame = refutations()
        >>> bool((frame["refuted"] == ~frame["claim holds"]).all())
        True
    """
    import pandas as pd

    from privlab.epsilon.auditors.hockey_stick import HockeyStickTester

    rows = []
    for k, peer in enumerate(PEERS):
        n = peer.refute_n or int(true_rows)
        rng = np.random.default_rng(seed + k)
        mechanism = peer.build()
        a, b = mechanism.sample(0, n, rng), mechanism.sample(1, n, rng)
        claim = HockeyStickTester(epsilon=peer.claimed, delta=0.0, alpha=alpha).test(
            a, b, seed=seed + k)
        rows.append({"mechanism": peer.name, "claimed ε": peer.claimed,
                     "claim holds": peer.holds, "rows per input": n,
                     "certified ε ≥": claim.epsilon_lower, "refuted": bool(claim.reject),
                     "why": peer.why})
    return pd.DataFrame(rows)
