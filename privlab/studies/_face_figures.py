"""The figures study 06's prose and README quote, from its audited conditions."""

from __future__ import annotations

import re
from typing import Any, Sequence


def figures(conditions: Sequence[Any]) -> dict[str, str]:
    """Per condition ``k`` (0 the weak toy, 1 the strong one ...): ``k.no_face`` outputs with
    no detectable face of ``k.outputs``, ``k.strength`` where it is a toy, and for the pair
    with the largest certified bound ``k.bound``, ``k.errors`` and ``k.test_rows`` (the
    same with ``k.faces.`` for the faces-only twin).

    Example:
        >>> figures([])
        {}
    """
    out: dict[str, str] = {}
    for k, c in enumerate(conditions):
        out[f"{k}.no_face"] = f"{int(c.no_face.sum()):,}"
        out[f"{k}.outputs"] = f"{len(c.table.labels):,}"
        strength = re.search(r"strength ([0-9.]+)", c.name)
        if strength:
            out[f"{k}.strength"] = strength.group(1)
        for prefix, cond in ((f"{k}", c), (f"{k}.faces", c.faces)):
            cert = cond.certificate if cond is not None else None
            if cert is None or not len(cert):
                continue
            best = cert.loc[cert["epsilon_lb"].idxmax()]
            out[f"{prefix}.bound"] = f"{float(best['epsilon_lb']):.3f}"
            errors = int(best["false_positives"] + best["false_negatives"])
            out[f"{prefix}.errors"] = f"{errors:,}"
            out[f"{prefix}.test_rows"] = f"{int(best['n_test_a'] + best['n_test_b']):,}"
    return out


def no_face_line(condition: Any) -> str:
    """A condition's outputs with no detectable face, in words, per identity where there are
    any.

    Example:
        >>> import numpy as np, pandas as pd
        >>> from privlab.datasets.face_embeddings import table_from_arrays
        >>> from privlab.studies.face_generators import Condition
        >>> t = table_from_arrays(np.eye(2), ["a", "b"])
        >>> c = Condition("x", t, None, pd.DataFrame(), pd.DataFrame(),
        ...               pd.Series({"a": 2, "b": 0}))
        >>> no_face_line(c)
        '2 of 2 outputs without a detectable face (a 2/1, b 0/1)'
    """
    import pandas as pd

    total = int(condition.no_face.sum())
    rows = len(condition.table.labels)
    if not total:
        return f"all {rows} outputs with a detectable face"
    counts = pd.Series(condition.table.labels).value_counts()
    per = ", ".join(f"{k} {int(v)}/{int(counts.get(k, 0))}"
                    for k, v in condition.no_face.sort_values(ascending=False).items())
    return f"{total} of {rows} outputs without a detectable face ({per})"
