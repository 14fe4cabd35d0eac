"""Ensembles of distance mechanisms: each member tested separately, never averaged.

Per §4.4.4 of the paper: :func:`member_table`, :func:`placebo_floors`,
:func:`rank_agreement`, :func:`zero_counts` and :func:`leak_detection` read members side by
side (resolution scales are member-specific). See ``docs/methods/contrastive-audit.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Sequence

import numpy as np

from privlab.errors import invalid

#: Fewest sanitizer configurations for which a Spearman rho between members is read.
MIN_RANK_CONFIGS = 4
VALUES = ("resolution", "placebo", "excess")


def _frame(table: Any, value: str = "resolution"):
    import pandas as pd

    if isinstance(table, pd.DataFrame):
        frame = table
    elif hasattr(table, "to_frame"):
        frame = table.to_frame()
    else:
        raise invalid("table", "privlab.contrastive.ensemble",
                      "an AuditTable or a DataFrame with columns sanitizer, encoder, resolution",
                      type(table).__name__, given_is_text=True)
    if value not in VALUES:
        raise invalid("value", "privlab.contrastive.ensemble", f"one of {list(VALUES)}", value)
    missing = {"sanitizer", "encoder", value} - set(frame.columns)
    if missing:
        fix = ("Run the audit with placebo=True to get placebo and excess columns."
               if value != "resolution" else None)
        raise invalid("table", "privlab.contrastive.ensemble",
                      f"a frame with columns sanitizer, encoder, {value}",
                      f"one without {sorted(missing)}", fix, given_is_text=True)
    return frame


def member_table(table: Any, value: str = "resolution"):
    """Resolutions as a sanitizer x member matrix (one column per member, no average).

    Args:
        table: a :class:`privlab.contrastive.AuditTable` or its ``to_frame()``.
        value: ``"resolution"`` (raw), ``"placebo"`` (the placebo twin's) or ``"excess"``
            (``max(0, resolution - placebo)``); the last two need ``placebo=True``.

    Returns:
        DataFrame indexed by sanitizer, one column per encoder, in first-seen order.

    Example:
        >>> import pandas as pd
        >>> f = pd.DataFrame({"sanitizer": ["a", "a", "b", "b"], "encoder": ["x", "y", "x", "y"],
        ...                   "resolution": [0.0, 0.2, 0.1, 0.0]})
        >>> member_table(f).loc["a"].tolist()
        [0.0, 0.2]
    """
    frame = _frame(table, value)
    order = list(dict.fromkeys(frame["encoder"]))
    rows = list(dict.fromkeys(frame["sanitizer"]))
    wide = frame.pivot(index="sanitizer", columns="encoder", values=value).loc[rows, order]
    return wide.astype(float)


def placebo_floors(table: Any):
    """Each member's artefact floor: its largest placebo resolution over the sanitizers.

    Returns:
        A Series indexed by member.

    Example:
        >>> import pandas as pd
        >>> f = pd.DataFrame({"sanitizer": list("aabb"), "encoder": list("xyxy"),
        ...                   "resolution": [0.3, 0.0, 0.1, 0.0], "placebo": [0.1, 0.0, 0.2, 0.0],
        ...                   "excess": [0.2, 0.0, 0.0, 0.0]})
        >>> placebo_floors(f).to_dict()
        {'x': 0.2, 'y': 0.0}
    """
    return member_table(table, "placebo").max(axis=0)


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rank correlation with average ranks for ties; NaN if a ranking is constant.

    Example:
        >>> spearman([0.0, 0.1, 0.3], [0.2, 0.5, 0.9])
        1.0
        >>> import math; math.isnan(spearman([0, 0, 0], [1, 2, 3]))
        True
    """
    from scipy.stats import rankdata

    ra = rankdata(np.asarray(a, dtype=np.float64))
    rb = rankdata(np.asarray(b, dtype=np.float64))
    if ra.std() == 0 or rb.std() == 0:
        return float("nan")
    return float(np.corrcoef(ra, rb)[0, 1])


def rank_agreement(table: Any, value: str = "resolution", *,
                   min_configs: int = MIN_RANK_CONFIGS):
    """Pairwise Spearman rho between members across sanitizer configurations.

    With fewer than ``min_configs`` sanitizers a rank correlation rests on a handful of
    orderings (with 3, rho takes only a few values and a single swap turns 1 into 0.5),
    so it is still computed but the ``reading`` column says it is not to be read.

    Args:
        table: an AuditTable or its frame.
        value: which numbers to rank (see :func:`member_table`).
        min_configs: sanitizers needed before rho is read.

    Returns:
        Long DataFrame with columns ``member_a, member_b, spearman, sanitizers, reading``.

    Example:
        >>> import pandas as pd
        >>> f = pd.DataFrame({"sanitizer": list("aabbcc"), "encoder": list("xyxyxy"),
        ...                   "resolution": [0.0, 0.1, 0.2, 0.3, 0.4, 0.2]})
        >>> r = rank_agreement(f)
        >>> float(r["spearman"].iloc[0]), r["reading"].iloc[0]
        (0.5, 'too few sanitizers (3 < 4): not to be read')
    """
    import pandas as pd

    wide = member_table(table, value)
    rows = []
    for a, b in combinations(wide.columns, 2):
        rho = spearman(wide[a].to_numpy(), wide[b].to_numpy())
        if len(wide) < min_configs:
            reading = f"too few sanitizers ({len(wide)} < {min_configs}): not to be read"
        elif np.isnan(rho):
            reading = "a member ranks every sanitizer the same"
        else:
            reading = "ok"
        rows.append({"member_a": a, "member_b": b, "spearman": rho, "sanitizers": len(wide),
                     "reading": reading})
    return pd.DataFrame(rows, columns=["member_a", "member_b", "spearman", "sanitizers",
                                       "reading"])


def zero_counts(table: Any, value: str = "resolution"):
    """Resolution-0 outcomes per member, per pair and for all members (Table 1's columns).

    "Exactly 0" means the unrounded resolution is 0. ``contradicted`` counts a member's
    zeros for which another member finds a positive violation on the same sanitizer.

    Returns:
        DataFrame with columns ``members, zeros, contradicted``.

    Example:
        >>> import pandas as pd
        >>> f = pd.DataFrame({"sanitizer": list("aabb"), "encoder": list("xyxy"),
        ...                   "resolution": [0.0, 0.0, 0.0, 0.2]})
        >>> zero_counts(f).to_dict("list")["zeros"]
        [2, 1, 1, 1]
    """
    import pandas as pd

    wide = member_table(table, value)
    zero = wide == 0.0
    rows = []
    for member in wide.columns:
        others = zero.drop(columns=[member])
        contradicted = int((zero[member] & ~others.all(axis=1)).sum()) if len(others.columns) else 0
        rows.append({"members": member, "zeros": int(zero[member].sum()),
                     "contradicted": contradicted})
    for a, b in combinations(wide.columns, 2):
        rows.append({"members": f"{a} & {b}", "zeros": int((zero[a] & zero[b]).sum()),
                     "contradicted": 0})
    if len(wide.columns) > 1:
        rows.append({"members": "all", "zeros": int(zero.all(axis=1).sum()), "contradicted": 0})
    return pd.DataFrame(rows, columns=["members", "zeros", "contradicted"])


@dataclass
class LeakTable:
    """Which members flag a cue kind that the sanitizer leaves in place.

    Attributes:
        rows: one dict per (cue kind left, member): ``left``, ``member``, ``resolution``,
            ``witness``, ``witness_has_cue`` (the decisive witness's audited image
            contains the left cue), ``flagged`` (resolution, or with a placebo the excess
            over it, above ``delta``), and with a placebo ``placebo`` and ``excess``.
        delta: the resolution (or excess) above which a member flags.
        placebo: whether members flag on their excess over a placebo twin.
        provenance: corpus and members.
    """

    rows: list[dict]
    delta: float
    audits: dict = field(default_factory=dict, repr=False)
    provenance: dict = field(default_factory=dict)
    placebo: bool = False

    def to_frame(self):
        """The rows as a DataFrame."""
        import pandas as pd

        return pd.DataFrame(self.rows)

    def matrix(self):
        """Cue kind left x member: ``"flag"``/``"flag*"`` (witness shows the cue) or ``"-"``."""
        frame = self.to_frame()
        frame["cell"] = [("flag*" if w else "flag") if f else "-"
                         for f, w in zip(frame["flagged"], frame["witness_has_cue"])]
        order = list(dict.fromkeys(frame["member"]))
        rows = list(dict.fromkeys(frame["left"]))
        return frame.pivot(index="left", columns="member", values="cell").loc[rows, order]

    def _repr_html_(self) -> str:
        what = "excess over placebo" if self.placebo else "resolution"
        return (f"<div><b>Leak detection</b> (flag: {what} &gt; {self.delta:g}; * the "
                f"decisive witness shows the left cue)" + self.matrix().to_html() + "</div>")


def leak_detection(corpus: Any, encoders: Sequence[Any], *, delta: float = 0.0,
                   kinds: Sequence[str] | None = None, top_k: int = 3,
                   placebo: bool = False, seed: int = 0) -> LeakTable:
    """For each cue kind, remove every other kind and see which members flag what is left.

    The row ``"(none)"`` removes every cue (the control: every member should pass). A
    kind that no member flags is a shared blind spot of this ensemble.

    Args:
        corpus: a generated corpus that knows its cues (``kinds``, ``scenes``, ``images``,
            ``cue_blackout`` and ``cue_regions``), e.g. a
            :class:`privlab.datasets.scenes.SceneCorpus`.
        encoders: the members (Encoder objects or registered names).
        delta: a member flags when its resolution exceeds this.
        kinds: cue kinds to test (default all of the corpus's kinds).
        top_k: witnesses kept per audit.
        placebo: also audit each sanitizer's placebo twin (its boxes moved off every
            cue) and flag on the excess over it, so a member's reaction to the boxes
            themselves does not count as a leak.
        seed: the placebo's placement seed.

    Returns:
        A :class:`LeakTable`.

    Raises:
        ValueError: unknown kinds or a negative delta.
    """
    from privlab.contrastive.auditing import audit

    kinds = list(kinds or corpus.kinds)
    if set(kinds) - set(corpus.kinds):
        raise invalid("kinds", "leak_detection", f"a subset of {list(corpus.kinds)}", kinds)
    if delta < 0:
        raise invalid("delta", "leak_detection", "non-negative", delta)
    twin = False
    if placebo:
        from functools import partial

        from privlab.contrastive.placebo import ImagePlacebo

        twin = partial(ImagePlacebo, avoid=[corpus.cue_regions(corpus.kinds)], seed=seed)
    rows, audits = [], {}
    for left in ["(none)", *kinds]:
        removed = [k for k in corpus.kinds if k != left]
        sanitizer = corpus.cue_blackout(removed, name=f"leave {left}")
        result = audit(corpus.images, sanitizer, encoders=list(encoders), top_k=top_k,
                       placebo=twin)
        audits[left] = result
        for member in result.members:
            i, _ = member.resolution.witness
            has = left != "(none)" and left in corpus.scenes[i].kinds()
            score = member.excess if placebo else member.value
            row = {"left": left, "member": member.encoder, "resolution": member.value,
                   "witness": member.resolution.witness,
                   "witness_has_cue": bool(has and score > delta), "flagged": bool(score > delta)}
            if placebo:
                row.update(placebo=member.placebo, excess=member.excess)
            rows.append(row)
    members = list(dict.fromkeys(r["member"] for r in rows))
    return LeakTable(rows, float(delta), audits, {"corpus": corpus.provenance, "members": members,
                                                  "placebo": bool(placebo), "seed": int(seed)},
                     bool(placebo))


__all__ = ["MIN_RANK_CONFIGS", "LeakTable", "leak_detection", "member_table", "placebo_floors",
           "rank_agreement", "spearman", "zero_counts"]
