"""Bring your own samples: ``privlab.epsilon.audit(A, B, delta=...)``.

The registered auditors on a mechanism's outputs on two neighbouring inputs: the
certificate(s) with their confidence, the paper's four estimators with their statuses
(none is a bound on ε), and a label-shuffled control. See
docs/methods/epsilon-certificates.md.

Example:
    >>> rng = np.random.default_rng(0)
    >>> a = rng.laplace(0.0, 1.0, 2000); b = rng.laplace(1.0, 1.0, 2000)  # true ε = 1
    >>> r = audit(a, b, delta=0)
    >>> 0 < r.certificate < 1, r.confidence
    (True, 0.95)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd

from privlab.epsilon.auditors.base import DEFAULT_DELTA, AuditResult, Status, registry
from privlab.epsilon.auditors.table import EpsilonAuditTable, audit_pairs
from privlab.errors import invalid, wrong_type
from privlab.report import Finding, ResultFace, Witness

_CALLER = "privlab.epsilon.audit"

#: The paper's four estimators, by registry name (none is a bound on ε).
ESTIMATORS: tuple[str, ...] = ("gaussmech", "kde-lr-0.01", "mmd-tv", "roc-ht")
#: The certificates run by default.
CERTIFICATES: tuple[str, ...] = ("reserved",)
#: Fewest rows each sample must have (the reserved test halves them).
MIN_ROWS = 10
#: The two samples' names in the tables when the user gives none.
NAMES = ("A", "B")


def _samples(x: Any, name: str, columns: list | None) -> tuple[np.ndarray, list | None]:
    """One sample as a finite float array (n, d) and its column names (DataFrames)."""
    if isinstance(x, pd.Series):
        x = x.to_frame()
    if isinstance(x, pd.DataFrame):
        if columns is not None:
            missing = [c for c in columns if c not in x.columns]
            if missing or len(x.columns) != len(columns):
                raise invalid(name, _CALLER, f"a DataFrame with the columns of 'A' {columns}",
                              f"columns {list(x.columns)}", "Give both samples the same "
                              "columns (in any order).", given_is_text=True)
            x = x[columns]
        columns = list(x.columns)
        numeric = x.select_dtypes(include="number")
        if numeric.shape[1] != x.shape[1]:
            bad = [c for c in x.columns if c not in numeric.columns]
            raise invalid(name, _CALLER, "a DataFrame of numeric columns",
                          f"non-numeric columns {bad}", "Drop or encode them first.",
                          given_is_text=True)
        x = x.to_numpy(dtype=float)
    elif isinstance(x, (str, bytes)) or x is None:
        raise wrong_type(name, _CALLER, "an array of outputs (n,) or (n, d), or a DataFrame",
                         x, "Load a saved file first, e.g. numpy.load(path).")
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise invalid(name, _CALLER, "an array of real numbers of shape (n,) or (n, d)", x,
                      "Stack one output per row.") from None
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise invalid(name, _CALLER, "an array of shape (n,) or (n, d)", f"shape {arr.shape}",
                      "Stack one output per row.", given_is_text=True)
    if arr.shape[0] < MIN_ROWS:
        raise invalid(name, _CALLER, f"at least {MIN_ROWS} outputs", f"{arr.shape[0]}",
                      "Run the mechanism more times: the reserved test halves each sample.",
                      given_is_text=True)
    if not np.isfinite(arr).all():
        raise invalid(name, _CALLER, "finite everywhere", "NaN or infinite entries",
                      "Drop or repair those outputs first.", given_is_text=True)
    return arr, columns


def _count(value: Any, name: str, minimum: int) -> int:
    """An integer ≥ ``minimum`` (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise invalid(name, _CALLER, f"an integer >= {minimum}", value)
    return int(value)


def _names(methods: Any, name: str, status_wanted: bool | None) -> list[str]:
    """Registry names, each checked to be (or not be) a certificate."""
    if isinstance(methods, str):
        methods = (methods,)
    if not isinstance(methods, Sequence):
        raise wrong_type(name, _CALLER, "a sequence of auditor names", methods)
    known = [e.name for e in registry.entries() if not e.meta.get("oracle")]
    out = []
    for m in methods:
        if m not in known:
            raise invalid(name, _CALLER, f"names from {known}", m)
        is_certificate = registry.entry(m).meta.get("status") is Status.CERTIFICATE
        if status_wanted is not None and is_certificate != status_wanted:
            other = "an estimator" if status_wanted else "a certificate"
            raise invalid(name, _CALLER, "certificates only" if status_wanted
                          else "auditors that are not certificates", m,
                          f"Pass it as {other} instead.")
        if m not in out:
            out.append(m)
    return out


@dataclass(repr=False)
class EpsilonAudit(ResultFace):
    """What :func:`audit` found: certificates with their confidence, the estimators with
    their statuses, the label-shuffled control and each number's excess over it.

    Attributes:
        table: every auditor on the pair (A, B), an :class:`EpsilonAuditTable`.
        control: the same auditors on the label-shuffled pair (None when not run).
        certificates: the names of the certificates among the auditors.
        confidence: 1 − ``family_alpha``: all the certificates' bounds over all ``pairs``
            pairs hold together with this probability (under iid outputs).
        pairs: how many pairs of neighbouring inputs the confidence covers.
        names: the two samples' names.
        provenance: settings, sizes, seeds, level per error rate.
    """

    table: EpsilonAuditTable
    control: EpsilonAuditTable | None
    certificates: list[str]
    confidence: float
    pairs: int = 1
    names: tuple[str, str] = NAMES
    provenance: dict[str, Any] = field(default_factory=dict)

    # ----------------------------------------------------------------- the numbers

    def result(self, method: str) -> AuditResult:
        """The auditor ``method``'s result on (A, B)."""
        for r in self.table.results:
            if r.method == method:
                return r
        raise invalid("method", "EpsilonAudit.result",
                      f"one of {[r.method for r in self.table.results]}", method)

    def control_value(self, method: str) -> float:
        """The auditor's value on the label-shuffled control (NaN when not run)."""
        if self.control is None:
            return math.nan
        return next(r.value for r in self.control.results if r.method == method)

    @property
    def best(self) -> AuditResult | None:
        """The certificate with the largest bound (all hold together), or None."""
        found = [self.result(m) for m in self.certificates]
        return max(found, key=lambda r: r.value) if found else None

    @property
    def certificate(self) -> float:
        """The largest certified lower bound on ε (NaN without a certificate)."""
        best = self.best
        return best.value if best is not None else math.nan

    @property
    def status(self) -> Status:
        """A finite-sample certificate when one ran, else the weakest estimator's status."""
        if self.certificates:
            return Status.CERTIFICATE
        return self.table.results[0].status

    @property
    def excess(self) -> float:
        """The headline number minus the same auditor's value on the control."""
        best = self.best or self.table.results[0]
        return best.value - self.control_value(best.method)

    # ------------------------------------------------------------------- the face

    face_title = "ε audit of your samples"

    def face_finding(self) -> Finding:
        """The headline: the largest certified bound (else the first estimator) and its control."""
        best = self.best or self.table.results[0]
        a, b = self.names
        p = self.provenance
        if self.best is not None:
            measure = "certified lower bound on ε"
            note = (f"{self.confidence:.0%} confidence over {self.pairs} pair"
                    f"{'s' if self.pairs != 1 else ''}, δ = {p.get('delta', 0.0):g}, "
                    f"{best.method}")
        else:
            measure, note = f"{best.method} estimate of ε", "not a bound on ε"
        return Finding(
            measure, best.value, best.status,
            rests_on=(f"{p.get('n_a')} outputs of {a} and {p.get('n_b')} of {b}, taken as "
                      "iid draws on two neighbouring inputs",),
            subject=f"{a} vs {b}",
            control="label-shuffled control" if self.control is not None else "",
            control_value=self.control_value(best.method) if self.control is not None
            else None,
            caveats=self.caveats(), status_note=note,
            ruler="0 = no evidence of a difference; the true ε of this pair is at least the "
                  "bound with the stated confidence (the estimators beside it are not bounds)")

    def caveats(self) -> tuple[str, ...]:
        """Warnings a reader should see beside the headline."""
        out = []
        best = self.best
        if best is not None and best.value == 0:
            out.append("the certificate is 0: no difference it can certify, which is no "
                       "proof of privacy (more outputs may certify one)")
        attainable = best.details.get("attainable") if best is not None else None
        if attainable is not None and best.value > 0 and best.value >= 0.95 * attainable:
            out.append(f"the bound is at the most these sample sizes allow ({attainable:.3f}): "
                       "more outputs could certify more")
        if self.pairs == 1:
            out.append("the confidence covers this one pair; pass pairs= (--pairs) if you "
                       "audit more")
        out.append("a bound for this pair of inputs only, not for the mechanism's other inputs")
        return tuple(out)

    def face_rows(self) -> list[dict]:
        """One row per auditor: role, status, value, confidence, control, excess."""
        rows = []
        for r in self.table.results:
            cert = r.method in self.certificates
            c = self.control_value(r.method)
            rows.append({"method": r.method, "role": "certificate" if cert else "estimator",
                         "status": r.status.value, "value": r.value,
                         "confidence": self.confidence if cert else math.nan,
                         "alpha per rate": r.provenance.get("alpha", math.nan) if cert
                         else math.nan,
                         "control": c, "excess": r.value - c})
        return rows

    def face_witnesses(self) -> list[Witness]:
        """The reserved rule's errors on the outputs it never saw: the evidence itself."""
        best = self.best
        if best is None or "false_positives" not in best.details:
            return []
        d, (a, b) = best.details, self.names
        return [Witness(f"{best.method}: the fixed rule on the reserved halves", (
            (f"{a}'s reserved outputs taken for {b}",
             f"{d['false_positives']} of {d['negatives']} (upper bound {d['u_fpr']:.3f})"),
            (f"{b}'s reserved outputs taken for {a}",
             f"{d['false_negatives']} of {d['positives']} (upper bound {d['u_fnr']:.3f})")),
            "a rule that, on outputs it never saw, rarely takes one input's outputs for the "
            "other's while catching the other's is what a large ε means")]

    def face_formula(self) -> str:
        return ("<math display='block'><msub><mi>ε</mi><mi>LB</mi></msub><mo>=</mo>"
                "<mi>ln</mi><mfrac><mrow><mn>1</mn><mo>−</mo><mi>δ</mi><mo>−</mo>"
                "<msub><mi>U</mi><mi>FN</mi></msub></mrow><msub><mi>U</mi><mi>FP</mi>"
                "</msub></mfrac></math>")


def audit(A: Any, B: Any, *, delta: float = DEFAULT_DELTA,
          certificates: Sequence[str] = CERTIFICATES, estimators: Sequence[str] = ESTIMATORS,
          family_alpha: float = 0.05, pairs: int = 1, control: bool = True, seed: int = 0,
          names: tuple[str, str] = NAMES) -> EpsilonAudit:
    """Audit a mechanism from its outputs on two neighbouring inputs.

    Args:
        A: outputs on the first input: array (n,) or (n, d), or a numeric DataFrame.
        B: outputs on the second input, the same d (a DataFrame with the same columns).
        delta: the δ of the (ε, δ) claim audited (0 for pure DP).
        certificates: registry names of finite-sample certificates (default the reserved
            test; ``"dp-sniper"``, ``"mmd-finite"`` ... may be added).
        estimators: registry names of the other auditors (default the paper's four).
        family_alpha: 1 − the confidence with which all certificates' bounds hold.
        pairs: how many pairs of neighbouring inputs you audit in all; the level is split
            over them, so that the bounds of all of them hold together.
        control: also run every auditor on the label-shuffled control.
        seed: seed of the auditors' splits and of the control's shuffle.
        names: the two samples' names in the tables.

    Returns:
        An :class:`EpsilonAudit`.

    Raises:
        PrivlabValueError / PrivlabTypeError: naming this function's parameter.

    Example:
        >>> rng = np.random.default_rng(1)
        >>> r = audit(rng.normal(size=200), rng.normal(size=200) + 3, delta=0, control=False)
        >>> r.best.method, r.best.status.value
        ('reserved', 'finite-sample certificate')
    """
    a, columns = _samples(A, "A", None)
    b, _ = _samples(B, "B", columns)
    if a.shape[1] != b.shape[1]:
        raise invalid("B", _CALLER, f"outputs of dimension {a.shape[1]} like 'A'",
                      f"dimension {b.shape[1]}", given_is_text=True)
    if isinstance(delta, bool) or not isinstance(delta, (int, float, np.floating)) \
            or not 0 <= float(delta) < 1:
        raise invalid("delta", _CALLER, "in [0, 1)", delta)
    if isinstance(family_alpha, bool) or not isinstance(family_alpha, (int, float, np.floating)) \
            or not 0 < float(family_alpha) < 1:
        raise invalid("family_alpha", _CALLER, "in (0, 1)", family_alpha)
    pairs = _count(pairs, "pairs", 1)
    seed = _count(seed, "seed", 0)
    certs = _names(certificates, "certificates", True)
    ests = _names(estimators, "estimators", False)
    if not certs and not ests:
        raise invalid("estimators", _CALLER, "at least one auditor with 'certificates'",
                      "none", given_is_text=True)
    if not (isinstance(names, (tuple, list)) and len(names) == 2 and all(
            isinstance(n, str) and n for n in names) and names[0] != names[1]):
        raise invalid("names", _CALLER, "two different non-empty strings", names)
    methods = certs + ests
    x = np.vstack([a, b])
    labels = np.array([names[0]] * len(a) + [names[1]] * len(b))
    # audit_pairs splits its family level over 2 · (its pairs) · certificates; the user's
    # other pairs are accounted for by giving it the level per pair.
    run = dict(methods=methods, delta=float(delta), seed=seed,
               family_alpha=float(family_alpha) / pairs, min_rows=MIN_ROWS)
    table = audit_pairs(x, labels, [tuple(names)], **run)
    shuffled = None
    if control:
        dealt = np.random.default_rng(seed).permutation(labels)
        shuffled = audit_pairs(x, dealt, [tuple(names)], **run)
    provenance = {"delta": float(delta), "family_alpha": float(family_alpha), "pairs": pairs,
                  "alpha_per_rate": table.provenance["alpha_per_rate"], "seed": seed,
                  "n_a": len(a), "n_b": len(b), "dim": a.shape[1], "methods": methods,
                  "columns": columns,
                  "control": "label-shuffled: A and B pooled and dealt again at random into "
                             "groups of the same sizes (seed), true ε = 0; not counted in "
                             "the level" if control else None}
    return EpsilonAudit(table, shuffled, certs, 1.0 - float(family_alpha), pairs,
                        tuple(names), provenance)


__all__ = ["CERTIFICATES", "ESTIMATORS", "EpsilonAudit", "audit"]
