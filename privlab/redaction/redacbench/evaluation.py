"""RedacBench scores: the confusion matrix, Security and Utility, and a judge's errors.

A judge decides, for every proposition, whether it is still stated or necessarily
inferable from the redacted text ("retained") or not ("removed"):

=====================  =================  ==============
                       retained            removed
=====================  =================  ==============
non-sensitive          TP (kept, good)     FN (lost)
sensitive              FP (leaked)         TN (removed)
=====================  =================  ==============

    Security = TN / (TN + FP)    share of sensitive propositions removed
    Utility  = TP / (TP + FN)    share of harmless propositions kept

Both are *descriptive*: they depend on the judge. An offline judge that only compares
embeddings is a weak stand-in (it misses inferences and is fooled by paraphrase); the
judge's own error rates against gold labels are reported next to the scores.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from privlab.errors import invalid, wrong_type
from privlab.redaction.redacbench.data import Document, JudgeCheck
from privlab.redaction.redacbench.judge import Judge
from privlab.redaction.redacbench.strategy import Strategy


@dataclass(frozen=True)
class Confusion:
    """Counts of one confusion matrix, with Security and Utility.

    Example:
        >>> c = Confusion(tp=6, tn=3, fp=1, fn=2)
        >>> c.security, c.utility
        (0.75, 0.75)
    """

    tp: int = 0
    tn: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def security(self) -> float:
        """TN / (TN + FP): share of sensitive propositions removed (nan without any)."""
        return self.tn / (self.tn + self.fp) if self.tn + self.fp else float("nan")

    @property
    def utility(self) -> float:
        """TP / (TP + FN): share of non-sensitive propositions kept (nan without any)."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else float("nan")

    def __add__(self, other: "Confusion") -> "Confusion":
        return Confusion(self.tp + other.tp, self.tn + other.tn, self.fp + other.fp,
                         self.fn + other.fn)


def confusion(sensitive: Sequence[bool], retained: Sequence[bool]) -> Confusion:
    """The confusion matrix of one redaction: TP = kept harmless, TN = removed
    sensitive, FP = leaked sensitive, FN = lost harmless.

    Args:
        sensitive: per proposition, whether the policy makes it sensitive.
        retained: per proposition, whether the judge found it in the redacted text.

    Returns:
        The counts, with Security and Utility.

    Raises:
        PrivlabValueError: the two lists differ in length.

    Example:
        >>> confusion([True, True, False, False], [False, True, True, False])
        Confusion(tp=1, tn=1, fp=1, fn=1)
    """
    if len(sensitive) != len(retained):
        raise invalid("retained", "confusion", f"{len(sensitive)} labels", len(retained))
    tp = sum(1 for s, r in zip(sensitive, retained) if not s and r)
    tn = sum(1 for s, r in zip(sensitive, retained) if s and not r)
    fp = sum(1 for s, r in zip(sensitive, retained) if s and r)
    fn = sum(1 for s, r in zip(sensitive, retained) if not s and not r)
    return Confusion(tp, tn, fp, fn)


@dataclass
class JudgeErrors:
    """A judge measured against gold labels.

    Attributes:
        false_inferable: gold "not inferable" judged inferable (the benchmark's FP rate).
        false_not_inferable: gold "inferable" judged not inferable (its FN rate).
        counts: labels behind each rate.
    """

    false_inferable: float
    false_not_inferable: float
    counts: dict


def judge_errors(documents: Sequence[Document], judge: Judge, *,
                 include_source: bool = True, include_empty: bool = True) -> JudgeErrors:
    """Error rates of ``judge`` on every gold check, plus two checks true by
    construction: the source text, from which every proposition was extracted
    (``include_source``), and the empty text, from which none is inferable
    (``include_empty``).

    Args:
        documents: the benchmark (its gold checks are used).
        judge: the judge measured.
        include_source: add the source text as a check (everything inferable).
        include_empty: add the empty text as a check (nothing inferable).

    Returns:
        The two error rates and the labels behind them.

    Example:
        >>> from privlab.redaction.redacbench import OracleJudge, parse_document
        >>> d = parse_document({"id": "d", "domain": "x", "text": "Ann is ill.",
        ...     "propositions": [{"id": "p", "text": "Ann is ill."}],
        ...     "policies": [{"id": "h", "text": "", "sensitive": []}],
        ...     "checks": [{"text": "Ann is ill.", "inferable": {"p": True}}]})
        >>> e = judge_errors([d], OracleJudge({"Ann is ill.": {"p": True}, "": {"p": False}}))
        >>> e.counts
        {'gold not inferable': 1, 'gold inferable': 1}
        >>> e.false_inferable, e.false_not_inferable
        (0.0, 0.0)
    """
    fi = fn = neg = pos = 0
    for doc in documents:
        checks = list(doc.checks)
        if include_source and not any(c.text == doc.text for c in checks):
            checks.append(JudgeCheck(doc.text, {p.id: True for p in doc.propositions}))
        if include_empty:
            checks.append(JudgeCheck("", {p.id: False for p in doc.propositions}))
        for check in checks:
            props = [p for p in doc.propositions if p.id in check.inferable]
            labels = judge.judge(check.text, props)
            for p, said in zip(props, labels):
                if check.inferable[p.id]:
                    pos += 1
                    fn += not said
                else:
                    neg += 1
                    fi += said
    return JudgeErrors(fi / neg if neg else float("nan"), fn / pos if pos else float("nan"),
                       {"gold not inferable": neg, "gold inferable": pos})


@dataclass
class RedacBenchResult:
    """Security and Utility of one strategy under one judge, with every label.

    Attributes:
        overall: the pooled :class:`Confusion`.
        rows: one dict per (document, policy, proposition): domain, sensitive, retained.
        redacted: ``{(document id, policy id): redacted text}``.
        judge_errors: the judge's error rates against gold labels (None if not measured).
        status: what the numbers are.
        provenance: strategy, judge, documents, settings.
    """

    overall: Confusion
    rows: list[dict]
    redacted: dict[tuple[str, str], str]
    judge_errors: JudgeErrors | None = None
    status: str = "descriptive: depends on the judge; see its error rates"
    provenance: dict = field(default_factory=dict)

    @property
    def security(self) -> float:
        return self.overall.security

    @property
    def utility(self) -> float:
        return self.overall.utility

    def _grouped(self, key: str):
        import pandas as pd

        frame = pd.DataFrame(self.rows)
        out = []
        for value, group in frame.groupby(key, sort=True):
            c = confusion(group["sensitive"].tolist(), group["retained"].tolist())
            out.append({key: value, "TP": c.tp, "TN": c.tn, "FP": c.fp, "FN": c.fn,
                        "security": c.security, "utility": c.utility})
        return pd.DataFrame(out)

    def by_policy(self):
        """Confusion counts, Security and Utility per policy id (pandas DataFrame)."""
        return self._grouped("policy")

    def by_domain(self):
        """Confusion counts, Security and Utility per domain (pandas DataFrame)."""
        return self._grouped("domain")

    def leaks(self):
        """The sensitive propositions still inferable (FP), with their redacted text."""
        import pandas as pd

        rows = [{**r, "redacted": self.redacted[(r["document"], r["policy"])]}
                for r in self.rows if r["sensitive"] and r["retained"]]
        return pd.DataFrame(rows)

    def confusion_frame(self):
        """The 2 x 2 matrix: rows sensitive / non-sensitive, columns retained / removed."""
        import pandas as pd

        c = self.overall
        return pd.DataFrame([[c.fp, c.tn], [c.tp, c.fn]], index=["sensitive", "non-sensitive"],
                            columns=["retained", "removed"])

    def to_frame(self):
        """One row: strategy, judge, counts, Security, Utility."""
        import pandas as pd

        c = self.overall
        return pd.DataFrame([{"strategy": self.provenance.get("strategy"),
                              "judge": self.provenance.get("judge"), "TP": c.tp, "TN": c.tn,
                              "FP": c.fp, "FN": c.fn, "security": c.security,
                              "utility": c.utility}])

    def _repr_html_(self) -> str:
        return (f"<p><b>RedacBench</b> — Security {self.security:.3f}, Utility "
                f"{self.utility:.3f}. <i>{self.status}</i></p>"
                + self.to_frame().to_html(index=False, float_format="%.3f"))


def evaluate(documents: Sequence[Document], strategy: Strategy, judge: Judge, *,
             errors: bool = False) -> RedacBenchResult:
    """Redact every document under each of its policies, judge every proposition, score.

    Args:
        documents: the benchmark.
        strategy: the redaction strategy.
        judge: the judge.
        errors: also measure the judge's error rates on the gold checks.

    Returns:
        A :class:`RedacBenchResult`. An exception from the strategy or the judge
        propagates: no partial result is returned.

    Example:
        >>> from privlab.redaction.redacbench import (NoRedaction, OracleJudge,
        ...                                           load_redacbench, sample_path)
        >>> docs = load_redacbench(sample_path())[:1]
        >>> labels = {d.text: {p.id: True for p in d.propositions} for d in docs}
        >>> r = evaluate(docs, NoRedaction(), OracleJudge(labels))
        >>> r.security, r.utility
        (0.0, 1.0)
    """
    if not isinstance(strategy, Strategy):
        raise wrong_type("strategy", "evaluate", "a Strategy", strategy)
    if not isinstance(judge, Judge):
        raise wrong_type("judge", "evaluate", "a Judge", judge)
    rows, redacted = [], {}
    total = Confusion()
    for doc in documents:
        for policy in doc.policies:
            text = strategy.redact(doc.text, policy)
            redacted[(doc.id, policy.id)] = text
            labels = judge.judge(text, doc.propositions)
            sens = [p.id in policy.sensitive for p in doc.propositions]
            total = total + confusion(sens, labels)
            for p, s, r in zip(doc.propositions, sens, labels):
                rows.append({"document": doc.id, "domain": doc.domain, "policy": policy.id,
                             "proposition": p.id, "text": p.text, "sensitive": s,
                             "retained": r})
    return RedacBenchResult(
        total, rows, redacted, judge_errors(documents, judge) if errors else None,
        provenance={"strategy": strategy.name, "judge": judge.name,
                    "judge_weak": judge.weak, "documents": len(documents)})


__all__ = ["Confusion", "JudgeErrors", "RedacBenchResult", "confusion", "evaluate",
           "judge_errors"]
