"""Study 08, SPIA: masking the spans is not protecting the people.

For each anonymizer, the study measures two things on the same documents:

* span recall — did the annotated DIRECT and QUASI mentions disappear?
* subject-level protection — what can an adversary still infer about *every* person?
  ``CPR = 1 - sum_i A_i / sum_i O_i`` and ``IPR = mean_i (1 - A_i / O_i)``.

The gap between the two is SPIA's finding. The default adversary is the offline NER
adversary, which is weak: its CPR overstates protection; the LLM adversary (an
OpenAI-compatible endpoint) is the one SPIA uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from privlab.config import shared_data_dir
from privlab.errors import invalid
from privlab.hashing import file_hash
from privlab.redaction.spia import ProtectionResult, load_spia, protection
from privlab.redaction.spia.spans import SpanRecall, anonymize, anonymizer_options, span_recall
from privlab.studies.contract import Headline, StudyConfig, registry

STUDY = "08 SPIA"


def default_data() -> str:
    """``spia_panorama_151.jsonl`` from the shared data folder when present, else ``"sample"``.

    Example:
        >>> default_data().endswith("spia_panorama_151.jsonl") or default_data() == "sample"
        True
    """
    folder = shared_data_dir()
    path = folder / "spia" / "spia_panorama_151.jsonl" if folder else None
    return str(path) if path is not None and path.is_file() else "sample"


@dataclass
class Config(StudyConfig):
    """Settings of the SPIA study.

    Attributes:
        data: a SPIA JSON-lines file, or ``"sample"`` for the privlab-written sample.
        anonymizers: names from :func:`privlab.redaction.spia.spans.anonymizer_options`;
            unavailable ones are skipped with the reason recorded.
        adversary: a name in :data:`privlab.redaction.spia.adversaries.adversaries`.
        matcher: a name in :data:`privlab.redaction.spia.matching.matchers`.
        max_documents: use the first this many documents (None: all).
    """

    data: str = field(default_factory=default_data)
    anonymizers: tuple[str, ...] = ("none", "regex-pii", "names-list", "presidio",
                                    "gold-direct", "gold-spans")
    adversary: str = "ner"
    matcher: str = "offline"
    max_documents: int | None = None

    @classmethod
    def smoke_settings(cls) -> dict:
        """The smallest settings (a few documents, three anonymizers)."""
        return {"anonymizers": ("none", "regex-pii", "gold-spans"), "max_documents": 8}


@dataclass
class SPIAStudyResult:
    """Span recall and protection per anonymizer.

    Attributes:
        config: the settings.
        protection: anonymizer -> :class:`ProtectionResult`.
        spans: anonymizer -> :class:`SpanRecall`.
        texts: anonymizer -> anonymized texts (in document order).
        skipped: anonymizer -> why it did not run.
        documents: the gold records used.
        status: what the numbers are.
        provenance: data digest, adversary, matcher.
    """

    config: Config
    protection: dict[str, ProtectionResult]
    spans: dict[str, SpanRecall]
    texts: dict[str, list[str]]
    skipped: dict[str, str]
    documents: list
    status: str = ""
    provenance: dict = field(default_factory=dict)

    def to_frame(self):
        """One row per anonymizer: span recall next to CPR / IPR, and the gap."""
        import pandas as pd

        rows = []
        for name, p in self.protection.items():
            s = self.spans[name]
            rows.append({"anonymizer": name, "token recall": s.token_recall,
                         "entity recall DIRECT": s.entity_recall_direct,
                         "entity recall QUASI": s.entity_recall_quasi,
                         "CPR": p.cpr, "IPR": p.ipr, "CPR target": p.target["cpr"],
                         "CPR non-target": p.non_target["cpr"],
                         "gap (token recall - CPR)": s.token_recall - p.cpr,
                         "subjects": p.n_subjects, "PIIs": p.n_piis})
        return pd.DataFrame(rows)

    def worst_subjects(self, anonymizer: str, n: int = 5):
        """The least protected subjects under ``anonymizer``, with what was inferred."""
        frame = self.protection[anonymizer].subject_frame().head(n)
        piis = self.protection[anonymizer].pii_frame()
        inferred = piis[piis["score"] > 0].groupby(["data_id", "subject"])["gold"] \
            .apply(lambda v: ", ".join(v)).rename("inferred")
        return frame.merge(inferred, how="left", left_on=["data_id", "subject"],
                           right_index=True)

    def summary(self) -> str:
        """The anonymizer with the highest token recall: its recall beside CPR and IPR."""
        table = self.to_frame()
        row = table.sort_values("token recall", ascending=False).iloc[0]
        return (f"{row['anonymizer']}: token recall {row['token recall']:.2f}, "
                f"CPR {row['CPR']:.2f}, IPR {row['IPR']:.2f} ({self.provenance['adversary']})")

    def headline(self) -> Headline:
        """:meth:`summary` with its status and what it rests on."""
        if self.config.data == "sample":
            data = f"{len(self.documents)} documents written by privlab in SPIA's schema"
        else:
            data = f"{len(self.documents)} documents of {Path(self.config.data).name} (real)"
        notes = [data, f"adversary: {self.provenance['adversary']}, matcher: "
                       f"{self.provenance['matcher']}"]
        if any(name.startswith("gold") for name in self.protection):
            notes.append("'gold-' anonymizers mask the annotated spans they are scored on "
                         "(oracles)")
        return Headline(STUDY, self.summary(), self.status, tuple(notes))

    def _repr_html_(self) -> str:
        skipped = "".join(f"<li>{k}: {v}</li>" for k, v in self.skipped.items())
        return (f"<p><b>SPIA</b> — adversary {self.provenance.get('adversary')}, "
                f"{len(self.documents)} documents. <i>{self.status}</i></p>"
                + self.to_frame().to_html(index=False, float_format="%.3f")
                + (f"<p>Skipped:</p><ul>{skipped}</ul>" if skipped else ""))


@registry.member("spia", number="08", title=STUDY, notebook="08_spia")
def run(config: Config | None = None) -> SPIAStudyResult:
    """Anonymize, attack and score: the whole SPIA study in one call.

    Args:
        config: settings (default :meth:`Config.for_notebook`).

    Returns:
        A :class:`SPIAStudyResult`.

    Raises:
        PrivlabValueError: unknown adversary, matcher or data file.

    Example:
        >>> r = run(Config(data="sample", anonymizers=("none", "gold-spans"), adversary="none"))
        >>> r.to_frame()[["anonymizer", "CPR"]].values.tolist()
        [['none', 1.0], ['gold-spans', 1.0]]
    """
    from privlab.redaction.spia.adversaries import adversaries
    from privlab.redaction.spia.matching import matchers
    from privlab.redaction.spia.sample import entities_from_profiles, sample_records
    from privlab.redaction.spia.spans import entity_file_for, load_entities

    config = config or Config.for_notebook()
    if config.data == "sample":
        records, digest = sample_records(), "privlab sample"
        entities, span_source = entities_from_profiles(records), "derived from the profiles"
    else:
        path = Path(config.data)
        if not path.is_file():
            raise invalid("data", "studies.spia.run", "a SPIA JSON-lines file or 'sample'",
                          config.data)
        records, digest = load_spia(path), file_hash(path, 16)
        entity_path = entity_file_for(path)
        if entity_path is not None:
            entities, span_source = load_entities(entity_path), entity_path.name
        else:
            entities, span_source = entities_from_profiles(records), "derived from the profiles"
    if config.max_documents is not None:
        records = records[: config.max_documents]
    entities = {r.data_id: entities[r.data_id] for r in records if r.data_id in entities}
    adversary = adversaries.create(config.adversary)
    matcher = matchers.create(config.matcher)
    available = {a.name: a for a in anonymizer_options()}
    results, spans, texts, skipped = {}, {}, {}, {}
    ids = [r.data_id for r in records]
    for name in config.anonymizers:
        info = available.get(name)
        if info is not None and not info.available:
            skipped[name] = info.reason
            continue
        if name.startswith("gold") and len(entities) < len(records):
            skipped[name] = "no span annotation for some documents"
            continue
        anonymized = anonymize(name, records, entities)
        predicted = adversary.infer(anonymized, ids)
        results[name] = protection(records, predicted, matcher=matcher,
                                   provenance={"adversary": adversary.name, "anonymizer": name})
        spans[name] = span_recall(entities, dict(zip(ids, anonymized)))
        texts[name] = anonymized
    weak = getattr(adversary, "weak", False)
    status = ("descriptive; the adversary is a weak offline stand-in, so CPR/IPR overstate "
              "protection" if weak else "descriptive: protection against this adversary")
    return SPIAStudyResult(config, results, spans, texts, skipped, list(records), status,
                           {"data": config.data, "data_digest": digest,
                            "adversary": adversary.name, "matcher": matcher.name,
                            "spans": span_source})
