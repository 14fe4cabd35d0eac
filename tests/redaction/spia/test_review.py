"""SPIA's person step: the model's answers are recorded once and can be overruled."""

from __future__ import annotations

import pytest

from privlab.errors import PrivlabTypeError, PrivlabValueError
from privlab.redaction.spia import PII, SPIARecord, Subject, protection
from privlab.redaction.spia.review import ReviewedJudge, ReviewQueue


class CountingJudge:
    name = "counting"

    def __init__(self):
        self.calls = 0

    def compare(self, tag, gold, predicted):
        self.calls += 1
        return 1.0 if predicted == "attorney" else 0.0


def _records():
    gold = SPIARecord("d", "", (Subject(0, "Ann", (PII("OCCUPATION", "Lawyer", 5),
                                                   PII("AFFILIATION", "Acme Holdings", 5))),))
    pred = SPIARecord("d", "", (Subject(0, "Ann", (PII("OCCUPATION", "attorney", 3),
                                                   PII("AFFILIATION", "Globex", 3))),))
    return [gold], [pred]


def test_queue_asks_once_per_pair_and_lists_only_disagreements():
    judge = CountingJudge()
    queue = ReviewQueue(judge)
    gold, pred = _records()
    first = protection(gold, pred, fallback=queue)
    again = protection(gold, pred, fallback=queue)
    assert first.cpr == again.cpr
    assert judge.calls == len(queue.answers)  # the second scoring asked nothing new
    assert [d.key for d in queue.disagreements()] == [("OCCUPATION", "Lawyer", "attorney")]
    assert list(queue.to_frame()["model says"]) == ["yes"]


def test_a_reviewer_decision_replaces_the_model_answer():
    queue = ReviewQueue(CountingJudge())
    gold, pred = _records()
    model = protection(gold, pred, fallback=queue)
    key = ("OCCUPATION", "Lawyer", "attorney")
    for decision, expected in (("no", 0.0), ("less precise", 0.5), (1.0, 1.0)):
        reviewed = protection(gold, pred, fallback=ReviewedJudge(queue.answers, {key: decision}))
        occupation = [r for r in reviewed.piis if r["tag"] == "OCCUPATION"][0]
        assert occupation["score"] == expected
    assert model.cpr < protection(gold, pred, fallback=ReviewedJudge(queue.answers,
                                                                    {key: "no"})).cpr


def test_bad_reviews_are_refused_by_name():
    with pytest.raises(PrivlabTypeError, match="judge"):
        ReviewQueue(object())
    with pytest.raises(PrivlabValueError, match="decisions"):
        ReviewedJudge({}, {("AGE", "1", "2"): "no"})
    with pytest.raises(PrivlabValueError, match="decisions"):
        ReviewedJudge({("AGE", "1", "2"): 1.0}, {("AGE", "1", "2"): True})
    with pytest.raises(PrivlabValueError, match="predicted"):
        ReviewedJudge({}, {}).compare("AGE", "1", "2")
