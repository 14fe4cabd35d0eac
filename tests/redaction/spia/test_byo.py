"""privlab.spia.score: your anonymizer's outputs on a handmade gold file, CPR by hand."""

from __future__ import annotations

import json
import re

import pytest

import privlab.spia
from privlab.errors import PrivlabTypeError, PrivlabValueError
from privlab.redaction.spia import PII, SPIARecord, Subject, write_spia
from privlab.redaction.spia.adversaries import Adversary
from privlab.redaction.spia.baseline import BaseRateAdversary
from privlab.redaction.spia.byo import read_outputs, score

TEXT = "Ann Lee, 34, works as a nurse in Cork."
GOLD = [SPIARecord("d1", TEXT, (Subject(0, "the writer", (
    PII("NAME", "Ann Lee", 5), PII("AGE", "34", 5), PII("OCCUPATION", "nurse", 4),
    PII("LOCATION", "Cork", 5), PII("SEX", "Female", 2))),))]  # SEX: certainty 2, not counted


class Reader(Adversary):
    """A scripted offline adversary: it recovers a value only when it is written."""

    name = "scripted reader"

    def _infer_one(self, text, data_id):
        found = []
        if "Ann Lee" in text:
            found.append(PII("NAME", "Ann Lee", 5))
        age = re.search(r"\b(\d\d)\b", text)
        if age:
            found.append(PII("AGE", age.group(1), 5))
        for word, tag in (("nurse", "OCCUPATION"), ("Cork", "LOCATION")):
            if word in text:
                found.append(PII(tag, word, 5))
        return (Subject(0, "the writer", tuple(found)),) if found else ()


def redact(text: str) -> str:
    return text.replace("Ann Lee", "[NAME]").replace("nurse", "[JOB]")


#: A guess that reads nothing: every writer is 34 (right here) and lives in Dublin (wrong).
GUESS = BaseRateAdversary(counter=lambda text: 1,
                          table={"first": {"AGE": "34", "LOCATION": "Dublin"}, "other": {}})


def test_cpr_and_the_excess_over_the_text_blind_guess_by_hand():
    r = score(GOLD, redact, adversary=Reader(), baseline=GUESS)
    # Counted gold PIIs: NAME, AGE, OCCUPATION, LOCATION (SEX has certainty 2): O = 4.
    # The redacted text keeps "34" and "Cork": A = 2, so CPR = 1 - 2/4.
    assert r.cpr == pytest.approx(1 - 2 / 4)
    # The guess gets AGE right without reading, LOCATION wrong: recovered 1/4.
    assert r.baseline_recovered == pytest.approx(1 / 4)
    assert r.excess == pytest.approx(2 / 4 - 1 / 4)
    line = r.headline()
    assert line.startswith("CPR 0.500: PIIs recovered (1 − CPR) 0.500 (text-blind guess "
                           "0.250, excess +0.250) — descriptive")
    assert "4 PIIs of 1 people" in line
    rows = {row["metric"]: row for row in r.face_rows()}
    assert rows["CPR"]["text-blind guess"] == pytest.approx(0.75)
    assert rows["CPR"]["protection lost beyond the guess"] == pytest.approx(0.25)
    (witness,) = r.face_witnesses()
    assert witness.items[0] == ("your output", "[NAME], 34, works as a [JOB] in Cork.")
    assert "AGE '34'" in witness.items[1][1] and "LOCATION 'Cork'" in witness.items[1][1]


def test_every_form_of_outputs_gives_the_same_score(tmp_path):
    gold = write_spia(GOLD, tmp_path / "gold.jsonl")
    spia_form = tmp_path / "anonymized.jsonl"  # SPIA's own: metadata.data_id and text
    spia_form.write_text(json.dumps({"metadata": {"data_id": "d1"}, "text": redact(TEXT)})
                         + "\n", encoding="utf-8")
    flat = tmp_path / "flat.jsonl"
    flat.write_text(json.dumps({"id": "d1", "anonymized_text": redact(TEXT)}) + "\n",
                    encoding="utf-8")
    assert read_outputs(flat) == {"d1": redact(TEXT)}
    forms = [redact, [redact(TEXT)], {"d1": redact(TEXT)}, spia_form, str(flat)]
    cprs = {score(gold, form, adversary=Reader(), baseline=None).cpr for form in forms}
    assert cprs == {0.5}
    assert privlab.spia.score is score


def test_unredacted_text_gives_everything_away():
    r = score(GOLD, lambda t: t, adversary=Reader(), baseline=GUESS)
    assert r.cpr == 0.0 and r.excess == pytest.approx(3 / 4)


def test_ids_that_do_not_match_the_gold_are_named():
    with pytest.raises(PrivlabValueError) as info:
        score(GOLD, {"d2": "text"}, adversary=Reader(), baseline=None)
    message = str(info.value)
    assert "'anonymized' parameter of privlab.spia.score" in message
    assert "['d1']" in message and "['d2']" in message and "metadata.data_id" in message


@pytest.mark.parametrize("anonymized, expected", [
    (lambda t: 1 / 0, "ZeroDivisionError"),
    (lambda t: None, "a function returning a str"),
    (["one", "two"], "1 texts, one per gold document"),
])
def test_a_bad_anonymizer_is_named_with_the_fix(anonymized, expected):
    with pytest.raises(PrivlabValueError, match=expected) as info:
        score(GOLD, anonymized, adversary=Reader(), baseline=None)
    assert "'anonymized' parameter" in str(info.value)


def test_bad_gold_and_adversary_are_named(tmp_path):
    with pytest.raises(PrivlabValueError, match="'gold' parameter"):
        score(tmp_path / "missing.jsonl", redact)
    with pytest.raises(PrivlabTypeError, match="'gold' parameter"):
        score(42, redact)
    with pytest.raises(PrivlabValueError, match="'adversary' parameter"):
        score(GOLD, redact, adversary="nonesuch")


def test_the_report_embeds_the_witness(tmp_path):
    r = score(GOLD, redact, adversary=Reader(), baseline=GUESS)
    page = r.report(tmp_path / "spia.html").read_text(encoding="utf-8")
    assert "[NAME], 34, works as a [JOB] in Cork." in page and "<math" in page
