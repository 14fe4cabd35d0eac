"""Shared orchestration of the image studies (01 DiCaprio, 02 McDonald's).

A study is: a corpus (generated with ground truth, or a folder of real photos), a list
of sanitizers (ground-truth cue blackouts that miss chosen cues on purpose, and
detector-based sanitizers from the registry), a list of members (distance mechanisms),
and :func:`privlab.contrastive.audit_many` over them. The result adds what the image
notebooks render: per-member tables, rank agreement, resolution-0 counts, per-image
flags, the describe-then-embed member's words for a witness, and the leak-detection
table on generated corpora.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from privlab.errors import invalid
from privlab.studies.contract import Headline, StudyConfig

CUE_PREFIX = "cues:"


@dataclass
class ImageStudyConfig(StudyConfig):
    """Settings shared by the image studies; each study sets its own defaults.

    Attributes:
        n_images: generated scenes (ignored with ``folder``).
        seed: generator seed.
        folder: a folder of real photos instead of the generated corpus.
        max_side: photos are downscaled to this longer side.
        sanitizers: ``"cues:<preset>"`` (ground truth, generated corpus only) or
            registered image sanitizer names.
        encoders: registered image members.
        gallery: ``{name: [face images]}`` for describe-then-embed (default: the
            generated corpus's shipped faces; none for a folder).
        delta: the resolution at which items are flagged and members flag a leak.
        top_k: witnesses kept per audit.
        leak_table: also compute the per-cue leak-detection table (generated corpus).
    """

    n_images: int = 30
    seed: int = 0
    folder: str | None = None
    max_side: int = 640
    sanitizers: tuple[str, ...] = ()
    encoders: tuple[str, ...] = ()
    gallery: dict[str, list[Any]] | None = field(default=None, repr=False)
    delta: float = 0.0
    top_k: int = 5
    leak_table: bool = True

    @classmethod
    def smoke_settings(cls) -> dict:
        """Tiny settings for tests and ``PRIVLAB_SMOKE=1`` (a study narrows the sanitizers)."""
        return {"n_images": 4}


def build_encoders(names: Sequence[str], gallery: Mapping[str, Sequence[Any]] | None) -> list:
    """Registry members by name; describe-then-embed gets the study's face gallery."""
    from privlab.encoders import registry

    if isinstance(names, str) or not names:
        raise invalid("encoders", "build_encoders", "a non-empty list of registered names", names)
    out = []
    for name in names:
        if name == "describe-then-embed":
            out.append(registry.create(name, gallery=dict(gallery or {})))
        else:
            out.append(registry.create(name))
    return out


def build_sanitizers(specs: Sequence[str], presets: Mapping[str, Sequence[str]],
                     corpus: Any | None) -> list:
    """Sanitizers from preset cue blackouts (``"cues:<preset>"``) and registry names.

    Raises:
        ValueError: a cue preset without a generated corpus, or an unknown preset.
    """
    from privlab.sanitizers import registry
    from privlab.datasets.scene_cues import cue_blackout

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
                continue  # ground truth exists only for generated corpora
            out.append(cue_blackout(corpus, list(presets[key]), name=spec))
        else:
            out.append(registry.create(spec))
    if not out:
        raise invalid("sanitizers", "build_sanitizers", "at least one sanitizer usable on a "
                      "folder (cue presets need a generated corpus)", list(specs))
    return out


@dataclass
class ImageStudyResult:
    """What an image study computed.

    Attributes:
        study: the study's name.
        config: the config that produced it.
        images: the audited originals.
        labels: one label per image (scene index or file name).
        corpus: the generated corpus (None for a folder of photos).
        table: the :class:`privlab.contrastive.AuditTable` (one audit per sanitizer).
        encoders: the member objects (to explain witnesses).
        leaks: the :class:`privlab.contrastive.ensemble.LeakTable` (generated corpora), else None.
        seconds: wall time.
        provenance: corpus hash, members, sanitizers, settings.
        status: what kind of numbers these are.
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

    def to_frame(self):
        """One row per (sanitizer, member): resolution, witness, utility, flagged items."""
        frame = self.table.to_frame()
        return frame.drop(columns=[c for c in ("corpus",) if c in frame.columns])

    @property
    def member_labels(self) -> dict[str, str]:
        """``{encoder name: the registry name the config used}`` (short column labels)."""
        return {e.name: label for e, label in zip(self.encoders, self.config.encoders)}

    def members(self):
        """Sanitizer x member resolutions (never averaged), columns by registry name."""
        from privlab.contrastive.ensemble import member_table

        return member_table(self.table).rename(columns=self.member_labels)

    def _short_frame(self):
        frame = self.table.to_frame()
        frame["encoder"] = frame["encoder"].map(lambda n: self.member_labels.get(n, n))
        return frame

    def agreement(self):
        """Pairwise Spearman rho between members across sanitizers."""
        from privlab.contrastive.ensemble import rank_agreement

        return rank_agreement(self._short_frame())

    def zeros(self):
        """Resolution-0 counts (Table 1's shape)."""
        from privlab.contrastive.ensemble import zero_counts

        return zero_counts(self._short_frame())

    def leak_matrix(self):
        """The leak-detection matrix with short member labels (None for a folder)."""
        if self.leaks is None:
            return None
        return self.leaks.matrix().rename(columns=self.member_labels)

    def audit(self, sanitizer: str):
        """The :class:`privlab.contrastive.ContrastiveAudit` of one sanitizer."""
        return self.table[sanitizer]

    def flags(self, delta: float | None = None):
        """Per image: which (sanitizer, member) trials reach ``delta`` (items to withhold).

        Returns:
            DataFrame indexed by image label, one column per ``sanitizer | member``, with the
            item's largest signed difference where it is at or above ``delta`` (else 0).
        """
        import pandas as pd

        delta = self.config.delta if delta is None else delta
        cols = {}
        for a in self.table:
            for m in a.members:
                per = m.resolution.per_audited
                hit = per >= delta if delta > 0 else per > 0
                cols[f"{a.name} | {m.encoder}"] = np.where(hit, per, 0.0)
        return pd.DataFrame(cols, index=self.labels)

    def explain(self, sanitizer: str, encoder: str | None = None) -> dict[str, str]:
        """The describe-then-embed member's words for the four images of a decisive witness.

        Args:
            sanitizer: the sanitizer's name.
            encoder: whose decisive witness (default the describe-then-embed member).

        Returns:
            ``{"sanitized x", "original y", "sanitized y": words}``; empty without such a member.
        """
        from privlab.encoders.image import DescribeThenEmbedEncoder

        describer = next((e for e in self.encoders if isinstance(e, DescribeThenEmbedEncoder)), None)
        if describer is None:
            return {}
        audit = self.table[sanitizer]
        member = audit.member(encoder or describer.name)
        w = member.witness
        texts = describer.describe_images([w.audited_sanitized, w.reference_original,
                                           w.reference_sanitized])
        return {"sanitized x": texts[0].text, "original y": texts[1].text,
                "sanitized y": texts[2].text}

    def summary(self) -> str:
        """Each member's worst resolution over the sanitizers."""
        wide = self.members()
        summary = "; ".join(f"{m} {wide[m].max():.3f}" for m in wide.columns)
        return (f"worst resolution per member: {summary} "
                f"({len(self.images)} images, {len(wide)} sanitizers)")

    def caveats(self) -> tuple[str, ...]:
        """What the numbers rest on: the images, the members, the ground-truth sanitizers."""
        if self.corpus is not None:
            data = (f"{len(self.images)} scenes generated by privlab "
                    f"({self.corpus.provenance.get('generator', 'seeded generator')}, "
                    f"seed {self.config.seed}), not real photos")
        else:
            data = f"{len(self.images)} photos from the folder {self.config.folder}"
        notes = [data, "members: " + ", ".join(self.config.encoders)
                 + " (offline stand-ins; the paper's CLIP members need a download)"]
        if any(s.startswith(CUE_PREFIX) for s in self.config.sanitizers):
            notes.append("'cues:' sanitizers remove the generator's ground-truth regions "
                         "(controls with known leaks, not real tools)")
        return tuple(notes)

    def headline(self) -> Headline:
        """:meth:`summary` with its status and what it rests on."""
        return Headline(self.study, self.summary(), self.status, self.caveats())

    def labelled_frame(self):
        """:meth:`to_frame` with members named as the config named them (for plots)."""
        frame = self.to_frame()
        frame["encoder"] = frame["encoder"].map(lambda n: self.member_labels.get(n, n))
        return frame

    def _repr_html_(self) -> str:
        return (f"<div><b>{self.study}</b> ({len(self.images)} images, {self.seconds:.0f} s; "
                f"{self.status})" + self.members().to_html(float_format=lambda v: f"{v:.4f}")
                + "</div>")


def run_image_study(study: str, config: Any, *, corpus_factory, presets: Mapping[str, Sequence[str]]
                    ) -> ImageStudyResult:
    """Run an image study from its config (used by the DiCaprio and McDonald's modules).

    Args:
        study: display name.
        config: the study's Config (``folder``, ``n_images``, ``seed``, ``sanitizers``,
            ``encoders``, ``delta``, ``top_k``, ``leak_table``, ``gallery``).
        corpus_factory: ``(n, seed) -> SceneCorpus`` for the generated corpus.
        presets: cue presets ``{name: kinds removed}``.

    Returns:
        An :class:`ImageStudyResult`.
    """
    from privlab.contrastive import audit_many, corpus_hash
    from privlab.contrastive.ensemble import leak_detection

    start = time.perf_counter()
    if config.delta < 0:
        raise invalid("delta", study, "non-negative", config.delta)
    corpus = None
    if config.folder:
        from privlab.datasets.images import load_folder

        folder = load_folder(config.folder, max_side=config.max_side)
        images, labels = folder.images, folder.names
        gallery = config.gallery
    else:
        corpus = corpus_factory(config.n_images, config.seed)
        images = corpus.images
        labels = [f"{s.index}: {'+'.join(sorted(s.kinds()))}" for s in corpus.scenes]
        gallery = config.gallery if config.gallery is not None else corpus.gallery
    encoders = build_encoders(config.encoders, gallery)
    sanitizers = build_sanitizers(config.sanitizers, presets, corpus)
    table = audit_many(images, sanitizers, encoders=encoders, top_k=config.top_k)
    leaks = None
    if corpus is not None and config.leak_table:
        leaks = leak_detection(corpus, encoders, delta=config.delta, top_k=config.top_k)
    provenance = {"corpus": corpus.provenance if corpus is not None else {
        "folder": str(config.folder), "sha": corpus_hash(images)},
        "members": [e.describe() for e in encoders],
        "sanitizers": [s.describe() for s in sanitizers]}
    return ImageStudyResult(study, config, images, labels, corpus, table, encoders, leaks,
                            time.perf_counter() - start, provenance)


__all__ = ["ImageStudyResult", "build_encoders", "build_sanitizers", "run_image_study"]
