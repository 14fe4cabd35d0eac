"""The reserved test after every pass of a repeated-generation cascade (paper, Appendix E).

Pairs are selected on development sequences, then certified after every pass with one
correction over every error rate of every pair and pass. Lower bounds that fall from pass
to pass do not show that ε falls: each is only a lower confidence bound, and censored
ones are capped. See docs/methods/epsilon-certificates.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from privlab.arrays import check_array
from privlab.epsilon.auditors.base import Status, _check_alpha, _check_delta
from privlab.epsilon.auditors.table import audit_pairs
from privlab.epsilon.pairs import PAPER_TABLE7, cascade_table, certify_pairs, \
    select_on_development
from privlab.epsilon.summaries import MMD_REJECT_LEVEL, median_with_inf
from privlab.errors import invalid

#: Columns of :meth:`CascadeAudit.table7`: the paper's Table 7 and the ceiling.
TABLE7_COLUMNS = (*PAPER_TABLE7.columns, "cap")


def cascade_alpha(alpha: float, n_pairs: int, n_passes: int) -> float:
    """Per-error-rate level α / (2 · pairs · passes) for simultaneous bounds.

    Example:
        >>> cascade_alpha(0.05, 50, 5)  # the paper's 500 error rates
        0.0001
    """
    caller = "cascade_alpha"
    alpha = _check_alpha(alpha, caller)
    for name, value in (("n_pairs", n_pairs), ("n_passes", n_passes)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise invalid(name, caller, "a positive integer", value)
    return alpha / (2 * int(n_pairs) * int(n_passes))


def _check_cascade(vectors, labels, dev, caller: str):
    """Vectors (passes, n, d) with a 0/1 flag column, labels (n,) and a boolean mask (n,)."""
    x = check_array(vectors, "vectors", caller,
                    expected="an array of shape (passes, n, d)").astype(float)
    if x.ndim != 3 or x.shape[0] < 1 or x.shape[2] < 2:
        raise invalid("vectors", caller, "an array of shape (passes, n, d) with d ≥ 2 (the "
                      "last column the detection-failure flag)", f"shape {x.shape}",
                      given_is_text=True)
    labels = np.asarray(labels).astype(str)
    if labels.ndim != 1 or len(labels) != x.shape[1]:
        raise invalid("labels", caller, f"one label per sequence ({x.shape[1]})",
                      f"shape {labels.shape}", given_is_text=True)
    dev = np.asarray(dev)
    if dev.dtype != bool or dev.shape != labels.shape:
        raise invalid("dev", caller, f"a boolean mask over the {len(labels)} sequences",
                      f"{dev.dtype} of shape {dev.shape}", given_is_text=True,
                      fix="Use split_rows(labels, dev_fraction, seed).")
    flags = x[:, :, -1]
    if not np.isin(flags, (0.0, 1.0)).all():
        raise invalid("vectors", caller, "rows whose last column is the detection-failure "
                      "flag (0 or 1)", f"flag values {np.unique(flags)[:5].tolist()}",
                      given_is_text=True, fix="Append the flag as [z, 0] or [0, 1].")
    return x, labels, dev


@dataclass
class CascadeAudit:
    """What :func:`audit_cascade` computed.

    Attributes:
        pairs: the candidate pairs.
        chosen: the pairs selected on development rows, best first.
        selection_pass: the pass (1-based) whose development rows ranked the pairs.
        selection_auc: out-of-fold development AUC of every usable pair at that pass.
        alpha: simultaneous level of all bounds together.
        alpha_per_rate: α / (2 · pairs · passes).
        delta: the δ of the bounds.
        certificates: one row per pass and selected pair (columns of
            :func:`~privlab.epsilon.pairs.certify_pairs` and ``pass``).
        descriptive: one row per pass, pair and route on development rows with faces
            (``to_frame`` columns of :func:`~privlab.epsilon.audit_pairs` and ``pass``).
        failures: per pass, development and test rows where no face was found.
        development: ``(n,)`` bool, the development sequences (the rest are test ones).
        provenance: settings and counts.
    """

    pairs: list[tuple[str, str]]
    chosen: list[tuple[str, str]]
    selection_pass: int
    selection_auc: dict[tuple[str, str], float]
    alpha: float
    alpha_per_rate: float
    delta: float
    certificates: pd.DataFrame
    descriptive: pd.DataFrame
    failures: pd.DataFrame
    development: np.ndarray = field(repr=False)
    provenance: dict[str, Any] = field(default_factory=dict)

    @property
    def passes(self) -> int:
        """Number of passes."""
        return len(self.failures)

    def table7(self) -> pd.DataFrame:
        """Per pass: the paper's Table 7 and the ``cap`` that a censored pair reaches."""
        if self.certificates.empty:
            return pd.DataFrame(columns=list(TABLE7_COLUMNS),
                                index=pd.Index([], name="pass"))
        table = cascade_table(self.certificates)
        table["cap"] = self.certificates.groupby("pass")["attainable"].max()
        return table[list(TABLE7_COLUMNS)]

    def table8(self, names: Mapping[str, str] | None = None) -> pd.DataFrame:
        """Per pass: the descriptive routes on development rows with their status (Table 8).

        Args:
            names: display name per route (default the route's registry name).

        Returns:
            DataFrame indexed by pass with two column levels: ``route`` and ``status``.
        """
        names = dict(names or {})
        frame = self.descriptive
        rows: dict[int, dict[tuple[str, str], Any]] = {}
        tests = int(frame["p_value"].notna().sum()) if "p_value" in frame else 0
        for p in range(1, self.passes + 1):
            g_pass = frame[frame["pass"] == p] if len(frame) else frame
            n_pairs = int(g_pass["pair_index"].nunique()) if len(g_pass) else 0
            row: dict[tuple[str, str], Any] = {("pairs", ""): n_pairs}
            for method, g in (g_pass.groupby("method", sort=False) if len(g_pass) else ()):
                status = g["status"].iloc[0]
                label = names.get(method, method)
                if method == "roc-ht":
                    row[("OOF AUC", status)] = float(g["auc"].median())
                    row[("exact (0,1) corner", status)] = \
                        f"{int(g['corner'].astype(bool).sum())}/{len(g)}"
                    row[(f"{label} = +∞", status)] = \
                        f"{int(np.isinf(g['value'].astype(float)).sum())}/{len(g)}"
                else:
                    row[(label, status)] = median_with_inf(g["value"])
                if "p_value" in g and g["p_value"].notna().any():
                    pv = g["p_value"].dropna()
                    row[("MMD reject (Bonferroni)", "permutation test")] = \
                        f"{int((pv <= MMD_REJECT_LEVEL / tests).sum())}/{len(pv)}"
            row[("rows left out (no face)", "")] = \
                int(self.failures.loc[p, "no face (development)"])
            rows[p] = row
        table = pd.DataFrame.from_dict(rows, orient="index")
        table.columns = pd.MultiIndex.from_tuples(table.columns, names=["route", "status"])
        table.index.name = "pass"
        return table

    def summary_line(self) -> str:
        """The median certified bound at the first and the last pass, with its caveat."""
        t7 = self.table7()
        if t7.empty:
            return "cascade: no pair selected"
        first, last = t7.index[0], t7.index[-1]
        return (f"cascade, {self.passes} passes, {len(self.chosen)} pairs: median lower "
                f"bound on ε {t7.loc[first, 'median ε_LB']:.3f} after pass {first}, "
                f"{t7.loc[last, 'median ε_LB']:.3f} after pass {last}; censored "
                f"{t7.loc[first, 'censored']} → {t7.loc[last, 'censored']} at cap "
                f"{t7['cap'].max():.3f} — lower bounds, not a measured change in ε")


def audit_cascade(vectors, labels, dev, pairs: Sequence[tuple], *, n_select: int | None = None,
                  alpha: float = 0.05, delta: float = 1e-5, methods: Sequence = (),
                  select_pass: int | None = None, distinct_identities: bool = True,
                  seed: int = 0, min_rows: int = 5) -> CascadeAudit:
    """Select pairs on development sequences and certify them after every pass.

    Args:
        vectors: ``(passes, n, d)`` floats, row ``i`` of every pass the same sequence; the
            last column is the detection-failure flag (0 or 1).
        labels: ``(n,)`` target identity of each sequence.
        dev: ``(n,)`` boolean mask of development sequences, fixed before analysis.
        pairs: candidate pairs of labels.
        n_select: pairs to select (default: as many as the identities allow).
        alpha: simultaneous level of all bounds, in (0, 1).
        delta: the δ of the bounds, in [0, 1).
        methods: registered routes (names or auditors) run on each pass's development
            rows with a face, for :meth:`CascadeAudit.table8`; empty skips them.
        select_pass: the pass (1-based) whose development rows rank the pairs (default
            the last).
        distinct_identities: select pairs that share no identity.
        seed: seed of the folds.
        min_rows: development rows with a face an identity needs for the descriptive
            routes.

    Returns:
        A :class:`CascadeAudit`.

    Raises:
        PrivlabValueError / PrivlabTypeError: on malformed inputs or options.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> y = np.repeat(["a", "b"], 40)
        >>> shift = np.array([4.0, 1.0])[:, None, None] * (y == "b")[:, None]
        >>> z = rng.normal(size=(2, 80, 3)) + shift
        >>> x = np.concatenate([z, np.zeros((2, 80, 1))], axis=2)
        >>> from privlab.epsilon.pairs import split_rows
        >>> a = audit_cascade(x, y, split_rows(y, 0.5), [("a", "b")], delta=0.0)
        >>> a.alpha_per_rate, list(a.table7()["positive"])
        (0.0125, ['1/1', '1/1'])
    """
    caller = "audit_cascade"
    x, labels, dev = _check_cascade(vectors, labels, dev, caller)
    alpha = _check_alpha(alpha, caller)
    delta = _check_delta(delta, caller)
    passes = x.shape[0]
    pairs = [tuple(map(str, p)) for p in pairs]
    if not pairs or any(len(p) != 2 for p in pairs):
        raise invalid("pairs", caller, "a nonempty sequence of (label_a, label_b)", pairs)
    unknown = sorted({lab for p in pairs for lab in p} - set(labels.tolist()))
    if unknown:
        raise invalid("pairs", caller, "pairs of labels present in labels",
                      f"unknown labels {unknown[:3]}", given_is_text=True)
    if select_pass is None:
        select_pass = passes
    if isinstance(select_pass, bool) or not isinstance(select_pass, (int, np.integer)) \
            or not 1 <= select_pass <= passes:
        raise invalid("select_pass", caller, f"a pass between 1 and {passes}", select_pass)
    if n_select is None:
        ids = {lab for p in pairs for lab in p}
        n_select = max(1, len(ids) // 2) if distinct_identities else len(pairs)
    chosen, auc = select_on_development(x[select_pass - 1], labels, dev, pairs, n_select,
                                        distinct_identities, delta, seed)
    alpha_rate = cascade_alpha(alpha, max(len(chosen), 1), passes)
    failed = x[:, :, -1] == 1.0
    failures = pd.DataFrame({"no face (development)": failed[:, dev].sum(axis=1),
                             "no face (test)": failed[:, ~dev].sum(axis=1)},
                            index=pd.Index(range(1, passes + 1), name="pass"))
    certs, described = [], []
    for p in range(passes):
        if chosen:
            # development AUC of the selected pairs at this pass (development rows only)
            ranked = audit_pairs(x[p][dev], labels[dev], chosen, methods=["roc-ht"],
                                 delta=delta, seed=seed, min_rows=1)
            dev_auc = {r.provenance["pair"]: r.details["auc"] for r in ranked.results}
            certs.append(certify_pairs(x[p], labels, dev, chosen, alpha_rate, delta,
                                       dev_auc).assign(**{"pass": p + 1}))
        if methods:
            keep = dev & ~failed[p]
            counts = pd.Series(labels[keep]).value_counts()
            usable = [q for q in pairs if min(counts.get(q[0], 0), counts.get(q[1], 0))
                      >= min_rows]
            if usable:
                table = audit_pairs(x[p][keep][:, :-1], labels[keep], usable, methods=methods,
                                    delta=delta, seed=seed, family_alpha=alpha,
                                    min_rows=min_rows)
                described.append(table.to_frame().assign(**{"pass": p + 1}))
    certificates = pd.concat(certs, ignore_index=True) if certs else pd.DataFrame()
    if len(certificates):
        certificates = certificates[["pass", *[c for c in certificates.columns if c != "pass"]]]
    descriptive = pd.concat(described, ignore_index=True) if described else \
        pd.DataFrame(columns=["pass", "method", "status", "value"])
    prov = {"passes": passes, "sequences": int(x.shape[1]),
            "development": int(dev.sum()), "test": int((~dev).sum()),
            "n_candidates": len(pairs), "n_select": int(n_select),
            "select_pass": int(select_pass), "distinct_identities": bool(distinct_identities),
            "alpha": alpha, "alpha_per_rate": alpha_rate, "delta": delta, "seed": seed,
            "error_rates": 2 * len(chosen) * passes, "min_rows": min_rows,
            "status": Status.CERTIFICATE.value}
    return CascadeAudit(pairs, chosen, int(select_pass), dict(auc), alpha, alpha_rate, delta,
                        certificates, descriptive, failures, dev.copy(), prov)


__all__ = ["CascadeAudit", "TABLE7_COLUMNS", "audit_cascade", "cascade_alpha"]
