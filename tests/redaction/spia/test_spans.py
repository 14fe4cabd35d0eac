"""Span metrics and the anonymizers compared (registry, availability, gold-span masking)."""

from __future__ import annotations

import pytest

from privlab.redaction.spia import spans as spia_spans
from privlab.redaction.spia.records import PII, SPIARecord, Subject, load_spia
from privlab.redaction.spia.spans import (
    EntityDoc,
    GoldSpanMasker,
    Mention,
    SanitizerAnonymizer,
    anonymize,
    anonymizer_options,
    anonymizers,
    entity_file_for,
    load_entities,
    mask_spans,
    removed_offsets,
    span_recall,
)
from privlab.registry import Registry


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


def test_anonymizer_registry_lists_members_and_creates_one():
    builtin = ["none", "gold-spans", "gold-direct", "names-list", "regex-pii", "presidio",
               "llm-sanitizer"]
    assert [n for n in anonymizers.names() if n in builtin] == builtin
    assert {"gold-spans", "gold-direct", "names-list"} <= set(anonymizers.names(oracle=True))
    assert {"none", "regex-pii", "presidio", "llm-sanitizer"} <= \
        set(anonymizers.names(oracle=False))
    assert [a.name for a in anonymizer_options()] == anonymizers.names()
    masker = anonymizers.create("gold-direct")
    assert isinstance(masker, GoldSpanMasker) and masker.kinds == ("DIRECT",)
    doc = EntityDoc("d", "Ann Lee met Bob.", (Mention(0, 7, "Ann Lee", "1", "PERSON", "DIRECT"),
                                              Mention(12, 15, "Bob", "2", "PERSON", "QUASI")))
    record = SPIARecord("d", doc.text, (Subject(0, "Ann", (PII("NAME", "Ann Lee", 5),)),))
    assert masker.anonymize([record], {"d": doc}) == ["[MASKED] met Bob."]
    assert anonymize("gold-spans", [record], {"d": doc}) == ["[MASKED] met [MASKED]."]
    assert anonymize("names-list", [record]) != [doc.text]
    assert anonymize("none", [record]) == [doc.text]


def test_unavailable_anonymizer_says_why(monkeypatch):
    # a member whose sanitizer nobody has registered yet, in a copy of the registry
    scratch = Registry("SPIA anonymizer")
    for entry in anonymizers.entries():
        scratch.register(entry.name, entry.factory, description=entry.description,
                         **entry.meta)
    scratch.register("future", lambda **kw: SanitizerAnonymizer("not-yet-written", **kw),
                     sanitizer="not-yet-written")
    monkeypatch.setattr(spia_spans, "anonymizers", scratch)
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
