"""GaussMech: the Gaussian-mechanism formula inverted on sample means (Eq. 9); a diagnostic.

The number is a signal-to-noise score, not an ε: under an exact null it stays near the
floor of :func:`gaussmech_null_floor`, however private the mechanism.
"""

from __future__ import annotations

import math

import numpy as np

from privlab.epsilon.auditors.base import DEFAULT_DELTA, BaseAuditor, Status, _check_delta, \
    registry
from privlab.errors import invalid


@registry.member("gaussmech", description="Gaussian-mechanism formula on sample means (Eq. 9)",
                 status=Status.DIAGNOSTIC, benchmark=True)
class GaussMech(BaseAuditor):
    """Gaussian-mechanism signal-to-noise score (Eq. 9); a diagnostic, not ε.

    ε̂ = ||μ̂_A − μ̂_B||_2 √(2 ln(1.25/δ)) / max(σ̂_A, σ̂_B), σ̂ the root-mean-square
    residual per coordinate. Under an exact null it stays near
    √(2 ln(1.25/δ)) √(2d/n) (:func:`gaussmech_null_floor`). The formula's δ is set
    here (default 1e-5) and the ``delta`` passed to :meth:`audit` is not used.

    Args:
        delta: the δ inside the formula, in (0, 1).

    Example:
        >>> rng = np.random.default_rng(0)
        >>> r = GaussMech().audit(rng.normal(size=(50, 4)), rng.normal(size=(50, 4)))
        >>> r.status.value, r.value > 0
        ('diagnostic', True)
    """

    name = "gaussmech"
    status = Status.DIAGNOSTIC

    def __init__(self, delta: float = DEFAULT_DELTA):
        if isinstance(delta, bool) or not isinstance(delta, (int, float)) or not 0 < delta < 1:
            raise invalid("delta", "GaussMech", "in (0, 1)", delta,
                          "The Gaussian formula needs δ > 0; the default is 1e-5.")
        self.delta = float(delta)

    def settings(self):
        return {"formula_delta": self.delta}

    def _audit(self, a, b, delta, seed):
        # The formula's own δ (always 1e-5 by default) is used whatever the caller's δ:
        # the number is a score, not an (ε, δ) statement.
        delta = self.delta
        mu_a, mu_b = a.mean(axis=0), b.mean(axis=0)
        d = a.shape[1]
        s_a = math.sqrt(((a - mu_a) ** 2).sum() / (a.shape[0] * d))
        s_b = math.sqrt(((b - mu_b) ** 2).sum() / (b.shape[0] * d))
        scale = max(s_a, s_b)
        dist = float(np.linalg.norm(mu_a - mu_b))
        factor = math.sqrt(2.0 * math.log(1.25 / delta))
        value = math.inf if scale == 0 and dist > 0 else (0.0 if dist == 0 else dist * factor / scale)
        return value, {"mean_distance": dist, "residual_scale": scale}


def gaussmech_null_floor(dim: int, n: int, delta: float = DEFAULT_DELTA) -> float:
    """Leading-order GaussMech value under an exact null (Eq. 22).

    √(2 ln(1.25/δ)) · √(2d/n): the score measures the error of the two sample means.

    Args:
        dim: embedding dimension d (≥ 1).
        n: outputs per identity (≥ 1).
        delta: the δ inside the formula, in (0, 1).

    Returns:
        The value GaussMech reports, to leading order, when the true ε is 0.

    Raises:
        PrivlabValueError: on d or n below 1, or δ outside (0, 1).

    Example:
        >>> round(gaussmech_null_floor(512, 100), 2)
        15.5
    """
    if int(dim) < 1:
        raise invalid("dim", "gaussmech_null_floor", "at least 1", dim)
    if int(n) < 1:
        raise invalid("n", "gaussmech_null_floor", "at least 1", n)
    delta = _check_delta(delta, "gaussmech_null_floor")
    if delta == 0:
        raise invalid("delta", "gaussmech_null_floor", "in (0, 1)", delta)
    return math.sqrt(2.0 * math.log(1.25 / delta)) * math.sqrt(2.0 * dim / n)
