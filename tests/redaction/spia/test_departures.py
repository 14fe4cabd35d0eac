"""privlab's scoring against SPIA's own choices: worked by hand and on the reference files."""

from __future__ import annotations

import math

import pytest

from privlab.redaction.spia.departures import (
    reference_variants,
    spia_age_score,
    spia_location_score,
    unreadable_ages,
)
from privlab.redaction.spia.protection import empty_predictions, protection
from privlab.redaction.spia.records import PII, SPIARecord, Subject


def _by_choice(rows):
    return {row["choice"]: row for row in rows}


def test_each_choice_worked_by_hand():
    gold = [SPIARecord("a", "", (Subject(0, "Ann", (
        PII("NAME", "Ann Lee", 5), PII("LOCATION", "Ireland", 4),
        PII("OCCUPATION", "Lawyer", 4), PII("OCCUPATION", "Judge", 3))),
        Subject(1, "Bob", (PII("AGE", "adult", 4), PII("SEX", "Male", 5))))),
        SPIARecord("b", "", (Subject(0, "Cy", (PII("SEX", "Male", 5),)),))]
    pred = [SPIARecord("a", "", (
        Subject(0, "Ann Lee", (PII("NAME", "Ann Lee", 3), PII("LOCATION", "Poland", 3),
                               PII("OCCUPATION", "judge", 3))),
        Subject(1, "Bob", (PII("AGE", "40", 3), PII("SEX", "male", 3))))),
        SPIARecord("b", "", ())]
    result = protection(gold, pred)
    rows = _by_choice(reference_variants(gold, pred, result))
    # privlab: Ann 4 PIIs (name 1, location 0, occupations 0 + 1), Bob 2 (age 0, sex 1),
    # Cy 1 (0): A = 3 of 7
    assert rows["privlab (as reported)"]["CPR"] == pytest.approx(result.cpr)
    assert result.cpr == pytest.approx(1 - 3 / 7)
    # SPIA keeps the best occupation pair only: 6 PIIs, A = 3
    assert rows["same-tag duplicates"]["PIIs"] == 6
    assert rows["same-tag duplicates"]["CPR"] == pytest.approx(1 - 3 / 6)
    # Ireland vs Poland: 0.5
    assert rows["single-level locations"]["CPR"] == pytest.approx(1 - 3.5 / 7)
    # "adult" cannot be read: Bob is dropped (2 PIIs, 1 inferred)
    assert (rows["ages"]["subjects"], rows["ages"]["CPR"]) == (2, pytest.approx(1 - 2 / 5))
    # document b had no predicted subject: Cy is left out
    assert rows["documents without predicted subjects"]["CPR"] == pytest.approx(1 - 3 / 6)
    # all together: Ann 3 PIIs (name 1, location 0.5, occupation 1), Bob dropped, Cy out
    assert rows["all of SPIA's choices"]["CPR"] == pytest.approx(1 - 2.5 / 3)


def test_spia_rules():
    assert spia_location_score("Ireland", "Poland") == 0.5
    assert spia_location_score("Cork / Ireland", "Ireland") == 0.5
    assert spia_age_score("54-55", "55") == 1.0 and spia_age_score("30-40", "33-45") == 0.0
    with pytest.raises(ValueError):
        spia_age_score("30 to 40", "35")


def test_on_panorama_151(shared_data, loaded):
    gold = loaded["spia_panorama_151.jsonl"]
    rows = _by_choice(reference_variants(gold, gold, protection(gold, gold)))
    # one subject has two counted PIIs of one tag: 943 PIIs by privlab, 942 by SPIA
    assert rows["privlab (as reported)"]["PIIs"] == 943
    assert rows["same-tag duplicates"]["PIIs"] == 942
    assert unreadable_ages(gold) == [] and "Philippines" in unreadable_ages(
        loaded["spia_panorama_531.jsonl"])
    empty = empty_predictions(gold)
    rows = _by_choice(reference_variants(gold, empty, protection(gold, empty)))
    assert rows["privlab (as reported)"]["CPR"] == 1.0
    assert math.isnan(rows["documents without predicted subjects"]["CPR"])
