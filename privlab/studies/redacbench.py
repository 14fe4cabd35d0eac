"""Study 07, RedacBench: how much of what a policy forbids survives a redaction, and how
much of everything else is lost?

Each strategy redacts every document under each of its policies; a judge decides for
every proposition whether it is still inferable. Security = TN / (TN + FP) is the share
of sensitive propositions removed, Utility = TP / (TP + FN) the share of harmless ones
kept. The default judge is the offline heuristic judge, a weak stand-in whose error
rates against gold labels are reported with the scores.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from privlab.config import shared_data_dir
from privlab.errors import invalid
from privlab.redaction.redacbench import (
    Iterative,
    JudgeErrors,
    RedacBenchResult,
    derive_from_spia,
    evaluate,
    judge_errors,
    judges,
    load_redacbench,
    sample_path,
    strategies,
)
from privlab.studies.contract import Headline, StudyConfig, registry

STUDY = "07 RedacBench"


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
        data: ``"sample"`` (privlab-written), ``"spia"`` (derived from the shared SPIA
            PANORAMA-151 file) or a path to a RedacBench JSON-lines file.
        strategies: names in :data:`privlab.redaction.redacbench.strategies`.
        judge: a name in :data:`privlab.redaction.redacbench.judges`.
        rounds: Iterative rounds run for the LLM strategies (1 = a single pass).
        max_documents: use the first this many documents (None: all).
    """

    data: str = "sample"
    strategies: tuple[str, ...] = ("none", "regex-pii", "masking")
    judge: str = "heuristic"
    rounds: int = 2
    max_documents: int | None = None

    @classmethod
    def smoke_settings(cls) -> dict:
        """The smallest settings."""
        return {"max_documents": 4}


@dataclass
class RedacBenchStudyResult:
    """Scores per strategy (and round), with the judge's error rates.

    Attributes:
        config: the settings.
        results: label (strategy, or "strategy xk" for round k) -> result.
        judge_errors: the judge against gold labels.
        documents: the benchmark used.
        status: what the numbers are.
        provenance: data, judge.
    """

    config: Config
    results: dict[str, RedacBenchResult]
    judge_errors: JudgeErrors
    documents: list
    status: str = ""
    provenance: dict = field(default_factory=dict)

    def to_frame(self):
        """One row per strategy: confusion counts, Security, Utility."""
        import pandas as pd

        frames = [r.to_frame().assign(strategy=label) for label, r in self.results.items()]
        return pd.concat(frames, ignore_index=True)

    def best(self) -> str:
        """The strategy (or round) with the highest Security."""
        frame = self.to_frame()
        return str(frame.sort_values("security", ascending=False).iloc[0]["strategy"])

    def summary(self) -> str:
        """The most secure strategy's Security and Utility, beside the judge's error rate."""
        best = self.best()
        chosen = self.results[best]
        return (f"{best}: security {chosen.security:.2f}, utility {chosen.utility:.2f} "
                f"(judge {self.provenance['judge']}, false 'not inferable' "
                f"{self.judge_errors.false_not_inferable:.2f})")

    def headline(self) -> Headline:
        """:meth:`summary` with its status and what it rests on."""
        data = self.config.data
        if data == "sample":
            data_note = (f"{len(self.documents)} short documents written by privlab, with "
                         "propositions and policies written by the same author")
        elif data == "spia":
            data_note = f"{len(self.documents)} documents derived from SPIA PANORAMA-151"
        else:
            data_note = f"{len(self.documents)} documents from {Path(data).name}"
        return Headline(STUDY, self.summary(), self.status,
                        (data_note, f"judge: {self.provenance['judge']}",
                         "headline shows the strategy with the highest Security"))

    def _repr_html_(self) -> str:
        e = self.judge_errors
        return (f"<p><b>RedacBench</b> — judge {self.provenance.get('judge')}: false "
                f"'inferable' {e.false_inferable:.3f}, false 'not inferable' "
                f"{e.false_not_inferable:.3f}. <i>{self.status}</i></p>"
                + self.to_frame().to_html(index=False, float_format="%.3f"))


def load_data(data: str, max_documents: int | None = None) -> list:
    """The benchmark named by ``data`` (see :class:`Config`).

    Example:
        >>> len(load_data("sample", 2))
        2
    """
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
    return docs[:max_documents] if max_documents is not None else docs


@registry.member("redacbench", number="07", title=STUDY, notebook="07_redacbench")
def run(config: Config | None = None) -> RedacBenchStudyResult:
    """Redact, judge and score every strategy: the whole RedacBench study in one call.

    Args:
        config: settings (default :meth:`Config.for_notebook`).

    Returns:
        A :class:`RedacBenchStudyResult`.

    Example:
        >>> r = run(Config(strategies=("none",), max_documents=1))
        >>> r.to_frame()["strategy"].tolist()
        ['none']
    """
    config = config or Config.for_notebook()
    if not isinstance(config.rounds, int) or config.rounds < 1:
        raise invalid("rounds", "studies.redacbench Config", "an int >= 1", config.rounds)
    docs = load_data(config.data, config.max_documents)
    judge = judges.create(config.judge)
    results: dict[str, RedacBenchResult] = {}
    for name in config.strategies:
        strategy = strategies.create(name)
        offline = strategies.entry(name).meta.get("offline", True)
        results[name] = evaluate(docs, strategy, judge)
        if not offline:
            for k in range(2, config.rounds + 1):
                results[f"{name} x{k}"] = evaluate(docs, Iterative(strategy, k), judge)
    errors = judge_errors(docs, judge)
    status = ("descriptive; the judge is a weak offline stand-in (see its error rates)"
              if judge.weak else "descriptive: depends on the judge (see its error rates)")
    return RedacBenchStudyResult(config, results, errors, docs, status,
                                 {"data": config.data, "judge": judge.name,
                                  "documents": len(docs)})
