"""What every ε auditor shares: statuses, results, the protocol, input checks, the registry.

Every auditor maps samples from two identities to an :class:`AuditResult` that carries
the status it formally has (:class:`Status`). :class:`BaseAuditor` validates the samples
and fills the provenance, so a member only computes ``(value, details)``. Members join
:data:`registry` with ``@registry.member(name, status=..., benchmark=...)`` beside their
class or factory.
"""

from __future__ import annotations

import html
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
import pandas as pd

from privlab.arrays import check_array
from privlab.errors import check_seed, invalid, wrong_type
from privlab.registry import Registry
from privlab.status import Status  # shared with the studies' headlines

DEFAULT_DELTA = 1e-5


# ------------------------------------------------------------------------- input checks


def _check_count(value, name: str, caller: str) -> int:
    """``value`` as an int; refuses booleans, non-integers and negatives."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise invalid(name, caller, "a nonnegative integer", value)
    return int(value)


def _check_alpha(alpha, caller: str) -> float:
    """A confidence level strictly inside (0, 1), as a float."""
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.floating)) \
            or not 0 < float(alpha) < 1:
        raise invalid("alpha", caller, "in (0, 1)", alpha)
    return float(alpha)


def _check_delta(delta, caller: str) -> float:
    """A δ in [0, 1), as a float."""
    if isinstance(delta, bool) or not isinstance(delta, (int, float, np.floating)) \
            or not 0 <= float(delta) < 1:
        raise invalid("delta", caller, "in [0, 1)", delta)
    return float(delta)


def _check_pair(a, b, seed, caller: str) -> tuple[np.ndarray, np.ndarray, int]:
    """Two identities' outputs of one dimension, and an int seed. Two DataFrames are
    aligned by column name (their order may differ); different columns are refused."""
    a, b = _aligned(a, b, caller)
    a = _as_samples(a, "a", caller)
    b = _as_samples(b, "b", caller)
    if a.shape[1] != b.shape[1]:
        raise invalid("b", caller, f"of dimension {a.shape[1]} like 'a'",
                      f"dimension {b.shape[1]}", given_is_text=True)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise wrong_type("seed", caller, "an int", seed)
    return a, b, check_seed(seed, "seed", caller)


def _aligned(a, b, caller: str):
    """``a`` and ``b``, with ``b``'s columns in ``a``'s order when both are DataFrames."""
    columns_a, columns_b = getattr(a, "columns", None), getattr(b, "columns", None)
    if columns_a is None or columns_b is None or not hasattr(b, "loc"):
        return a, b
    names_a, names_b = list(columns_a), list(columns_b)
    if names_a == names_b:
        return a, b
    if sorted(map(str, names_a)) != sorted(map(str, names_b)) or \
            len(set(names_a)) != len(names_a):
        only_a = [c for c in names_a if c not in names_b]
        only_b = [c for c in names_b if c not in names_a]
        raise invalid("b", caller, f"a DataFrame with the columns of 'a' {names_a}",
                      f"columns only in a: {only_a}, only in b: {only_b}",
                      "Select the same columns in both (columns are matched by name, never "
                      "by position).", given_is_text=True)
    return a, b[names_a]


def split_halves(a: np.ndarray, b: np.ndarray, seed: int):
    """Each identity's rows split in half at random: (dev_a, test_a, dev_b, test_b).

    The development half fixes a rule; the test half, never seen by it, is counted once.

    Example:
        >>> parts = split_halves(np.zeros((5, 1)), np.ones((4, 1)), 0)
        >>> [len(p) for p in parts]
        [2, 3, 2, 2]
    """
    rng = np.random.default_rng(seed)
    pa, pb = rng.permutation(len(a)), rng.permutation(len(b))
    ha, hb = len(a) // 2, len(b) // 2
    return a[pa[:ha]], a[pa[ha:]], b[pb[:hb]], b[pb[hb:]]


#: Largest magnitude an output may have: squares and products of larger values overflow
#: float64 inside the auditors (1e200 gave NaN).
MAX_MAGNITUDE = 1e150


def _as_samples(x, name: str, caller: str) -> np.ndarray:
    """One identity's outputs as a finite float array (n ≥ 2, d ≥ 1), of magnitude at most
    :data:`MAX_MAGNITUDE`."""
    try:
        arr = check_array(x, name, caller, finite=False,
                          expected="a 2-D array of shape (n, d)").astype(float)
    except OverflowError:  # e.g. an object array holding 10**400
        raise invalid(name, caller, "numbers that fit a float64", "a value too large for "
                      "one (such as 10**400)", "Rescale the outputs before auditing.",
                      given_is_text=True) from None
    if arr.ndim != 2:
        raise invalid(name, caller, "a 2-D array of shape (n, d)", f"shape {arr.shape}",
                      given_is_text=True)
    if arr.shape[1] == 0:
        raise invalid(name, caller, "a 2-D array of shape (n, d) with d >= 1",
                      f"shape {arr.shape} (no columns)", "Pass the outputs themselves; with "
                      "no column there is nothing to tell apart.", given_is_text=True)
    if arr.shape[0] < 2:
        raise invalid(name, caller, "at least 2 rows", f"{arr.shape[0]} rows",
                      given_is_text=True)
    if not np.isfinite(arr).all():
        raise invalid(name, caller, "finite everywhere", "NaN or infinite entries",
                      given_is_text=True, fix="Drop or repair those rows first.")
    largest = float(np.abs(arr).max()) if arr.size else 0.0
    if largest > MAX_MAGNITUDE:
        raise invalid(name, caller, f"values of magnitude at most {MAX_MAGNITUDE:g}",
                      f"a value of magnitude {largest:.3g}", "Divide both identities' outputs "
                      "by one common constant first (the auditors' squares would overflow).",
                      given_is_text=True)
    return arr


# ------------------------------------------------------------------------------ results


@dataclass
class AuditResult:
    """One auditor's answer for one pair of identities.

    Attributes:
        method: the auditor's registry name.
        status: what ``value`` formally is; only ``Status.CERTIFICATE`` is a confidence
            bound on ε.
        value: the reported number (may be +∞ for ROC-HT's direct conversion).
        details: further numbers: e.g. ``auc``, ``corner`` (the exact (0, 1) ROC point),
            ``mmd``, ``tighter`` (2·artanh(MMD/√2)), ``p_value``, ``u_fpr``, ``u_fnr``,
            ``attainable`` (the largest bound the test could have given).
        provenance: settings and seeds that produced it.
    """

    method: str
    status: Status
    value: float
    details: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """One-row table: method, status, value, then the details."""
        row = {"method": self.method, "status": self.status.value, "value": self.value}
        row.update(self.details)
        return pd.DataFrame([row])

    def _repr_html_(self) -> str:
        caption = html.escape(f"{self.method}: {self.status.value}")
        return f"<b>{caption}</b>" + self.to_frame().to_html(index=False)


# ------------------------------------------------------------------- protocol and base


@runtime_checkable
class Auditor(Protocol):
    """Maps samples from two identities to an :class:`AuditResult`."""

    name: str
    status: Status

    def audit(self, a: np.ndarray, b: np.ndarray, *, delta: float = DEFAULT_DELTA,
              seed: int = 0) -> AuditResult:
        """Audit outputs ``a`` (identity A, shape (n_a, d)) against ``b`` (n_b, d)."""


class BaseAuditor(ABC):
    """Template: :meth:`audit` validates inputs and fills provenance; subclasses fill
    :meth:`_audit`, returning ``(value, details)``."""

    name = "base"
    status = Status.DIAGNOSTIC
    min_rows = 2

    def audit(self, a, b, *, delta: float = DEFAULT_DELTA, seed: int = 0) -> AuditResult:
        """Audit two identities' samples.

        Args:
            a: outputs of identity A, array (n_a, d).
            b: outputs of identity B, array (n_b, d), same d.
            delta: the δ used by the formula (ignored by auditors without one).
            seed: seed for any randomness (folds, splits, permutations).

        Returns:
            An :class:`AuditResult` labelled with this auditor's status.

        Raises:
            PrivlabValueError / PrivlabTypeError: on malformed samples or δ.
        """
        caller = f"{type(self).__name__}.audit"
        a, b, seed = _check_pair(a, b, seed, caller)
        for name, x in (("a", a), ("b", b)):
            if x.shape[0] < self.min_rows:
                raise invalid(name, caller, f"at least {self.min_rows} rows",
                              f"{x.shape[0]} rows", given_is_text=True)
        delta = _check_delta(delta, caller)
        value, details = self._audit(a, b, delta, seed)
        prov = {"n_a": a.shape[0], "n_b": b.shape[0], "dim": a.shape[1], "delta": delta,
                "seed": int(seed)}
        prov.update(self.settings())
        return AuditResult(self.name, self.status, float(value), details, prov)

    def settings(self) -> dict[str, Any]:
        """The auditor's own settings, recorded in provenance."""
        return {}

    @abstractmethod
    def _audit(self, a: np.ndarray, b: np.ndarray, delta: float, seed: int):
        """Return ``(value, details)`` for samples already validated by :meth:`audit`."""

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.settings().items())
        return f"{type(self).__name__}({args})"


#: The ε auditors by name. Each entry's metadata carry ``status`` (the :class:`Status`
#: of its number) and ``benchmark`` (True when the known-ε benchmark may run it);
#: ``oracle`` marks a member that needs a mechanism's exact scorer to be built.
registry = Registry("ε auditor")
