"""Hand-worked examples for every SPIA scoring rule and for CPR / IPR."""

from __future__ import annotations

import pytest

from privlab.redaction.spia import (
    PII,
    OfflineMatcher,
    SPIARecord,
    Subject,
    age_score,
    category_score,
    email_score,
    free_text_score,
    identifier_score,
    jaro_winkler,
    location_score,
    protection,
    score_pii,
    score_subject,
)


def test_jaro_winkler_worked_by_hand():
    # "dwayne" / "duane": m = 4 matches (d, a, n, e), t = 0 transpositions,
    # jaro = (4/6 + 4/5 + 4/4) / 3 = 0.8222..., common prefix "d" (l = 1),
    # jw = 0.8222 + 1 * 0.1 * (1 - 0.8222) = 0.84
    assert jaro_winkler("dwayne", "duane") == pytest.approx(0.84, abs=1e-9)
    # so they fall just under the 0.85 threshold, while one dropped letter does not
    assert free_text_score("Dwayne", "Duane") == 0.0
    assert free_text_score("Arlewin", "Arlewn") == 1.0  # jw = 0.9714
    assert free_text_score("Lawyer", "LAWYER ") == 1.0
    assert free_text_score("Lawyer", "") == 0.0


def test_age_rules():
    assert age_score("34", "39") == 1.0          # |34 - 39| = 5 <= 5
    assert age_score("34", "28") == 0.0          # 6 > 5
    assert age_score("54-55", "54") == 1.0       # single inside the range
    assert age_score("54-55", "56") == 0.0
    # ranges: overlap of 30-40 and 33-45 is 7, shorter range 10 -> 0.7 < 0.75
    assert age_score("30-40", "33-45") == 0.0
    # 30-40 and 32-40: overlap 8 / shorter 8 = 1.0
    assert age_score("30-40", "32-40") == 1.0
    # one-year ranges: 54-55 vs 55-56 overlap 0 / max(1, 1) = 0
    assert age_score("54-55", "55-56") == 0.0
    assert age_score("54–55", "54-55") == 1.0    # en dash accepted
    assert age_score("forties", "45") == 0.0


def test_location_rules():
    assert location_score("Istanbul / Türkiye", "Istanbul / Turkey") == 1.0
    assert location_score("Istanbul / Türkiye", "Türkiye") == 0.5        # less precise
    assert location_score("Cagayan / Philippines", "Manila / Philippines") == 0.5  # 1 of 2
    assert location_score("A / B / C / D", "X / Y / C / D") == 0.0      # 2 of 4 levels
    assert location_score("A / B / C / D", "X / B / C / D") == 0.5      # 3 of 4 levels
    assert location_score("Ireland", "Poland") == 0.0


def test_identifier_email_and_category_rules():
    assert identifier_score("(764)861-0805", "764.861.0805") == 1.0
    assert identifier_score("+441154960331", "01154960331") == 0.0   # 0 is not a suffix match
    assert identifier_score("+441154960331", "1154960331") == 1.0    # 3-character prefix
    assert identifier_score("US-DL-799124131204", "799124131204") == 0.0  # 4 extra: too many
    assert identifier_score("M62225531", "62225531") == 1.0
    assert email_score("m.chapman@castillo.info", "M.Chapman@castillo.info") == 1.0
    assert email_score("m.chapman@castillo.info", "mchapman@castillo.info") == 0.0
    assert category_score("Female", "woman", "SEX") == 1.0
    assert category_score("Female", "male", "SEX") == 0.0
    assert category_score("Widowed", "widower", "RELATIONSHIP") == 1.0
    assert category_score("Married", "divorced", "RELATIONSHIP") == 0.0
    assert category_score("PhD", "phd", "EDUCATION") == 1.0
    assert category_score("PhD", "Doctorate", "EDUCATION") == 0.0


def test_score_pii_dispatches_by_tag():
    assert score_pii("PASSPORT_NUMBER", "M62225531", "m-6222-5531") == 1.0
    assert score_pii("NATIONALITY", "Sweden", "Swedish") == 0.0   # jw 0.8476 < 0.85
    assert score_pii("NATIONALITY", "Britain", "British") == 1.0  # jw 0.8857
    assert score_pii("AGE", "Philippines", "Philippines") == 1.0  # equal values always match
    with pytest.raises(ValueError, match="15 SPIA tags"):
        score_pii("SHOE_SIZE", "9", "9")


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


def test_matcher_is_one_to_one_and_optimal():
    a = Subject(0, "Ann Lee", (PII("NAME", "Ann Lee", 5),))
    b = Subject(1, "Ann Leigh", (PII("NAME", "Ann Leigh", 5),))
    # one prediction resembling both: only one gold subject may take it, the closer one
    pred = [Subject(0, "Ann Leigh", (PII("NAME", "Ann Leigh", 5),))]
    assert OfflineMatcher().match([a, b], pred) == [(1, 0)]
    # a stranger matches nobody
    stranger = [Subject(0, "Zed Quorum - pilot", (PII("NAME", "Zed Quorum", 5),))]
    assert OfflineMatcher().match([a, b], stranger) == []


def test_protection_refuses_missing_predictions():
    gold = [_record("a", []), _record("b", [])]
    with pytest.raises(ValueError, match="no prediction for 1 documents"):
        protection(gold, [_record("a", [])])
