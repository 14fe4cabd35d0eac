"""Study 08, SPIA: masking the spans is not protecting the people.

Per anonymizer, span recall beside subject-level protection (``CPR = 1 - sum_i A_i /
sum_i O_i``, ``IPR = mean_i (1 - A_i / O_i)``) against an adversary; oracle anonymizers
are upper bounds, never the headline. See ``docs/methods/studies-text.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from privlab.config import shared_data_dir
from privlab.errors import invalid
from privlab.progress import step
from privlab.hashing import file_hash
from privlab.redaction.spia import ProtectionResult, load_spia, protection
from privlab.redaction.spia import split as data_split
from privlab.redaction.spia.review import ReviewedJudge, ReviewQueue
from privlab.redaction.spia.spans import (
    SpanRecall,
    anonymize,
    anonymizer_options,
    is_oracle,
    span_recall,
)
from privlab.studies.contract import Headline, Status, StudyConfig, StudyResult, registry
from privlab.studies.params import Choice, param

STUDY = "08 SPIA"
VALUE_DECIDERS = ("rule", "rule+llm")

#: What SPIA reports for the same data (its Table "span-based vs inference-based"; the
#: adversary is Claude-Sonnet-4.5): the highest token recall, its CPR and the gap.
SPIA_REPORTED = {
    "spia_panorama_151.jsonl": ("PANORAMA", 0.984, 0.799),
    "spia_tab_144.jsonl": ("TAB", 0.990, 0.674),
}


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
        anonymizers: names from :func:`privlab.redaction.spia.spans.anonymizer_options`
            (unavailable ones skipped with the reason; keep ``"none"`` for the headline).
        adversary: a name in :data:`privlab.redaction.spia.adversaries.adversaries`
            (``"contextual"``: the strongest offline one; ``"llm"``: SPIA's).
        matcher: a name in :data:`privlab.redaction.spia.matching.matchers`.
        value_decider: ``"rule"`` or ``"rule+llm"`` (SPIA's: the model decides where a
            rule says 0; needs an endpoint).
        reference_date: the date ages are inferred at (SPIA: 2025-09-01).
        headline_anonymizer: the anonymizer the headline reports (None: ``"presidio"``
            when it ran, else the non-oracle one with the highest token recall; never an
            oracle).
        baseline: the text-blind adversary whose recovery the headline subtracts
            (``"base-rate"``; None: not run).
        split: keep only the ``"development"`` or ``"evaluation"`` side of
            :mod:`privlab.redaction.spia.split` (None: every document).
        max_documents: use the first this many documents (None: all).
        prompts_from: with ``adversary="llm"``, a checkout of the SPIA repository whose
            prompts are sent, so scores compare with SPIA's tables (None: privlab's).
    """

    data: str = param(default_factory=default_data, help="a SPIA .jsonl file, or 'sample'")
    anonymizers: tuple[str, ...] = param(("none", "regex-pii", "presidio", "names-list",
                                          "gold-direct", "gold-spans"),
                                         family="spia-anonymizer")
    adversary: str = param("contextual", family="spia-adversary")
    matcher: str = param("offline", label="Subject matcher", family="spia-matcher")
    value_decider: str = param("rule", strict=True, choices=(
        Choice("rule", "SPIA's per-tag rules only"),
        Choice("rule+llm", "rules, then the model where a rule says 0", "endpoint")))
    reference_date: str = "2025-09-01"
    headline_anonymizer: str | None = None
    baseline: str | None = "base-rate"
    split: str | None = None
    max_documents: int | None = None
    prompts_from: str | None = param(None, label="SPIA checkout (prompts)",
                                     help="a clone of github.com/maisonOP/spia (empty: "
                                          "privlab's prompts)")

    @classmethod
    def smoke_settings(cls) -> dict:
        """The smallest settings (a few documents, three anonymizers)."""
        return {"anonymizers": ("none", "regex-pii", "gold-spans"), "max_documents": 8}


@dataclass(frozen=True)
class SPIAStudyResult(StudyResult):
    """Span recall and protection per anonymizer.

    Attributes:
        config: the settings.
        protection: anonymizer -> :class:`ProtectionResult`.
        spans: anonymizer -> :class:`SpanRecall`.
        texts: anonymizer -> anonymized texts (in document order).
        skipped: anonymizer -> why it did not run.
        documents: the gold records used.
        predicted: anonymizer -> the adversary's records (failed documents included).
        failed: anonymizer -> ``{data_id: why}`` of documents the adversary could not
            read; they are left out of that anonymizer's CPR and IPR.
        unmatched: anonymizer -> share of counted gold subjects the matcher paired with
            no predicted subject.
        status: what the numbers are.
        provenance: data digest, adversary, matcher, value decider, reference date.
        review: with ``value_decider="rule+llm"``, the model's recorded answers
            (:class:`~privlab.redaction.spia.review.ReviewQueue`) for :meth:`rescored`.
    """

    config: Config
    protection: dict[str, ProtectionResult]
    spans: dict[str, SpanRecall]
    texts: dict[str, list[str]]
    skipped: dict[str, str]
    documents: list
    predicted: dict[str, list] = field(default_factory=dict)
    failed: dict[str, dict[str, str]] = field(default_factory=dict)
    unmatched: dict[str, float] = field(default_factory=dict)
    status: str = ""
    review: ReviewQueue | None = field(default=None, repr=False)
    baseline: dict[str, ProtectionResult] = field(default_factory=dict)

    def excess(self, anonymizer: str) -> float:
        """The adversary's recovery (1 - CPR) minus the text-blind baseline's on the same
        texts: what reading the text added to a guess (NaN without a baseline)."""
        base = self.baseline.get(anonymizer)
        if base is None:
            return float("nan")
        return (1.0 - self.protection[anonymizer].cpr) - (1.0 - base.cpr)

    def to_frame(self):
        """One row per anonymizer: span recall next to CPR / IPR, and the gap.

        Columns include ``oracle`` (the anonymizer reads the annotation it is scored on:
        an upper bound on span masking, not a result), ``recovered`` (1 - CPR: the share
        of PIIs the adversary inferred), ``baseline recovered`` (the text-blind
        baseline's), ``excess recovered`` (the difference), ``recovered at certainty >= 3``
        (the share of the recovery the adversary itself rated 3 or more),
        ``unmatched subjects`` and ``failed documents``.
        """
        import pandas as pd

        rows = []
        for name, p in self.protection.items():
            s = self.spans[name]
            base = self.baseline.get(name)
            levels = p.certainty_frame()
            rows.append({"anonymizer": name, "oracle": is_oracle(name),
                         "token recall": s.token_recall,
                         "entity recall DIRECT": s.entity_recall_direct,
                         "entity recall QUASI": s.entity_recall_quasi,
                         "CPR": p.cpr, "IPR": p.ipr, "recovered": 1.0 - p.cpr,
                         "baseline recovered": 1.0 - base.cpr if base else float("nan"),
                         "excess recovered": self.excess(name),
                         "recovered at certainty >= 3":
                             float(levels[levels["certainty"] >= 3]["share"].sum()),
                         "CPR target": p.target["cpr"], "CPR non-target": p.non_target["cpr"],
                         "gap (token recall - CPR)": s.token_recall - p.cpr,
                         "unmatched subjects": self.unmatched.get(name, float("nan")),
                         "failed documents": len(self.failed.get(name, {})),
                         "subjects": p.n_subjects, "PIIs": p.n_piis})
        return pd.DataFrame(rows)

    def headline_anonymizer(self) -> str | None:
        """The anonymizer the headline reports: the configured one, else ``"presidio"``
        when it ran, else the non-oracle one (other than ``"none"``) with the highest
        token recall; None when only oracles and ``"none"`` ran. Never an oracle."""
        chosen = self.config.headline_anonymizer
        if chosen is not None:
            return chosen if chosen in self.protection else None
        if "presidio" in self.protection:
            return "presidio"
        real = [n for n in self.protection if not is_oracle(n) and n != "none"]
        return max(real, key=lambda n: self.spans[n].token_recall) if real else None

    def worst_subjects(self, anonymizer: str, n: int = 5):
        """The least protected subjects under ``anonymizer``, with what was inferred."""
        frame = self.protection[anonymizer].subject_frame().head(n)
        piis = self.protection[anonymizer].pii_frame()
        if not len(piis):
            return frame
        inferred = piis[piis["score"] > 0].groupby(["data_id", "subject"])["gold"] \
            .apply(lambda v: ", ".join(v)).rename("inferred")
        return frame.merge(inferred, how="left", left_on=["data_id", "subject"],
                           right_index=True)

    def rescored(self, decisions: dict) -> "SPIAStudyResult":
        """The same predictions and pairs scored again with a person's value decisions.

        SPIA's third step: a reviewer's answer replaces the model's on the pairs where
        rule and model disagree (:meth:`ReviewQueue.disagreements`); the model is not asked
        again.

        Args:
            decisions: ``(tag, gold, predicted) -> "yes" | "less precise" | "no"``.

        Returns:
            A new result whose CPR/IPR use the decisions (provenance says how many).

        Raises:
            PrivlabValueError: the run had no model decider (``value_decider="rule"``), or
                a decision names a pair the model was never asked about.
        """
        from dataclasses import replace

        from privlab.redaction.spia import matchers

        if self.review is None:
            raise invalid("value_decider", "SPIAStudyResult.rescored", "'rule+llm' in the "
                          "run being reviewed", self.config.value_decider,
                          fix="Run the study with value_decider='rule+llm' and an LLM endpoint.")
        judge = ReviewedJudge(self.review.answers, decisions)
        scores = {}
        for name, before in self.protection.items():
            failed = self.failed.get(name, {})
            scores[name] = protection(
                [r for r in self.documents if r.data_id not in failed],
                [r for r in self.predicted[name] if r.data_id not in failed],
                matcher=matchers.create(self.config.matcher), fallback=judge,
                provenance={k: before.provenance.get(k) for k in ("adversary", "anonymizer")})
        provenance = dict(self.provenance, value_decider=f"rule, then {self.review.name}, "
                          f"then {judge.name}")
        return replace(self, protection=scores, provenance=provenance)

    def departures(self, anonymizer: str):
        """CPR of ``anonymizer`` under privlab's scoring and under each of SPIA's own
        choices, with the same subject pairs (pandas DataFrame; see
        :mod:`privlab.redaction.spia.departures`)."""
        import pandas as pd

        from privlab.redaction.spia.departures import reference_variants

        failed = self.failed.get(anonymizer, {})
        gold = [r for r in self.documents if r.data_id not in failed]
        predicted = [r for r in self.predicted[anonymizer] if r.data_id not in failed]
        return pd.DataFrame(reference_variants(gold, predicted, self.protection[anonymizer]))

    def _recovery(self, name: str) -> str:
        p = self.protection[name]
        text = f"recovers {1 - p.cpr:.1%} of the PIIs"
        if name in self.baseline:
            text += (f", {self.excess(name):+.1%} beyond the text-blind base-rate guess "
                     f"({1 - self.baseline[name].cpr:.1%})")
        return text

    def spia_reported(self) -> str | None:
        """What SPIA reports for the data of this run (None for other data)."""
        found = SPIA_REPORTED.get(Path(self.config.data).name)
        if found is None:
            return None
        corpus, recall, cpr = found
        return (f"SPIA reports on {corpus}, against Claude-Sonnet-4.5, token recall "
                f"{recall:.3f} with CPR {cpr:.3f} for its highest-recall anonymizer (gap "
                f"{recall - cpr:+.3f}: the span metric overstates protection)")

    def summary(self) -> str:
        """The realistic anonymizer's span recall beside its CPR with the gap and its sign,
        the adversary's recovery beside its excess over the text-blind baseline, what SPIA
        reports for the same data, and the recovery from the unredacted text."""
        first, details = self.summary_parts()
        return "; ".join([first, *details])

    def summary_parts(self) -> tuple[str, tuple[str, ...]]:
        """The headline's first line (span recall beside CPR with the gap; the adversary's
        recovery beside the text-blind baseline's) and the details beneath it (IPR, the
        gap's sign, what SPIA reports, the recovery from the unredacted text)."""
        adversary = self.provenance["adversary"]
        base = (f"from the unredacted text it {self._recovery('none')}"
                if "none" in self.protection
                else "the unredacted baseline ('none') was not run")
        name = self.headline_anonymizer()
        if name is None:
            return f"no non-oracle anonymizer was run; {base} ({adversary})", ()
        s, p = self.spans[name], self.protection[name]
        gap = s.token_recall - p.cpr
        sign = ("the span metric overstates protection" if gap > 0 else
                "the span metric understates protection against this adversary" if gap < 0
                else "no gap")
        reported = self.spia_reported()
        first = (f"{name}: token recall {s.token_recall:.2f}, CPR {p.cpr:.2f} (gap {gap:+.2f}); "
                 f"{adversary} {self._recovery(name)}")
        details = [f"IPR {p.ipr:.2f}",
                   f"span-versus-inference gap (token recall - CPR) {gap:+.2f}: {sign}"]
        return first, tuple(details + ([reported] if reported else []) + [base])

    def quoted_figures(self) -> dict[str, str]:
        """The figures the notebook's prose and README quote (see ``privlab quote``).

        ``documents`` and, per anonymizer ``a``: ``a.token_recall``, ``a.cpr``, ``a.gap``
        (token recall - CPR, signed), ``a.recovered`` (1 - CPR, in %), ``a.excess`` (the
        recovery's excess over the text-blind guess, in points) and ``a.low_certainty``
        (the share of the recovery rated certainty below 3).
        """
        out = {"documents": f"{len(self.documents):,}"}
        for name, p in self.protection.items():
            s = self.spans[name]
            out[f"{name}.token_recall"] = f"{s.token_recall:.2f}"
            out[f"{name}.cpr"] = f"{p.cpr:.2f}" if not is_oracle(name) else f"{p.cpr:.3f}"
            out[f"{name}.gap"] = f"{s.token_recall - p.cpr:+.2f}".replace("-", "−")
            out[f"{name}.recovered"] = f"{1 - p.cpr:.1%}"
            if name in self.baseline:
                out[f"{name}.excess"] = f"{100 * self.excess(name):+.1f}"
            levels = p.certainty_frame()
            if levels["recovered"].sum() > 0:
                low = float(levels[levels["certainty"] < 3]["share"].sum())
                out[f"{name}.low_certainty"] = f"{low:.0%}"
        return out

    def headline(self) -> Headline:
        """:meth:`summary` with its status and what it rests on."""
        if self.config.data == "sample":
            data = f"{len(self.documents)} documents written by privlab in SPIA's schema"
        else:
            data = f"{len(self.documents)} documents of {Path(self.config.data).name} (real)"
        weak = self.provenance.get("weak")
        split = self.provenance.get("split", {})
        notes = [data]
        if split.get("scored_on") not in (None, "sample"):
            notes.append(f"split: rules developed on {split['development']}; scored "
                         f"documents: {split['documents_scored']} ({split['scored_on']})")
        notes += [f"adversary: {self.provenance['adversary']}" + (
            " (a weak offline stand-in for SPIA's LLM adversary: its CPR overstates "
            "protection)" if weak else " (not an offline stand-in)"),
            f"matcher: {self.provenance['matcher']}; value decider: "
            f"{self.provenance['value_decider']}; ages at {self.config.reference_date}"]
        name = self.headline_anonymizer()
        if name in self.protection:
            levels = self.protection[name].certainty_frame()
            low = float(levels[levels["certainty"] < 3]["share"].sum())
            if levels["recovered"].sum() > 0:
                notes.append(f"{low:.0%} of what the adversary recovered under {name} it "
                             "rated certainty below 3 (its own guesses)")
        if name in self.unmatched and not math.isnan(self.unmatched[name]):
            notes.append(f"{self.unmatched[name]:.0%} of the gold subjects under {name} "
                         "were paired with no predicted subject (counted as protected)")
        oracles = [n for n in self.protection if is_oracle(n)]
        if oracles:
            best = max(oracles, key=lambda n: self.spans[n].token_recall)
            notes.append(f"oracles ({', '.join(oracles)}) read the annotation they are scored "
                         f"on; {best}: token recall {self.spans[best].token_recall:.2f}, CPR "
                         f"{self.protection[best].cpr:.2f} (an upper bound on span masking)")
        for anonymizer, failed in self.failed.items():
            if failed:
                notes.append(f"{len(failed)} of {len(self.documents)} documents failed under "
                             f"{anonymizer} and are left out of its CPR")
        first, details = self.summary_parts()
        status, note = Status.split(self.status) or (Status.DESCRIPTIVE, self.status)
        return Headline(STUDY, first, status, tuple(notes), details=details, status_note=note)

    def _repr_html_(self) -> str:
        skipped = "".join(f"<li>{k}: {v}</li>" for k, v in self.skipped.items())
        return (f"<p><b>SPIA</b> — adversary {self.provenance.get('adversary')}, "
                f"{len(self.documents)} documents. <i>{self.status}</i></p>"
                + self.to_frame().to_html(index=False, float_format="%.3f")
                + (f"<p>Skipped:</p><ul>{skipped}</ul>" if skipped else ""))


def _load(config: Config):
    from privlab.redaction.spia.sample import entities_from_profiles, sample_records
    from privlab.redaction.spia.spans import entity_file_for, load_entities

    if config.data == "sample":
        records = sample_records()
        return records, "privlab sample", entities_from_profiles(records), \
            "derived from the profiles"
    path = Path(config.data)
    if not path.is_file():
        raise invalid("data", "studies.spia.run", "a SPIA JSON-lines file or 'sample'",
                      config.data)
    records, digest = load_spia(path), file_hash(path, 16)
    entity_path = entity_file_for(path)
    if entity_path is not None:
        return records, digest, load_entities(entity_path), entity_path.name
    return records, digest, entities_from_profiles(records), "derived from the profiles"


@registry.member("spia", number="08", title=STUDY, notebook="08_spia")
def run(config: Config | None = None) -> SPIAStudyResult:
    """Anonymize, attack and score: the whole SPIA study in one call.

    A document the adversary cannot read is recorded as failed, left out of that
    anonymizer's CPR and counted in the headline.

    Args:
        config: settings (default :meth:`Config.for_notebook`).

    Returns:
        A :class:`SPIAStudyResult`.

    Raises:
        PrivlabValueError: unknown adversary, matcher, value decider or data file, or a
            headline anonymizer that is an oracle.

    Example:
        >>> r = run(Config(data="sample", anonymizers=("none", "gold-spans"), adversary="none"))
        >>> r.to_frame()[["anonymizer", "oracle", "CPR"]].values.tolist()
        [['none', False, 1.0], ['gold-spans', True, 1.0]]
    """
    from privlab.redaction.spia.adversaries import LLMValueJudge, adversaries
    from privlab.redaction.spia.matching import matchers
    from privlab.redaction.spia.prompts import reference_date

    config = config or Config.for_notebook()
    if config.split is not None and config.split not in data_split.ROLES:
        raise invalid("split", "studies.spia.run", f"None or one of {list(data_split.ROLES)}",
                      config.split)
    if config.value_decider not in VALUE_DECIDERS:
        raise invalid("value_decider", "studies.spia.run", f"one of {list(VALUE_DECIDERS)}",
                      config.value_decider)
    if config.headline_anonymizer is not None and is_oracle(config.headline_anonymizer):
        raise invalid("headline_anonymizer", "studies.spia.run", "a non-oracle anonymizer",
                      config.headline_anonymizer,
                      "Oracles read the annotation they are scored on; report a real one.")
    when = reference_date(config.reference_date, "studies.spia.run")
    if config.max_documents is not None and (
            isinstance(config.max_documents, bool) or not isinstance(config.max_documents, int)
            or config.max_documents < 1):
        raise invalid("max_documents", "studies.spia.run", "a positive int or None (all "
                      "documents)", config.max_documents,
                      "A negative count would drop documents from the end.")
    records, digest, entities, span_source = _load(config)
    if config.split is not None and config.data != "sample":
        records = data_split.select(records, config.split)
    if config.max_documents is not None:
        records = records[: config.max_documents]
    if not records:
        raise invalid("data", "studies.spia.run", "a file with at least one document",
                      f"{config.data} (0 documents)", "With no document every score is "
                      "undefined (NaN).", given_is_text=True)
    entities = {r.data_id: entities[r.data_id] for r in records if r.data_id in entities}
    options = {"reference_date": when} if config.adversary in ("contextual", "llm") else {}
    if config.adversary == "llm" and config.prompts_from:
        options["prompts_from"] = config.prompts_from
    adversary = adversaries.create(config.adversary, **options)
    blind = adversaries.create(config.baseline) if config.baseline else None
    # The model's answers are recorded, so a person can review its disagreements later.
    fallback = ReviewQueue(LLMValueJudge()) if config.value_decider == "rule+llm" else None
    available = {a.name: a for a in anonymizer_options()}
    protections: dict[str, ProtectionResult] = {}
    spans: dict[str, SpanRecall] = {}
    texts: dict[str, list[str]] = {}
    skipped: dict[str, str] = {}
    predictions: dict[str, list] = {}
    failures: dict[str, dict[str, str]] = {}
    unmatched: dict[str, float] = {}
    baselines: dict[str, ProtectionResult] = {}
    ids = [r.data_id for r in records]
    matcher_name = ""
    for i, name in enumerate(config.anonymizers):
        step(f"anonymizing and attacking: {name}", i, len(config.anonymizers))
        info = available.get(name)
        if info is not None and not info.available:
            skipped[name] = info.reason
            continue
        if name.startswith("gold") and len(entities) < len(records):
            skipped[name] = "no span annotation for some documents"
            continue
        anonymized = anonymize(name, records, entities)
        predicted = adversary.infer(anonymized, ids, on_failure="record")
        failed = {r.data_id: r.metadata["failed"] for r in predicted if r.metadata.get("failed")}
        matcher = matchers.create(config.matcher)
        matcher_name = matcher.name
        scored = [r for r in records if r.data_id not in failed]
        protections[name] = protection(
            scored, [r for r in predicted if r.data_id not in failed], matcher=matcher,
            fallback=fallback, provenance={"adversary": adversary.name, "anonymizer": name})
        if blind is not None:
            guessed = blind.infer(anonymized, ids, on_failure="record")
            baselines[name] = protection(
                scored, [r for r in guessed if r.data_id not in failed],
                matcher=matchers.create(config.matcher),
                provenance={"adversary": blind.name, "anonymizer": name})
        unmatched[name] = (matcher.unmatched_fraction()
                           if hasattr(matcher, "unmatched_fraction") else float("nan"))
        spans[name] = span_recall(entities, dict(zip(ids, anonymized)))
        texts[name] = anonymized
        predictions[name] = predicted
        failures[name] = failed
    step("scored", len(config.anonymizers), len(config.anonymizers))
    weak = bool(getattr(adversary, "weak", False))
    status = ("descriptive; the adversary is a weak offline stand-in, so CPR/IPR "
              "overstate protection" if weak else
              "descriptive: protection against this adversary on this data")
    provenance = {"data": config.data, "data_digest": digest,
                  "adversary": adversary.name, "weak": weak,
                  "matcher": matcher_name or config.matcher,
                  "value_decider": "rule then "
                  f"{fallback.name}" if fallback else "rule only",
                  "reference_date": when.isoformat(), "spans": span_source,
                  "baseline": blind.name if blind is not None else None,
                  "split": data_split.describe(records) if config.data != "sample"
                  else {"development": "not applicable (privlab sample)",
                        "documents_scored": {}, "scored_on": "sample"}}
    return SPIAStudyResult(config, protections, spans, texts, skipped, list(records),
                           predicted=predictions, failed=failures, unmatched=unmatched,
                           status=status, provenance=provenance, review=fallback,
                           baseline=baselines)
