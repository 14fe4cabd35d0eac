"""Span metrics, anonymizers and the offline adversary."""

from __future__ import annotations

import pytest

from privlab.redaction.spia import SPIARecord, load_spia, protection
from privlab.redaction.spia_adversaries import NERAdversary, NoAdversary, adversaries
from privlab.redaction.spia_spans import (
    EntityDoc,
    Mention,
    anonymize,
    anonymizer_options,
    entity_file_for,
    load_entities,
    mask_spans,
    removed_offsets,
    span_recall,
)


def test_span_recall_worked_by_hand():
    text = "Mr Ann Lee of Cork met Bob Kay in 2004."
    doc = EntityDoc("d", text, (
        Mention(3, 10, "Ann Lee", "1", "PERSON", "DIRECT"),
        Mention(14, 18, "Cork", "2", "LOC", "QUASI"),
        Mention(23, 30, "Bob Kay", "3", "PERSON", "DIRECT"),
        Mention(34, 38, "2004", "4", "DATETIME", "QUASI"),
        Mention(0, 2, "Mr", "5", "MISC", "NO_MASK")))
    # Ann Lee and 2004 removed, "Bob" kept, "Kay" removed, Cork kept:
    # tokens to mask: Ann Lee Cork Bob Kay 2004 = 6, removed 4 -> 4/6
    # DIRECT entities: Ann Lee (masked), Bob Kay (not fully) -> 1/2; QUASI: 2004 only -> 1/2
    result = span_recall({"d": doc}, {"d": "Mr [X] of Cork met Bob [Y] in [Z]."})
    assert result.token_recall == pytest.approx(4 / 6)
    assert result.entity_recall_direct == 0.5 and result.entity_recall_quasi == 0.5
    assert result.counts["tokens"] == 6


def test_removed_offsets_and_masking():
    assert removed_offsets("a b c", "a b c") == set()
    assert mask_spans("abcdef", [Mention(1, 3, "bc", "1", "", "DIRECT"),
                                 Mention(2, 4, "cd", "2", "", "QUASI")]) == "a[MASKED]ef"


def test_unavailable_anonymizer_says_why(monkeypatch):
    from privlab.redaction import spia_spans

    monkeypatch.setitem(spia_spans.SANITIZER_ANONYMIZERS, "future", ("not-yet-written",))
    info = {a.name: a for a in anonymizer_options()}
    assert not info["future"].available and "not-yet-written" in info["future"].reason
    with pytest.raises(ValueError, match="not-yet-written"):
        anonymize("future", [SPIARecord("d", "x", ())])
    with pytest.raises(ValueError, match="entity file"):
        anonymize("gold-spans", [SPIARecord("d", "x", ())])


def test_gold_span_masking_has_full_span_recall(shared_data):
    path = shared_data / "spia" / "spia_panorama_151.jsonl"
    records = load_spia(path)
    entities = load_entities(entity_file_for(path))
    texts = anonymize("gold-spans", records, entities)
    result = span_recall(entities, {r.data_id: t for r, t in zip(records, texts)})
    assert result.token_recall == 1.0 and result.entity_recall_direct == 1.0
    untouched = span_recall(entities, {r.data_id: r.text for r in records})
    assert untouched.token_recall == 0.0


def test_ner_adversary_finds_people_and_is_labelled_weak():
    adversary = adversaries.create("ner")
    assert adversary.weak and "weak" in adversary.name
    text = ("Mrs Jane Roe (jane.roe@mail.pl), a Polish national born in 1980, lives in "
            "Krakow. Mr Adam Nowak, a lawyer, represented her.")
    (record,) = adversary.infer([text], ["d"])
    names = [s.values("NAME")[0] for s in record.subjects]
    assert names == ["Jane Roe", "Adam Nowak"]
    jane = record.subjects[0]
    assert jane.values("SEX") == ["Female"] and jane.values("AGE") == ["44-45"]
    assert jane.values("NATIONALITY") == ["Poland"]
    assert jane.values("EMAIL_ADDRESS") == ["jane.roe@mail.pl"]
    assert record.subjects[1].values("OCCUPATION") == ["Lawyer"]


def test_ner_adversary_on_real_documents_lies_between_bounds(shared_data):
    records = load_spia(shared_data / "spia" / "spia_panorama_151.jsonl")[:20]
    texts, ids = [r.text for r in records], [r.data_id for r in records]
    found = protection(records, NERAdversary().infer(texts, ids))
    assert 0.0 < found.cpr < 1.0
    assert protection(records, NoAdversary().infer(texts, ids)).cpr == 1.0
