"""Study 09, calibration: what does a resolution of 0.13 mean? (Table 3 of the paper)

For familiar concept pairs (dogs/cats, oranges/lemons, dogs/oranges ...) every sentence
of one concept is compared with every sentence of the other through the boundary

    b(u, v) = min{ D(X_c(u), v), D(u, X_d(v)) } - D(u, v),   D = 1 - cosine,

with ``X_c`` a concept-list redaction of the words that name c. The percentiles of b
over the cross product calibrate the unitless resolution: a resolution above the 95th
percentile for dogs/cats would treat as undetectable 95% of the empirical dog-cat
connections. Sentence sets: privlab's defaults, the shared reference files when
present (``source="shared"``), or any folder in the same layout. Image encoders plug
into :func:`privlab.calibration.calibrate_pair` the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from privlab.calibration import DEFAULT_PERCENTILES, CalibrationTable, calibrate_pair
from privlab.datasets.concepts import DEFAULT_SETS, concept_words, load_concept_folder
from privlab.errors import invalid

DEFAULT_PAIRS = (("dogs", "cats"), ("oranges", "lemons"), ("dogs", "oranges"), ("cats", "lemons"))


@dataclass
class Config:
    """Settings of study 09.

    Attributes:
        pairs: concept pairs ``(c, d)``.
        encoders: text encoders (registry names).
        source: ``"default"`` (privlab's sets), ``"shared"`` (``../shared/data/concepts``)
            or a folder of blank-line-separated ``<concept>.txt`` files.
        per_concept: use at most this many sentences per concept (None: all).
        percentiles: percentiles reported.
    """

    pairs: tuple[tuple[str, str], ...] = DEFAULT_PAIRS
    encoders: tuple[str, ...] = ("minilm",)
    source: str = "default"
    per_concept: int | None = None
    percentiles: tuple[float, ...] = DEFAULT_PERCENTILES

    @classmethod
    def smoke(cls) -> "Config":
        """Tiny settings: two pairs, eight sentences each."""
        return cls(pairs=DEFAULT_PAIRS[:2], per_concept=8)

    @classmethod
    def default(cls) -> "Config":
        """Smoke settings when ``PRIVLAB_SMOKE=1``, else the full defaults."""
        from privlab.config import smoke

        return cls.smoke() if smoke() else cls()


def load_sets(source: str) -> dict[str, tuple[str, ...]]:
    """The concept sentence sets for ``source`` (see :class:`Config`)."""
    if source == "default":
        return dict(DEFAULT_SETS)
    if source == "shared":
        from privlab.config import shared_data_dir

        root = shared_data_dir()
        if root is None or not (root / "concepts").is_dir():
            raise invalid("source", "calibration.load_sets", "'default' or a folder when the "
                          "shared concept files are absent", source)
        return load_concept_folder(root / "concepts")
    return load_concept_folder(source)


def run(config: Config | None = None) -> CalibrationTable:
    """Boundary percentiles for every pair and encoder.

    Example:
        >>> t = run(Config(pairs=(("dogs", "cats"),), encoders=("lexical",), per_concept=3))
        >>> t.to_frame()["pairs"].tolist()
        [9]
    """
    from privlab.sanitizers import ConceptListSanitizer

    config = config or Config.default()
    sets = load_sets(config.source)
    pairs = []
    for encoder in config.encoders:
        for c, d in config.pairs:
            for name in (c, d):
                if name not in sets:
                    raise invalid("pairs", "calibration.run", f"concepts among {sorted(sets)}", name)
            items_c = sets[c][:config.per_concept] if config.per_concept else sets[c]
            items_d = sets[d][:config.per_concept] if config.per_concept else sets[d]
            pairs.append(calibrate_pair(
                items_c, items_d, ConceptListSanitizer(concept_words(c), name=f"concepts[{c}]"),
                ConceptListSanitizer(concept_words(d), name=f"concepts[{d}]"), encoder,
                concept_c=c, concept_d=d, percentiles=config.percentiles))
    provenance = {"source": config.source, "encoders": list(config.encoders),
                  "per_concept": config.per_concept, "sanitizer": "concept-list (boxes)",
                  "distance": "1 - cosine"}
    return CalibrationTable(tuple(pairs), provenance)


def headline(table: CalibrationTable) -> str:
    """The 95th percentile of each pair, in one line."""
    parts = [f"{p.concept_c}/{p.concept_d} p95 {p.percentiles.get(95.0, float('nan')):.3f}"
             for p in table.pairs]
    return "; ".join(parts) + f" ({table.pairs[0].encoder})"


__all__ = ["Config", "DEFAULT_PAIRS", "headline", "load_sets", "run"]
