"""Many auditors on many identity pairs: the registered auditors by name, and the table.

:func:`audit_pairs` runs registered auditors (by name, through :func:`get_auditor`) or
given :class:`~privlab.epsilon.auditors.base.Auditor` instances on pairs of any
identity-labelled embedding table and returns an :class:`EpsilonAuditTable`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd

from privlab.epsilon.auditors.base import DEFAULT_DELTA, AuditResult, Auditor, _as_samples, \
    _check_alpha, registry
from privlab.epsilon.auditors.reserved import ReservedTest
from privlab.errors import invalid, strings, wrong_type


@dataclass
class EpsilonAuditTable:
    """Many ε auditors on many identity pairs (what :func:`audit_pairs` returns).

    Not to be confused with :class:`privlab.contrastive.AuditTable` (one contrastive
    audit per sanitizer): every row here is one route's ε-like number for one pair.

    Attributes:
        results: one :class:`AuditResult` per (pair, method), each with ``pair`` and
            ``pair_index`` in its provenance.
        provenance: settings shared by all rows (methods, δ, α, seed, data hash).
    """

    results: list[AuditResult]
    provenance: dict[str, Any] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """Tidy table: one row per pair and method."""
        rows = []
        for r in self.results:
            row = {"pair_index": r.provenance.get("pair_index"),
                   "id_a": r.provenance.get("pair", (None, None))[0],
                   "id_b": r.provenance.get("pair", (None, None))[1],
                   "method": r.method, "status": r.status.value, "value": r.value}
            row.update(r.details)
            rows.append(row)
        return pd.DataFrame(rows)

    def summary(self) -> pd.DataFrame:
        """Per method: status, median of finite values, count of +∞, max value."""
        frame = self.to_frame()
        if frame.empty:
            return frame
        out = []
        for method, group in frame.groupby("method", sort=False):
            values = group["value"].astype(float)
            finite = values[np.isfinite(values)]
            out.append({"method": method, "status": group["status"].iloc[0],
                        "pairs": len(group),
                        "median (finite)": float(finite.median()) if len(finite) else math.nan,
                        "max (finite)": float(finite.max()) if len(finite) else math.nan,
                        "+inf": int(np.isinf(values).sum())})
        return pd.DataFrame(out)

    def _repr_html_(self) -> str:
        return ("<b>ε audit: only the finite-sample certificate is a bound on ε</b>"
                + self.summary().to_html(index=False))


class _RegisteredAuditors(Mapping):
    """Read-only view of the registry: name -> a freshly built auditor, in registration order.

    Oracle members (which need a mechanism's exact scorer) are left out: they cannot be
    built from their name alone.
    """

    def _names(self) -> list[str]:
        return [e.name for e in registry.entries() if not e.meta.get("oracle")]

    def __getitem__(self, name: str) -> Auditor:
        if name not in self._names():
            raise KeyError(name)
        return registry.create(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def __repr__(self) -> str:
        return f"AUDITORS({self._names()})"


#: The registered auditors that need no more than their name, as a read-only mapping
#: name -> auditor (built from :data:`privlab.epsilon.auditors.base.registry` at each
#: lookup). Add a member with ``@registry.member(name, status=..., benchmark=...)``.
AUDITORS: Mapping[str, Auditor] = _RegisteredAuditors()


def get_auditor(name: str) -> Auditor:
    """The registered auditor ``name``, built with the registry's default settings.

    Args:
        name: a name of :data:`AUDITORS`.

    Returns:
        A new instance that follows the :class:`~privlab.epsilon.auditors.base.Auditor`
        protocol.

    Raises:
        PrivlabValueError: naming the registered choices.

    Example:
        >>> get_auditor("gaussmech").status.value
        'diagnostic'
    """
    if isinstance(name, str) and name in registry and registry.entry(name).meta.get("oracle"):
        raise invalid("methods", "get_auditor", f"one of {sorted(AUDITORS)} (an oracle such "
                      "as this one needs the mechanism's exact scorer, which a name cannot "
                      "give)", name, "Pass the auditor itself: methods=["
                      f"{name.replace('-', '_')}(scorer)] from privlab.epsilon.auditors, with "
                      "scorer(rows) -> one score per row, larger for B (e.g. the exact "
                      "log-likelihood ratio).")
    if not isinstance(name, str) or name not in AUDITORS:
        raise invalid("methods", "get_auditor", f"one of {sorted(AUDITORS)}", name)
    return AUDITORS[name]


def _is_certificate(auditor) -> bool:
    """True for an auditor whose level :func:`audit_pairs` sets."""
    return isinstance(auditor, ReservedTest) or callable(getattr(auditor, "with_alpha", None))


def audit_pairs(embeddings, labels, pairs: Sequence[tuple], methods: Sequence[str] = (
        "gaussmech", "kde-lr-0.01", "mmd-tv", "roc-ht", "reserved"),
        delta: float = DEFAULT_DELTA, seed: int = 0, family_alpha: float = 0.05,
        min_rows: int = 10) -> EpsilonAuditTable:
    """Run auditors on identity pairs of any identity-labelled embedding table.

    With k certificates among ``methods``, each gets α = ``family_alpha / (2 · len(pairs)
    · k)`` per error rate, recorded in ``provenance["alpha"]``; compare certificates only
    at the levels they state.

    Args:
        embeddings: float array (N, d).
        labels: length-N identity labels (any hashable values).
        pairs: sequence of (label_a, label_b).
        methods: registry names from :data:`AUDITORS`, or Auditor instances.
        delta: δ passed to every auditor (use 0 for pure-DP conversions).
        seed: base seed; pair k uses ``(seed + k) % 2**32``.
        family_alpha: simultaneous level of all the certificates' bounds over all pairs.
        min_rows: fewest rows an identity must have.

    Returns:
        An :class:`EpsilonAuditTable` (``to_frame()`` gives one row per pair and method).

    Raises:
        PrivlabValueError: on shape mismatches, unknown labels or methods, or too few rows.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> x = rng.normal(size=(40, 3)); y = np.repeat(["p", "q"], 20)
        >>> t = audit_pairs(x, y, [("p", "q")], methods=["gaussmech", "mmd-tv"])
        >>> list(t.to_frame()["method"])
        ['gaussmech', 'mmd-tv']
    """
    caller = "audit_pairs"
    x = _as_samples(embeddings, "embeddings", caller)
    labels = np.asarray(labels)
    if labels.ndim != 1 or len(labels) != len(x):
        raise invalid("labels", caller, f"a 1-D sequence of length {len(x)}",
                      f"shape {labels.shape}", given_is_text=True)
    pairs = [tuple(p) for p in pairs]
    if not pairs or any(len(p) != 2 for p in pairs):
        raise invalid("pairs", caller, "a nonempty sequence of (label_a, label_b)", pairs)
    family_alpha = _check_alpha(family_alpha, caller)
    built = []
    for m in strings(methods, "methods", caller, also=(Auditor,),
                       example="['gaussmech', 'reserved']"):
        if isinstance(m, str):
            built.append(get_auditor(m))
        elif isinstance(m, Auditor):
            built.append(m)
        else:
            raise wrong_type("methods", caller, "registry names or Auditor instances", m)
    certificates = sum(_is_certificate(a) for a in built)
    alpha = family_alpha / (2 * len(pairs) * max(certificates, 1))
    auditors = []
    for auditor in built:
        if isinstance(auditor, ReservedTest):
            auditor = ReservedTest(alpha, auditor.scorer, auditor.name)
        elif _is_certificate(auditor):  # the other certificates
            auditor = auditor.with_alpha(alpha)
        auditors.append(auditor)
    if not auditors:
        raise invalid("methods", caller, "a nonempty sequence", methods)
    groups: dict[Any, np.ndarray] = {}
    for p in pairs:
        for lab in p:
            if lab not in groups:
                rows = x[labels == lab]
                if len(rows) < min_rows:
                    raise invalid("pairs", caller, f"labels with at least {min_rows} rows",
                                  f"label {lab!r} with {len(rows)} rows", given_is_text=True)
                groups[lab] = rows
    results = []
    for k, (la, lb) in enumerate(pairs):
        for auditor in auditors:
            # seed + k wraps below 2**32: every valid seed stays valid at every pair
            r = auditor.audit(groups[la], groups[lb], delta=delta, seed=(seed + k) % 2**32)
            r.provenance.update({"pair": (la, lb), "pair_index": k})
            results.append(r)
    prov = {"methods": [a.name for a in auditors], "delta": delta, "seed": seed,
            "family_alpha": family_alpha, "n_pairs": len(pairs),
            "certificates": certificates, "alpha_per_rate": alpha if certificates else None,
            "embeddings_shape": tuple(x.shape)}
    return EpsilonAuditTable(results, prov)
