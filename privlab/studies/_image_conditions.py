"""The paper's operational conditions in the image studies: is the concept still there?

Concept checks run on every original and on every sanitizer's output where they found the
concept (:func:`check_fidelity`); :class:`ConditionsMixin` builds the tables and words on
them. See ``docs/methods/studies-image.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from privlab.errors import invalid
from privlab.progress import substep


def _short_check(name: str) -> str:
    """A check's short label in the headline: ``"face (SFace)"``, ``"name (OCR)"`` ...

    Example:
        >>> _short_check("face · dlib distance ≤ 0.6"), _short_check("name · OCR reads X")
        ('face (dlib)', 'name (OCR)')
    """
    kind, _, rest = name.partition(" · ")
    how = {"face": rest.split()[0] if rest else "", "name": "OCR", "cue": "ground truth"}
    return f"{kind} ({how[kind]})" if how.get(kind) else kind



@dataclass
class Fidelity:
    """The operational-condition checks of a run (:mod:`privlab.vision.concepts`).

    Attributes:
        checks: the checks' names, in order.
        notes: why a check could not run (empty when all ran), or why none did.
        before: ``{check: evidence per original}`` (an empty tuple: not found).
        after: ``{sanitizer: {check: evidence per sanitized image}}``, None where the
            concept was not found in the original (a sanitizer does not add it).
        shared: ``{sanitizer: checks that look with a detector the sanitizer removes
            by}`` (e.g. the name check's OCR and a text blackout): a copy that detector
            misses is neither removed nor flagged.
        blind: ``{sanitizer: checks whose silence after it is no evidence}`` (on photos,
            the logo check and logo-blackout share the fitted finder): the sanitizer is
            then unverified, never meeting the condition.
    """

    checks: list[str]
    notes: list[str]
    before: dict[str, list[tuple[str, ...]]] = field(repr=False)
    after: dict[str, dict[str, list[tuple[str, ...] | None]]] = field(repr=False)
    shared: dict[str, tuple[str, ...]] = field(default_factory=dict)
    blind: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def dependent(self, sanitizer: str) -> tuple[str, ...]:
        """The checks that look with a detector ``sanitizer`` removes by."""
        return tuple(c for c in self.checks if c in self.shared.get(sanitizer, ())
                     or c in self.blind.get(sanitizer, ()))

    def unverifiable(self, sanitizer: str) -> tuple[str, ...]:
        """The checks whose silence after ``sanitizer`` is no evidence (:attr:`blind`)."""
        return tuple(c for c in self.checks if c in self.blind.get(sanitizer, ()))

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
                   checks: Sequence[Any], notes: Sequence[str] = (),
                   shared: Mapping[str, Sequence[str]] | None = None,
                   blind: Mapping[str, Sequence[str]] | None = None) -> Fidelity:
    """Run the concept checks on the originals and on every sanitizer's outputs.

    A sanitized image is checked only where its original held the concept (a sanitizer
    removes, it does not add).

    Args:
        images: the originals.
        sanitized: ``{sanitizer name: outputs, one per original}``.
        checks: :class:`privlab.vision.concepts.ConceptCheck` objects.
        notes: carried into :attr:`Fidelity.notes`.
        shared: :attr:`Fidelity.shared`, by sanitizer name.
        blind: :attr:`Fidelity.blind`, by sanitizer name.

    Returns:
        A :class:`Fidelity`.
    """
    for name, outputs in sanitized.items():
        if len(outputs) != len(images):
            raise invalid("sanitized", "check_fidelity", f"one output per image ({len(images)})",
                          f"{len(outputs)} for {name!r}", given_is_text=True)
    # Each image checked (an original, then each sanitizer's outputs) is one unit of
    # progress within the caller's step.
    total, done = len(images) * (1 + len(sanitized)), 0
    before: dict = {c.name: [] for c in checks}
    for im in images:
        substep("images checked", done, total)
        for c in checks:
            before[c.name].append(c.find(im))
        done += 1
    after = {}
    for name, outputs in sanitized.items():
        after[name] = {c.name: [] for c in checks}
        for i, out in enumerate(outputs):
            substep("images checked", done, total)
            for c in checks:
                after[name][c.name].append(
                    None if not before[c.name][i] else
                    (c.find_pair(images[i], out) if getattr(c, "paired", False) else c.find(out)))
            done += 1
    substep("images checked", total, total)
    known = {c.name for c in checks}
    for label, given in (("shared", shared), ("blind", blind)):
        for name, names in (given or {}).items():
            if name not in sanitized or any(c not in known for c in names):
                raise invalid(label, "check_fidelity", "sanitizer names mapped to names of "
                              f"the checks run ({sorted(known)})", {name: list(names)})
    return Fidelity([c.name for c in checks], list(notes), before, after,
                    {k: tuple(v) for k, v in (shared or {}).items()},
                    {k: tuple(v) for k, v in (blind or {}).items()})


# The checks of one gallery, kept per process: a study and its sub-studies (or a panel
# run again) reuse its enrolment and its findings (each check memoises by pixels).
_CHECKS_MEMO: dict[tuple, tuple[list, list[str]]] = {}
_CHECKS_LIMIT = 8


def _concept_checks(faces: Mapping[str, Sequence[Any]], names: list[str],
                    logos: Mapping[str, Sequence[Any]], logo_finder: Any,
                    name_ocr: str) -> tuple[list, list[str]]:
    from privlab.hashing import content_hash
    from privlab.vision.concepts import concept_checks
    from privlab.vision.images import as_rgb

    def hashed(gallery):
        return tuple((who, tuple(content_hash(as_rgb(im, "gallery", "target_checks"))
                                 for im in gallery[who])) for who in gallery)

    try:
        key = None if logo_finder is not None else (
            hashed(faces), tuple(names), hashed(logos), name_ocr)
    except Exception:  # noqa: BLE001 (a bad gallery: concept_checks refuses it, saying why)
        key = None
    if key is None or key not in _CHECKS_MEMO:
        made = concept_checks(faces=faces or None, names=names, logos=logos or None,
                              logo_finder=logo_finder, name_engine=name_ocr)
        if key is None:
            return made
        if len(_CHECKS_MEMO) >= _CHECKS_LIMIT:
            _CHECKS_MEMO.pop(next(iter(_CHECKS_MEMO)))
        _CHECKS_MEMO[key] = made
    checks, notes = _CHECKS_MEMO[key]
    return list(checks), list(notes)


def target_checks(gallery: Mapping[str, Sequence[Any]], logos: Mapping[str, Sequence[Any]],
                  corpus: Any | None, concept_cues: Sequence[str] = (),
                  logo_finder: Any = None, name_ocr: str = "rapidocr") -> tuple[list, list[str]]:
    """The concept checks of a run: the target's faces and name, the brands' logos and
    names, and on a generated corpus the ground-truth cues that carry the concept.

    The target is the generated corpus's (its gallery also holds a second person, who is
    not the target), else every name of the face gallery; brands are the logo gallery's
    names; ``name_ocr`` is the name check's OCR engine.
    """
    faces = dict(gallery)
    names: list[str] = []
    if corpus is not None and corpus.target in faces:
        faces = {corpus.target: faces[corpus.target]}
    names += list(faces)
    names += [b for b in logos if b not in names]
    checks, notes = _concept_checks(faces, names, logos, logo_finder, name_ocr)
    if corpus is not None and concept_cues:
        checks.append(CueCheck(corpus, concept_cues))
    if not checks:
        notes.append("no check: give a face gallery (gallery=) or a logo gallery (logos=) "
                     "naming the target")
    return checks, notes


class _LogoBoxes:
    """The placebo's logo avoid entry: boxes of every gallery logo found in an image by
    keypoint matching and, where the study has a logo finder, every window it would mark
    were the brand found (:meth:`~privlab.vision.logo_finder.LogoFinder.find_possible`:
    a copy of the mark too weak to decide the photo is still kept out of the floor)."""

    name = "logos"

    def __init__(self, logos: Mapping[str, Sequence[Any]], finder: Any = None):
        self.logos, self.finder = logos, finder

    def __call__(self, rgb: np.ndarray) -> list:
        from privlab.vision.logos import match_logos

        found = match_logos(rgb, self.logos)
        if self.finder is not None:
            found += self.finder.find_possible(rgb)
        return [m.box for m in found]


class ConditionsMixin:
    """The operational-condition tables of an image study's result (needs ``conditions``,
    ``placements``, ``table``, ``labels``, ``images``, ``encoders``)."""

    def fidelity(self):
        """Per sanitizer and check: is the concept still there after sanitization?

        Returns:
            DataFrame with ``sanitizer, check, present before`` (originals where the
            check finds the concept), ``still present`` (of those, sanitized images where
            it still does), ``images`` (their labels) and ``independent`` (False where
            the check shares the sanitizer's detector, :attr:`Fidelity.shared`); empty
            when no check ran (:meth:`fidelity_notes` says why).
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
                                 "images": ", ".join(self.labels[i] for i in left),
                                 "independent": check not in fid.dependent(audit.name)})
        return pd.DataFrame(rows, columns=["sanitizer", "check", "present before",
                                           "still present", "images", "independent"])

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
        if sanitizer not in fid.after:
            raise invalid("sanitizer", "fidelity_evidence",
                          f"one of this run's sanitizers {list(fid.after)}", sanitizer)
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

    def condition_unverified(self) -> dict[str, str]:
        """``{sanitizer: why}`` for the sanitizers after which no check found the concept
        but some check's silence is no evidence (:attr:`Fidelity.blind`)."""
        fid = self.conditions
        if fid is None:
            return {}
        fails = self.condition_failures()
        out = {}
        for audit in self.table:
            silent = fid.unverifiable(audit.name)
            if silent and audit.name not in fails:
                checks = " and ".join(_short_check(c) for c in silent)
                verb = "checks look" if len(silent) > 1 else "check looks"
                out[audit.name] = (f"the {checks} {verb} with the detector this sanitizer "
                                   "removes by, so a "
                                   "copy that detector misses is neither removed nor flagged")
        return out

    def conditions_not_met(self) -> set[str]:
        """The sanitizers that failed the condition or could not be verified to meet it."""
        return set(self.condition_failures()) | set(self.condition_unverified())

    def condition(self, sanitizer: str) -> str:
        """``"met"``, ``"failed: concept left in k of n"``, ``"unverified: <why>"`` or
        ``"not checked"``.

        Raises:
            ValueError: ``sanitizer`` is not one of this run's sanitizers (named with them).
        """
        names = [audit.name for audit in self.table]
        if sanitizer not in names:
            raise invalid("sanitizer", "condition", f"one of this run's sanitizers {names}",
                          sanitizer)
        if self.conditions is None or not self.conditions.checks:
            return "not checked"
        left = self.conditions.left(sanitizer)
        if left:
            return f"failed: concept left in {len(left)} of {len(self.images)}"
        why = self.condition_unverified().get(sanitizer)
        return f"unverified: {why}" if why else "met"

    def marked(self, frame):
        """``frame`` (indexed by sanitizer) with each failing or unverified sanitizer's row
        marked conditional: ``"face-blur-yunet (conditional: concept left in 10)"``,
        ``"logo-blackout (conditional: removal unverified)"``."""
        fails, unverified = self.condition_failures(), self.condition_unverified()
        out = frame.copy()
        out.index = [f"{s} (conditional: concept left in {fails[s]})" if s in fails else
                     f"{s} (conditional: removal unverified)" if s in unverified else s
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

    def condition_summary(self, rows: Sequence[str] | None = None) -> str:
        """The operational condition in words, over ``rows`` (default the headline's
        sanitizers): which sanitizers fail it, in how many images, by which check."""
        rows = list(rows if rows is not None else self.headline_sanitizers()[0])
        fid = self.conditions
        if fid is None or not fid.checks:
            why = "; ".join(self.fidelity_notes()) or "no check"
            return f"operational condition not checked ({why})"
        noun = "photos" if self.folder_mode else "images"
        fails, unverified = self.condition_failures(), self.condition_unverified()
        parts = []
        for name in rows:
            if name in unverified:
                parts.append(f"{name} UNVERIFIED (no check found the concept after it, but "
                             f"{unverified[name]})")
            if name not in fails:
                continue
            by = ", ".join(f"{_short_check(check)} {sum(bool(e) for e in fid.after[name][check])}"
                           for check in fid.checks if any(fid.after[name][check]))
            parts.append(f"{name} FAILS (concept still found in {fails[name]} of "
                         f"{len(self.images)} {noun}: {by})")
        met = [n for n in rows if n not in fails and n not in unverified]
        text = "operational condition: " + ("; ".join(parts) if parts else "")
        if met:
            text += ("; " if parts else "") + f"met by {', '.join(met)}"
        return text


__all__ = ["ConditionsMixin", "CueCheck", "Fidelity", "check_fidelity", "target_checks"]
