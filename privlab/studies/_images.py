"""Shared orchestration of the image studies (01 DiCaprio, 02 McDonald's).

Settings (:class:`ImageStudyConfig`) and the run (:func:`run_image_study`): every sanitizer
audited with its placebo twin under every member, and checked for whether the concept is
still there. Every name the studies use from the ``_image_*`` modules is importable from
here. See ``docs/methods/studies-image.md`` and ``docs/methods/image-audits.md``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Mapping, Sequence

import numpy as np

from privlab.errors import invalid, wrong_type
from privlab.progress import step, track, within
from privlab.studies._image_setup import (CUE_PREFIX, GROUND_TRUTH_REASON, LOGO_GALLERY_HOWTO,
                                          LOGO_SANITIZERS, build_encoders, build_sanitizers,
                                          folder_reason, load_gallery, members_param,
                                          resolve_gallery, resolve_logo_finder, resolve_logos,
                                          sanitizers_param)
from privlab.studies._image_conditions import (CueCheck, Fidelity, _LogoBoxes, check_fidelity,
                                               target_checks)
from privlab.studies._image_result import LEAK_REASON, MIN_RANK_SANITIZERS, ImageStudyResult
from privlab.studies.contract import StudyConfig

#: The name check's OCR engines, for the panel.
NAME_OCR = (("rapidocr", "the text sanitizers' own reader (fast, not independent of them)"),
            ("easyocr", "a second reader, independent of them (about 6 s a photo)"))
from privlab.studies.params import param

#: The settings :meth:`ImageStudyConfig.like` copies: the corpus and the controls.
CORPUS_FIELDS = ("n_images", "seed", "data", "recursive", "max_side", "gallery", "logos", "name_ocr",
                 "delta", "top_k", "placebo", "placebo_seed")


@dataclass
class ImageStudyConfig(StudyConfig):
    """Settings shared by the image studies; each study sets its own defaults.

    Attributes:
        n_images: generated scenes (ignored with ``data``).
        seed: generator seed.
        data: what is audited: a folder of real photos; None: the generated corpus.
        recursive: with a folder in ``data``, include its sub-folders.
        max_side: photos are downscaled to this longer side.
        sanitizers: ``"cues:<preset>"`` (ground truth, generated corpus only) or
            registered image sanitizer names; None: the study's defaults for the corpus
            (``default_sanitizers``, or ``folder_sanitizers`` with a folder).
        encoders: registered image members.
        gallery: the target's known faces (``<name>/*.jpg``, ``<name>.jpg`` or
            ``{name: [images]}``); default the generated corpus's faces, none for a folder.
        logos: a logo gallery in the same layout, of crops from photos not audited;
            on photos one finder is fitted on it
            (:func:`privlab.studies._image_setup.logo_training`). Default the generated
            brand's logo, none otherwise.
        delta: the resolution at which items are flagged and members flag a leak.
        top_k: witnesses kept per audit.
        leak_table: also compute the per-cue leak-detection table (generated corpus).
        placebo: audit each sanitizer's placebo twin and report the excess over it.
        placebo_seed: where the placebo puts its marks.
        name_ocr: the OCR engine of the name check (:data:`NAME_OCR`): ``"rapidocr"``,
            the text sanitizers' own (fast, not independent of them), or ``"easyocr"``
            (independent, about 6 s a photo; the ``easyocr`` extra).

    Raises:
        ValueError: ``cues:`` sanitizers with a folder (the reason is in the message), an
            empty sanitizer or member list, a negative delta or ``max_side``.
    """

    default_sanitizers: ClassVar[tuple[str, ...]] = ()
    folder_sanitizers: ClassVar[tuple[str, ...]] = ()
    #: Added to the default sanitizers when a logo gallery is given.
    logo_sanitizers: ClassVar[tuple[str, ...]] = ()

    n_images: int = 30
    seed: int = 0
    data: str | None = param(None, label="Photo folder",
                               help="empty: the generated scenes")
    recursive: bool = param(False, label="Include sub-folders")
    max_side: int = param(640, label="Longest side (px)", slider=(32, 16384))
    sanitizers: tuple[str, ...] | None = sanitizers_param({})
    encoders: tuple[str, ...] = members_param(())
    gallery: Any = param(None, repr=False, label="Known faces",
                         help="a folder of <name>/*.jpg or <name>.jpg face crops")
    logos: Any = param(None, repr=False, label="Logo gallery",
                       help="a folder of <brand>/*.jpg or <brand>.jpg logo crops")
    delta: float = param(0.0, label="Flag at δ", slider=(0.0, 0.5))
    top_k: int = 5
    leak_table: bool = True
    placebo: bool = param(True, label="Placebo control")
    placebo_seed: int = 0
    name_ocr: str = param("rapidocr", label="Name check OCR", buttons=True, strict=True,
                          choices=lambda: NAME_OCR)

    def __post_init__(self) -> None:
        super().__post_init__()
        caller = type(self).__qualname__
        if self.data is not None and not isinstance(self.data, (str, Path)):
            raise wrong_type("data", caller, "a folder path or None", self.data)
        self.data = str(self.data) if self.data else None
        if self.sanitizers is None:
            self.sanitizers = self.folder_sanitizers if self.data else self.default_sanitizers
            if self.logos is not None:
                self.sanitizers = tuple(self.sanitizers) + tuple(
                    s for s in self.logo_sanitizers if s not in self.sanitizers)
        for label in ("sanitizers", "encoders"):
            value = getattr(self, label)
            if isinstance(value, str) or not isinstance(value, (list, tuple)) or not value:
                raise invalid(label, caller, "a non-empty list of names", value)
            if not all(isinstance(v, str) and v for v in value):
                raise invalid(label, caller, "a list of non-empty strings", value)
            setattr(self, label, tuple(value))
        if self.data:
            refused = [s for s in self.sanitizers if folder_reason(s)]
            if refused:
                raise invalid("sanitizers", caller, "sanitizers that can run on a folder of "
                              "photos", refused, f"{GROUND_TRUTH_REASON}: drop them (the "
                              f"folder defaults are {list(self.folder_sanitizers)}), or clear "
                              "'data' to audit the generated scenes.")
        if not isinstance(self.delta, (int, float)) or self.delta < 0:
            raise invalid("delta", caller, "a non-negative number", self.delta)
        if not isinstance(self.max_side, (int, np.integer)) or self.max_side <= 0:
            raise invalid("max_side", caller, "a positive number of pixels", self.max_side)
        if self.gallery is not None and not isinstance(self.gallery, (str, Path, dict)):
            raise wrong_type("gallery", caller, "a folder of face crops or a dict of name -> "
                             "face images", self.gallery)
        if self.logos is not None and not isinstance(self.logos, (str, Path, Mapping)):
            raise wrong_type("logos", caller, LOGO_GALLERY_HOWTO, self.logos)
        if isinstance(self.logos, Path):
            self.logos = str(self.logos)
        needs = [s for s in self.sanitizers if s in LOGO_SANITIZERS]
        if needs and self.logos is None and self.data:
            raise invalid("logos", caller, f"a logo gallery for {needs}", None,
                          f"Pass logos= {LOGO_GALLERY_HOWTO}; or untick {needs}.")

    @classmethod
    def smoke_settings(cls) -> dict:
        """Tiny settings for tests and ``PRIVLAB_SMOKE=1`` (a study narrows the sanitizers)."""
        return {"n_images": 4}

    @classmethod
    def demo_settings(cls) -> dict:
        """Demo settings: 12 generated scenes instead of 30 (every sanitizer and member kept)."""
        return {"n_images": 12}

    @classmethod
    def smoke(cls, **overrides: Any):
        """Tiny settings; with a folder in ``data`` and no ``sanitizers``, the folder defaults."""
        if overrides.get("data") and "sanitizers" not in overrides:
            overrides = {**overrides, "sanitizers": None}
        return super().smoke(**overrides)

    @classmethod
    def like(cls, config: "ImageStudyConfig", **overrides: Any):
        """This class's settings on the corpus of another image-study ``config``.

        The class's ``parent_fields`` (a sub-study's: the corpus and the controls,
        :data:`CORPUS_FIELDS`) are copied; sanitizers and members stay this class's own
        unless ``overrides`` name them.

        Raises:
            TypeError: ``config`` is not an image-study config.
        """
        if not isinstance(config, ImageStudyConfig):
            raise wrong_type("config", f"{cls.__qualname__}.like", "an image-study Config",
                             config)
        return super().like(config, **overrides)





def run_image_study(study: str, config: Any, *, corpus_factory, presets: Mapping[str, Sequence[str]],
                    default_logos=None, concept_cues: Sequence[str] = (),
                    fidelity: bool = True) -> ImageStudyResult:
    """Run an image study from its config (used by the DiCaprio and McDonald's modules).

    Each image is read once; sanitizers, placebos, members and checks share the readings
    (see ``docs/methods/image-audits.md``).

    Args:
        study: display name.
        config: the study's Config (see :class:`ImageStudyConfig`).
        corpus_factory: ``(n, seed) -> SceneCorpus`` for the generated corpus.
        presets: cue presets ``{name: kinds removed}``.
        default_logos: ``corpus -> {brand: [logo images]}`` for a generated corpus when
            the config gives no ``logos``.
        concept_cues: on a generated corpus, the cue kinds that carry the concept
            (checked against the ground truth, :class:`CueCheck`).
        fidelity: run the concept checks (:meth:`ImageStudyResult.fidelity`).

    Returns:
        An :class:`ImageStudyResult`.
    """
    from privlab.contrastive import AuditTable, audit_many, corpus_hash
    from privlab.contrastive.ensemble import leak_detection
    from privlab.contrastive.placebo import ImagePlacebo
    from privlab.encoders.image import DescribeThenEmbedEncoder
    from privlab.vision.ocr import read_rendering

    start = time.perf_counter()
    corpus, passed_over = None, []
    if config.data:
        from privlab.datasets.images import load_folder

        folder = load_folder(config.data, max_side=config.max_side, recursive=config.recursive)
        images, labels, passed_over = folder.images, folder.names, folder.skipped
    else:
        corpus = corpus_factory(config.n_images, config.seed)
        images = corpus.images
        labels = [f"{s.index}: {'+'.join(sorted(s.kinds()))}" for s in corpus.scenes]
    gallery = resolve_gallery(config.gallery, corpus)
    logos = resolve_logos(config.logos, corpus, default_logos)
    finder = None
    if logos and corpus is None:
        step("fitting the logo finder on the gallery (cached)", 0, 1)
        finder = resolve_logo_finder(config.logos, logos, corpus)
    encoders = build_encoders(config.encoders, gallery, logos, finder)
    sanitizers = build_sanitizers(config.sanitizers, presets, corpus, logos, finder)
    readers = any(isinstance(e, DescribeThenEmbedEncoder) and e.use_ocr for e in encoders)
    twins: list = []
    twin = False
    if config.placebo:
        avoid: list = []
        if corpus is not None:
            from privlab.datasets.scene_cues import CueRegions

            avoid = [CueRegions(corpus, corpus.kinds)]
        if logos:
            avoid.append(_LogoBoxes(logos, finder))

        def twin(sanitizer):
            made = ImagePlacebo(sanitizer, avoid=avoid, seed=config.placebo_seed,
                                read_renderings=readers)
            twins.append(made)
            return made
    checks, notes = (target_checks(gallery, logos, corpus, concept_cues, finder,
                                   name_ocr=config.name_ocr) if fidelity
                     else ([], []))
    leak_stage = corpus is not None and config.leak_table
    stages = len(encoders) + len(sanitizers) + int(leak_stage) + int(bool(checks))
    for i, encoder in enumerate(encoders):  # the originals once per member (then cached)
        step(f"encoding the originals with {config.encoders[i]}", i, stages)
        encoder.encode(images)
    audits, outputs, placements = [], {}, {}
    for i, sanitizer in enumerate(sanitizers):
        step(f"sanitizing and auditing {config.sanitizers[i]}", len(encoders) + i, stages)
        phases = 2 + int(bool(readers))  # one after the other, so the bar never goes back
        with within():
            step("sanitizing", 0, phases)
            sanitized = sanitizer.sanitize(images)
            if readers:  # each output read once, near its marks
                step("reading the outputs (OCR)", 1, phases)
                for x, out in track(list(zip(images, sanitized)), "read", detail=True):
                    read_rendering(x, out)
            step("auditing", phases - 1, phases)
            twins.clear()
            audit = audit_many(images, [sanitizer], sanitized=sanitized, encoders=encoders,
                               top_k=config.top_k, placebo=twin).audits[0]
        audits.append(audit)
        outputs[audit.name] = sanitized
        if twins:
            placements[audit.name] = list(twins[-1].placements)
    table = AuditTable(tuple(audits))
    conditions = None
    if fidelity:
        if checks:
            step("checking whether each concept is still there", stages - 1 - int(leak_stage),
                 stages)
        shared, blind = shared_detectors(audits, sanitizers, checks)
        conditions = check_fidelity(images, outputs, checks, notes, shared, blind)
    leaks = None
    if leak_stage:
        step("leak detection per cue", stages - 1, stages)
        leaks = leak_detection(corpus, encoders, delta=config.delta, top_k=config.top_k,
                               placebo=config.placebo, seed=config.placebo_seed)
    provenance = {"corpus": corpus.provenance if corpus is not None else {
        "folder": str(config.data), "files": list(labels), "recursive": config.recursive,
        "max_side": config.max_side, "sha": corpus_hash(images),
        "skipped": [dict(s) for s in passed_over]},
        "members": [e.describe() for e in encoders],
        "sanitizers": [s.describe() for s in sanitizers],
        "gallery": sorted(gallery), "logos": sorted(logos),
        "logo_finder": finder.describe() if finder is not None else (
            "keypoint matching (SIFT + RANSAC) of the brand's printed artwork" if logos else None),
        "placebo": bool(config.placebo),
        "placebo_seed": config.placebo_seed,
        "checks": [c.describe() for c in checks]}
    step("audit done", stages, stages)
    return ImageStudyResult(study, config, images, labels, corpus, table, encoders, leaks,
                            time.perf_counter() - start, provenance=provenance,
                            conditions=conditions, placements=placements)


def shared_detectors(audits: Sequence[Any], sanitizers: Sequence[Any], checks: Sequence[Any]
                     ) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """Which checks look with a detector a sanitizer removes by.

    Returns:
        ``(shared, blind)``: ``{sanitizer: checks sharing one of its detectors}`` (the
        fidelity table's ``independent`` column) and, of those, the checks whose silence
        is no evidence at all (``ConceptCheck.blind_to``: on photos the logo check and
        logo-blackout share the study's fitted finder), which leave the sanitizer
        unverified.
    """
    shared, blind = {}, {}
    for audit, sanitizer in zip(audits, sanitizers):
        describe = getattr(sanitizer, "describe", None)
        detectors = (describe() if callable(describe) else {}).get("detectors") or []
        detectors = [d for d in detectors if isinstance(d, Mapping)]
        both = tuple(c.name for c in checks if hasattr(c, "shares_detector")
                     and any(c.shares_detector(d) for d in detectors))
        silent = tuple(c.name for c in checks if hasattr(c, "blind_to")
                       and any(c.blind_to(d) for d in detectors))
        if both:
            shared[audit.name] = both
        if silent:
            blind[audit.name] = silent
    return shared, blind


__all__ = ["CORPUS_FIELDS", "CUE_PREFIX", "CueCheck", "Fidelity", "GROUND_TRUTH_REASON",
           "ImageStudyConfig", "ImageStudyResult", "LEAK_REASON", "LOGO_GALLERY_HOWTO",
           "LOGO_SANITIZERS", "MIN_RANK_SANITIZERS", "build_encoders", "build_sanitizers",
           "check_fidelity", "folder_reason", "load_gallery", "resolve_gallery",
           "resolve_logos", "run_image_study", "target_checks"]
