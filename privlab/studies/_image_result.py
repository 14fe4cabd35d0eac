"""What an image study computed (:class:`ImageStudyResult`), and what the notebooks render.

See ``docs/methods/studies-image.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.errors import invalid
from privlab.studies._image_conditions import ConditionsMixin, Fidelity
from privlab.studies._image_figures import image_study_figures
from privlab.studies._image_headline import image_headline
from privlab.studies._image_setup import CUE_PREFIX
from privlab.studies.contract import Headline, StudyResult

#: Why a folder run has no leak table.
LEAK_REASON = ("no leak table for a folder: it leaves one known cue kind in place at a time, "
               "and a folder of photos has no ground truth saying where each cue is")
#: Fewest sanitizers for which the members' rank agreement is read.
MIN_RANK_SANITIZERS = 4


def _worst_per_member(frame) -> str:
    """``"member value (sanitizer); ..."`` from a sanitizer x member table; the sanitizer is
    named where the worst value is above 0."""
    parts = []
    for member in frame.columns:
        value = frame[member].max()
        where = f" ({frame[member].idxmax()})" if value > 0 else ""
        parts.append(f"{member} {value:.3f}{where}")
    return "; ".join(parts)



@dataclass(frozen=True)
class ImageStudyResult(ConditionsMixin, StudyResult):
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
            over_placebo: also require the image's worst trial to exceed the member's
                placebo resolution (default: when a placebo ran).

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

    def _what(self) -> str:
        noun = "photos" if self.folder_mode else "images"
        return f"{len(self.images)} {noun}, {len(self.table)} sanitizers"

    def headline_sanitizers(self) -> tuple[list[str], str]:
        """The sanitizers the headline's worst values are taken over, and how to say so.

        ``cues:`` sanitizers are controls with leaks chosen on purpose: the worst value is
        taken from them only when no detector-based sanitizer ran, and then says so.
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

    def summary(self) -> str:
        """Each sanitizer's condition (:meth:`condition_summary`), then each member's worst
        excess over placebo (and raw resolution) over the sanitizers that met it
        (:meth:`headline_sanitizers`); with none meeting it, over all, marked conditional."""
        rows, scope = self.headline_sanitizers()
        condition = self.condition_summary(rows)
        fails = self.conditions_not_met()
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
            data = (f"{len(self.images)} photos from the folder {self.config.data} "
                    "(no ground truth: no 'cues:' controls, no leak table)")
            passed = [s for s in self.provenance.get("corpus", {}).get("skipped", ())
                      if not s.get("reason", "").startswith(("a hidden file", "the licence"))]
            if passed:
                data += (f"; {len(passed)} entries passed over (links, special files, frames "
                         "after the first ...; listed in provenance['corpus']['skipped'])")
        notes = [data, "members: " + ", ".join(self.config.encoders)
                 + " (offline stand-ins; the paper's CLIP members need a download)"]
        fid = self.conditions
        if fid is not None and fid.checks:
            notes.append("operational condition: " + ", ".join(fid.checks) + " checked on every "
                         "sanitized image whose original showed the concept; a sanitizer that "
                         "leaves it in any image fails, and its rows are conditional")
        if fid is not None and isinstance(self.provenance.get("logo_finder"), dict) and any(
                c.startswith("logo") for c in fid.checks):
            # The check and the sanitizer share the finder: its misses are nobody's finds.
            notes.append("logo check: it looks with the study's logo finder, the one "
                         "logo-blackout marks with (and with keypoint matching), so a copy of "
                         "the mark that finder does not see is neither removed nor flagged, and "
                         "an image where it finds nothing before is not checked; after a "
                         "blackout it can also flag images whose marks are all gone. So a logo "
                         "sanitizer that placed its marks with that finder is never reported as "
                         "meeting the condition, only as unverified (the fidelity table's "
                         "'independent' column), and for the others meeting it means the finder "
                         "sees no logo left: read result.fidelity_evidence(sanitizer) before "
                         "relying on it (benchmarks/logos.py measures both errors on real "
                         "photos; with the paper's restaurant gallery, logo-finder-5 also found "
                         "a logo in 27 of 242 photos without one, so describe-then-embed's brand "
                         "cue and the blackout can fire on a photo that shows no logo)")
        if fid is not None:
            # Shown, not counted: a shared detector's misses are nobody's finds.
            pairs = sorted({(c, s) for s in fid.shared for c in fid.shared[s]
                            if c not in fid.blind.get(s, ())})
            if pairs:
                notes.append("not independent: " + "; ".join(
                    f"{c} looks with a detector {s} removes by" for c, s in pairs)
                    + " (the fidelity table's 'independent' column): a copy of the concept "
                    "that detector missed is neither removed nor counted"
                    + ("; name_ocr='easyocr' reads names with a second, independent OCR"
                       if any(c.startswith("name · OCR") for c, _ in pairs) else ""))
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
        """:meth:`summary` as a headline (built by
        :func:`privlab.studies._image_headline.image_headline`)."""
        return image_headline(self, _worst_per_member)

    #: The figures the notebooks' prose quotes (:func:`image_study_figures`).
    quoted_figures = image_study_figures

    def reading(self) -> str:
        """What this run shows, in a few sentences (Markdown; differs for a folder)."""
        if self.folder_mode:
            return (f"**What a folder run shows.** {len(self.images)} photos from "
                    f"`{self.config.data}`, every photo both audited and reference, under "
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


__all__ = ["ImageStudyResult", "LEAK_REASON", "MIN_RANK_SANITIZERS"]
