"""RedacBench scores: the confusion matrix, Security and Utility, text utility, and a
judge's errors against hand labels.

``Security = TN / (TN + FP)`` (sensitive propositions removed) and
``Utility = TP / (TP + FN)`` (harmless ones kept) are descriptive: they depend on the
judge, whose error rates on the hand labels are reported beside them. See docs/methods/redaction-redacbench.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from privlab.errors import invalid, wrong_type
from privlab.redaction.redacbench.data import Document
from privlab.redaction.redacbench.judge import Judge
from privlab.redaction.redacbench.strategy import Strategy, as_strategy
from privlab.redaction.utility import MEASURES, per_document


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
    """The confusion matrix of one redaction (TP kept harmless, FP leaked sensitive).

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


def _exact_interval(errors: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """Clopper-Pearson interval of a binomial rate (nan, nan without trials)."""
    if not trials:
        return float("nan"), float("nan")
    from scipy.stats import beta

    tail = (1.0 - level) / 2.0
    low = 0.0 if errors == 0 else float(beta.ppf(tail, errors, trials - errors + 1))
    high = 1.0 if errors == trials else float(beta.ppf(1.0 - tail, errors + 1, trials - errors))
    return low, high


@dataclass
class JudgeErrors:
    """A judge measured against the hand labels of the data's checks.

    Attributes:
        false_inferable: share of gold "not inferable" judged inferable (makes Security
            look worse).
        false_not_inferable: share of gold "inferable" judged not inferable (hides leaks).
        counts: hand labels behind each rate, keyed "gold not inferable" / "gold inferable".
        intervals: 95 % Clopper-Pearson interval of each rate (keys as the attributes).
        rows: one dict per hand label.
        judge: the judge's name.
    """

    false_inferable: float
    false_not_inferable: float
    counts: dict
    intervals: dict = field(default_factory=dict)
    rows: list = field(default_factory=list)
    judge: str = ""

    @property
    def labels(self) -> int:
        """How many hand labels were judged."""
        return sum(self.counts.values())

    @property
    def measured(self) -> bool:
        """True when both rates rest on at least one hand label."""
        return all(self.counts.values())

    def summary(self) -> str:
        """The two rates and the labels behind them, in one line.

        Example:
            >>> JudgeErrors(0.25, 0.5, {"gold not inferable": 4, "gold inferable": 2}).summary()
            "false 'inferable' 0.25 (1 of 4), false 'not inferable' 0.50 (1 of 2) on 6 hand labels"
        """
        if not self.labels:
            return "error rates not measured (the data has no hand labels)"
        neg, pos = self.counts["gold not inferable"], self.counts["gold inferable"]
        fi = round(self.false_inferable * neg) if neg else 0
        fn = round(self.false_not_inferable * pos) if pos else 0
        return (f"false 'inferable' {self.false_inferable:.2f} ({fi} of {neg}), "
                f"false 'not inferable' {self.false_not_inferable:.2f} ({fn} of {pos}) "
                f"on {self.labels} hand labels")

    def to_frame(self):
        """Every hand label with the judge's answer (pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=["document", "origin", "proposition", "text",
                                                "sensitive", "gold", "judged"])

    def by_origin(self):
        """Both error rates per kind of checked text (masking output, hand rewrite)."""
        import pandas as pd

        frame = self.to_frame()
        if frame.empty:
            return pd.DataFrame(columns=["kind", "gold not inferable", "false 'inferable'",
                                         "gold inferable", "false 'not inferable'"])
        frame["kind"] = frame["origin"].str.replace(r" under policy .*", "", regex=True)
        out = []
        for kind, group in frame.groupby("kind", sort=True):
            neg, pos = group[~group["gold"]], group[group["gold"]]
            out.append({"kind": kind, "gold not inferable": len(neg),
                        "false 'inferable'": neg["judged"].mean() if len(neg) else float("nan"),
                        "gold inferable": len(pos),
                        "false 'not inferable'":
                            (~pos["judged"]).mean() if len(pos) else float("nan")})
        return pd.DataFrame(out)


def judge_errors(documents: Sequence[Document], judge: Judge) -> JudgeErrors:
    """Error rates of ``judge`` on the hand labels of every check of ``documents``.

    Only hand labels count: the source and the empty text are not added, since a judge
    that tells those apart may still fail on every real redaction.

    Args:
        documents: the benchmark (its checks are used).
        judge: the judge measured.

    Returns:
        The two error rates with their 95 % intervals (nan without labels of a class).

    Example:
        >>> from privlab.redaction.redacbench import OracleJudge, parse_document
        >>> d = parse_document({"id": "d", "domain": "x", "text": "Ann is ill in Cork.",
        ...     "propositions": [{"id": "p", "text": "Ann is ill."},
        ...                      {"id": "q", "text": "Ann is in Cork."}],
        ...     "policies": [{"id": "h", "text": "", "sensitive": ["p"]}],
        ...     "checks": [{"text": "Ann is [REDACTED] in Cork.",
        ...                 "inferable": {"p": False, "q": True}}]})
        >>> e = judge_errors([d], OracleJudge({"Ann is [REDACTED] in Cork.":
        ...                                    {"p": True, "q": True}}))
        >>> e.counts, e.false_inferable, e.false_not_inferable
        ({'gold not inferable': 1, 'gold inferable': 1}, 1.0, 0.0)
    """
    if not isinstance(judge, Judge):
        raise wrong_type("judge", "judge_errors", "a Judge", judge)
    rows = []
    for doc in documents:
        sensitive = {pid for policy in doc.policies for pid in policy.sensitive}
        for check in doc.checks:
            props = [p for p in doc.propositions if p.id in check.inferable]
            for p, said in zip(props, judge.judge(check.text, props)):
                rows.append({"document": doc.id, "origin": check.origin or "check",
                             "proposition": p.id, "text": p.text,
                             "sensitive": p.id in sensitive,
                             "gold": check.inferable[p.id], "judged": bool(said)})
    neg = sum(1 for r in rows if not r["gold"])
    pos = len(rows) - neg
    fi = sum(1 for r in rows if not r["gold"] and r["judged"])
    fn = sum(1 for r in rows if r["gold"] and not r["judged"])
    return JudgeErrors(
        fi / neg if neg else float("nan"), fn / pos if pos else float("nan"),
        {"gold not inferable": neg, "gold inferable": pos},
        {"false_inferable": _exact_interval(fi, neg),
         "false_not_inferable": _exact_interval(fn, pos)},
        rows, judge.name)


@dataclass
class RedacBenchResult:
    """Security and Utility of one strategy under one judge, with every label and text.

    Attributes:
        overall: the pooled :class:`Confusion`.
        rows: one dict per (document, policy, proposition).
        redacted: ``{(document id, policy id): redacted text}``.
        judge_errors: the judge's error rates against hand labels (None if not measured).
        status: what the numbers are.
        provenance: strategy, judge, documents, settings.
        text_rows: BLEU, ROUGE-1 and ROUGE-L of each redacted text against its original.
    """

    overall: Confusion
    rows: list[dict]
    redacted: dict[tuple[str, str], str]
    judge_errors: JudgeErrors | None = None
    status: str = "descriptive: depends on the judge; see its error rates"
    provenance: dict = field(default_factory=dict)
    text_rows: list[dict] = field(default_factory=list)

    @property
    def security(self) -> float:
        return self.overall.security

    @property
    def utility(self) -> float:
        return self.overall.utility

    @property
    def text_utility(self) -> dict[str, float]:
        """Mean BLEU, ROUGE-1 and ROUGE-L F1 over the redacted texts (nan when none)."""
        if not self.text_rows:
            return {m: float("nan") for m in MEASURES}
        return {m: sum(r[m] for r in self.text_rows) / len(self.text_rows) for m in MEASURES}

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

    def texts(self):
        """Every redacted text with its BLEU, ROUGE-1 and ROUGE-L (pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame([{**r, "redacted": self.redacted[(r["document"], r["policy"])]}
                             for r in self.text_rows])

    def confusion_frame(self):
        """The 2 x 2 matrix: rows sensitive / non-sensitive, columns retained / removed."""
        import pandas as pd

        c = self.overall
        return pd.DataFrame([[c.fp, c.tn], [c.tp, c.fn]], index=["sensitive", "non-sensitive"],
                            columns=["retained", "removed"])

    def to_frame(self):
        """One row: strategy, judge, counts, Security, Utility, BLEU, ROUGE-L."""
        import pandas as pd

        c, u = self.overall, self.text_utility
        return pd.DataFrame([{"strategy": self.provenance.get("strategy"),
                              "judge": self.provenance.get("judge"), "TP": c.tp, "TN": c.tn,
                              "FP": c.fp, "FN": c.fn, "security": c.security,
                              "utility": c.utility, "BLEU": u["bleu"],
                              "ROUGE-L": u["rougeL"]}])

    def _repr_html_(self) -> str:
        return (f"<p><b>RedacBench</b> — Security {self.security:.3f}, Utility "
                f"{self.utility:.3f}. <i>{self.status}</i></p>"
                + self.to_frame().to_html(index=False, float_format="%.3f"))


def score_redactions(documents: Sequence[Document],
                     redacted: Mapping[tuple[str, str], str], judge: Judge, *,
                     errors: bool = False, provenance: dict | None = None) -> RedacBenchResult:
    """Judge and score texts already redacted: one per (document id, policy id).

    Args:
        documents: the benchmark.
        redacted: ``{(document id, policy id): redacted text}`` for every pair.
        judge: the judge.
        errors: also measure the judge's error rates on the hand labels.
        provenance: recorded in the result (the judge's name and flags are added).

    Returns:
        A :class:`RedacBenchResult`, with text utility against the originals.

    Raises:
        PrivlabValueError: a (document, policy) pair has no redacted text.

    Example:
        >>> from privlab.redaction.redacbench import OracleJudge, parse_document
        >>> d = parse_document({"id": "d", "domain": "x", "text": "Ann is ill in Cork.",
        ...     "propositions": [{"id": "p", "text": "Ann is ill."},
        ...                      {"id": "q", "text": "Ann is in Cork."}],
        ...     "policies": [{"id": "h", "text": "", "sensitive": ["p"]}]})
        >>> out = {("d", "h"): "Ann is [REDACTED] in Cork."}
        >>> r = score_redactions([d], out, OracleJudge({out[("d", "h")]: {"p": False, "q": True}}))
        >>> r.security, r.utility, round(r.text_utility["rougeL"], 2)
        (1.0, 1.0, 0.8)
    """
    if not isinstance(judge, Judge):
        raise wrong_type("judge", "score_redactions", "a Judge", judge)
    rows, texts, keys = [], {}, []
    total = Confusion()
    for doc in documents:
        for policy in doc.policies:
            key = (doc.id, policy.id)
            if key not in redacted:
                raise invalid("redacted", "score_redactions",
                              "a text for every (document, policy)", f"none for {key}",
                              given_is_text=True)
            text = redacted[key]
            texts[key] = text
            keys.append((doc, policy))
            labels = judge.judge(text, doc.propositions)
            sens = [p.id in policy.sensitive for p in doc.propositions]
            total = total + confusion(sens, labels)
            for p, s, r in zip(doc.propositions, sens, labels):
                rows.append({"document": doc.id, "domain": doc.domain, "policy": policy.id,
                             "proposition": p.id, "text": p.text, "sensitive": s,
                             "retained": r})
    measures = per_document([d.text for d, _ in keys], [texts[(d.id, p.id)] for d, p in keys])
    text_rows = [{"document": d.id, "domain": d.domain, "policy": p.id, **m}
                 for (d, p), m in zip(keys, measures)]
    return RedacBenchResult(
        total, rows, texts, judge_errors(documents, judge) if errors else None,
        provenance={**(provenance or {}), "judge": judge.name, "judge_weak": judge.weak,
                    "judge_oracle": judge.oracle, "documents": len(documents)},
        text_rows=text_rows)


def evaluate(documents: Sequence[Document], strategy: Strategy, judge: Judge, *,
             errors: bool = False) -> RedacBenchResult:
    """Redact every document under each of its policies, judge every proposition, score.

    Args:
        documents: the benchmark.
        strategy: a :class:`Strategy`, a registry name, or a function ``text -> text``
            (or ``(text, policy_text) -> text``).
        judge: the judge.
        errors: also measure the judge's error rates on the hand labels.

    Returns:
        A :class:`RedacBenchResult` (a failing strategy or judge raises: no partial one).

    Example:
        >>> from privlab.redaction.redacbench import (NoRedaction, OracleJudge,
        ...                                           load_redacbench, sample_path)
        >>> docs = load_redacbench(sample_path())[:1]
        >>> r = evaluate(docs, NoRedaction(), OracleJudge.from_documents(docs))
        >>> r.security, r.utility, r.text_utility["bleu"]
        (0.0, 1.0, 1.0)
    """
    strategy = as_strategy(strategy, "strategy", "evaluate")
    if not isinstance(judge, Judge):
        raise wrong_type("judge", "evaluate", "a Judge", judge)
    redacted = {(doc.id, policy.id): strategy.redact(doc.text, policy)
                for doc in documents for policy in doc.policies}
    return score_redactions(documents, redacted, judge, errors=errors,
                            provenance={"strategy": strategy.name,
                                        "strategy_oracle": strategy.oracle_on(documents)})


__all__ = ["Confusion", "JudgeErrors", "RedacBenchResult", "confusion", "evaluate",
           "judge_errors", "score_redactions"]
