"""Study 00, quickstart: does removing a name remove the person?

Twelve texts about one person, sanitized with a weak and a strong concept list and audited
with the symmetric contrastive test (every text both audited and reference):

    resolution = max(0, max_ij  E(X_c(x_i)) . (E(x_j) - E(X_c(x_j))))

See ``docs/methods/studies-text.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from privlab.contrastive import STATUS, ContrastiveAudit, audit
from privlab.datasets import quickstart as corpus
from privlab.errors import invalid
from privlab.progress import step
from privlab.sanitizers import ConceptListSanitizer
from privlab.studies._text import encoder_caveat
from privlab.studies.contract import Headline, Status, StudyConfig, StudyResult, registry
from privlab.studies.params import param

STUDY = "00 quickstart"


@dataclass
class Config(StudyConfig):
    """Settings of the quickstart study.

    Attributes:
        encoders: the distance mechanism, one registry name (or sentence-transformers
            folder) in a tuple.
        weak_concepts: words and phrases the weak sanitizer removes.
        strong_concepts: words and phrases the strong sanitizer removes.
        data: the texts audited (default: the twelve texts of
            :mod:`privlab.datasets.quickstart`).
        top_k: trials kept as witnesses per audit.
    """

    encoders: tuple[str, ...] = param(("minilm",), label="Encoder", family="encoder",
                                      single=True, filters={"modality": "text"})
    weak_concepts: tuple[str, ...] = param(corpus.WEAK_CONCEPTS, label="Weak list", lines=4)
    strong_concepts: tuple[str, ...] = param(corpus.STRONG_CONCEPTS, label="Strong list",
                                             lines=8)
    data: tuple[str, ...] = corpus.TEXTS
    top_k: int = 3

    # The quickstart is small enough that its smoke settings are its full settings.


@dataclass(frozen=True)
class QuickstartResult(StudyResult):
    """The two audits and the settings that produced them (in :attr:`provenance`)."""

    config: Config
    audits: dict[str, ContrastiveAudit] = field(default_factory=dict)

    def to_frame(self):
        """One row per concept list: size, resolution, decisive witness, mean utility."""
        import pandas as pd

        rows = []
        for label, a in self.audits.items():
            member = a.members[0]
            w = member.witness
            rows.append({"concept list": label, "concepts": len(a.sanitizer.get("concepts", [])),
                         "encoder": member.encoder, "resolution": member.value,
                         "witness (audited, reference)": (w.audited, w.reference),
                         "difference": w.difference, "mean utility": member.mean_utility,
                         "name still present": a.baseline.count if a.baseline else None})
        return pd.DataFrame(rows)

    def witness_frame(self, label: str):
        """The decisive witness of one audit side by side: sanitized x, original y, sanitized y."""
        import pandas as pd

        if label not in self.audits:
            raise invalid("label", "QuickstartResult.witness_frame", f"one of {list(self.audits)}",
                          label)
        w = self.audits[label].members[0].witness
        return pd.DataFrame([{
            f"sanitized x (item {w.audited})": w.audited_sanitized,
            f"original y (item {w.reference})": w.reference_original,
            f"sanitized y (item {w.reference})": w.reference_sanitized,
            "signed difference": round(w.difference, 4)}])

    def derive_provenance(self) -> dict:
        """Encoder, concept lists, corpus hash and size."""
        first = next(iter(self.audits.values()), None)
        return {"encoders": list(self.config.encoders),
                "weak_concepts": list(self.config.weak_concepts),
                "strong_concepts": list(self.config.strong_concepts),
                "data": len(self.config.data), "top_k": self.config.top_k,
                "corpus_hash": first.corpus if first else None}

    def headline(self) -> Headline:
        """Both lists' resolutions and decisive witnesses, and what they rest on."""
        parts, details = [], []
        for label, a in self.audits.items():
            w = a.members[0].witness
            parts.append(f"{label} list: resolution {a.members[0].value:.3f}")
            details.append(f"{label} list: witness x{w.audited}/y{w.reference}")
        data = (f"{len(self.config.data)} short texts written by privlab"
                if self.config.data == corpus.TEXTS else f"{len(self.config.data)} user texts")
        status, note = Status.split(STATUS)
        return Headline(STUDY, f"{self.config.encoders[0]}: " + "; ".join(parts), status,
                        (data, encoder_caveat(self.config.encoders),
                         "symmetric test: every text is both audited and reference"),
                        details=tuple(details), status_note=note)

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False)


@registry.member("quickstart", number="00", title=STUDY, notebook="00_quickstart")
def run(config: Config | None = None) -> QuickstartResult:
    """Audit the weak and the strong concept list on the quickstart corpus.

    Args:
        config: settings (defaults: packaged MiniLM, the corpus's two lists).

    Returns:
        A :class:`QuickstartResult` with one audit per list ("weak", "strong").

    Example:
        >>> r = run(Config(encoders=("lexical",),
        ...                data=("Albert Einstein in Bern", "Einstein and relativity")))
        >>> sorted(r.audits), r.audits["weak"].baseline.count
        (['strong', 'weak'], 0)
    """
    config = config or Config.for_notebook()
    if not config.data:
        raise invalid("data", "quickstart.run", "a non-empty sequence of texts", config.data)
    for name, concepts in (("weak_concepts", config.weak_concepts),
                           ("strong_concepts", config.strong_concepts)):
        if not any(isinstance(c, str) and c.strip() for c in concepts):
            raise invalid(name, "quickstart.run", "at least one word or phrase to remove",
                          concepts, "An empty list removes nothing, so the audit would read 0 "
                          "by construction; e.g. ('Einstein',).")
    audits: dict[str, ContrastiveAudit] = {}
    lists = (("weak", config.weak_concepts), ("strong", config.strong_concepts))
    for i, (label, concepts) in enumerate(lists):
        step(f"auditing the {label} list", i, len(lists))
        sanitizer = ConceptListSanitizer(list(concepts), name=f"{label} concept list")
        audits[label] = audit(list(config.data), sanitizer, encoders=list(config.encoders),
                              names=[corpus.TARGET], top_k=config.top_k)
    step("audits done", len(lists), len(lists))
    return QuickstartResult(config, audits)


__all__ = ["Config", "QuickstartResult", "STUDY", "run"]
