"""CPR and IPR: worked by hand, and bounds on the reference files."""

from __future__ import annotations

import pytest

from privlab.redaction.spia.protection import empty_predictions, protection, score_subject
from privlab.redaction.spia.records import PII, SPIARecord, Subject

from .conftest import FILES


@pytest.mark.parametrize("name", sorted(FILES))
def test_gold_against_itself_is_fully_exposed(shared_data, loaded, name):
    records = loaded[name]
    result = protection(records, records)
    assert result.cpr == 0.0 and result.ipr == 0.0
    assert (result.n_subjects, result.n_piis) == FILES[name][:2]
    assert all(row["matched"] == row["subject"] for row in result.subjects)


@pytest.mark.parametrize("name", sorted(FILES))
def test_empty_adversary_is_fully_protected(shared_data, loaded, name):
    records = loaded[name]
    result = protection(records, empty_predictions(records))
    assert result.cpr == 1.0 and result.ipr == 1.0
    assert (result.n_subjects, result.n_piis) == FILES[name][:2]
    assert result.target["cpr"] == 1.0 and result.non_target["cpr"] == 1.0


def test_shuffled_prediction_subjects_still_match(shared_data, loaded):
    """Subject order in a prediction must not matter: the matcher finds each subject."""
    records = loaded["spia_panorama_151.jsonl"]
    shuffled = [SPIARecord(r.data_id, r.text, tuple(reversed(r.subjects))) for r in records]
    assert protection(records, shuffled).cpr == 0.0


class HalfJudge:
    name = "half"

    def __init__(self):
        self.calls = []

    def compare(self, tag, gold, predicted):
        self.calls.append((tag, gold, predicted))
        return 0.5


def test_fallback_only_where_rule_gives_zero():
    gold = Subject(0, "", (PII("OCCUPATION", "Lawyer", 5), PII("SEX", "Male", 5)))
    pred = Subject(0, "", (PII("OCCUPATION", "attorney", 3), PII("SEX", "male", 3)))
    judge = HalfJudge()
    scored = score_subject(gold, pred, fallback=judge)
    assert [s for _, _, s in scored] == [0.5, 1.0]
    assert judge.calls == [("OCCUPATION", "Lawyer", "attorney")]


def _record(data_id, subjects):
    return SPIARecord(data_id, "", tuple(subjects))


def test_cpr_and_ipr_worked_by_hand():
    # subject 0: 4 PIIs, A = 1 + 0.5 + 0 + 0 = 1.5;  subject 1: 1 PII, A = 1
    # CPR = 1 - 2.5 / 5 = 0.5;  IPR = ((1 - 1.5/4) + (1 - 1/1)) / 2 = 0.3125
    # subject 2 has only a certainty-2 PII: dropped; subject 3 not found: protected 1.
    gold = _record("d", [
        Subject(0, "Ann Lee - applicant", (
            PII("NAME", "Ann Lee", 5), PII("LOCATION", "Cork / Ireland", 4),
            PII("AGE", "40", 3), PII("SEX", "Female", 5), PII("EDUCATION", "PhD", 2))),
        Subject(1, "Bob Kay - lawyer", (PII("NAME", "Bob Kay", 5),)),
        Subject(2, "Cy - clerk", (PII("NAME", "Cy", 2),)),
    ])
    pred = _record("d", [
        Subject(7, "Bob Kay - counsel", (PII("NAME", "Bob Kay", 5),)),
        Subject(8, "Ann Lee - the applicant", (
            PII("NAME", "Ann Lee", 5), PII("LOCATION", "Ireland", 3), PII("AGE", "50", 3),
            PII("SEX", "male", 3))),
    ])
    result = protection([gold], [pred])
    assert result.n_subjects == 2 and result.n_piis == 5
    assert result.cpr == pytest.approx(0.5)
    assert result.ipr == pytest.approx(0.3125)
    assert result.target["cpr"] == pytest.approx(1 - 1.5 / 4)
    assert result.non_target["cpr"] == pytest.approx(0.0)
    assert result.by_tag["NAME"] == (2, 2.0, 0.0)
    assert result.by_tag["LOCATION"] == (1, 0.5, 0.5)
    # a third gold subject the adversary never names is fully protected
    gold3 = _record("d", list(gold.subjects) + [Subject(3, "Dee Roe - witness",
                                                         (PII("NAME", "Dee Roe", 5),))])
    r3 = protection([gold3], [pred])
    assert r3.cpr == pytest.approx(1 - 2.5 / 6)
    assert r3.ipr == pytest.approx((0.625 + 0 + 1) / 3)


def test_protection_refuses_missing_predictions():
    gold = [_record("a", []), _record("b", [])]
    with pytest.raises(ValueError, match="no prediction for 1 documents"):
        protection(gold, [_record("a", [])])
