"""Generated audits with known structure, for measuring the scaled kernels.

Scenarios ``"none"``, ``"planted"`` and ``"realistic"`` (described in
``docs/methods/scale-internals.md``). No real data, model or person is involved; the
numbers measure the kernels, not privacy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from privlab.errors import invalid

SCENARIOS = ("planted", "none", "realistic")


@dataclass(frozen=True)
class SyntheticAudit:
    """Generated S and T, and what was planted.

    Attributes:
        S: ``(m, d)`` float32 unit rows.
        T: ``(n, d)`` float32 reference differences.
        scenario: one of :data:`SCENARIOS`.
        planted: ``(i, j)`` of the planted leak, or None.
        seed: the generator's seed.
    """

    S: np.ndarray
    T: np.ndarray
    scenario: str
    planted: tuple[int, int] | None
    seed: int

    def describe(self) -> str:
        """One line: sizes, scenario and the planted pair."""
        m, d = self.S.shape
        leak = f", leak planted at {self.planted}" if self.planted else ""
        return f"{self.scenario}: {m:,} audited x {self.T.shape[0]:,} references, d={d}{leak}"


def _unit(rng: np.random.Generator, rows: int, d: int) -> np.ndarray:
    x = rng.standard_normal((rows, d), dtype=np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x


def synthetic_audit(m: int, n: int, d: int, *, scenario: str = "planted", leak: float = 0.2,
                    seed: int = 0) -> SyntheticAudit:
    """Generate an audit of ``m`` audited items against ``n`` references in ``d`` dims.

    Args:
        m, n, d: sizes (at least 1, 1 and 2).
        scenario: ``"planted"``, ``"none"`` or ``"realistic"`` (see the docs page).
        leak: the planted trial's signed difference (``"planted"`` only), in (0, 0.5].
        seed: random seed.

    Returns:
        A :class:`SyntheticAudit`.

    Raises:
        ValueError: a bad size, scenario or leak.

    Example:
        >>> audit = synthetic_audit(50, 40, 16, leak=0.25)
        >>> i, j = audit.planted
        >>> round(float(audit.S[i] @ audit.T[j]), 4)
        0.25
    """
    caller = "synthetic_audit"
    for name, value, low in (("m", m, 1), ("n", n, 1), ("d", d, 2)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise invalid(name, caller, f"an int >= {low}", value)
    if scenario not in SCENARIOS:
        raise invalid("scenario", caller, f"one of {list(SCENARIOS)}", scenario)
    if not isinstance(leak, (int, float)) or not 0 < leak <= 0.5:
        raise invalid("leak", caller, "a number in (0, 0.5]", leak)
    rng = np.random.default_rng(seed)
    S = _unit(rng, m, d)
    planted = None
    if scenario == "realistic":
        concepts = _unit(rng, 8, d)
        labels = rng.integers(0, concepts.shape[0], n)
        directions = concepts[labels] + 0.6 * _unit(rng, n, d)
        directions /= np.linalg.norm(directions, axis=1, keepdims=True)
        large = rng.random(n) < 0.05
        norms = np.where(large, 0.3, 0.02) * rng.lognormal(0.0, 0.25, n)
        T = (directions * norms[:, None].astype(np.float32)).astype(np.float32)
        traced = rng.choice(m, max(1, m // 100), replace=False)
        mixed = 0.3 * concepts[rng.integers(0, concepts.shape[0], traced.size)] + S[traced]
        S[traced] = mixed / np.linalg.norm(mixed, axis=1, keepdims=True)
        return SyntheticAudit(S, T, scenario, None, seed)
    norms = (0.1 * rng.lognormal(0.0, 0.1, n)).astype(np.float32)
    T = _unit(rng, n, d) * norms[:, None]
    if scenario == "planted":
        i, j = int(rng.integers(m)), int(rng.integers(n))
        # s_i = a u + sqrt(1 - a^2) w with u = t_j / ||t_j|| and w a unit vector orthogonal
        # to u, so that s_i . t_j = a ||t_j|| = leak.
        # The planted reference moved by leak / 0.8: a larger norm would let chance
        # alignments of other items with it rival the leak in few dimensions.
        T[j] *= np.float32(leak / 0.8 / np.linalg.norm(T[j]))
        u = T[j].astype(np.float64) / np.linalg.norm(T[j].astype(np.float64))
        w = rng.standard_normal(d)
        w -= (w @ u) * u
        w /= np.linalg.norm(w)
        a = leak / float(np.linalg.norm(T[j].astype(np.float64)))
        S[i] = (a * u + np.sqrt(1 - a * a) * w).astype(np.float32)
        planted = (i, j)
    return SyntheticAudit(S, T, scenario, planted, seed)


__all__ = ["SCENARIOS", "SyntheticAudit", "synthetic_audit"]
