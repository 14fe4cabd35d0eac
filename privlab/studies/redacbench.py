"""Study 07, RedacBench: how much of what a policy forbids survives a redaction, and how
much of everything else is lost?

Security = TN / (TN + FP) (sensitive propositions removed) and Utility = TP / (TP + FN)
(harmless ones kept), by a judge measured first on hand labels; the headline reports the
strategy the Config names beside the unredacted baseline. See
``docs/methods/studies-text.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from privlab.config import shared_data_dir
from privlab.errors import invalid
from privlab.progress import step
from privlab.hashing import file_hash
from privlab.redaction.redacbench import (
    Confusion,
    Iterative,
    JudgeErrors,
    OracleJudge,
    RedacBenchResult,
    derive_from_spia,
    evaluate,
    judge_errors,
    judges,
    load_redacbench,
    sample_path,
    score_redactions,
    strategies,
)
from privlab.redaction.redacbench.agreement import (
    Agreement,
    label_agreement,
    load_second_labels,
    overlap_counts,
    second_labels_path,
)
from privlab.studies.contract import Headline, Status, StudyConfig, StudyResult, registry
from privlab.studies.params import param

STUDY = "07 RedacBench"
BASELINE = "none"

#: RedacBench's reported Masking Security range over its models (LLM judge), for context.
REDACBENCH_MASKING_SECURITY = (0.359, 0.516)


def data_options() -> list[str]:
    """``"sample"``, plus ``"spia"`` when the SPIA files are present (a derived benchmark).

    Example:
        >>> data_options()[0]
        'sample'
    """
    folder = shared_data_dir()
    spia = folder is not None and (folder / "spia" / "spia_panorama_151.jsonl").is_file()
    return ["sample"] + (["spia"] if spia else [])


@dataclass
class Config(StudyConfig):
    """Settings of the RedacBench study.

    Attributes:
        data: ``"sample"`` (privlab-written, with hand labels), ``"spia"`` (derived from
            the shared SPIA PANORAMA-151 file; no hand labels) or a path to a RedacBench
            JSON-lines file.
        strategies: names in :data:`privlab.redaction.redacbench.strategies`; the
            unredacted baseline ``"none"`` is always run too.
        judge: a non-oracle name in :data:`privlab.redaction.redacbench.judges` (the
            hand-label reference is computed anyway, see :meth:`RedacBenchStudyResult.to_frame`).
        headline: the strategy the headline reports, chosen before computing; one of
            ``strategies``, not ``"none"``, not an oracle.
        rounds: Iterative rounds run for the LLM strategies (1 = a single pass).
        max_documents: use the first this many documents (None: all).
    """

    data: str = param("sample", choices=lambda: data_options())
    strategies: tuple[str, ...] = param(("none", "regex-pii", "masking"),
                                        family="redacbench-strategy",
                                        filters={"oracle": False})
    judge: str = param("heuristic", family="redacbench-judge", filters={"oracle": False})
    headline: str = param("masking", label="Headline strategy", family="redacbench-strategy",
                          filters={"oracle": False}, exclude=(BASELINE,))
    rounds: int = 2
    max_documents: int | None = None

    @classmethod
    def smoke_settings(cls) -> dict:
        """The smallest settings."""
        return {"max_documents": 4}


def _describe_data(data: str, documents: list) -> str:
    n = len(documents)
    props = sum(len(d.propositions) for d in documents)
    policies = sum(len(d.policies) for d in documents)
    domains = sorted({d.domain for d in documents})
    if data == "sample":
        return (f"{n} short documents written for privlab ({', '.join(domains)}), "
                f"{props} propositions, {policies} policies, keyword lists and hand labels "
                "by the same author; RedacBench has 514 human-written texts, 187 policies "
                "and 8,053 propositions")
    if data == "spia":
        return (f"{n} documents derived from SPIA PANORAMA-151 ({props} propositions, one "
                "per counted PII; masking keywords are the gold values)")
    return f"{n} documents from {Path(data).name} ({props} propositions, {policies} policies)"


@dataclass(frozen=True)
class RedacBenchStudyResult(StudyResult):
    """Scores per strategy (and round), with the judge's error rates on hand labels.

    Attributes:
        config: the settings.
        results: label (strategy, or "strategy xk" for round k) -> result under the judge.
        judge_errors: the judge against the hand labels.
        documents: the benchmark used.
        hand: label -> the same redacted texts scored by the hand labels (an oracle
            reference), or None where some redacted text has no hand label.
        oracle: label -> whether the strategy read the answer key on this data.
        status: what the numbers are.
        provenance: data, digest, judge, headline strategy.
        agreement: the second labelling pass against the first, on the documents used
            (None where the data has no second pass).
        overlaps: :func:`~privlab.redaction.redacbench.agreement.overlap_counts` of the
            documents used.
    """

    config: Config
    results: dict[str, RedacBenchResult]
    judge_errors: JudgeErrors
    documents: list
    hand: dict[str, Confusion | None] = field(default_factory=dict)
    oracle: dict[str, bool] = field(default_factory=dict)
    status: str = ""
    agreement: Agreement | None = None
    overlaps: dict = field(default_factory=dict)

    def to_frame(self):
        """One row per strategy: counts, Security, Utility (under the judge), BLEU,
        ROUGE-L, and ``hand security`` / ``hand utility``: the same texts scored by the
        hand labels (a careful reader as the judge; nan where a text has no hand label)."""
        import pandas as pd

        rows = []
        for label, result in self.results.items():
            row = result.to_frame().assign(strategy=label).iloc[0].to_dict()
            ref = self.hand.get(label)
            row["hand security"] = ref.security if ref is not None else float("nan")
            row["hand utility"] = ref.utility if ref is not None else float("nan")
            row["oracle"] = self.oracle.get(label, False)
            rows.append(row)
        return pd.DataFrame(rows)

    def headline_strategy(self) -> str | None:
        """The Config's headline strategy, or None when it is an oracle on this data."""
        name = self.config.headline
        return None if self.oracle.get(name, False) else name

    def summary(self) -> str:
        """The chosen strategy against the unredacted baseline: by the hand labels first
        where every text it produced has them, then by the judge, with the judge's errors.
        """
        first, details = self.summary_parts()
        return "; ".join([first, *details])

    def summary_parts(self) -> tuple[str, tuple[str, ...]]:
        """The headline's first line (the chosen strategy's Security and Utility beside the
        unredacted baseline's: by the hand labels where every text it produced has them,
        else by the judge) and the details beneath it (the judge's values and errors,
        BLEU and ROUGE-L)."""
        name = self.headline_strategy()
        n = len(self.documents)
        if name is None:
            return (f"no headline: {self.config.headline} reads the answer key on this data "
                    "(an oracle); choose another headline strategy"), ()
        chosen, base = self.results[name], self.results[BASELINE]
        u = chosen.text_utility
        judged = (f"security {chosen.security:.2f} (unredacted {base.security:.2f}), utility "
                  f"{chosen.utility:.2f} (unredacted {base.utility:.2f})")
        judge = f"judge {self.provenance['judge']}: {judged}"
        words = f"BLEU {u['bleu']:.2f}, ROUGE-L {u['rougeL']:.2f}"
        hand, hand_base = self.hand.get(name), self.hand.get(BASELINE)
        if hand is None or hand_base is None:
            return (f"{name} on {n} {self._data_words()}, judge only (no hand labels): "
                    f"{judged}"), (judge, self.judge_errors.summary(), words)
        return (f"{name} on {n} {self._data_words()}: security {hand.security:.2f} by the "
                f"hand labels ({hand.tn} of {hand.tn + hand.fp} sensitive propositions "
                f"removed; unredacted {hand_base.security:.2f}), utility {hand.utility:.2f} "
                f"(unredacted {hand_base.utility:.2f})"), (
                    f"beside it {judge}", self.judge_errors.summary(), words)

    def quoted_figures(self) -> dict[str, str]:
        """The figures the notebook's prose and README quote (see ``privlab quote``).

        ``documents``; for the headline strategy ``s`` where hand labels cover its texts:
        ``s.hand_removed`` and ``s.hand_sensitive`` (sensitive propositions removed, of
        all), ``s.hand_security``; per strategy the judge's ``s.security``; and the second
        labelling pass's ``agreement.kappa``, ``agreement.agree`` and ``agreement.pairs``.
        """
        out = {"documents": f"{len(self.documents):,}"}
        for label, result in self.results.items():
            out[f"{label}.security"] = f"{result.security:.2f}"
            out[f"{label}.utility"] = f"{result.utility:.2f}"
        name = self.headline_strategy()
        hand = self.hand.get(name) if name else None
        if hand is not None:
            out[f"{name}.hand_removed"] = f"{hand.tn:,}"
            out[f"{name}.hand_sensitive"] = f"{hand.tn + hand.fp:,}"
            out[f"{name}.hand_security"] = f"{hand.security:.2f}"
        if self.agreement is not None:
            a = self.agreement
            out["agreement.kappa"] = f"{a.kappa:.2f}"
            out["agreement.agree"] = f"{a.agree:,}"
            out["agreement.pairs"] = f"{a.pairs:,}"
        return out

    def _data_words(self) -> str:
        data = self.config.data
        if data == "sample":
            return "privlab-written documents"
        if data == "spia":
            return "SPIA-derived documents"
        return f"documents of {Path(data).name}"

    def headline(self) -> Headline:
        """:meth:`summary` with its status and what it rests on."""
        judge = self.provenance["judge"]
        e = self.judge_errors
        if self.provenance.get("judge_weak"):
            judge_note = (f"judge {judge} is a weak offline stand-in (embedding cosine + "
                          "word overlap, no reasoning); on the unredacted texts it already "
                          f"misses {self.results[BASELINE].security:.0%} of the sensitive "
                          "propositions, so its Security overstates what a redaction removes")
        else:
            judge_note = (f"judge {judge}: RedacBench's GPT-4.1-mini judge erred at 2.62% "
                          "false 'inferable' and 1.45% false 'not inferable' on 8,053 "
                          "propositions")
        errors_note = (f"judge error rates measured on {e.labels} hand labels of "
                       f"{sum(len(d.checks) for d in self.documents)} redacted texts "
                       f"({e.counts['gold inferable']} inferable, "
                       f"{e.counts['gold not inferable']} not)" if e.labels else
                       "the data has no hand labels: the judge's error rates are unmeasured")
        caveats = [_describe_data(self.config.data, self.documents), self.labels_note(),
                   judge_note, errors_note,
                   f"headline strategy '{self.config.headline}' fixed in the Config before "
                   "computing; the table shows every strategy"]
        if self.overlaps:
            o = self.overlaps
            caveats.append(
                f"propositions sharing a content word with their policy's masking keywords "
                f"beyond named entities: {o['sensitive overlapping']} of "
                f"{o['sensitive pairs']} sensitive and {o['harmless overlapping']} of "
                f"{o['harmless pairs']} harmless proposition-policy pairs")
        if self.config.headline == "masking" and self.headline_strategy() is not None:
            low, high = REDACBENCH_MASKING_SECURITY
            caveats.append("masking removes the data file's keyword lists (a stand-in for the "
                           "model-proposed keywords of RedacBench, whose Masking Security is "
                           f"{low:.0%}-{high:.0%} across models)")
        caveats.append("BLEU and ROUGE-L compare each redacted text with its original "
                       "(sacrebleu, rouge-score): surviving wording, not meaning")
        first, details = self.summary_parts()
        status, note = Status.split(self.status) or (Status.DESCRIPTIVE, self.status)
        return Headline(STUDY, first, status, tuple(caveats), details=details,
                        status_note=note)

    def labels_note(self) -> str:
        """Who wrote the hand labels, and how far a second pass agrees with them."""
        checks = sum(len(d.checks) for d in self.documents)
        if not checks:
            return "no hand labels"
        labels = self.judge_errors.labels
        if self.config.data != "sample":
            return (f"{labels} hand labels of the data file; who wrote them and their "
                    "agreement are not recorded here")
        first = (f"the {labels} hand labels were written by one annotator, the sample's "
                 "author")
        a = self.agreement
        if a is None:
            return first + "; no agreement between annotators was measured"
        return (f"{first}; a second pass, written from the propositions and the checked "
                f"texts without the first labels, relabelled {a.pairs} of them: "
                f"{a.summary()}; both passes were written within privlab, not by outside "
                "annotators")

    def _repr_html_(self) -> str:
        return (f"<p><b>RedacBench</b> — judge {self.provenance.get('judge')}: "
                f"{self.judge_errors.summary()}. <i>{self.status}</i></p>"
                + self.to_frame().to_html(index=False, float_format="%.3f"))


def load_data(data: str, max_documents: int | None = None) -> list:
    """The benchmark named by ``data`` (see :class:`Config`).

    Raises:
        PrivlabValueError: unknown ``data``, a ``max_documents`` that is not a positive
            int or None, or a benchmark without documents (every score would be NaN).

    Example:
        >>> len(load_data("sample", 2))
        2
    """
    caller = "studies.redacbench.load_data"
    if max_documents is not None and (isinstance(max_documents, bool) or not isinstance(
            max_documents, int) or max_documents < 1):
        raise invalid("max_documents", caller, "a positive int or None (all documents)",
                      max_documents, "A negative count would drop documents from the end.")
    if data == "sample":
        docs = load_redacbench(sample_path())
    elif data == "spia":
        from privlab.redaction.spia import load_spia

        folder = shared_data_dir()
        path = folder / "spia" / "spia_panorama_151.jsonl" if folder else None
        if path is None or not path.is_file():
            raise invalid("data", "studies.redacbench", "'sample' or a file", data,
                          "The SPIA files are absent; use 'sample'.")
        docs = derive_from_spia(load_spia(path), max_documents=max_documents or 10)
    elif Path(data).is_file():
        docs = load_redacbench(data)
    else:
        raise invalid("data", "studies.redacbench", "'sample', 'spia' or a JSON-lines file",
                      data)
    docs = docs[:max_documents] if max_documents is not None else docs
    if not docs:
        raise invalid("data", caller, "a benchmark with at least one document",
                      f"{data} (0 documents)", "With no document every score is undefined "
                      "(NaN); pass a file with at least one record.", given_is_text=True)
    return docs


def _data_digest(data: str) -> str:
    if data == "sample":
        return file_hash(sample_path(), 16)
    if data != "spia" and Path(data).is_file():
        return file_hash(data, 16)
    return data


def _check(config: Config) -> tuple[str, ...]:
    caller = "studies.redacbench Config"
    if not isinstance(config.rounds, int) or config.rounds < 1:
        raise invalid("rounds", caller, "an int >= 1", config.rounds)
    names = tuple(config.strategies)
    for name in names:
        strategies.entry(name)  # unknown names list the known ones
    if config.headline not in names or config.headline == BASELINE:
        raise invalid("headline", caller, f"one of the strategies {list(names)} other than "
                      f"'{BASELINE}'", config.headline,
                      "Name the strategy to report before running; 'none' is the baseline.")
    if strategies.entry(config.headline).meta.get("oracle", False):
        raise invalid("headline", caller, "a strategy that is not an oracle", config.headline)
    if judges.entry(config.judge).meta.get("oracle", False):
        raise invalid("judge", caller, "a judge that is not an oracle", config.judge,
                      "The hand-label reference is computed anyway ('hand' columns).")
    return names if BASELINE in names else (BASELINE,) + names


@registry.member("redacbench", number="07", title=STUDY, notebook="07_redacbench")
def run(config: Config | None = None) -> RedacBenchStudyResult:
    """Measure the judge on the hand labels, then redact, judge and score every strategy.

    Args:
        config: settings (default :meth:`Config.for_notebook`).

    Returns:
        A :class:`RedacBenchStudyResult`.

    Raises:
        PrivlabValueError: bad rounds, an unknown strategy, a headline strategy that is
            not among the strategies (or is ``none`` or an oracle), an oracle judge.

    Example:
        >>> r = run(Config(strategies=("masking",), max_documents=1))
        >>> r.to_frame()["strategy"].tolist()
        ['none', 'masking']
    """
    config = config or Config.for_notebook()
    names = _check(config)
    docs = load_data(config.data, config.max_documents)
    judge = judges.create(config.judge)
    step("checking the judge on the hand labels", 0, len(names) + 1)
    errors = judge_errors(docs, judge)
    reference = OracleJudge.from_documents(docs)
    results: dict[str, RedacBenchResult] = {}
    for i, name in enumerate(names):
        step(f"redacting and judging: {name}", i + 1, len(names) + 1)
        strategy = strategies.create(name)
        runs = [(name, strategy)]
        if not strategies.entry(name).meta.get("offline", True):
            runs += [(f"{name} x{k}", Iterative(strategy, k))
                     for k in range(2, config.rounds + 1)]
        for label, s in runs:
            results[label] = evaluate(docs, s, judge)
    step("scoring", len(names) + 1, len(names) + 1)
    hand: dict[str, Confusion | None] = {}
    oracle: dict[str, bool] = {}
    for label, result in results.items():
        oracle[label] = bool(result.provenance.get("strategy_oracle"))
        covered = all(reference.knows(text, next(d for d in docs if d.id == key[0]).propositions)
                      for key, text in result.redacted.items())
        hand[label] = (score_redactions(docs, result.redacted, reference).overall
                       if covered else None)
    headline_hand = hand.get(config.headline)
    if not errors.labels:
        status = ("descriptive; the judge is " + ("a weak offline stand-in, " if judge.weak
                                                  else "") +
                  "unmeasured (the data has no hand labels)")
    elif headline_hand is not None and hand.get(BASELINE) is not None:
        status = ("descriptive: Security and Utility by the hand labels (one annotator; see "
                  "the second pass), the " + ("weak offline " if judge.weak else "") +
                  "judge's values and error rates beside them")
    else:
        status = ("descriptive; the judge is a weak offline stand-in (see its error rates on "
                  "the hand labels)" if judge.weak else
                  "descriptive: depends on the judge (see its error rates on the hand labels)")
    agreement = _agreement(config.data, docs)
    return RedacBenchStudyResult(
        config, results, errors, docs, hand, oracle, status, agreement, overlap_counts(docs),
        provenance={"data": config.data, "data_digest": _data_digest(config.data),
                    "judge": judge.name, "judge_weak": judge.weak, "documents": len(docs),
                    "headline": config.headline, "strategies": list(names),
                    "second_labels": (file_hash(second_labels_path(), 16)
                                      if agreement is not None else None)})


def _agreement(data: str, docs: list) -> Agreement | None:
    """The sample's second labelling pass against its first, on the documents used."""
    if data != "sample" or not second_labels_path().is_file():
        return None
    used = {d.id for d in docs}
    second = [s for s in load_second_labels(second_labels_path(),
                                            load_redacbench(sample_path()))
              if s.document in used]
    return label_agreement(docs, second) if second else None


__all__ = ["BASELINE", "Config", "REDACBENCH_MASKING_SECURITY", "RedacBenchStudyResult",
           "data_options", "load_data", "run"]
