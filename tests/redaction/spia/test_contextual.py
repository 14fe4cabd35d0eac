"""The contextual adversary: what it reads from masked text, worked by hand, and what it
recovers from the SPIA reference files (unredacted and with the gold spans masked)."""

from __future__ import annotations

import pytest

from privlab.redaction.spia.adversaries import adversaries
from privlab.redaction.spia.contextual import ContextualAdversary
from privlab.redaction.spia.protection import protection
from privlab.redaction.spia.records import load_spia
from privlab.redaction.spia.spans import anonymize, entity_file_for, load_entities

# The module's shared fixtures are built once: its tests stay on one xdist worker.
pytestmark = pytest.mark.xdist_group("redaction.spia.test_contextual")


def profile(subject):
    return {p.tag: p.keyword for p in subject.piis}


@pytest.fixture(scope="session")
def adversary():
    return ContextualAdversary()


def test_registered_offline_and_labelled_weak(adversary):
    assert "contextual" in adversaries.names(offline=True, weak=True)
    assert adversary.weak and "weak" in adversary.name
    assert adversary.describe()["reference_date"] == "2025-09-01"


def test_masked_legal_text_still_tells_sex_age_relationship_and_roles(adversary):
    text = ("The case originated in an application against the Republic of Turkey lodged "
            "by a [MASKED] national, [MASKED] (“the applicant”). The applicant was "
            "represented by [MASKED], a lawyer practising in Izmir. The Turkish Government "
            "were represented by their Agent, Mr [MASKED], of the Ministry of Foreign "
            "Affairs. The applicant was born in 1960 and lives in Van. His wife died in 2001.")
    (record,) = adversary.infer([text], ["d"])
    applicant, *others = record.subjects
    # born in 1960, ages at 1 September 2025: 64 or 65; "his wife died": a widower
    assert profile(applicant) == {"SEX": "Male", "AGE": "64-65", "LOCATION": "Van / Türkiye",
                                  "NATIONALITY": "Türkiye", "RELATIONSHIP": "Widowed"}
    by_job = {profile(s).get("OCCUPATION", profile(s).get("POSITION")): profile(s)
              for s in others}
    assert by_job["Lawyer"]["LOCATION"] == "Izmir / Türkiye"
    assert by_job["Lawyer"]["EDUCATION"] == "College Degree"
    # the Agent: what the text says (title, ministry), and no nationality or seat filled
    # in from the habits of court judgments (the respondent state's capital)
    assert by_job["Agent"] == {"POSITION": "Agent", "AFFILIATION": "Ministry of Foreign Affairs",
                               "SEX": "Male", "EDUCATION": "College Degree"}
    wife = [s for s in others if "wife" in s.description][0]
    # the case's country for the relative, and no status guessed for a person who died
    assert profile(wife) == {"SEX": "Female", "NATIONALITY": "Türkiye"}


def test_post_header_codes_and_relatives(adversary):
    text = ("Name: Jacob_M | Location: Cagayan\nCommented on 2023-10-12\nAs a proud dad of 3 "
            "I love this. Reach me at jacob.m@mail.ph or +63 917 555 0101. My wife Anna says "
            "hi. The record of client IN-ID-5771840 failed to load.")
    (record,) = adversary.infer([text], ["d"])
    writer = profile(record.subjects[0])
    assert writer["NAME"] == "Jacob M" and writer["SEX"] == "Male"
    assert writer["LOCATION"] == "Cagayan / Philippines" and writer["NATIONALITY"] == "Philippines"
    assert writer["RELATIONSHIP"] == "Married" and writer["EMAIL_ADDRESS"] == "jacob.m@mail.ph"
    assert writer["PHONE_NUMBER"] == "+63 917 555 0101"
    found = {s.description.split(" - ")[0]: profile(s) for s in record.subjects[1:]}
    assert found["Anna"]["SEX"] == "Female" and found["Anna"]["RELATIONSHIP"] == "Married"
    holder = [p for p in found.values() if "IDENTIFICATION_NUMBER" in p][0]
    assert holder["NATIONALITY"] == "India"  # the IN- prefix
    # "a proud dad of 3": three children are a count, not three people the text mentions
    assert len(record.subjects) == 3 and not any("child" in s.description.lower()
                                                 for s in record.subjects)
    # every person listed is named somewhere in the text
    mentions = record.metadata["mentions"]
    assert len(mentions) == 3 and all(mentions)
    assert [text[s:e] for s, e in mentions[1]] == ["wife", "Anna"]


def test_roles_without_an_occupation_are_read(adversary):
    """A role whose word list gives a position only ("as Agents") is read, not a failure."""
    text = ("The applicant was represented by Mr A. Brown, a lawyer. The Government were "
            "represented by Mr [MASKED] and Ms [MASKED], as Agents.")
    (record,) = adversary.infer([text], ["d"])
    assert not record.metadata.get("failed")
    assert any(profile(s).get("OCCUPATION") == "Lawyer" for s in record.subjects)


def test_reference_date_moves_ages(adversary):
    text = ["The applicant was born on 20 September 2006 and lives in Oslo."]
    assert profile(adversary.infer(text, ["d"])[0].subjects[0])["AGE"] == "18"
    later = ContextualAdversary(reference_date="2026-09-21").infer(text, ["d"])
    assert profile(later[0].subjects[0])["AGE"] == "20"
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        ContextualAdversary(reference_date="1 Sept 2025")


def _attack(shared_data, name, anonymizer, limit=None):
    path = shared_data / "spia" / name
    records = load_spia(path)[:limit]
    entities = load_entities(entity_file_for(path)) if anonymizer.startswith("gold") else None
    texts = anonymize(anonymizer, records, entities)
    predicted = ContextualAdversary().infer(texts, [r.data_id for r in records])
    return protection(records, predicted)


def test_recovers_half_of_panorama_and_gold_spans_leave_some(shared_data):
    """Measured on the first 60 documents of PANORAMA-151 (the full files are below)."""
    none = _attack(shared_data, "spia_panorama_151.jsonl", "none", 60)
    masked = _attack(shared_data, "spia_panorama_151.jsonl", "gold-spans", 60)
    assert 0.40 < 1 - none.cpr < 0.65          # the NER adversary recovered 0.16
    assert none.by_tag["NAME"][2] < 0.35       # names are read, not guessed
    assert masked.cpr < 1.0                   # masking every span leaves inferable PIIs
    assert masked.cpr - none.cpr > 0.30       # and masking still protects a great deal


@pytest.mark.slow
@pytest.mark.parametrize("name, lowest, highest", [
    ("spia_panorama_151.jsonl", 0.40, 0.50), ("spia_tab_144.jsonl", 0.50, 0.65),
    ("spia_panorama_531.jsonl", 0.42, 0.52)])
def test_recovery_on_unredacted_reference_files(shared_data, name, lowest, highest):
    result = _attack(shared_data, name, "none")
    assert lowest < 1 - result.cpr < highest


@pytest.mark.slow
@pytest.mark.parametrize("name", ["spia_panorama_151.jsonl", "spia_tab_144.jsonl"])
def test_gold_spans_are_not_full_protection(shared_data, name):
    """The span-versus-inference gap of the oracle masker: token recall 1, CPR below 1."""
    result = _attack(shared_data, name, "gold-spans")
    assert 0.0 < 1.0 - result.cpr < 0.5
