"""Study 01 (paper §5.1, Table 1): personal privacy of a face, on generated scenes or photos.

Every sanitizer is audited with its placebo twin under an offline ensemble of members
(face identity, describe-then-embed, OCR, a generic CNN); :func:`run_ladder` and
:func:`run_detector_miss` run beside it on the same corpus. See
``docs/methods/studies-image.md``.

    from privlab.studies import dicaprio
    result = dicaprio.run(dicaprio.Config())
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar

import numpy as np

from privlab.datasets.scenes import CELEBRITY_KINDS, Scene, SceneCorpus, celebrity_scenes
from privlab.errors import invalid
from privlab.hashing import bytes_hash
from privlab.sanitizers.ladder import LADDER, LADDER_LABELS
from privlab.studies._images import (CORPUS_FIELDS, CUE_PREFIX, GROUND_TRUTH_REASON,
                                     ImageStudyConfig, ImageStudyResult, folder_reason,
                                     members_param, run_image_study, sanitizers_param)
from privlab.studies.contract import Headline, Status, StudyResult, registry
from privlab.studies.params import param

STUDY = "01 DiCaprio"
PRESETS = {
    "every cue": CELEBRITY_KINDS,
    "faces only": ("target_face", "other_face"),
    "second face left": ("target_face", "caption", "poster"),
}
DEFAULT_SANITIZERS = ("cues:every cue", "cues:faces only", "cues:second face left",
                      "face-blackout-yunet", "faces-and-text-blackout", "face-blur-yunet")
#: Defaults for a folder of photos: detector-based sanitizers only (no ground truth there).
FOLDER_SANITIZERS = ("face-blackout-yunet", "faces-and-text-blackout", "face-blur-yunet",
                     "text-blackout-ocr")
DEFAULT_ENCODERS = ("sface", "describe-then-embed", "ocr-text", "efficientnet-lite0")
#: The generated cues that carry the target's identity, checked against the ground truth
#: (the face is checked by SFace and dlib: its ground-truth box is the whole portrait,
#: of which a face blackout covers only the face).
CONCEPT_CUES = ("caption",)


@dataclass
class Config(ImageStudyConfig):
    """Settings of study 01 (fields: :class:`privlab.studies._images.ImageStudyConfig`).

    With a folder in ``data`` the sanitizers default to :data:`FOLDER_SANITIZERS`; ``cues:``
    presets are refused there, with the reason.

    Example:
        >>> Config.smoke().n_images, Config(data="photos").sanitizers[0]
        (4, 'face-blackout-yunet')
    """

    default_sanitizers: ClassVar[tuple[str, ...]] = DEFAULT_SANITIZERS
    folder_sanitizers: ClassVar[tuple[str, ...]] = FOLDER_SANITIZERS

    sanitizers: tuple[str, ...] | None = sanitizers_param(PRESETS)
    encoders: tuple[str, ...] = members_param(DEFAULT_ENCODERS)

    @classmethod
    def smoke_settings(cls) -> dict:
        """Tiny settings for tests and ``PRIVLAB_SMOKE=1``."""
        return dict(n_images=4, sanitizers=("cues:every cue", "cues:faces only",
                                            "cues:second face left", "face-blackout-yunet"))


@registry.member("dicaprio", number="01", title=STUDY, notebook="01_dicaprio")
def run(config: Config | None = None) -> ImageStudyResult:
    """Audit every sanitizer under every member on the celebrity corpus (or a folder).

    Args:
        config: settings (default :meth:`Config.for_notebook`).

    Returns:
        An :class:`privlab.studies._images.ImageStudyResult`.
    """
    config = config or Config.for_notebook()
    return run_image_study(STUDY, config, corpus_factory=celebrity_scenes, presets=PRESETS,
                           concept_cues=CONCEPT_CUES)




# ---------------------------------------------------------------------------------------
# The sanitization ladder
# ---------------------------------------------------------------------------------------
#: The ladder's members: both face-identity families, the two readers and the generic CNN.
LADDER_MEMBERS = ("sface", "dlib-face", "describe-then-embed", "ocr-text", "efficientnet-lite0")
#: A pixel at or below this level (every channel, 0-255) counts as blacked out.
BLACK_LEVEL = 8


@dataclass
class LadderConfig(ImageStudyConfig):
    """Settings of the ladder run (fields: :class:`privlab.studies._images.ImageStudyConfig`).

    The sanitizers are the rungs, in order (default :data:`privlab.sanitizers.ladder.LADDER`,
    on a folder too: every rung is detector-based); the leak table is off.

    Example:
        >>> LadderConfig.smoke().sanitizers[-1], LadderConfig.like(Config.smoke()).n_images
        ('full-blackout', 4)
    """

    default_sanitizers: ClassVar[tuple[str, ...]] = LADDER
    folder_sanitizers: ClassVar[tuple[str, ...]] = LADDER
    parent_fields: ClassVar[tuple[str, ...]] = CORPUS_FIELDS

    sanitizers: tuple[str, ...] | None = None   # the rungs: no control
    encoders: tuple[str, ...] = members_param(LADDER_MEMBERS)
    leak_table: bool = False


def cue_removal(corpus: SceneCorpus, sanitized: list, level: int = BLACK_LEVEL) -> dict[str, float]:
    """How much of each ground-truth cue kind a sanitizer blacked out.

    A pixel is removed when it was above ``level`` and is at or below it (every channel)
    after; shares are over each box's non-dark pixels (a ``target_face`` box is the whole
    portrait, so a face blackout removes only part of it).

    Args:
        corpus: the generated corpus (its scenes' boxes are the ground truth).
        sanitized: one sanitized image per scene.
        level: the black level (0-255).

    Returns:
        ``{cue kind: mean removed share over that kind's boxes}``, in ``corpus.kinds``
        order (NaN for a kind no scene has).

    Example:
        >>> corpus = celebrity_scenes(2)
        >>> out = cue_removal(corpus, [np.zeros_like(im) for im in corpus.images])
        >>> out["target_face"], out["caption"]
        (1.0, 1.0)
    """
    if len(sanitized) != len(corpus.scenes):
        raise invalid("sanitized", "cue_removal", f"one image per scene ({len(corpus.scenes)})",
                      f"{len(sanitized)} images", given_is_text=True)
    shares: dict[str, list[float]] = {kind: [] for kind in corpus.kinds}
    for scene, out in zip(corpus.scenes, sanitized):
        out = np.asarray(out)
        for cue in scene.cues:
            x0, y0, x1, y1 = cue.box
            lit = scene.image[y0:y1, x0:x1].max(axis=2) > level
            dark = out[y0:y1, x0:x1].max(axis=2) <= level
            if lit.any():
                shares[cue.kind].append(float((lit & dark).sum() / lit.sum()))
    return {kind: float(np.mean(v)) if v else math.nan for kind, v in shares.items()}


@dataclass(frozen=True)
class LadderResult(StudyResult):
    """The ladder's rungs, each audited under every member with its placebo.

    Attributes:
        run: the underlying :class:`privlab.studies._images.ImageStudyResult` (one
            sanitizer per rung, in ladder order).
        rungs: the rungs' registry names.
        labels: the rungs' short labels (:data:`privlab.sanitizers.ladder.LADDER_LABELS`).
    """

    run: ImageStudyResult = field(repr=False)
    rungs: tuple[str, ...]
    labels: tuple[str, ...]

    @property
    def config(self) -> LadderConfig:
        """The config that produced the result."""
        return self.run.config

    def derive_provenance(self) -> dict[str, Any]:
        """The run's provenance (corpus hash, members, sanitizers, placebo) and the rungs."""
        return {**self.run.provenance, "ladder": list(self.rungs)}

    @property
    def measure(self) -> str:
        """What the headline reads: ``"excess"`` over the placebo, else ``"resolution"``."""
        return "excess" if self.run.has_placebo else "resolution"

    def table(self, value: str = "resolution"):
        """Rung x member matrix of ``value`` (``"resolution"``, ``"placebo"``, ``"excess"``).

        Rows are the rungs' labels in ladder order; members are never averaged.
        """
        wide = self.run.members(value) if value != "excess" else self.run.excess()
        wide.index = list(self.labels)
        wide.index.name = "rung"
        return wide

    def to_frame(self):
        """One row per (rung, member): step, rung, sanitizer, member, resolution, placebo,
        excess, placebo coverage and the decisive witness's images."""
        frame = self.run.to_frame()
        step = {name: k for k, name in enumerate(dict.fromkeys(frame["sanitizer"]))}
        frame.insert(0, "step", [step[s] + 1 for s in frame["sanitizer"]])
        frame.insert(1, "rung", [self.labels[step[s]] for s in frame["sanitizer"]])
        # the member's id, not the label an audit row also carries as "member"
        frame = frame.drop(columns="member", errors="ignore").rename(columns={"encoder": "member"})
        cols = [c for c in ("step", "rung", "sanitizer", "member", "resolution", "placebo",
                            "excess", "placebo_coverage", "utility", "witness_x", "witness_y")
                if c in frame.columns]
        return frame[cols].reset_index(drop=True)

    def cues_removed(self):
        """Rung x cue kind: the mean share of each ground-truth cue's box blacked out
        (:func:`cue_removal`; 0 where a rung leaves a cue whole); None for a folder of
        photos (no ground truth)."""
        import pandas as pd

        if self.run.corpus is None:
            return None
        rows = [cue_removal(self.run.corpus, audit.sanitized) for audit in self.run.table]
        return pd.DataFrame(rows, index=pd.Index(list(self.labels), name="rung"))

    def non_increasing(self, value: str | None = None):
        """Per member: whether ``value`` (default :attr:`measure`) never rises from one rung
        to the next."""
        import pandas as pd

        wide = self.table(value or self.measure)
        return pd.Series((np.diff(wide.to_numpy(), axis=0) <= 0).all(axis=0), index=wide.columns)

    def first_zero(self, value: str | None = None):
        """Per member: the first rung from which ``value`` (default :attr:`measure`) stays 0
        (None if it never does)."""
        import pandas as pd

        wide = self.table(value or self.measure)
        out = {}
        for member in wide.columns:
            col = wide[member].to_numpy()
            zero = [k for k in range(len(col)) if not (col[k:] > 0).any()]
            out[member] = self.labels[zero[0]] if zero else None
        return pd.Series(out, dtype=object)

    @property
    def control_passed(self) -> bool | None:
        """Whether the full-image rung reads 0 under every member (None without that rung)."""
        if "full-blackout" not in self.rungs:
            return None
        return bool((self.table().iloc[self.rungs.index("full-blackout")] == 0).all())

    def summary(self) -> str:
        """Each member's value rung by rung (excess with a placebo), and the control."""
        value = self.measure
        wide = self.table(value)
        steps = "; ".join(f"{m} " + " → ".join(f"{v:.3f}" for v in wide[m]) for m in wide.columns)
        text = (f"{'excess over placebo' if value == 'excess' else 'resolution'} along the "
                f"ladder ({' → '.join(self.labels)}): {steps}")
        if self.control_passed is not None:
            text += ("; full image: resolution 0 under every member" if self.control_passed
                     else "; full image: a member reads above 0 (the control failed)")
        return text + f" ({self.run._what()})"

    def caveats(self) -> tuple[str, ...]:
        """The run's caveats, and what the full-image rung is."""
        notes = list(self.run.caveats())
        if "full-blackout" in self.rungs:
            notes.append("the full-image rung is a control: every released image is black, so "
                         "no member can find anything of the original and every one must read 0")
        notes.append("a rung reading 0 under every member leaves nothing these members read; "
                     "cues they cannot read (clothing, context) may remain")
        return tuple(notes)

    def headline_parts(self) -> tuple[str, tuple[str, ...]]:
        """The first line (the worst value, the rung from which every member reads 0, the
        full-image control) and each member's values rung by rung beneath it."""
        value = self.measure
        word = "excess over placebo" if value == "excess" else "resolution"
        wide = self.table(value)
        peaks = [float(wide.iloc[i].max()) for i in range(len(wide))]
        if max(peaks) > 0:
            at = peaks.index(max(peaks))
            first = (f"worst {word} {max(peaks):.3f} at {self.labels[at]} "
                     f"({wide.iloc[at].idxmax()})")
            zero = next((k for k in range(len(peaks)) if not any(peaks[k:])), None)
            first += (f", 0 from {self.labels[zero]} on" if zero is not None
                      else ", above 0 up to the last rung")
        else:
            first = f"{word} 0 at every rung under every member"
        if self.control_passed is not None:
            first += ("; full-image control reads 0" if self.control_passed
                      else "; full-image control FAILS (a member reads above 0)")
        details = [f"rungs: {' → '.join(self.labels)}"]
        details += [f"{m}: " + " → ".join(f"{v:.3f}" for v in wide[m]) for m in wide.columns]
        return first, tuple(details + [self.run._what()])

    def headline(self) -> Headline:
        """:meth:`headline_parts` with its status and what it rests on."""
        first, details = self.headline_parts()
        status, note = Status.split(self.run.status) or (Status.DESCRIPTIVE, self.run.status)
        return Headline(f"{self.run.study} · ladder", first, status, self.caveats(),
                        details=details, status_note=note)

    def quoted_figures(self) -> dict[str, str]:
        """The figures the notebook's prose quotes (see ``privlab quote``), all named
        ``ladder.*``: per rung ``r`` (its label, e.g. ``face-text``) and member ``m``:
        ``ladder.r.m.resolution``, ``.placebo`` and ``.excess``; per rung
        ``ladder.r.placebo_coverage`` (the share of the rung's marked area its placebo
        could mark) and ``ladder.r.removed.k`` (the mean share of cue kind ``k``'s boxes
        blacked out, :meth:`cues_removed`; generated scenes only)."""
        from privlab.studies._image_figures import audit_figures, figure_key

        rungs = [figure_key(label) for label in self.labels]
        out = audit_figures(self.run, rungs, prefix="ladder.")
        for rung, audit in zip(rungs, self.run.table):
            if audit.placebo_coverage is not None:
                out[f"ladder.{rung}.placebo_coverage"] = f"{audit.placebo_coverage:.0%}"
        removed = self.cues_removed()
        if removed is not None:
            for rung, (_, row) in zip(rungs, removed.iterrows()):
                for kind, share in row.items():
                    if not math.isnan(share):
                        out[f"ladder.{rung}.removed.{kind}"] = f"{share:.0%}"
        return out

    def _repr_html_(self) -> str:
        return (f"<div><b>{self.run.study} · ladder</b> ({self.run._what()}; {self.measure})"
                + self.table(self.measure).to_html(float_format=lambda v: f"{v:.4f}") + "</div>")


def run_ladder(config: LadderConfig | None = None) -> LadderResult:
    """Audit the ladder's rungs under every member, each with its placebo.

    Args:
        config: settings (default :meth:`LadderConfig.for_notebook`).

    Returns:
        A :class:`LadderResult`.

    Raises:
        MissingDependencyError: a rung's detector is not installed (the whole-person
            rung needs MediaPipe; the message gives the install command).
    """
    config = config or LadderConfig.for_notebook()
    if not isinstance(config, LadderConfig):
        raise invalid("config", "run_ladder", "a LadderConfig (LadderConfig.like(config) "
                      "takes a study config's corpus)", type(config).__name__,
                      given_is_text=True)
    result = run_image_study(STUDY, config, corpus_factory=celebrity_scenes, presets=PRESETS)
    labels = tuple(LADDER_LABELS.get(name, name) for name in config.sanitizers)
    return LadderResult(result, tuple(config.sanitizers), labels)


# ---------------------------------------------------------------------------------------
# A face one detector misses, and the members that see it
# ---------------------------------------------------------------------------------------
#: The Haar blackout (misses tilted heads) and the YuNet blackout (SFace's own detector).
MISS_SANITIZERS = ("face-blackout-haar", "face-blackout-yunet")
#: Face identity from two detector families: YuNet + SFace, dlib HOG + ResNet.
MISS_MEMBERS = ("sface", "dlib-face")
#: Degrees by which :func:`tilt_faces` turns every other target portrait (Haar's cascade
#: stops at about 20, dlib's HOG at about 40, YuNet still scores 0.9).
DEFAULT_TILT = 30.0


def tilt_faces(corpus: SceneCorpus, angle: float = DEFAULT_TILT, *, every: int = 2
               ) -> SceneCorpus:
    """The corpus with the target's portrait turned by ``angle`` in every other scene.

    The portrait turns inside its own box (corners filled by reflection), so the cue
    boxes stay true; a head tilted so is what a frontal-face cascade misses.

    Args:
        corpus: a celebrity corpus (:func:`privlab.datasets.scenes.celebrity_scenes`).
        angle: degrees, counter-clockwise, in ``(-90, 90)``.
        every: turn one scene in this many (those whose index is 1 modulo ``every``).

    Returns:
        A new :class:`privlab.datasets.scenes.SceneCorpus` (provenance: the tilt, the
        turned scenes, the pixels' hash).

    Raises:
        ValueError: an angle outside ``(-90, 90)``, ``every`` not a positive int, or a
            corpus without ``target_face`` cues.

    Example:
        >>> upright = celebrity_scenes(2)
        >>> tilted = tilt_faces(upright, 30)
        >>> tilted.provenance["tilted"], [bool((a == b).all()) for a, b in
        ...                               zip(tilted.images, upright.images)]
        ([1], [True, False])
    """
    import cv2

    caller = "tilt_faces"
    if isinstance(angle, bool) or not isinstance(angle, (int, float)) or not -90 < angle < 90:
        raise invalid("angle", caller, "a number of degrees in (-90, 90)", angle)
    if isinstance(every, bool) or not isinstance(every, (int, np.integer)) or every < 1:
        raise invalid("every", caller, "a positive int", every)
    if "target_face" not in corpus.kinds:
        raise invalid("corpus", caller, "a corpus with 'target_face' cues", corpus.name)
    scenes, turned = [], []
    for scene in corpus.scenes:
        image = scene.image
        boxes = scene.boxes(["target_face"])
        if scene.index % every == 1 % every and boxes and angle:
            x0, y0, x1, y1 = boxes[0]
            patch = image[y0:y1, x0:x1]
            matrix = cv2.getRotationMatrix2D(((x1 - x0) / 2, (y1 - y0) / 2), float(angle), 1.0)
            image = image.copy()
            image[y0:y1, x0:x1] = cv2.warpAffine(patch, matrix, (x1 - x0, y1 - y0),
                                                 flags=cv2.INTER_LINEAR,
                                                 borderMode=cv2.BORDER_REFLECT)
            turned.append(scene.index)
        scenes.append(Scene(image, list(scene.cues), scene.index,
                            "tilted portrait" if scene.index in turned else scene.layout))
    pixels = bytes_hash(b"".join(s.image.tobytes() for s in scenes), 16)
    provenance = {**corpus.provenance, "generator": f"{corpus.provenance.get('generator')}"
                  f" + tilt {angle:g}°", "tilt": float(angle), "every": int(every),
                  "tilted": turned, "pixels_sha256": pixels}
    return SceneCorpus(corpus.name, corpus.target, scenes, corpus.kinds, dict(corpus.gallery),
                       provenance)


@dataclass
class MissConfig(ImageStudyConfig):
    """Settings of the detector-miss run (fields: :class:`ImageStudyConfig`, and ``tilt``).

    Attributes:
        tilt: degrees by which every other target portrait is turned (:func:`tilt_faces`;
            0 leaves the scenes upright, ignored with a folder in ``data``).

    Example:
        >>> MissConfig.smoke().sanitizers, MissConfig().encoders
        (('face-blackout-haar', 'face-blackout-yunet'), ('sface', 'dlib-face'))
    """

    default_sanitizers: ClassVar[tuple[str, ...]] = MISS_SANITIZERS
    folder_sanitizers: ClassVar[tuple[str, ...]] = MISS_SANITIZERS
    parent_fields: ClassVar[tuple[str, ...]] = CORPUS_FIELDS

    sanitizers: tuple[str, ...] | None = None   # both blackouts: no control
    encoders: tuple[str, ...] = MISS_MEMBERS
    leak_table: bool = False
    tilt: float = param(DEFAULT_TILT, label="Tilt (degrees)", slider=(0.0, 60.0), step=5.0)

    def __post_init__(self) -> None:
        super().__post_init__()
        if (isinstance(self.tilt, bool) or not isinstance(self.tilt, (int, float))
                or not -90 < self.tilt < 90):
            raise invalid("tilt", "MissConfig", "a number of degrees in (-90, 90)", self.tilt)


def detector_family(description: dict[str, Any]) -> str:
    """The detector family a sanitizer or member describes (``"yunet"``, ``"haar"``, ``"dlib"``).

    Example:
        >>> detector_family({"detectors": [{"detector": "haar-1.1-5"}]})
        'haar'
        >>> detector_family({"detector": "dlib HOG"}), detector_family({"name": "ocr"})
        ('dlib', '')
    """
    names = [d.get("detector", "") for d in description.get("detectors", [])]
    names += [description.get("detector", "")]
    families = sorted({str(n).lower().replace("-", " ").split()[0] for n in names if n})
    return "+".join(families)


@dataclass(frozen=True)
class MissResult(StudyResult):
    """Face blackouts audited by face-identity members of the same and of other families.

    Attributes:
        run: the underlying :class:`privlab.studies._images.ImageStudyResult`.
        families: ``{sanitizer or member name: detector family}``.
        faces_left: ``{(sanitizer, member): faces the member counts in each released image}``.
    """

    run: ImageStudyResult = field(repr=False)
    families: dict[str, str]
    faces_left: dict[tuple[str, str], list[int]] = field(repr=False)

    @property
    def config(self) -> MissConfig:
        """The config that produced the result."""
        return self.run.config

    def derive_provenance(self) -> dict[str, Any]:
        """The run's provenance and the detector families."""
        return {**self.run.provenance, "detector_families": dict(self.families)}

    def shares_detector(self, sanitizer: str, member: str) -> bool:
        """Whether ``member`` detects faces with (one of) ``sanitizer``'s detectors."""
        own = set(self.families.get(sanitizer, "").split("+")) - {""}
        return bool(own & set(self.families.get(member, "").split("+")))

    def left(self):
        """Per image (rows by label): faces each member counts in each released image."""
        import pandas as pd

        return pd.DataFrame({f"{s} | {m}": v for (s, m), v in self.faces_left.items()},
                            index=self.run.labels)

    def to_frame(self):
        """One row per (sanitizer, member): detectors, whether they are shared, resolution,
        placebo, excess, whether it flags (excess above δ, or above 0), the decisive
        witness's images, the faces the member counts in that released image and the
        number of released images in which it counts a face."""
        frame = self.run.to_frame().drop(columns="member", errors="ignore").rename(
            columns={"encoder": "member"})
        delta = self.config.delta
        value = frame["excess"] if "excess" in frame.columns else frame["resolution"]
        frame["sanitizer detector"] = [self.families[s] for s in frame["sanitizer"]]
        frame["member detector"] = [self.families[m] for m in frame["member"]]
        frame["shares detector"] = [self.shares_detector(s, m)
                                    for s, m in zip(frame["sanitizer"], frame["member"])]
        frame["flags"] = (value >= delta) & (value > 0) if delta > 0 else value > 0
        index = {label: k for k, label in enumerate(self.run.labels)}
        frame["faces in witness x"] = [self.faces_left[(s, m)][index[x]] for s, m, x in
                                       zip(frame["sanitizer"], frame["member"], frame["witness_x"])]
        frame["images with a face left"] = [sum(c > 0 for c in self.faces_left[(s, m)])
                                            for s, m in zip(frame["sanitizer"], frame["member"])]
        cols = ["sanitizer", "member", "sanitizer detector", "member detector",
                "shares detector", "resolution", "placebo", "excess", "flags", "witness_x",
                "witness_y", "faces in witness x", "images with a face left"]
        return frame[[c for c in cols if c in frame.columns]]

    def _audit_name(self, sanitizer: str) -> str:
        """A sanitizer's display name, from it or from its registry name."""
        names = [audit.name for audit in self.run.table]
        if sanitizer in self.config.sanitizers:
            return names[self.config.sanitizers.index(sanitizer)]
        if sanitizer not in names:
            raise invalid("sanitizer", "MissResult", f"one of {list(self.config.sanitizers)} "
                          f"or {names}", sanitizer)
        return sanitizer

    def witness(self, sanitizer: str, member: str):
        """The decisive :class:`privlab.contrastive.Witness` of ``member`` on ``sanitizer``
        (registry or display names)."""
        return self.run.table[self._audit_name(sanitizer)].member(self.run._long(member)).witness

    def witness_title(self, sanitizer: str, member: str) -> str:
        """A gallery title naming both images, δ*, the placebo and the excess."""
        return self.run.witness_title(self._audit_name(sanitizer), member)

    def summary(self) -> str:
        """Per sanitizer: images with a face left, and each member's excess (or resolution)."""
        frame = self.to_frame()
        value = "excess" if "excess" in frame.columns else "resolution"
        parts = []
        for sanitizer, rows in frame.groupby("sanitizer", sort=False):
            left = max(rows["images with a face left"])
            members = ", ".join(f"{row['member']} {row[value]:.3f}"
                                + (" (same detector)" if row["shares detector"] else "")
                                for _, row in rows.iterrows())
            parts.append(f"{sanitizer} left a face in {left} of {len(self.run.images)} "
                         f"images: {value} {members}")
        return "; ".join(parts)

    def headline(self) -> Headline:
        """:meth:`summary` with its status and what it rests on."""
        notes = [c for c in self.run.caveats() if not c.startswith("rank agreement")]
        if self.run.corpus is not None and self.run.corpus.provenance.get("tilt"):
            tilt = self.run.corpus.provenance
            turned = tilt["tilted"]
            shown = ", ".join(map(str, turned[:3])) + (", ..." if len(turned) > 3 else "")
            notes.append(f"the target's portrait is turned {tilt['tilt']:g}° in {len(turned)} "
                         f"of {len(self.run.images)} scenes ({shown}; tilt_faces), upright in "
                         "the others")
        notes.append("a face left is one the member's own detector counts in the released "
                     "image; a member that shares the blackout's detector cannot count a "
                     "face that detector missed")
        frame = self.to_frame()
        value = "excess" if "excess" in frame.columns else "resolution"
        first = "; ".join(
            f"{sanitizer}: face left in {max(rows['images with a face left'])}/"
            f"{len(self.run.images)} images, worst {value} {rows[value].max():.3f}"
            for sanitizer, rows in frame.groupby("sanitizer", sort=False))
        status, note = Status.split(self.run.status) or (Status.DESCRIPTIVE, self.run.status)
        return Headline(f"{self.run.study} · detector miss", first, status, tuple(notes),
                        details=tuple(self.summary().split("; ")), status_note=note)

    def quoted_figures(self) -> dict[str, str]:
        """The figures the notebook's prose quotes (see ``privlab quote``), all named
        ``miss.*``: ``miss.images``; on generated scenes ``miss.tilted`` (scenes whose
        portrait is turned) and ``miss.tilt`` (degrees); per sanitizer ``s`` (registry
        name, e.g. ``face-blackout-haar``) and member ``m``: ``miss.s.m.resolution``,
        ``.placebo``, ``.excess`` and ``miss.s.m.left`` (released images in which the
        member counts a face)."""
        from privlab.studies._image_figures import audit_figures, figure_key

        out = {"miss.images": f"{len(self.run.images):,}"}
        corpus = self.run.corpus
        if corpus is not None and "tilt" in corpus.provenance:
            out["miss.tilted"] = f"{len(corpus.provenance['tilted']):,}"
            out["miss.tilt"] = f"{corpus.provenance['tilt']:g}"
        keys = [figure_key(s) for s in self.config.sanitizers]
        out.update(audit_figures(self.run, keys, prefix="miss."))
        names = {audit.name: key for audit, key in zip(self.run.table, keys)}
        for (sanitizer, member), counts in self.faces_left.items():
            out[f"miss.{names[sanitizer]}.{member}.left"] = f"{sum(c > 0 for c in counts):,}"
        return out

    def _repr_html_(self) -> str:
        return (f"<div><b>{self.run.study} · detector miss</b> ({self.run._what()})"
                + self.to_frame().to_html(float_format=lambda v: f"{v:.4f}") + "</div>")


def run_detector_miss(config: MissConfig | None = None) -> MissResult:
    """Audit face blackouts of two detector families under face members of two families.

    On the generated corpus every other target portrait is tilted (:func:`tilt_faces`),
    which the Haar cascade misses and YuNet and dlib still find.

    Args:
        config: settings (default :meth:`MissConfig.for_notebook`).

    Returns:
        A :class:`MissResult`.

    Raises:
        MissingDependencyError: dlib is not installed (the message gives the command).
    """
    config = config or MissConfig.for_notebook()
    if not isinstance(config, MissConfig):
        raise invalid("config", "run_detector_miss", "a MissConfig (MissConfig.like(config) "
                      "takes a study config's corpus)", type(config).__name__,
                      given_is_text=True)
    factory = partial(_tilted_scenes, angle=config.tilt)
    result = run_image_study(STUDY, config, corpus_factory=factory, presets=PRESETS)
    families: dict[str, str] = {}
    for audit, description in zip(result.table, result.provenance["sanitizers"]):
        families[audit.name] = detector_family(description)
    for encoder, label in zip(result.encoders, config.encoders):
        families[label] = detector_family(encoder.describe())
    faces_left = {}
    for audit in result.table:
        for encoder, label in zip(result.encoders, config.encoders):
            count = getattr(encoder, "faces", None)
            faces_left[(audit.name, label)] = [len(count(im)) if count else -1
                                               for im in audit.sanitized]
    return MissResult(result, families, faces_left)


def _tilted_scenes(n: int, seed: int, *, angle: float) -> SceneCorpus:
    return tilt_faces(celebrity_scenes(n, seed), angle)


#: The runs beside the study, on its corpus: ``{name: (run, Config, headline title)}``
#: (:func:`privlab.studies.sub_studies` lists them as ``"dicaprio.<name>"``).
SUB_STUDIES = {"ladder": (run_ladder, LadderConfig, f"{STUDY} · ladder"),
               "detector_miss": (run_detector_miss, MissConfig, f"{STUDY} · detector miss")}

__all__ = ["BLACK_LEVEL", "CONCEPT_CUES", "CUE_PREFIX", "DEFAULT_ENCODERS", "DEFAULT_SANITIZERS",
           "DEFAULT_TILT", "FOLDER_SANITIZERS", "GROUND_TRUTH_REASON", "LADDER_MEMBERS",
           "MISS_MEMBERS", "MISS_SANITIZERS", "PRESETS", "STUDY", "SUB_STUDIES", "Config",
           "LadderConfig", "LadderResult", "MissConfig", "MissResult", "cue_removal",
           "detector_family", "folder_reason", "run", "run_detector_miss", "run_ladder",
           "tilt_faces"]
