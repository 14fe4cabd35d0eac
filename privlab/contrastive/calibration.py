"""Calibrating the resolution scale with familiar comparisons (Table 3 of the paper).

For pairs of renderings of two concepts (dog and cat ...), the boundary ``b(u, v)`` is the
largest resolution at which the pair still counts as connected; its percentiles say what a
resolution means. Generic over items, encoders and sanitizers. The derivation:
``docs/methods/contrastive-audit.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from privlab.errors import invalid

DEFAULT_PERCENTILES = (90.0, 95.0, 99.0)


def boundaries(U, U_sanitized, V, V_sanitized) -> np.ndarray:
    """The matrix of boundaries ``b(u_i, v_j)`` from unit embeddings.

    Args:
        U: ``(m, d)`` unit embeddings of the c-renderings.
        U_sanitized: ``(m, d)`` their c-sanitized versions.
        V: ``(n, d)`` unit embeddings of the d-renderings.
        V_sanitized: ``(n, d)`` their d-sanitized versions.

    Returns:
        ``(m, n)`` float64 ``cos(u, v) - max(cos(X_c(u), v), cos(u, X_d(v)))``.

    Raises:
        ValueError: shapes that do not match.

    Example:
        >>> import numpy as np
        >>> U, Us = np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]])
        >>> V, Vs = np.array([[1.0, 0.0]]), np.array([[0.6, 0.8]])
        >>> boundaries(U, Us, V, Vs).round(6).tolist()   # 1 - max(0, 0.6)
        [[0.4]]
    """
    U, Us, V, Vs = (np.asarray(a, dtype=np.float64) for a in (U, U_sanitized, V, V_sanitized))
    if U.shape != Us.shape or V.shape != Vs.shape or U.ndim != 2 or V.ndim != 2:
        raise invalid("U_sanitized", "boundaries", "row for row the shape of its originals",
                      f"U {U.shape}, U_sanitized {Us.shape}, V {V.shape}, V_sanitized {Vs.shape}",
                      given_is_text=True)
    if U.shape[1] != V.shape[1]:
        raise invalid("V", "boundaries", f"of dimension {U.shape[1]} like U", f"{V.shape[1]}",
                      given_is_text=True)
    return U @ V.T - np.maximum(Us @ V.T, U @ Vs.T)


@dataclass(frozen=True)
class PairCalibration:
    """Boundaries for one concept pair under one encoder.

    Attributes:
        concept_c: the first concept (e.g. ``"dogs"``).
        concept_d: the second concept.
        encoder: the encoder's name.
        values: ``(m, n)`` boundaries over the retained cross product.
        percentiles: ``{p: value}``.
        kept: ``(m, n)`` renderings retained (changed by their sanitizer).
        total: ``(m, n)`` renderings offered.
    """

    concept_c: str
    concept_d: str
    encoder: str
    values: np.ndarray = field(repr=False)
    percentiles: dict
    kept: tuple[int, int]
    total: tuple[int, int]

    def share_below(self, delta: float) -> float:
        """Fraction of pairs whose boundary is below ``delta`` (connections it would miss)."""
        return float(np.mean(self.values < delta))

    def row(self) -> dict:
        out = {"pair": f"{self.concept_c}/{self.concept_d}", "encoder": self.encoder,
               "pairs": int(self.values.size), "kept": self.kept, "offered": self.total}
        out.update({f"p{p:g}": v for p, v in self.percentiles.items()})
        return out


def calibrate_pair(items_c: Sequence[Any], items_d: Sequence[Any], sanitizer_c, sanitizer_d,
                   encoder, *, concept_c: str = "c", concept_d: str = "d",
                   percentiles: Sequence[float] = DEFAULT_PERCENTILES) -> PairCalibration:
    """Boundaries ``b(u, v)`` over the cross product of two concepts' renderings.

    Args:
        items_c: renderings of concept c (texts or images).
        items_d: renderings of concept d.
        sanitizer_c: removes c (``sanitize(list) -> list``).
        sanitizer_d: removes d.
        encoder: an :class:`privlab.encoders.Encoder` or a registry name.
        concept_c: label of c.
        concept_d: label of d.
        percentiles: which percentiles to report (in [0, 100]).

    Returns:
        A :class:`PairCalibration`.

    Raises:
        ValueError: a sanitizer changed none of its renderings, or bad percentiles.

    Example:
        >>> from privlab.sanitizers import ConceptListSanitizer
        >>> cal = calibrate_pair(["my dog barks", "a dog naps"], ["my cat naps"],
        ...                      ConceptListSanitizer(["dog"]), ConceptListSanitizer(["cat"]),
        ...                      "lexical", concept_c="dog", concept_d="cat")
        >>> cal.kept, cal.values.shape
        ((2, 1), (2, 1))
    """
    from privlab.encoders import get_encoder

    pcts = [float(p) for p in percentiles]
    if not pcts or any(not 0 <= p <= 100 for p in pcts):
        raise invalid("percentiles", "calibrate_pair", "values in [0, 100]", percentiles)
    enc = get_encoder(encoder) if isinstance(encoder, str) else encoder
    items_c, items_d = list(items_c), list(items_d)
    san_c, san_d = sanitizer_c.sanitize(items_c), sanitizer_d.sanitize(items_d)
    from privlab.hashing import content_hash

    keep_c = [i for i, (a, b) in enumerate(zip(items_c, san_c)) if content_hash(a) != content_hash(b)]
    keep_d = [i for i, (a, b) in enumerate(zip(items_d, san_d)) if content_hash(a) != content_hash(b)]
    for label, kept in ((concept_c, keep_c), (concept_d, keep_d)):
        if not kept:
            raise invalid("sanitizer", "calibrate_pair",
                          f"one that changes at least one rendering of '{label}'",
                          "a sanitizer that changed none", given_is_text=True)
    U = enc.encode([items_c[i] for i in keep_c])
    Us = enc.encode([san_c[i] for i in keep_c])
    V = enc.encode([items_d[i] for i in keep_d])
    Vs = enc.encode([san_d[i] for i in keep_d])
    values = boundaries(U, Us, V, Vs)
    return PairCalibration(concept_c, concept_d, enc.name, values,
                           {p: float(np.percentile(values, p)) for p in pcts},
                           (len(keep_c), len(keep_d)), (len(items_c), len(items_d)))


@dataclass(frozen=True)
class CalibrationTable:
    """Table 3: boundary percentiles for several concept pairs and encoders."""

    pairs: tuple[PairCalibration, ...]
    provenance: dict = field(default_factory=dict)

    def to_frame(self):
        """One row per (pair, encoder) with the percentiles."""
        import pandas as pd

        return pd.DataFrame([p.row() for p in self.pairs])

    def values_frame(self):
        """Every boundary as a row (pair, encoder, boundary), for plots."""
        import pandas as pd

        return pd.DataFrame([{"pair": f"{p.concept_c}/{p.concept_d}", "encoder": p.encoder,
                              "boundary": float(v)} for p in self.pairs for v in p.values.ravel()])

    def interpret(self, delta: float, encoder: str | None = None):
        """For a resolution ``delta``: the share of each pair's boundaries below it.

        Example:
            >>> import numpy as np
            >>> t = CalibrationTable((PairCalibration("a", "b", "e", np.array([[0.1, 0.3]]),
            ...                                       {}, (1, 2), (1, 2)),))
            >>> float(t.interpret(0.2)["share below delta"].iloc[0])
            0.5
        """
        import pandas as pd

        rows = [{"pair": f"{p.concept_c}/{p.concept_d}", "encoder": p.encoder,
                 "share below delta": p.share_below(delta)}
                for p in self.pairs if encoder is None or p.encoder == encoder]
        return pd.DataFrame(rows)

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False, float_format=lambda v: f"{v:.4f}")


__all__ = ["CalibrationTable", "DEFAULT_PERCENTILES", "PairCalibration", "boundaries",
           "calibrate_pair"]
