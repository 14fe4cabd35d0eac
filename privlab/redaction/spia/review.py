"""SPIA's third value decider, a person: record the model's answers, then let someone overrule them.

:class:`ReviewQueue` keeps every answer of the model judge so the disagreements with the
rule can be shown to a reviewer; :class:`ReviewedJudge` replays them with the reviewer's
decisions in their place, without asking the model again.
See docs/methods/redaction-spia-scoring.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import pandas as pd

from privlab.errors import invalid, wrong_type

#: What a reviewer may decide for one pair, as SPIA scores it.
DECISIONS = {"yes": 1.0, "less precise": 0.5, "no": 0.0}

Key = tuple[str, str, str]


@dataclass(frozen=True)
class Disagreement:
    """One pair of values the rule scored 0 and the model did not.

    Attributes:
        tag: the SPIA tag.
        gold: the annotated value.
        predicted: the adversary's value.
        model_score: the model's answer (1 yes, 0.5 less precise).
    """

    tag: str
    gold: str
    predicted: str
    model_score: float

    @property
    def key(self) -> Key:
        return (self.tag, self.gold, self.predicted)


class ReviewQueue:
    """A value judge that asks ``judge`` once per distinct pair and keeps the answer.

    Args:
        judge: the model judge (e.g. :class:`~privlab.redaction.spia.adversaries.LLMValueJudge`).

    Attributes:
        answers: ``(tag, gold, predicted) -> score`` for every pair the judge was asked.

    Example:
        >>> class Yes:
        ...     name = "always yes"
        ...     def compare(self, tag, gold, predicted):
        ...         return 1.0
        >>> queue = ReviewQueue(Yes())
        >>> queue.compare("OCCUPATION", "Lawyer", "attorney")
        1.0
        >>> [d.predicted for d in queue.disagreements()]
        ['attorney']
    """

    def __init__(self, judge: Any):
        if not callable(getattr(judge, "compare", None)):
            raise wrong_type("judge", "ReviewQueue", "a value judge with compare(tag, gold, "
                             "predicted)", judge)
        self.judge = judge
        self.name = getattr(judge, "name", type(judge).__name__)
        self.answers: dict[Key, float] = {}

    def compare(self, tag: str, gold: str, predicted: str) -> float:
        key = (tag, gold, predicted)
        if key not in self.answers:
            self.answers[key] = float(self.judge.compare(tag, gold, predicted))
        return self.answers[key]

    def disagreements(self) -> list[Disagreement]:
        """The pairs the model scored above 0 (the rule had said 0 for each), in asking order."""
        return [Disagreement(*key, score) for key, score in self.answers.items() if score > 0]

    def to_frame(self) -> pd.DataFrame:
        """One row per disagreement: tag, gold value, predicted value, the model's answer."""
        names = {v: k for k, v in DECISIONS.items()}
        return pd.DataFrame([{"tag": d.tag, "gold value": d.gold, "predicted value": d.predicted,
                              "model says": names.get(d.model_score, d.model_score)}
                             for d in self.disagreements()],
                            columns=["tag", "gold value", "predicted value", "model says"])


class ReviewedJudge:
    """The recorded model answers, with a reviewer's decisions where given.

    Args:
        answers: :attr:`ReviewQueue.answers` of the run being rescored.
        decisions: ``(tag, gold, predicted) -> "yes" | "less precise" | "no"`` (or the
            scores 1, 0.5, 0) for the pairs the reviewer decided.

    Raises:
        PrivlabValueError: a decision for a pair the model was never asked about, or a
            decision outside :data:`DECISIONS`.

    Example:
        >>> judge = ReviewedJudge({("AGE", "54", "adult"): 1.0}, {("AGE", "54", "adult"): "no"})
        >>> judge.compare("AGE", "54", "adult")
        0.0
    """

    def __init__(self, answers: Mapping[Key, float], decisions: Mapping[Key, Any]):
        caller = "ReviewedJudge"
        self.answers = dict(answers)
        self.decisions: dict[Key, float] = {}
        for key, decision in dict(decisions).items():
            if key not in self.answers:
                raise invalid("decisions", caller, "pairs the model was asked about "
                              "(ReviewQueue.disagreements())", key)
            if isinstance(decision, str) and decision in DECISIONS:
                self.decisions[key] = DECISIONS[decision]
            elif not isinstance(decision, bool) and decision in DECISIONS.values():
                self.decisions[key] = float(decision)
            else:
                raise invalid("decisions", caller, f"one of {list(DECISIONS)} per pair",
                              decision)
        self.name = f"a person ({len(self.decisions)} decisions), else the recorded model"

    def compare(self, tag: str, gold: str, predicted: str) -> float:
        key = (tag, gold, predicted)
        if key in self.decisions:
            return self.decisions[key]
        if key in self.answers:
            return self.answers[key]
        raise invalid("predicted", "ReviewedJudge.compare", "a pair recorded in the run "
                      "being rescored", key, fix="Rescore the same result the queue came from.")


__all__ = ["DECISIONS", "Disagreement", "ReviewQueue", "ReviewedJudge"]
