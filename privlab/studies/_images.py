"""Shared orchestration of the image studies (01 DiCaprio, 02 McDonald's).

A study is: a corpus (generated with ground truth, or a folder of real photos), a list
of sanitizers (ground-truth cue blackouts that miss chosen cues on purpose, and
detector-based sanitizers from the registry), a list of members (distance mechanisms),
and :func:`privlab.contrastive.audit_many` over them, each sanitizer with its placebo
twin (:mod:`privlab.contrastive.placebo`: the same marks where no cue is). The result
adds what the image notebooks render: per-member tables of the raw resolution, the
placebo floor and the excess over it, rank agreement, resolution-0 counts, per-image
flags, the describe-then-embed member's words for a witness, and the leak-detection
table on generated corpora.

The paper's pass is conditional on reliable sanitization of the concept, so every
sanitizer is also checked for it directly (:mod:`privlab.vision.concepts`): in each image
where the concept was found before sanitization (a face matching the gallery under SFace
and under dlib, the target's name read by OCR, a gallery logo), is it still found after?
:meth:`ImageStudyResult.fidelity` is that table; a sanitizer that leaves the concept in
any image is named in the headline as failing the condition, and its resolutions stay in
the tables marked conditional. A logo gallery (``logos=``) reaches the logo sanitizer,
the describe-then-embed member, the logo check and the placebo (which keeps clear of
every logo found).

Every image is read (OCR), and its faces found, once: the originals are read whole, and
each sanitized or placebo output only near its marks (:func:`privlab.vision.ocr.read_rendering`),
a reading every member and check then shares.

Folder mode (``folder=``) audits real photos. There is no ground truth there, so the
``cues:`` sanitizers are refused by the Config (with the reason), there is no leak table
(:attr:`ImageStudyResult.leak_reason` says why) and images are labelled by file name.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Mapping, Sequence

import numpy as np

from privlab.errors import invalid, wrong_type
from privlab.progress import step
from privlab.studies.contract import Headline, StudyConfig

CUE_PREFIX = "cues:"
#: Why a ``cues:`` sanitizer cannot run on a folder (one line, shown by the widgets too).
GROUND_TRUTH_REASON = ("'cues:' sanitizers black out the generated scenes' ground-truth cue "
                       "boxes; a folder of photos has no ground truth")
#: Why a folder run has no leak table.
LEAK_REASON = ("no leak table for a folder: it leaves one known cue kind in place at a time, "
               "and a folder of photos has no ground truth saying where each cue is")
#: Fewest sanitizers for which the members' rank agreement is read.
MIN_RANK_SANITIZERS = 4
#: The settings :meth:`ImageStudyConfig.like` copies: the corpus and the controls.
CORPUS_FIELDS = ("n_images", "seed", "folder", "recursive", "max_side", "gallery", "logos",
                 "delta", "top_k", "placebo", "placebo_seed")
#: Registry sanitizers that need the logo gallery.
LOGO_SANITIZERS = ("logo-blackout",)
#: How to make a logo gallery (shown where one is missing).
LOGO_GALLERY_HOWTO = ("a folder with one sub-folder or one image per brand (<brand>/*.jpg or "
                      "<brand>.jpg: crops of the logo from photos that are not audited), or "
                      "{brand: [logo images]}")


def _short_check(name: str) -> str:
    """A check's short label in the headline: ``"face (SFace)"``, ``"name (OCR)"`` ...

    Example:
        >>> _short_check("face · dlib distance ≤ 0.6"), _short_check("name · OCR reads X")
        ('face (dlib)', 'name (OCR)')
    """
    kind, _, rest = name.partition(" · ")
    how = {"face": rest.split()[0] if rest else "", "name": "OCR", "cue": "ground truth"}
    return f"{kind} ({how[kind]})" if how.get(kind) else kind


def _worst_per_member(frame) -> str:
    """``"member value (sanitizer); ..."`` from a sanitizer x member table; the sanitizer is
    named where the worst value is above 0."""
    parts = []
    for member in frame.columns:
        value = frame[member].max()
        where = f" ({frame[member].idxmax()})" if value > 0 else ""
        parts.append(f"{member} {value:.3f}{where}")
    return "; ".join(parts)


def folder_reason(spec: str) -> str | None:
    """Why sanitizer ``spec`` cannot run on a folder of photos (None when it can).

    Example:
        >>> folder_reason("face-blackout-yunet") is None, folder_reason("cues:every cue")[:9]
        (True, "'cues:' s")
    """
    return GROUND_TRUTH_REASON if str(spec).startswith(CUE_PREFIX) else None


@dataclass
class ImageStudyConfig(StudyConfig):
    """Settings shared by the image studies; each study sets its own defaults.

    Attributes:
        n_images: generated scenes (ignored with ``folder``).
        seed: generator seed.
        folder: a folder of real photos instead of the generated corpus.
        recursive: with ``folder``, include its sub-folders.
        max_side: photos are downscaled to this longer side.
        sanitizers: ``"cues:<preset>"`` (ground truth, generated corpus only) or
            registered image sanitizer names; None: the study's defaults for the corpus
            (``default_sanitizers``, or ``folder_sanitizers`` with a folder).
        encoders: registered image members.
        gallery: known faces for describe-then-embed: a folder of named face crops
            (``<name>/*.jpg`` or ``<name>.jpg``) or ``{name: [face images]}``; default
            the generated corpus's shipped faces, none for a folder. Its names are the
            target's: the fidelity checks look for these faces and names.
        logos: a logo gallery: a folder with one sub-folder or file stem per brand
            (``<brand>/*.jpg`` or ``<brand>.jpg``, crops of the logo from photos that
            are not audited) or ``{brand: [logo images]}``; it reaches the logo
            sanitizer, describe-then-embed, the logo check and the placebo. Default the
            generated brand corpus's logo, none otherwise.
        delta: the resolution at which items are flagged and members flag a leak.
        top_k: witnesses kept per audit.
        leak_table: also compute the per-cue leak-detection table (generated corpus).
        placebo: audit each sanitizer's placebo twin and report the excess over it.
        placebo_seed: where the placebo puts its marks.

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
    folder: str | None = None
    recursive: bool = False
    max_side: int = 640
    sanitizers: tuple[str, ...] | None = None
    encoders: tuple[str, ...] = ()
    gallery: Any = field(default=None, repr=False)
    logos: Any = field(default=None, repr=False)
    delta: float = 0.0
    top_k: int = 5
    leak_table: bool = True
    placebo: bool = True
    placebo_seed: int = 0

    def __post_init__(self) -> None:
        caller = type(self).__qualname__
        if self.folder is not None and not isinstance(self.folder, (str, Path)):
            raise wrong_type("folder", caller, "a folder path or None", self.folder)
        self.folder = str(self.folder) if self.folder else None
        if self.sanitizers is None:
            self.sanitizers = self.folder_sanitizers if self.folder else self.default_sanitizers
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
        if self.folder:
            refused = [s for s in self.sanitizers if folder_reason(s)]
            if refused:
                raise invalid("sanitizers", caller, "sanitizers that can run on a folder of "
                              "photos", refused, f"{GROUND_TRUTH_REASON}: drop them (the "
                              f"folder defaults are {list(self.folder_sanitizers)}), or clear "
                              "'folder' to audit the generated scenes.")
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
        if needs and self.logos is None and self.folder:
            raise invalid("logos", caller, f"a logo gallery for {needs}", None,
                          f"Pass logos= {LOGO_GALLERY_HOWTO}; or untick {needs}.")

    @classmethod
    def smoke_settings(cls) -> dict:
        """Tiny settings for tests and ``PRIVLAB_SMOKE=1`` (a study narrows the sanitizers)."""
        return {"n_images": 4}

    @classmethod
    def smoke(cls, **overrides: Any):
        """Tiny settings; with a ``folder`` and no ``sanitizers``, the folder defaults."""
        if overrides.get("folder") and "sanitizers" not in overrides:
            overrides = {**overrides, "sanitizers": None}
        return super().smoke(**overrides)

    @classmethod
    def like(cls, config: "ImageStudyConfig", **overrides: Any):
        """This class's settings on the corpus of another image-study ``config``.

        The corpus and the controls (:data:`CORPUS_FIELDS`) are copied; sanitizers and
        members stay this class's own unless ``overrides`` name them.

        Raises:
            TypeError: ``config`` is not an image-study config.
        """
        if not isinstance(config, ImageStudyConfig):
            raise wrong_type("config", f"{cls.__qualname__}.like", "an image-study Config",
                             config)
        settings = {name: getattr(config, name) for name in CORPUS_FIELDS}
        return cls._build({**settings, **overrides}, "like")


def load_gallery(folder: str | Path, *, parameter: str = "gallery",
                 what: str = "face crops") -> dict[str, list[np.ndarray]]:
    """Named crops from a folder: ``<name>/*.jpg`` (several each) or ``<name>.jpg``.

    Args:
        folder: the gallery folder.
        parameter: the parameter named in errors (``"gallery"`` or ``"logos"``).
        what: what the crops show, for errors.

    Returns:
        ``{name: [RGB images]}``, names in sorted order.

    Raises:
        ValueError: not a folder, no image in it, or an unreadable file (named).
    """
    from privlab.datasets.images import IMAGE_SUFFIXES, read_image

    root = Path(folder)
    if not root.is_dir():
        raise invalid(parameter, "load_gallery", f"an existing folder of {what}", str(root),
                      given_is_text=True)
    gallery: dict[str, list[np.ndarray]] = {}
    for entry in sorted(p for p in root.iterdir() if not p.name.startswith(".")):
        if entry.is_dir():
            files = sorted(f for f in entry.iterdir() if f.is_file()
                           and f.suffix.lower() in IMAGE_SUFFIXES)
            if files:
                gallery[entry.name] = [read_image(f) for f in files]
        elif entry.suffix.lower() in IMAGE_SUFFIXES:
            gallery.setdefault(entry.stem, []).append(read_image(entry))
    if not gallery:
        raise invalid(parameter, "load_gallery", f"a folder with <name>/*.jpg or <name>.jpg "
                      f"{what}", f"{root} without images", given_is_text=True)
    return gallery


def resolve_logos(logos: Any, corpus: Any | None = None, default: Any = None
                  ) -> dict[str, list[np.ndarray]]:
    """The logo gallery a run uses: a loaded folder, a mapping, or ``default(corpus)``.

    Args:
        logos: a folder (one sub-folder or file stem per brand), ``{brand: [images]}``
            or None.
        corpus: the generated corpus (for ``default``).
        default: ``corpus -> gallery`` used when ``logos`` is None and a corpus is given.

    Returns:
        ``{brand: [RGB images]}`` (empty: no logo gallery).

    Raises:
        ValueError: an empty folder or entry (the message says how to make a gallery).

    Example:
        >>> from skimage import data
        >>> sorted(resolve_logos({"skimage": [data.logo()]})), resolve_logos(None)
        (['skimage'], {})
    """
    from privlab.vision.images import as_rgb

    if logos is None:
        return dict(default(corpus)) if default is not None and corpus is not None else {}
    if isinstance(logos, (str, Path)):
        return load_gallery(logos, parameter="logos", what="logo crops")
    out = {}
    for brand, images in dict(logos).items():
        if (not isinstance(brand, str) or not brand.strip() or isinstance(images, np.ndarray)
                or not hasattr(images, "__len__") or not len(images)):
            raise invalid("logos", "resolve_logos", LOGO_GALLERY_HOWTO,
                          f"{brand!r}: {type(images).__name__}", given_is_text=True)
        out[brand] = [as_rgb(im, "logos", "resolve_logos") for im in images]
    return out


def build_encoders(names: Sequence[str], gallery: Mapping[str, Sequence[Any]] | None,
                   logos: Mapping[str, Sequence[Any]] | None = None) -> list:
    """Registry members by name; describe-then-embed gets the study's face and logo galleries."""
    from privlab.encoders import registry

    if isinstance(names, str) or not names:
        raise invalid("encoders", "build_encoders", "a non-empty list of registered names", names)
    out = []
    for name in names:
        if name == "describe-then-embed":
            out.append(registry.create(name, gallery=dict(gallery or {}),
                                       logos=dict(logos or {}) or None))
        else:
            out.append(registry.create(name))
    return out


def build_sanitizers(specs: Sequence[str], presets: Mapping[str, Sequence[str]],
                     corpus: Any | None, logos: Mapping[str, Sequence[Any]] | None = None) -> list:
    """Sanitizers from preset cue blackouts (``"cues:<preset>"``) and registry names; the
    logo sanitizers get ``logos``.

    Raises:
        ValueError: a cue preset without a generated corpus (with the reason), an
            unknown preset, or a logo sanitizer without a logo gallery.
    """
    from privlab.datasets.scene_cues import cue_blackout
    from privlab.sanitizers import registry

    if isinstance(specs, str) or not specs:
        raise invalid("sanitizers", "build_sanitizers", "a non-empty list of names", specs)
    out = []
    for spec in specs:
        if spec.startswith(CUE_PREFIX):
            key = spec[len(CUE_PREFIX):]
            if key not in presets:
                raise invalid("sanitizers", "build_sanitizers",
                              f"cue presets among {[CUE_PREFIX + k for k in presets]}", spec)
            if corpus is None:
                raise invalid("sanitizers", "build_sanitizers", "sanitizers usable on a folder "
                              "(cue presets need a generated corpus)", spec, GROUND_TRUTH_REASON
                              + ".")
            out.append(cue_blackout(corpus, list(presets[key]), name=spec))
        elif spec in LOGO_SANITIZERS:
            if not logos:
                raise invalid("logos", "build_sanitizers", f"a logo gallery for {spec!r}", None,
                              f"Pass logos= {LOGO_GALLERY_HOWTO}.")
            out.append(registry.create(spec, logos=dict(logos)))
        else:
            out.append(registry.create(spec))
    return out


@dataclass
class Fidelity:
    """The operational-condition checks of a run (:mod:`privlab.vision.concepts`).

    Attributes:
        checks: the checks' names, in order.
        notes: why a check could not run (empty when all ran), or why none did.
        before: ``{check: evidence per original}`` (an empty tuple: not found).
        after: ``{sanitizer: {check: evidence per sanitized image}}``, None where the
            concept was not found in the original (a sanitizer does not add it).
    """

    checks: list[str]
    notes: list[str]
    before: dict[str, list[tuple[str, ...]]] = field(repr=False)
    after: dict[str, dict[str, list[tuple[str, ...] | None]]] = field(repr=False)

    def left(self, sanitizer: str) -> list[int]:
        """Indices of the images in which some check still finds the concept."""
        per = self.after.get(sanitizer, {})
        return sorted({i for found in per.values() for i, ev in enumerate(found) if ev})


class CueCheck:
    """A generated corpus's ground truth as a concept check: a cue of the concept's kinds
    that the sanitizer left (under half of its box's pixels changed).

    Detectors can miss a generated glyph (SIFT finds few keypoints on flat colours); the
    ground truth cannot, so on generated scenes a sanitizer that leaves the logo, the
    caption or the face in place fails the condition whatever the detectors see.

    Args:
        corpus: the generated corpus.
        kinds: the cue kinds that carry the concept (e.g. ``("logo", "brand_text")``).
    """

    kind = "cue"
    paired = True

    def __init__(self, corpus: Any, kinds: Sequence[str]):
        from privlab.datasets.scenes import cue_lookup

        self.kinds = tuple(k for k in kinds if k in corpus.kinds)
        self.scenes = cue_lookup(corpus)
        self.name = f"cue · ground truth ({', '.join(self.kinds)})"

    def _cues(self, original: np.ndarray) -> list:
        from privlab.hashing import content_hash

        scene = self.scenes.get(content_hash(np.asarray(original)))
        return [c for c in scene.cues if c.kind in self.kinds] if scene is not None else []

    def find(self, image: Any) -> tuple[str, ...]:
        return tuple(f"{c.kind} at {c.box}" for c in self._cues(np.asarray(image)))

    def find_pair(self, original: Any, sanitized: Any) -> tuple[str, ...]:
        """The cues of ``original`` that ``sanitized`` left (under half their box changed)."""
        x, y = np.asarray(original), np.asarray(sanitized)
        left = []
        for cue in self._cues(x):
            x0, y0, x1, y1 = cue.box
            changed = np.any(x[y0:y1, x0:x1] != y[y0:y1, x0:x1], axis=2).mean()
            if changed < 0.5:
                left.append(f"{cue.kind} at {cue.box} ({changed:.0%} changed)")
        return tuple(left)

    def describe(self) -> dict[str, Any]:
        return {"check": self.name, "kind": self.kind}


def check_fidelity(images: Sequence[Any], sanitized: Mapping[str, Sequence[Any]],
                   checks: Sequence[Any], notes: Sequence[str] = ()) -> Fidelity:
    """Run the concept checks on the originals and on every sanitizer's outputs.

    Each check runs on every original; on a sanitized image only where it found the
    concept in that image's original (a sanitizer removes, it does not add; this also
    keeps the cost to the images that matter).

    Args:
        images: the originals.
        sanitized: ``{sanitizer name: outputs, one per original}``.
        checks: :class:`privlab.vision.concepts.ConceptCheck` objects.
        notes: carried into :attr:`Fidelity.notes`.

    Returns:
        A :class:`Fidelity`.
    """
    before = {c.name: [c.find(im) for im in images] for c in checks}
    after = {}
    for name, outputs in sanitized.items():
        if len(outputs) != len(images):
            raise invalid("sanitized", "check_fidelity", f"one output per image ({len(images)})",
                          f"{len(outputs)} for {name!r}", given_is_text=True)
        after[name] = {c.name: [None if not before[c.name][i] else
                                (c.find_pair(images[i], out) if getattr(c, "paired", False)
                                 else c.find(out))
                                for i, out in enumerate(outputs)] for c in checks}
    return Fidelity([c.name for c in checks], list(notes), before, after)


@dataclass
class ImageStudyResult:
    """What an image study computed.

    Attributes:
        study: the study's name.
        config: the config that produced it.
        images: the audited originals.
        labels: one label per image (scene index and cues, or file name).
        corpus: the generated corpus (None for a folder of photos).
        table: the :class:`privlab.contrastive.AuditTable` (one audit per sanitizer, each
            with its placebo when ``config.placebo``).
        encoders: the member objects (to explain witnesses).
        leaks: the :class:`privlab.contrastive.ensemble.LeakTable` (generated corpora), else None.
        seconds: wall time.
        provenance: corpus hash, members, sanitizers, settings.
        status: what kind of numbers these are.
        conditions: the :class:`Fidelity` checks (None: not run).
        placements: ``{sanitizer: one placebo Placement per image}`` (where the placebo
            put its marks and what it avoided).
    """

    study: str
    config: Any
    images: list = field(repr=False)
    labels: list[str]
    corpus: Any
    table: Any = field(repr=False)
    encoders: list = field(repr=False)
    leaks: Any = None
    seconds: float = 0.0
    provenance: dict = field(default_factory=dict)
    status: str = ("descriptive: exact resolution on this audited set against this proxy set "
                   "under these members; not an unconditional guarantee")
    conditions: Fidelity | None = field(default=None, repr=False)
    placements: dict = field(default_factory=dict, repr=False)

    # -- names ------------------------------------------------------------------------
    @property
    def member_labels(self) -> dict[str, str]:
        """``{encoder name: the registry name the config used}`` (short column labels)."""
        return {e.name: label for e, label in zip(self.encoders, self.config.encoders)}

    def _short(self, encoder: str) -> str:
        return self.member_labels.get(encoder, encoder)

    def _long(self, member: str) -> str:
        for name, label in self.member_labels.items():
            if member in (name, label):
                return name
        raise invalid("encoder", self.study, f"one of {list(self.config.encoders)}", member)

    @property
    def has_placebo(self) -> bool:
        """Whether every audit ran a placebo twin."""
        return all(m.placebo is not None for a in self.table for m in a.members)

    @property
    def folder_mode(self) -> bool:
        """Whether these are photos from a folder (no ground truth)."""
        return self.corpus is None

    # -- the operational conditions ----------------------------------------------------
    def fidelity(self):
        """Per sanitizer and check: is the concept still there after sanitization?

        Returns:
            DataFrame with ``sanitizer, check, present before`` (originals in which the
            check finds the concept), ``still present`` (of those, the sanitized images
            in which it still does) and ``images`` (their labels); empty when no check
            ran (:meth:`fidelity_notes` says why).
        """
        import pandas as pd

        rows = []
        fid = self.conditions
        if fid is not None:
            for audit in self.table:
                for check in fid.checks:
                    found = fid.after.get(audit.name, {}).get(check, [])
                    left = [i for i, ev in enumerate(found) if ev]
                    rows.append({"sanitizer": audit.name, "check": check,
                                 "present before": sum(bool(e) for e in fid.before[check]),
                                 "still present": len(left),
                                 "images": ", ".join(self.labels[i] for i in left)})
        return pd.DataFrame(rows, columns=["sanitizer", "check", "present before",
                                           "still present", "images"])

    def fidelity_notes(self) -> list[str]:
        """Why a check did not run (dlib missing, no gallery ...), empty when all ran."""
        return list(self.conditions.notes) if self.conditions is not None else [
            "the operational conditions were not checked"]

    def fidelity_evidence(self, sanitizer: str):
        """Per image: what each check found before and after ``sanitizer`` (for inspection)."""
        import pandas as pd

        fid = self.conditions
        if fid is None:
            return pd.DataFrame(index=self.labels)
        cols = {}
        for check in fid.checks:
            cols[f"{check} · before"] = ["; ".join(e) for e in fid.before[check]]
            cols[f"{check} · after"] = ["" if e is None else "; ".join(e) or "—"
                                        for e in fid.after[sanitizer][check]]
        return pd.DataFrame(cols, index=self.labels)

    def condition_failures(self) -> dict[str, int]:
        """``{sanitizer: images in which it left the concept}`` for the sanitizers that did."""
        if self.conditions is None:
            return {}
        out = {}
        for audit in self.table:
            left = self.conditions.left(audit.name)
            if left:
                out[audit.name] = len(left)
        return out

    def condition(self, sanitizer: str) -> str:
        """``"met"``, ``"failed: concept left in k of n"`` or ``"not checked"``."""
        if self.conditions is None or not self.conditions.checks:
            return "not checked"
        left = self.conditions.left(sanitizer)
        if left:
            return f"failed: concept left in {len(left)} of {len(self.images)}"
        return "met"

    def marked(self, frame):
        """``frame`` (indexed by sanitizer) with each failing sanitizer's row marked
        conditional: ``"face-blur-yunet (conditional: concept left in 10)"``."""
        fails = self.condition_failures()
        out = frame.copy()
        out.index = [f"{s} (conditional: concept left in {fails[s]})" if s in fails else s
                     for s in frame.index]
        return out

    def placebo_avoided(self):
        """Per image and sanitizer: what the placebo kept clear of, and its coverage.

        Returns:
            DataFrame indexed by image label, one column per sanitizer holding
            ``"avoided 2 faces, 5 text lines, 1 logos, 1 sanitizer regions; marked 100%"``
            (the placebo's marked area over the sanitizer's); empty without a placebo.
        """
        import pandas as pd

        cols = {}
        for name, placements in self.placements.items():
            cells = []
            for p in placements:
                share = f"{p.placebo_area / p.area:.0%}" if p.area else "nothing to move"
                cells.append(f"avoided {p.avoided_text}; marked {share}")
            cols[name] = cells
        return pd.DataFrame(cols, index=self.labels if cols else None)

    # -- tables -----------------------------------------------------------------------
    def to_frame(self):
        """One row per (sanitizer, member): resolution, placebo, excess, witness, utility.

        Members carry their short (registry) names and witnesses the images' labels
        (file names in folder mode): ``witness_x`` is the released image, ``witness_y``
        the reference.
        """
        frame = self.table.to_frame()
        frame = frame.drop(columns=[c for c in ("corpus",) if c in frame.columns])
        frame["encoder"] = frame["encoder"].map(self._short)
        frame["witness_x"] = [self.labels[w[0]] for w in frame["witness"]]
        frame["witness_y"] = [self.labels[w[1]] for w in frame["witness"]]
        return frame.drop(columns=["witness"])

    def labelled_frame(self):
        """:meth:`to_frame` (members already named as the config named them; for plots)."""
        return self.to_frame()

    def members(self, value: str = "resolution"):
        """Sanitizer x member matrix (never averaged), columns by registry name.

        Args:
            value: ``"resolution"`` (raw), ``"placebo"`` (each sanitizer's placebo twin) or
                ``"excess"`` (``max(0, resolution - placebo)``).
        """
        from privlab.contrastive.ensemble import member_table

        return member_table(self.table, value).rename(columns=self.member_labels)

    def excess(self):
        """Sanitizer x member excess over the placebo floor (:meth:`members` of ``"excess"``;
        all NaN when no placebo ran)."""
        if not self.has_placebo:
            return self.members() * np.nan
        return self.members("excess")

    def placebo_floors(self):
        """Each member's artefact floor on these images: its largest placebo resolution.

        Returns:
            A Series indexed by the members' short names (empty without a placebo).
        """
        import pandas as pd

        if not self.has_placebo:
            return pd.Series(dtype=float)
        return self.members("placebo").max(axis=0)

    def comparison(self):
        """Long table: sanitizer, member, resolution, placebo, excess (and placebo coverage)."""
        frame = self.to_frame()
        cols = [c for c in ("sanitizer", "encoder", "resolution", "placebo", "excess",
                            "placebo_coverage") if c in frame.columns]
        out = frame[cols].rename(columns={"encoder": "member"})
        out["condition"] = [self.condition(s) for s in out["sanitizer"]]
        return out

    def agreement(self):
        """Pairwise Spearman rho between members across sanitizers (of the raw resolutions).

        With fewer than :data:`MIN_RANK_SANITIZERS` sanitizers the ``reading`` column says
        the rho is not to be read (too few orderings); the headline says so too.
        """
        from privlab.contrastive.ensemble import rank_agreement

        frame = self.table.to_frame()
        frame["encoder"] = frame["encoder"].map(self._short)
        return rank_agreement(frame, min_configs=MIN_RANK_SANITIZERS)

    def zeros(self):
        """Resolution-0 counts (Table 1's shape)."""
        from privlab.contrastive.ensemble import zero_counts

        frame = self.table.to_frame()
        frame["encoder"] = frame["encoder"].map(self._short)
        return zero_counts(frame)

    @property
    def leak_reason(self) -> str | None:
        """Why there is no leak table (None when there is one)."""
        if self.leaks is not None:
            return None
        if self.folder_mode:
            return LEAK_REASON
        return "no leak table: the config turned it off (leak_table=False)"

    def leak_matrix(self):
        """The leak-detection matrix with short member labels (None: see :attr:`leak_reason`)."""
        if self.leaks is None:
            return None
        return self.leaks.matrix().rename(columns=self.member_labels)

    def audit(self, sanitizer: str):
        """The :class:`privlab.contrastive.ContrastiveAudit` of one sanitizer."""
        return self.table[sanitizer]

    def flags(self, delta: float | None = None, *, over_placebo: bool | None = None):
        """Per image: which (sanitizer, member) trials flag it (items to withhold).

        Args:
            delta: the resolution a flag needs (default the config's).
            over_placebo: also require the image's worst trial to exceed that member's
                placebo resolution for that sanitizer (default: when a placebo ran), so
                a member's reaction to the marks alone flags nothing.

        Returns:
            DataFrame indexed by image label (file name in folder mode), one column per
            ``sanitizer | member`` (short member names), holding the image's largest
            signed difference where it flags, else 0.
        """
        import pandas as pd

        delta = self.config.delta if delta is None else delta
        over = self.has_placebo if over_placebo is None else bool(over_placebo)
        cols = {}
        for a in self.table:
            for m in a.members:
                per = m.resolution.per_audited
                hit = per >= delta if delta > 0 else per > 0
                if over and m.placebo is not None:
                    hit &= per > m.placebo
                cols[f"{a.name} | {self._short(m.encoder)}"] = np.where(hit, per, 0.0)
        return pd.DataFrame(cols, index=self.labels)

    def witnesses(self):
        """The decisive witness of every (sanitizer, member), by image label.

        Returns:
            DataFrame with ``sanitizer, member, resolution, placebo, excess, released x,
            reference y`` (file names in folder mode) and ``condition``
            (:meth:`condition`: a failed one makes the row conditional).
        """
        import pandas as pd

        rows = []
        for a in self.table:
            for m in a.members:
                w = m.witness
                rows.append({"sanitizer": a.name, "member": self._short(m.encoder),
                             "resolution": m.value, "placebo": m.placebo, "excess": m.excess,
                             "released x": self.labels[w.audited],
                             "reference y": self.labels[w.reference],
                             "condition": self.condition(a.name)})
        return pd.DataFrame(rows)

    def witness_title(self, sanitizer: str, encoder: str) -> str:
        """A gallery title: sanitizer, member, the two images' labels, δ*, placebo and excess."""
        m = self.table[sanitizer].member(self._long(encoder))
        w = m.witness
        text = (f"{sanitizer} under {self._short(m.encoder)}: x = {self.labels[w.audited]}, "
                f"y = {self.labels[w.reference]}; δ* = {m.value:.4f}")
        if m.placebo is not None:
            text += f", placebo {m.placebo:.4f}, excess {m.excess:.4f}"
        return text

    def explain(self, sanitizer: str, encoder: str | None = None) -> dict[str, str]:
        """The describe-then-embed member's words for the four images of a decisive witness.

        Args:
            sanitizer: the sanitizer's name.
            encoder: whose decisive witness, short or full name (default the
                describe-then-embed member).

        Readings the sanitizer made (text OCR reads in a sanitized image but not in its
        original, or a differing reading at a mark) are not among the words; they are
        listed after them as ``[sanitizer-induced, not read: ...]``.

        Returns:
            ``{"sanitized x", "original y", "sanitized y": words}``; empty without such a member.
        """
        from privlab.encoders.image import DescribeThenEmbedEncoder

        describer = next((e for e in self.encoders if isinstance(e, DescribeThenEmbedEncoder)
                          and e.use_faces), None)
        describer = describer or next((e for e in self.encoders
                                       if isinstance(e, DescribeThenEmbedEncoder)), None)
        if describer is None:
            return {}
        member = self.table[sanitizer].member(self._long(encoder) if encoder else describer.name)
        w = member.witness
        texts = describer.describe_images([w.audited_sanitized, w.reference_original,
                                           w.reference_sanitized])
        def said(d) -> str:
            if not d.induced:
                return d.text
            return (d.text + " " if d.text else "") + ("[sanitizer-induced, not read: "
                                                       + ", ".join(d.induced) + "]")

        return {"sanitized x": said(texts[0]), "original y": said(texts[1]),
                "sanitized y": said(texts[2])}

    def induced(self, sanitizer: str):
        """Per image: the readings ``sanitizer`` (and its placebo) made, kept out of the
        text members' words (:meth:`DescribeThenEmbedEncoder.induced_text`).

        Returns:
            DataFrame indexed by image label: ``sanitized``, ``placebo`` (the induced
            readings with why, "" for none).
        """
        import pandas as pd

        from privlab.encoders.image import DescribeThenEmbedEncoder

        reader = next((e for e in self.encoders if isinstance(e, DescribeThenEmbedEncoder)),
                      None) or DescribeThenEmbedEncoder(use_faces=False)
        audit = self.table[sanitizer]

        def cell(image) -> str:
            return "; ".join(f"{w.text!r} ({why})" for w, why in reader.induced_text(image))

        data = {"sanitized": [cell(im) for im in audit.sanitized]}
        if audit.placebo_sanitized is not None:
            data["placebo"] = [cell(im) for im in audit.placebo_sanitized]
        return pd.DataFrame(data, index=self.labels)

    # -- the headline -----------------------------------------------------------------
    def _what(self) -> str:
        noun = "photos" if self.folder_mode else "images"
        return f"{len(self.images)} {noun}, {len(self.table)} sanitizers"

    def headline_sanitizers(self) -> tuple[list[str], str]:
        """The sanitizers the headline's worst values are taken over, and how to say so.

        The ``cues:`` sanitizers black out the generator's ground truth: they are
        controls with leaks chosen on purpose, so a headline never takes its worst value
        from them while a real (detector-based) sanitizer ran. With only controls, the
        headline is over them and says so.
        """
        names = [audit.name for audit in self.table]
        tools = [s for s in names if not s.startswith(CUE_PREFIX)]
        controls = len(names) - len(tools)
        if not tools:
            return names, "'cues:' controls only"
        if not controls:
            return tools, ""
        plural = "s" if len(tools) > 1 else ""
        return tools, (f"over {len(tools)} detector-based sanitizer{plural}; "
                       f"{controls} 'cues:' control{'s' if controls > 1 else ''} in the "
                       "tables, not here")

    def condition_summary(self, rows: Sequence[str] | None = None) -> str:
        """The operational condition in words, over ``rows`` (default the headline's
        sanitizers): which sanitizers fail it, in how many images, by which check."""
        rows = list(rows if rows is not None else self.headline_sanitizers()[0])
        fid = self.conditions
        if fid is None or not fid.checks:
            why = "; ".join(self.fidelity_notes()) or "no check"
            return f"operational condition not checked ({why})"
        noun = "photos" if self.folder_mode else "images"
        fails = self.condition_failures()
        parts = []
        for name in rows:
            if name not in fails:
                continue
            by = ", ".join(f"{_short_check(check)} {sum(bool(e) for e in fid.after[name][check])}"
                           for check in fid.checks if any(fid.after[name][check]))
            parts.append(f"{name} FAILS (concept still found in {fails[name]} of "
                         f"{len(self.images)} {noun}: {by})")
        met = [n for n in rows if n not in fails]
        text = "operational condition: " + ("; ".join(parts) if parts else "")
        if met:
            text += ("; " if parts else "") + f"met by {', '.join(met)}"
        return text

    def summary(self) -> str:
        """The operational condition per sanitizer (:meth:`condition_summary`: a sanitizer
        that leaves the concept in any image fails, with the count), then each member's
        worst excess over its placebo (and the raw worst resolution) over the
        detector-based sanitizers that met it (:meth:`headline_sanitizers`), each naming
        the sanitizer it comes from. With none meeting it, the worst values are over all
        and marked conditional: they are not a pass."""
        rows, scope = self.headline_sanitizers()
        condition = self.condition_summary(rows)
        fails = self.condition_failures()
        met = [r for r in rows if r not in fails]
        if fails and met:
            scope = "; ".join(p for p in (f"over {len(met)} that met the condition", scope) if p)
        elif fails:
            met = rows
            scope = "; ".join(p for p in ("CONDITIONAL: no sanitizer here met the condition, "
                                          "so none of these is a pass", scope) if p)
        rows = met
        scope = f" ({scope})" if scope else ""
        raw = self.members().loc[rows]
        if not self.has_placebo:
            return (f"{condition}. worst resolution per member{scope}: "
                    f"{_worst_per_member(raw)} ({self._what()}; no placebo run)")
        worst_raw = ", ".join(f"{m} {v:.3f}" for m, v in raw.max().items())
        floors = ", ".join(f"{m} {v:.3f}" for m, v in self.placebo_floors().items())
        return (f"{condition}. worst excess over placebo per member{scope}: "
                f"{_worst_per_member(self.excess().loc[rows])} (raw worst resolution: "
                f"{worst_raw}; placebo floor: {floors}; {self._what()})")

    def caveats(self) -> tuple[str, ...]:
        """What the numbers rest on: the images, the members, the controls, the agreement."""
        if self.corpus is not None:
            data = (f"{len(self.images)} scenes generated by privlab "
                    f"({self.corpus.provenance.get('generator', 'seeded generator')}, "
                    f"seed {self.config.seed}), not real photos")
        else:
            data = (f"{len(self.images)} photos from the folder {self.config.folder} "
                    "(no ground truth: no 'cues:' controls, no leak table)")
        notes = [data, "members: " + ", ".join(self.config.encoders)
                 + " (offline stand-ins; the paper's CLIP members need a download)"]
        fid = self.conditions
        if fid is not None and fid.checks:
            notes.append("operational condition: " + ", ".join(fid.checks) + " checked on every "
                         "sanitized image whose original showed the concept; a sanitizer that "
                         "leaves it in any image fails, and its rows are conditional")
        notes += [f"operational condition: {n}" for n in self.fidelity_notes()]
        if self.has_placebo:
            audits = list(self.table)
            coverage = [a.placebo_coverage for a in audits if a.placebo_coverage is not None]
            avoided = "detected faces, OCR text" + (", gallery logos" if self.provenance.get(
                "logos") else "") + (", ground-truth cues" if self.corpus is not None else "")
            note = ("excess = max(0, resolution - placebo), where the placebo moves each "
                    f"sanitizer's marks (same kind and sizes) off {avoided} and its own regions")
            if coverage and min(coverage) < 0.999:
                note += (f"; where no cue-free room was left the placebo marked less (down "
                         f"to {min(coverage):.0%} of the area), so that floor is a lower estimate")
            notes.append(note)
        else:
            notes.append("no placebo run: raw resolutions include each member's reaction to "
                         "the marks themselves")
        if any(s.startswith(CUE_PREFIX) for s in self.config.sanitizers):
            notes.append("'cues:' sanitizers remove the generator's ground-truth regions "
                         "(controls with known leaks, not real tools)")
        if len(self.table) < MIN_RANK_SANITIZERS and len(self.encoders) > 1:
            notes.append(f"rank agreement between members rests on {len(self.table)} "
                         f"sanitizers (fewer than {MIN_RANK_SANITIZERS}): not to be read")
        return tuple(notes)

    def headline(self) -> Headline:
        """:meth:`summary` with its status and what it rests on."""
        return Headline(self.study, self.summary(), self.status, self.caveats())

    def reading(self) -> str:
        """What this run shows, in a few sentences (Markdown; differs for a folder)."""
        if self.folder_mode:
            return (f"**What a folder run shows.** {len(self.images)} photos from "
                    f"`{self.config.folder}`, every photo both audited and reference, under "
                    f"{len(self.encoders)} members and {len(self.table)} detector-based "
                    "sanitizers. A positive excess says that some released photo still points "
                    "toward what the sanitizer removed from another photo, beyond what the "
                    "same marks placed elsewhere do; the witness tables and galleries name "
                    "the two files. It does not say which cue is left: there is no ground "
                    "truth, so no 'cues:' controls and no leak table. A zero means nothing "
                    "was found by that member in these photos, not that they are private.")
        return (f"**What this run shows.** {len(self.images)} generated scenes with known "
                "cues: the 'cues:' rows miss chosen cue kinds on purpose, so each member's "
                "excess over its placebo can be checked against what is known to be left, and "
                "the leak table shows which member catches which cue.")

    def _repr_html_(self) -> str:
        body = self.members().to_html(float_format=lambda v: f"{v:.4f}")
        if self.has_placebo:
            body += "<p>excess over placebo</p>" + self.excess().to_html(
                float_format=lambda v: f"{v:.4f}")
        return (f"<div><b>{self.study}</b> ({self._what()}, {self.seconds:.0f} s; "
                f"{self.status})" + body + "</div>")


def resolve_gallery(gallery: Any, corpus: Any | None) -> dict:
    """The face gallery a run uses: a loaded folder, a dict, or the corpus's own faces."""
    if gallery is None:
        return dict(corpus.gallery) if corpus is not None else {}
    if isinstance(gallery, (str, Path)):
        return load_gallery(gallery)
    return dict(gallery)


def target_checks(gallery: Mapping[str, Sequence[Any]], logos: Mapping[str, Sequence[Any]],
                  corpus: Any | None, concept_cues: Sequence[str] = ()) -> tuple[list, list[str]]:
    """The concept checks of a run: the target's faces and name, the brands' logos and
    names, and on a generated corpus the ground-truth cues that carry the concept.

    The target is the generated corpus's (its gallery also holds a second person, who is
    not the target), else every name of the face gallery; brands are the logo gallery's
    names.
    """
    from privlab.vision.concepts import concept_checks

    faces = dict(gallery)
    names: list[str] = []
    if corpus is not None and corpus.target in faces:
        faces = {corpus.target: faces[corpus.target]}
    names += list(faces)
    names += [b for b in logos if b not in names]
    checks, notes = concept_checks(faces=faces or None, names=names, logos=logos or None)
    if corpus is not None and concept_cues:
        checks.append(CueCheck(corpus, concept_cues))
    if not checks:
        notes.append("no check: give a face gallery (gallery=) or a logo gallery (logos=) "
                     "naming the target")
    return checks, notes


def run_image_study(study: str, config: Any, *, corpus_factory, presets: Mapping[str, Sequence[str]],
                    default_logos=None, concept_cues: Sequence[str] = (),
                    fidelity: bool = True) -> ImageStudyResult:
    """Run an image study from its config (used by the DiCaprio and McDonald's modules).

    Each image is read once: the originals' OCR readings and faces are memoised by
    pixels, every sanitized and placebo output is read near its marks only
    (:func:`privlab.vision.ocr.read_rendering`), and sanitizers, placebos, members and
    the concept checks share those readings.

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
    corpus = None
    if config.folder:
        from privlab.datasets.images import load_folder

        folder = load_folder(config.folder, max_side=config.max_side, recursive=config.recursive)
        images, labels = folder.images, folder.names
    else:
        corpus = corpus_factory(config.n_images, config.seed)
        images = corpus.images
        labels = [f"{s.index}: {'+'.join(sorted(s.kinds()))}" for s in corpus.scenes]
    gallery = resolve_gallery(config.gallery, corpus)
    logos = resolve_logos(config.logos, corpus, default_logos)
    encoders = build_encoders(config.encoders, gallery, logos)
    sanitizers = build_sanitizers(config.sanitizers, presets, corpus, logos)
    readers = any(isinstance(e, DescribeThenEmbedEncoder) and e.use_ocr for e in encoders)
    twins: list = []
    twin = False
    if config.placebo:
        avoid: list = []
        if corpus is not None:
            from privlab.datasets.scene_cues import CueRegions

            avoid = [CueRegions(corpus, corpus.kinds)]
        if logos:
            avoid.append(_LogoBoxes(logos))

        def twin(sanitizer):
            made = ImagePlacebo(sanitizer, avoid=avoid, seed=config.placebo_seed,
                                read_renderings=readers)
            twins.append(made)
            return made
    checks, notes = (target_checks(gallery, logos, corpus, concept_cues) if fidelity
                     else ([], []))
    leak_stage = corpus is not None and config.leak_table
    stages = len(encoders) + len(sanitizers) + int(leak_stage) + int(bool(checks))
    for i, encoder in enumerate(encoders):  # the originals once per member (then cached)
        step(f"encoding the originals with {config.encoders[i]}", i, stages)
        encoder.encode(images)
    audits, outputs, placements = [], {}, {}
    for i, sanitizer in enumerate(sanitizers):
        step(f"sanitizing and auditing {config.sanitizers[i]}", len(encoders) + i, stages)
        sanitized = sanitizer.sanitize(images)
        if readers:  # each output read once, near its marks
            for x, out in zip(images, sanitized):
                read_rendering(x, out)
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
        conditions = check_fidelity(images, outputs, checks, notes)
    leaks = None
    if leak_stage:
        step("leak detection per cue", stages - 1, stages)
        leaks = leak_detection(corpus, encoders, delta=config.delta, top_k=config.top_k,
                               placebo=config.placebo, seed=config.placebo_seed)
    provenance = {"corpus": corpus.provenance if corpus is not None else {
        "folder": str(config.folder), "files": list(labels), "recursive": config.recursive,
        "max_side": config.max_side, "sha": corpus_hash(images)},
        "members": [e.describe() for e in encoders],
        "sanitizers": [s.describe() for s in sanitizers],
        "gallery": sorted(gallery), "logos": sorted(logos), "placebo": bool(config.placebo),
        "placebo_seed": config.placebo_seed,
        "checks": [c.describe() for c in checks]}
    step("audit done", stages, stages)
    return ImageStudyResult(study, config, images, labels, corpus, table, encoders, leaks,
                            time.perf_counter() - start, provenance, conditions=conditions,
                            placements=placements)


class _LogoBoxes:
    """The placebo's logo avoid entry: boxes of every gallery logo found in an image."""

    name = "logos"

    def __init__(self, logos: Mapping[str, Sequence[Any]]):
        self.logos = logos

    def __call__(self, rgb: np.ndarray) -> list:
        from privlab.vision.logos import match_logos

        return [m.box for m in match_logos(rgb, self.logos)]


__all__ = ["CORPUS_FIELDS", "CUE_PREFIX", "CueCheck", "Fidelity", "GROUND_TRUTH_REASON",
           "ImageStudyConfig", "ImageStudyResult", "LEAK_REASON", "LOGO_GALLERY_HOWTO",
           "LOGO_SANITIZERS", "MIN_RANK_SANITIZERS", "build_encoders", "build_sanitizers",
           "check_fidelity", "folder_reason", "load_gallery", "resolve_gallery",
           "resolve_logos", "run_image_study", "target_checks"]
