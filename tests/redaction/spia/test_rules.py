"""Hand-worked examples for every SPIA value rule."""

from __future__ import annotations

import pytest

from privlab.redaction.spia.rules import (
    age_score,
    category_score,
    email_score,
    free_text_score,
    identifier_score,
    jaro_winkler,
    location_score,
    rule_name,
    score_pii,
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


def test_every_tag_has_a_rule_name():
    from privlab.redaction.spia.records import TAGS

    assert {rule_name(tag) for tag in TAGS} == {
        "age +/-5 or range overlap", "location hierarchy", "category map",
        "identifier suffix", "email exact", "Jaro-Winkler >= 0.85",
        "name: partial 0.5, else Jaro-Winkler >= 0.85"}
    with pytest.raises(ValueError, match="15 SPIA tags"):
        rule_name("SHOE_SIZE")


@pytest.mark.parametrize("gold, predicted, expected", [
    ("Leigh Lawrence", "Leigh", 0.5),     # a first name for the full name: SPIA's partial
    ("R. Thomas", "Thomas", 0.5),         # a surname without the initial
    ("Leigh Lawrence", "Leigh Lawrence", 1.0),
    ("K. Lewis", "K Lewis", 1.0),         # the same words, punctuation aside
    ("Thomas", "Mr Thomas", 1.0),         # every word of the gold name is there
    ("Raja Arlewin", "raja arlewinn", 1.0),  # a misspelling, by Jaro-Winkler 0.98
    ("Leigh Lawrence", "Rosie Lawrence", 0.0),  # another person of the family
])
def test_partial_name_gets_partial_credit(gold, predicted, expected):
    """SPIA scores a partial match 0.5. By Jaro-Winkler alone "Leigh" is 0.87 like "Leigh
    Lawrence" and would get full credit; the word test comes first."""
    from privlab.redaction.spia.rules import jaro_winkler

    assert score_pii("NAME", gold, predicted) == expected
    if (gold, predicted) == ("Leigh Lawrence", "Leigh"):
        assert jaro_winkler("leigh lawrence", "leigh") >= 0.85
