"""Notebook 08's review widget: the disagreements listed, decisions applied on Rescore."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from privlab.redaction.spia import PII, SPIARecord, Subject, protection
from privlab.redaction.spia.review import ReviewedJudge, ReviewQueue
from privlab.ui.review import KEEP, cpr_before_after, review_panel


class Yes:
    name = "always yes"

    def compare(self, tag, gold, predicted):
        return 1.0


GOLD = [SPIARecord("d", "", (Subject(0, "Ann", (PII("OCCUPATION", "Lawyer", 5),)),))]
PRED = [SPIARecord("d", "", (Subject(0, "Ann", (PII("OCCUPATION", "attorney", 3),)),))]


@dataclass
class Run:
    review: ReviewQueue | None
    protection: dict = field(default_factory=dict)

    def rescored(self, decisions):
        judge = ReviewedJudge(self.review.answers, decisions)
        return replace(self, protection={"none": protection(GOLD, PRED, fallback=judge)})


def test_nothing_to_review_says_why():
    assert "Run the study first" in review_panel(None).value
    assert "rules only" in review_panel(Run(None)).value


def test_a_decision_changes_the_rescored_cpr():
    queue = ReviewQueue(Yes())
    run = Run(queue, {"none": protection(GOLD, PRED, fallback=queue)})
    assert run.protection["none"].cpr == 0.0  # the model said yes: nothing protected
    panel = review_panel(run)
    picker = panel.children[1]
    assert picker.value == KEEP and "attorney" in picker.description
    picker.value = "no"
    button = panel.children[2]
    button.click()  # rescoring runs (outside a kernel the table goes to stdout)
    rescored = run.rescored({("OCCUPATION", "Lawyer", "attorney"): "no"})
    table = cpr_before_after(run, rescored).set_index("anonymizer")
    assert table.loc["none", "CPR (model)"] == 0.0 and table.loc["none", "CPR (reviewed)"] == 1.0
