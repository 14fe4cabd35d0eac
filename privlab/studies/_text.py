"""Shared machinery of the text studies (03 franchise comments, 04 Enron, 09 calibration).

Several sanitizers on one corpus, each audited with the symmetric test; seeded clues say
what each removed, caught or missed. See ``docs/methods/studies-text.md``.
"""

from __future__ import annotations

import dataclasses
import html
import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from privlab.contrastive import STATUS, AuditTable, audit, exact_name_baseline
from privlab.datasets.text_corpora import LeakStatus, TextCorpus, leak_status
from privlab.errors import invalid
from privlab.names import highlight
from privlab.progress import step
from privlab.studies.contract import Headline, Status, StudyResult


def build_sanitizer(spec: str, corpus: TextCorpus, broad: Sequence[str] = ()):
    """A sanitizer from a short spec, given the corpus's concept list.

    ``"concept-list"`` removes the corpus's concepts; ``"concept-list-broad"`` also
    removes ``broad``; any other name is created from
    :data:`privlab.sanitizers.registry` with ``concepts=corpus.concepts``.

    Example:
        >>> from privlab.datasets.text_corpora import franchise_comments
        >>> build_sanitizer("concept-list", franchise_comments()).sanitize(["Vanguard Legion rules"])
        ['████████ ██████ rules']
    """
    from privlab.sanitizers import ConceptListSanitizer, registry

    if spec == "concept-list":
        return ConceptListSanitizer(corpus.concepts, name="concept-list")
    if spec == "concept-list-broad":
        return ConceptListSanitizer(tuple(corpus.concepts) + tuple(broad), name="concept-list-broad")
    if spec not in registry:
        raise invalid("sanitizers", "build_sanitizer",
                      f"'concept-list', 'concept-list-broad' or one of {registry.names()}", spec)
    sanitizer = registry.create(spec, concepts=tuple(corpus.concepts))
    sanitizer.name = spec
    return sanitizer


@dataclass(frozen=True)
class TextStudyResult(StudyResult):
    """Several sanitizers audited on one text corpus.

    Attributes:
        study: the study's name.
        corpus: the corpus audited.
        table: the :class:`privlab.contrastive.AuditTable` (one audit per sanitizer).
        leaks: per sanitizer, the seeded-leak statuses under the first encoder (empty
            for corpora without ground truth).
        settings: the settings that produced it (encoders, sanitizers, top_k ...).
        seconds: wall time of the run.
        label: the study's number and name in headlines, e.g. ``"03 Avengers"``.
        caveats: what the numbers rest on (data and models), for the headline.
    """

    study: str
    corpus: TextCorpus
    table: AuditTable
    leaks: dict[str, list[LeakStatus]] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    label: str = ""
    caveats: tuple[str, ...] = ()

    def derive_provenance(self) -> dict[str, Any]:
        """Settings, corpus name, size and hash, and what its loader passed over."""
        first = self.table.audits[0]
        out = {**self.settings, "corpus": self.corpus.name, "items": len(self.corpus),
               "corpus_hash": first.corpus, "source": self.corpus.source,
               "status": first.status}
        if "skipped" in self.corpus.provenance:
            out["skipped"] = [dict(s) for s in self.corpus.provenance["skipped"]]
        return out

    def to_frame(self):
        """Table 2 style: one row per (sanitizer, encoder) with resolution, witness,
        utility, exact-name matches and share, and the leak counts."""
        frame = self.table.to_frame()
        if self.leaks:
            for status in ("removed", "caught", "missed"):
                frame[f"leaks {status}"] = [
                    sum(s.status == status for s in self.leaks.get(name, []))
                    for name in frame["sanitizer"]]
        return frame.drop(columns=["corpus"])

    def leak_frame(self):
        """One row per (sanitizer, leak type): carriers, kept, caught, status, example."""
        import pandas as pd

        rows = [{"sanitizer": name, "leak type": s.leak_type, "items": s.items, "kept": s.kept,
                 "in a top witness": s.caught, "status": s.status, "example": s.example}
                for name, statuses in self.leaks.items() for s in statuses]
        return pd.DataFrame(rows)

    def missed(self, sanitizer: str) -> list[str]:
        """Leak types kept by ``sanitizer`` that no top witness named."""
        return [s.leak_type for s in self.leaks.get(sanitizer, []) if s.status == "missed"]

    def witness_frame(self, sanitizer: str, encoder: str | None = None, k: int = 1):
        """The top ``k`` witnesses of one sanitizer as text, with the retained terms."""
        import pandas as pd

        a = self.table[sanitizer]
        member = a.member(encoder) if encoder else a.members[0]
        rows = []
        for w in member.witnesses[:k]:
            rows.append({"audited": w.audited, "reference": w.reference,
                         "difference": round(w.difference, 4),
                         "sanitized x": w.audited_sanitized, "original y": w.reference_original,
                         "sanitized y": w.reference_sanitized,
                         "retained terms": ", ".join(w.retained_terms())})
        return pd.DataFrame(rows)

    def witness_html(self, sanitizer: str, encoder: str | None = None) -> str:
        """The decisive witness with the terms it shares with the reference marked."""
        a = self.table[sanitizer]
        member = a.member(encoder) if encoder else a.members[0]
        w = member.witness
        terms = w.retained_terms()
        return (f"<div><b>{html.escape(sanitizer)}</b> under {html.escape(member.encoder)}: "
                f"resolution {member.value:.4f}, witness x={w.audited}, y={w.reference}."
                f"<table><tr><th>sanitized x (released)</th><th>original y</th>"
                f"<th>sanitized y</th></tr><tr><td>{highlight(w.audited_sanitized, terms)}</td>"
                f"<td>{highlight(w.reference_original, terms)}</td>"
                f"<td>{html.escape(w.reference_sanitized)}</td></tr></table></div>")

    def best(self) -> str:
        """The sanitizer with the smallest resolution (ties: higher utility).

        Only sanitizers that changed every text and left no exact name are eligible (one
        that leaves a text unchanged has not sanitized the concept there, and its 0 is
        vacuous); when none qualifies, every sanitizer that changed something is.
        """
        frame = self.table.to_frame()
        eligible = (frame["unchanged"] == 0)
        if "name_matches" in frame:
            eligible &= frame["name_matches"] == 0
        if not eligible.any():
            eligible = frame["unchanged"] < frame["items"]
        if eligible.any():
            frame = frame[eligible]
        frame = frame.groupby("sanitizer", sort=False).agg(
            resolution=("resolution", "max"), utility=("utility", "mean")).reset_index()
        frame = frame.sort_values(["resolution", "utility"], ascending=[True, False])
        return str(frame.iloc[0]["sanitizer"])

    def summary_parts(self) -> tuple[str, list[str]]:
        """The headline's first line (the best sanitizer's resolution and utility, the
        exact-name baseline beside them) and the details beneath it."""
        name = self.best()
        a = self.table[name]
        member = a.members[0]
        w = member.witness
        text = (f"best of {len(self.table)} sanitizers, {name}: resolution {member.value:.3f}, "
                f"utility {member.mean_utility:.2f}")
        if a.baseline is not None:
            text += f"; name kept in {a.baseline.count} of {len(self.corpus)} texts"
        return text, [f"under {member.encoder}: witness {w.audited},{w.reference}"]

    def summary(self) -> str:
        """The number that matters and its details, as one text (:meth:`summary_parts`)."""
        first, details = self.summary_parts()
        return "; ".join([first, *details])

    def quoted_figures(self) -> dict[str, str]:
        """The figures the notebook's prose quotes, as printed (see ``privlab quote``).

        ``texts`` (how many were audited) and, per sanitizer ``s`` under the first encoder:
        ``s.resolution``, ``s.utility``, ``s.witness`` (``x,y``) and, where the exact-name
        baseline ran, ``s.name_kept`` and ``s.name_share``.
        """
        out = {"texts": f"{len(self.corpus):,}"}
        for audit in self.table:
            member = audit.members[0]
            out[f"{audit.name}.resolution"] = f"{member.value:.3f}"
            out[f"{audit.name}.utility"] = f"{member.mean_utility:.2f}"
            out[f"{audit.name}.witness"] = f"{member.witness.audited},{member.witness.reference}"
            if audit.baseline is not None:
                out[f"{audit.name}.name_kept"] = f"{audit.baseline.count:,}"
                out[f"{audit.name}.name_share"] = f"{audit.baseline.share:.2%}"
        return out

    def headline(self) -> Headline:
        """:meth:`summary_parts` with its status and what it rests on."""
        first, details = self.summary_parts()
        status, note = Status.split(STATUS)
        return Headline(self.label or self.study, first, status, self.caveats,
                        details=tuple(details), status_note=note)

    def _repr_html_(self) -> str:
        return (f"<div><b>{html.escape(self.study)}</b> on {html.escape(self.corpus.name)} "
                f"({len(self.corpus)} texts, {self.provenance['status']})"
                + self.to_frame().to_html(index=False, float_format=lambda v: f"{v:.4f}")
                + "</div>")


def encoder_caveat(encoders: Sequence[str]) -> str:
    """What a headline says about its distance mechanisms, from the encoder registry.

    Example:
        >>> encoder_caveat(["lexical"])
        'encoders: lexical (hashed words and word pairs (surface only), offline)'
    """
    from privlab.encoders import registry

    parts = []
    for name in encoders:
        if name in registry:
            entry = registry.entry(name)
            where = "offline" if entry.meta.get("offline") else "downloaded model"
            parts.append(f"{name} ({entry.description}, {where})")
        else:
            parts.append(f"{name} (user model)")
    return "encoders: " + "; ".join(parts)


def run_text_study(study: str, corpus: TextCorpus, sanitizers: Sequence[str],
                   encoders: Sequence[str], *, broad: Sequence[str] = (), top_k: int = 10,
                   progress: bool = False, label: str = "", caveats: Sequence[str] = (),
                   result_type: type | None = None,
                   extra_settings: Mapping[str, Any] | None = None) -> TextStudyResult:
    """Audit each sanitizer on ``corpus`` under every encoder (symmetric test).

    Args:
        study: a name for the result.
        corpus: the texts and their ground truth.
        sanitizers: specs for :func:`build_sanitizer`.
        encoders: encoder names.
        broad: the extra concepts of ``"concept-list-broad"``.
        top_k: witnesses kept per audit; leaks are "caught" when named in one of them.
        progress: progress bars while encoding.
        label: the study's number and name in headlines.
        caveats: what the numbers rest on, for the headline.
        result_type: a subclass of :class:`TextStudyResult` to return (default the class).
        extra_settings: the study's own settings, added to the result's ``settings``.

    Returns:
        A :class:`TextStudyResult` (or ``result_type``); each exact-name baseline uses
        the corpus's ``name_match`` rule.
    """
    if not sanitizers:
        raise invalid("sanitizers", study, "a non-empty list of sanitizer names", sanitizers)
    if not encoders:
        raise invalid("encoders", study, "a non-empty list of encoder names", encoders)
    start = time.perf_counter()
    texts = list(corpus.texts)
    audits = []
    leaks: dict[str, list[LeakStatus]] = {}
    for i, spec in enumerate(sanitizers):
        step(f"sanitizing and encoding with {spec}", i, len(sanitizers))
        sanitizer = build_sanitizer(spec, corpus, broad)
        a = audit(texts, sanitizer, encoders=list(encoders), names=corpus.names, top_k=top_k,
                  progress=progress)
        if corpus.name_match != "word":  # count names by the rule the corpus was selected by
            a = dataclasses.replace(a, baseline=exact_name_baseline(
                a.sanitized, list(corpus.names), match=corpus.name_match))
        audits.append(a)
        if any(corpus.leaks):
            leaks[a.name] = leak_status(corpus, a.sanitized, a.members[0].witnesses)
    step("audits done", len(sanitizers), len(sanitizers))
    settings = {"encoders": list(encoders), "sanitizers": [a.sanitizer for a in audits],
                "top_k": top_k, "test": "symmetric", "name_match": corpus.name_match,
                **(extra_settings or {})}
    return (result_type or TextStudyResult)(study, corpus, AuditTable(tuple(audits)), leaks,
                                            settings, time.perf_counter() - start, label,
                                            tuple(caveats))


__all__ = ["TextStudyResult", "build_sanitizer", "encoder_caveat", "highlight", "run_text_study"]
