"""Study 09, calibration: what does a resolution of 0.13 mean? (Table 3 of the paper)

Percentiles of the boundary ``b(u, v) = min{D(X_c(u), v), D(u, X_d(v))} - D(u, v)`` over
sentence pairs of familiar concepts (and, in :func:`run_images`, over masked images)
calibrate the unitless resolution. See ``docs/methods/studies-text.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import numpy as np

from privlab.contrastive.calibration import DEFAULT_PERCENTILES, CalibrationTable, calibrate_pair
from privlab.datasets.concepts import DEFAULT_SETS, concept_words, load_concept_folder
from privlab.errors import invalid
from privlab.progress import step
from privlab.studies.contract import Headline, Status, StudyConfig, StudyResult, registry
from privlab.studies.params import Choice, param

STUDY = "09 calibration"

DEFAULT_PAIRS = (("dogs", "cats"), ("oranges", "lemons"), ("dogs", "oranges"), ("cats", "lemons"))
DEFAULT_IMAGE_PAIRS = (("cat", "horse"), ("astronaut", "rocket"), ("cat", "coffee"),
                       ("coffee", "rocket"))
DEFAULT_IMAGE_MEMBERS = ("efficientnet-lite0", "sface", "describe-then-embed")


@dataclass
class Config(StudyConfig):
    """Settings of study 09.

    Attributes:
        pairs: concept pairs ``(c, d)``.
        encoders: text encoders (registry names).
        data: ``"auto"`` (``"shared"`` when present, else ``"default"``), ``"default"``
            (privlab's 12 sentences per concept), ``"shared"`` (the paper's 50) or a
            folder of blank-line-separated ``<concept>.txt`` files.
        per_concept: use at most this many sentences per concept (None: all).
        percentiles: percentiles reported.
        image_pairs: image concept pairs ``(c, d)`` (packaged concepts or folders of
            ``image_data``).
        image_encoders: image encoders (registry names) of the image part.
        image_n: renderings per concept (None: every file of a folder).
        image_data: ``"generated"`` (seeded variations of packaged photos) or a folder
            holding ``images/<concept>/`` and ``masks/<concept>/``.
        image_seed: seed of the generated variations.
        image_size: side of the generated images in pixels.
        image_dilate: grow each blackout by this many pixels (0: exactly the mask).
        images: also calibrate the image pairs (:func:`run_images`).
        delta: the resolution the result is read at (:meth:`CalibrationTable.interpret`;
            changing it recomputes nothing).
    """

    pairs: tuple[tuple[str, str], ...] = DEFAULT_PAIRS
    encoders: tuple[str, ...] = param(("minilm",), family="encoder", one=True,
                                      filters={"modality": "text"})
    data: str = param("auto", label="Sentences", choices=lambda: source_choices())
    per_concept: int | None = None
    percentiles: tuple[float, ...] = DEFAULT_PERCENTILES
    image_pairs: tuple[tuple[str, str], ...] = DEFAULT_IMAGE_PAIRS
    image_encoders: tuple[str, ...] = param(DEFAULT_IMAGE_MEMBERS, label="Image members",
                                           family="encoder", online=False,
                                           filters={"modality": "image"})
    image_n: int | None = 16
    image_data: str = param("generated", label="Image folder", empty="generated",
                              help="a folder with images/ and masks/ (empty: generated)")
    image_seed: int = 0
    image_size: int = 224
    image_dilate: int = 0
    images: bool = True
    delta: float = param(0.13, label="Resolution to read", minimum=0.0, maximum=0.5,
                         redraw=True)

    @classmethod
    def smoke_settings(cls) -> dict:
        """Tiny settings: two pairs, eight sentences each; two image pairs, four images
        each, under the fast generic member only."""
        return {"pairs": DEFAULT_PAIRS[:2], "per_concept": 8,
                "image_pairs": (("cat", "horse"), ("cat", "coffee")),
                "image_encoders": ("efficientnet-lite0",), "image_n": 4}


def shared_concepts_dir():
    """``<shared data>/concepts`` when present, else None."""
    from privlab.config import shared_data_dir

    root = shared_data_dir()
    return root / "concepts" if root is not None and (root / "concepts").is_dir() else None


def source_choices() -> tuple[Choice, ...]:
    """The sentence sets a notebook offers (the paper's files need their folder)."""
    return (Choice("auto", "the paper's sentence files when present, else privlab's"),
            Choice("shared", "the paper's sentence files", "data", shared_concepts_dir(),
                   "Put the concept sentence files under ../shared/data/concepts."),
            Choice("default", "privlab's own small sets (12 sentences per concept)"))


def resolve_source(source: str) -> str:
    """``"auto"`` made concrete: ``"shared"`` when the reference files are present, else
    ``"default"``; any other source unchanged."""
    if source == "auto":
        return "shared" if shared_concepts_dir() is not None else "default"
    return source


def describe_source(source: str) -> str:
    """The sentence set a source stands for, in words (for headlines and provenance).

    Example:
        >>> describe_source("default")
        "privlab's own concept sentences (12 per concept)"
    """
    source = resolve_source(source)
    if source == "default":
        sizes = sorted({len(v) for v in DEFAULT_SETS.values()})
        return f"privlab's own concept sentences ({'/'.join(map(str, sizes))} per concept)"
    if source == "shared":
        return "the paper's concept sentence files (about 50 per concept, ../shared/data/concepts)"
    return f"concept sentence files from {source}"


def load_sets(source: str) -> dict[str, tuple[str, ...]]:
    """The concept sentence sets for ``source`` (see :class:`Config`)."""
    source = resolve_source(source)
    if source == "default":
        return dict(DEFAULT_SETS)
    if source == "shared":
        folder = shared_concepts_dir()
        if folder is None:
            raise invalid("data", "calibration.load_sets", "'default', 'auto' or a folder "
                          "when the shared concept files are absent", source)
        return load_concept_folder(folder)
    return load_concept_folder(source)


def run_text(config: Config | None = None) -> CalibrationTable:
    """Boundary percentiles for every text pair and encoder.

    Example:
        >>> t = run_text(Config(pairs=(("dogs", "cats"),), encoders=("lexical",), per_concept=3))
        >>> t.to_frame()["pairs"].tolist()
        [9]
    """
    from privlab.sanitizers import ConceptListSanitizer

    config = config or Config.for_notebook()
    sets = load_sets(config.data)
    pairs = []
    for encoder in config.encoders:
        for c, d in config.pairs:
            for name in (c, d):
                if name not in sets:
                    raise invalid("pairs", "calibration.run_text", f"concepts among {sorted(sets)}", name)
            items_c = sets[c][:config.per_concept] if config.per_concept else sets[c]
            items_d = sets[d][:config.per_concept] if config.per_concept else sets[d]
            pairs.append(calibrate_pair(
                items_c, items_d, ConceptListSanitizer(concept_words(c), name=f"concepts[{c}]"),
                ConceptListSanitizer(concept_words(d), name=f"concepts[{d}]"), encoder,
                concept_c=c, concept_d=d, percentiles=config.percentiles))
    provenance = {"source": resolve_source(config.data), "requested": config.data,
                  "sentences": describe_source(config.data),
                  "per_concept_used": {c: len(sets[c][:config.per_concept] if config.per_concept
                                              else sets[c])
                                       for pair in config.pairs for c in pair},
                  "encoders": list(config.encoders),
                  "per_concept": config.per_concept, "sanitizer": "concept-list (boxes)",
                  "distance": "1 - cosine"}
    return CalibrationTable(tuple(pairs), provenance)


def load_image_sets(config: Config) -> dict:
    """The image concept sets the image part needs (see :class:`Config`).

    Returns:
        ``{concept: ConceptImageSet}`` for every concept named in ``config.image_pairs``.

    Raises:
        ValueError: no pairs, a pair that is not two names, an unknown concept or a bad
            ``image_n``.

    Example:
        >>> sets = load_image_sets(Config(image_pairs=(("cat", "rocket"),), image_n=2,
        ...                               image_size=64))
        >>> sorted(sets), len(sets["cat"])
        (['cat', 'rocket'], 2)
    """
    from privlab.datasets.image_concepts import (
        PACKAGED_CONCEPTS,
        generate_concept_images,
        load_concept_image_folder,
    )

    caller = "calibration.run_images"
    pairs = tuple(config.image_pairs)
    if not pairs or any(len(p) != 2 or not all(isinstance(c, str) for c in p) for p in pairs):
        raise invalid("image_pairs", caller, "a non-empty tuple of (concept, concept) pairs",
                      config.image_pairs)
    if config.image_n is not None and (not isinstance(config.image_n, int) or config.image_n < 1):
        raise invalid("image_n", caller, "a positive int or None", config.image_n)
    concepts = sorted({c for pair in pairs for c in pair})
    if config.image_data == "generated":
        unknown = [c for c in concepts if c not in PACKAGED_CONCEPTS]
        if unknown:
            raise invalid("image_pairs", caller, f"concepts among {sorted(PACKAGED_CONCEPTS)}",
                          unknown[0], "Or point image_data at a folder of your own concepts.")
        return {c: generate_concept_images(c, config.image_n or 16, seed=config.image_seed,
                                           size=config.image_size) for c in concepts}
    sets = load_concept_image_folder(config.image_data, concepts)
    return {c: s.subset(config.image_n) for c, s in sets.items()}


def run_images(config: Config | None = None, sets: dict | None = None) -> CalibrationTable:
    """Boundary percentiles for every image pair and image member.

    ``X_c`` blacks out each rendering's concept mask (grown by ``config.image_dilate``).

    Args:
        config: the settings (default: the active profile's).
        sets: the concept sets already loaded by :func:`load_image_sets` (None: load them).

    Returns:
        A :class:`privlab.contrastive.calibration.CalibrationTable` (provenance: image
        source, seed, size, members and each concept set's pixel hash).
    """
    config = config or Config.for_notebook()
    members = tuple(config.image_encoders)
    if not members:
        raise invalid("image_encoders", "calibration.run_images", "a non-empty tuple of image "
                      "encoder names", config.image_encoders)
    sets = load_image_sets(config) if sets is None else sets
    pairs = []
    for member in members:
        for c, d in config.image_pairs:
            sc, sd = sets[c], sets[d]
            pairs.append(calibrate_pair(
                list(sc.images), list(sd.images), sc.sanitizer(dilate=config.image_dilate),
                sd.sanitizer(dilate=config.image_dilate), member, concept_c=c, concept_d=d,
                percentiles=config.percentiles))
    provenance = {"modality": "image", "source": config.image_data,
                  "members": list(members), "n": config.image_n, "seed": config.image_seed,
                  "size": config.image_size, "sanitizer": f"blackout of the concept mask "
                  f"(dilate {config.image_dilate})", "distance": "1 - cosine",
                  "sets": {c: s.provenance for c, s in sets.items()}}
    return CalibrationTable(tuple(pairs), provenance)


#: The pairs of the ceiling: a concept against itself, beside a pair of distinct concepts.
CEILING_PAIRS = (("cat", "cat"), ("cat", "coffee"))


def run_ceiling(config: Config) -> CalibrationTable | None:
    """A ceiling for the image boundaries: one concept against itself (and a distinct
    pair beside it) under the first image member, on the generated renderings.

    Returns:
        The table (its provenance says what it is), or None where it does not apply:
        no image part, no member, or a folder of the user's own images.
    """
    if not (config.images and config.image_encoders and config.image_data == "generated"):
        return None
    table = run_images(replace(config, image_pairs=CEILING_PAIRS,
                               image_encoders=(config.image_encoders[0],)))
    table.provenance["ceiling"] = "one concept against itself, beside a distinct pair"
    return table


def headline(table: CalibrationTable, images: CalibrationTable | None = None) -> str:
    """The 95th percentile of each pair, in one line (text, then images per member).

    Example:
        >>> import numpy as np
        >>> from privlab.contrastive.calibration import PairCalibration
        >>> t = CalibrationTable((PairCalibration("a", "b", "e", np.zeros((1, 1)),
        ...                                       {95.0: 0.1}, (1, 1), (1, 1)),))
        >>> headline(t, t)
        'a/b p95 0.100 (e); images: a/b p95 0.100 (e)'
    """
    def line(tab: CalibrationTable) -> str:
        members: dict[str, list[str]] = {}
        for p in tab.pairs:
            members.setdefault(p.encoder, []).append(
                f"{p.concept_c}/{p.concept_d} p95 {p.percentiles.get(95.0, float('nan')):.3f}")
        return "; ".join("; ".join(parts) + f" ({enc})" for enc, parts in members.items())

    out = line(table)
    if images is not None and images.pairs:
        out += "; images: " + line(images)
    return out


@dataclass(frozen=True)
class CalibrationStudyResult(StudyResult):
    """Study 09's result: the text boundaries and, when asked for, the image boundaries.

    Attributes:
        config: the settings that produced it.
        text: boundaries of the text pairs.
        images: boundaries of the image pairs (None when ``config.images`` is False).
        ceiling: one concept against itself under the first member (:func:`run_ceiling`;
            None where it does not apply).
        renderings: the concept image sets every member was shown (None without images).
        provenance: the text, image and ceiling tables' provenance.
    """

    config: Config
    text: CalibrationTable
    images: CalibrationTable | None = None
    ceiling: CalibrationTable | None = None
    renderings: dict | None = field(default=None, repr=False)

    def derive_provenance(self) -> dict:
        """The text, image and ceiling tables' provenance."""
        return {"text": self.text.provenance,
                "images": self.images.provenance if self.images is not None else None,
                "ceiling": self.ceiling.provenance if self.ceiling is not None else None}

    def to_frame(self):
        """Both tables' percentile rows, with a ``modality`` column."""
        import pandas as pd

        frames = [self.text.to_frame().assign(modality="text")]
        if self.images is not None:
            frames.append(self.images.to_frame().assign(modality="image"))
        return pd.concat(frames, ignore_index=True)

    def quoted_figures(self) -> dict[str, str]:
        """The figures the notebook's prose quotes (see ``privlab quote``).

        Per table (``text``, ``images``), member and pair (``dogs-cats``): ``.p95``; and per
        image member the largest boundary of any cross-concept pair (``images.m.cross_max``)
        and the range of the same-concept ones (``images.m.same_min``, ``.same_max``).
        Image members are named as in ``config.image_encoders``, text members by their
        model; characters a figure name cannot hold are written ``-``.
        """
        out: dict[str, str] = {}
        for modality, table, digits in (("text", self.text, 4), ("images", self.images, 3)):
            if table is None:
                continue
            cross: dict[str, list[float]] = {}
            same: dict[str, list[float]] = {}
            # image members by the names the Config gives them (their encoder ids carry
            # settings hashes); text members by their model's name
            ids = list(dict.fromkeys(p.encoder for p in table.pairs))
            names = (dict(zip(ids, self.config.image_encoders))
                     if modality == "images" and len(ids) == len(self.config.image_encoders)
                     else {})
            for p in table.pairs:
                member = re.sub(r"[^A-Za-z0-9_.-]+", "-", names.get(p.encoder, p.encoder)).strip("-")
                key = f"{modality}.{member}.{p.concept_c}-{p.concept_d}"
                out[f"{key}.p95"] = f"{p.percentiles.get(95.0, float('nan')):.{digits}f}"
                values = [float(v) for v in np.ravel(p.values)]
                (same if p.concept_c == p.concept_d else cross).setdefault(member, []).extend(values)
            if modality == "images":
                for member, values in cross.items():
                    out[f"images.{member}.cross_max"] = f"{max(values):.3f}"
                for member, values in same.items():
                    out[f"images.{member}.same_min"] = f"{min(values):.2f}"
                    out[f"images.{member}.same_max"] = f"{max(values):.2f}"
        return out

    def headline(self) -> Headline:
        """The 95th percentiles, with what they rest on."""
        used = self.text.provenance.get("per_concept_used", {})
        sizes = sorted(set(used.values()))
        counts = (f"; {'/'.join(map(str, sizes))} sentences per concept used"
                  if sizes else "")
        caveats = [f"text: {describe_source(self.config.data)}{counts}, encoders "
                   f"{', '.join(self.config.encoders)}"]
        if self.images is not None:
            caveats.append(
                "images: seeded variations of packaged sample photos with exact masks, "
                f"members {', '.join(self.config.image_encoders)} (offline stand-ins)"
                if self.config.image_data == "generated"
                else f"images: folder {self.config.image_data}")
        first, details = self.headline_parts()
        return Headline(STUDY, first, Status.DESCRIPTIVE, tuple(caveats), details=details,
                        status_note="percentiles of boundaries between familiar concepts "
                        "(a ruler for reading a resolution, not a privacy guarantee)")

    def headline_parts(self) -> tuple[str, tuple[str, ...]]:
        """The range of the 95th percentiles (text, then images) in one line; beneath it,
        each member's pairs, named as in the Config (the members' ids stay in provenance)."""
        def p95(pair) -> float:
            return pair.percentiles.get(95.0, float("nan"))

        def span(tab: CalibrationTable) -> str:
            values = [p95(p) for p in tab.pairs]
            return f"{min(values):.3f} to {max(values):.3f}"

        def per_member(tab: CalibrationTable, names, kind: str) -> list[str]:
            ids = list(dict.fromkeys(p.encoder for p in tab.pairs))
            named = dict(zip(ids, names)) if len(ids) == len(names) else {}
            return [f"{kind}{named.get(e, f'member {i + 1}')}: " + "; ".join(
                        f"{p.concept_c}/{p.concept_d} p95 {p95(p):.3f}"
                        for p in tab.pairs if p.encoder == e)
                    for i, e in enumerate(ids)]

        first = ("95th-percentile boundaries between familiar concepts: text "
                 + span(self.text))
        details = per_member(self.text, self.config.encoders, "text, ")
        if self.images is not None and self.images.pairs:
            first += f"; images {span(self.images)}"
            details += per_member(self.images, self.config.image_encoders, "images, ")
        return first, tuple(details)

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False, float_format=lambda v: f"{v:.4f}")


@registry.member("calibration", number="09", title=STUDY, notebook="09_calibration")
def run(config: Config | None = None) -> CalibrationStudyResult:
    """Study 09: boundaries for the text pairs, and for the image pairs when ``config.images``.

    Example:
        >>> r = run(Config(pairs=(("dogs", "cats"),), encoders=("lexical",), per_concept=3,
        ...                images=False))
        >>> r.text.to_frame()["pairs"].tolist(), r.images
        ([9], None)
    """
    config = config or Config.for_notebook()
    stages = 3 if config.images else 1
    step("text boundaries", 0, stages)
    text = run_text(config)
    images = ceiling = sets = None
    if config.images:
        step("image boundaries", 1, stages)
        sets = load_image_sets(config)
        images = run_images(config, sets)
        step("the ceiling: a concept against itself", 2, stages)
        ceiling = run_ceiling(config)
    step("boundaries done", stages, stages)
    return CalibrationStudyResult(config, text, images, ceiling, sets)


__all__ = ["CEILING_PAIRS", "CalibrationStudyResult", "Config", "DEFAULT_IMAGE_MEMBERS",
           "DEFAULT_IMAGE_PAIRS", "DEFAULT_PAIRS", "STUDY", "describe_source", "headline",
           "load_image_sets", "load_sets", "resolve_source", "run", "run_ceiling", "run_images", "run_text",
           "shared_concepts_dir"]
