"""RedacBench strategies: the registry, Masking (policy or model keywords), Iterative."""

from __future__ import annotations

import json

import pytest
from llm_server import FakeLLMServer

from privlab.redaction.redacbench.data import (
    Policy,
    derive_from_spia,
    load_redacbench,
    sample_path,
)
from privlab.redaction.redacbench.strategy import (
    AdversarialRedaction,
    Iterative,
    Masking,
    NoRedaction,
    SanitizerStrategy,
    strategies,
)


def test_strategy_registry_lists_members_and_creates_one():
    builtin = ["masking", "none", "regex-pii", "adversarial"]
    assert [n for n in strategies.names() if n in builtin] == builtin
    assert "adversarial" in strategies.names(offline=False)
    assert {"masking", "none", "regex-pii"} <= set(strategies.names(offline=True))
    assert strategies.names(oracle=False) == strategies.names()  # none reads the answers
    policy = Policy("p", "", frozenset(), ("Ann",))
    masking = strategies.create("masking")
    assert isinstance(masking, Masking) and masking.redact("Ann is ill.", policy) == \
        "[REDACTED] is ill."
    # members that take no client ignore one, so a caller may pass it to every strategy
    client = object()
    assert isinstance(strategies.create("none", client=client), NoRedaction)
    regex = strategies.create("regex-pii", client=client)
    assert isinstance(regex, SanitizerStrategy) and regex.name == "sanitizer regex-pii"


def test_masking_and_iterative():
    policy = Policy("p", "", frozenset(), ("Harlow Bank", "loan"))
    text = "A loan from Harlow  Bank; loans are common."
    assert Masking().redact(text, policy) == "A [REDACTED] from [REDACTED]; loans are common."
    assert Iterative(Masking(), 3).redact(text, policy) == Masking().redact(text, policy)
    with pytest.raises(ValueError, match="rounds"):
        Iterative(Masking(), 0)


def test_llm_masking_keywords(fake_client):
    docs = load_redacbench(sample_path())[:1]
    with FakeLLMServer(lambda r: json.dumps({"keywords": ["epilepsy", "a fit"]})) as server:
        text = Masking(fake_client(server)).redact(docs[0].text, docs[0].policies[0])
        prompt = server.requests[0]["messages"][0]["content"]
    assert "epilepsy" not in text and "a fit" not in text and text.count("[REDACTED]") == 2
    # the model's list, not the data file's: "neurologist" stays
    assert "neurologist" in text and docs[0].policies[0].text in prompt


class Scripted:
    model = "scripted"


def test_masking_with_gold_keywords_is_an_oracle():
    from privlab.redaction.spia import parse_spia_record

    sample = load_redacbench(sample_path())
    record = parse_spia_record({"metadata": {"data_id": "TAB-1"}, "text": "Ann, Swedish.",
                                "subjects": [{"id": 0, "description": "Ann - applicant",
                                              "PIIs": [{"tag": "NATIONALITY",
                                                        "keyword": "Sweden", "certainty": 4}]}]})
    derived = derive_from_spia([record])
    assert not Masking().oracle_on(sample) and Masking().oracle_on(derived)
    assert Iterative(Masking(), 2).oracle_on(derived)
    assert not Masking(Scripted()).oracle_on(derived)  # a model proposes the keywords
    assert not NoRedaction().oracle_on(derived)


def test_adversarial_redaction_rewrites_through_the_model(fake_client):
    with FakeLLMServer(lambda r: json.dumps({"redacted": "Someone is ill."})) as server:
        strategy = strategies.create("adversarial", client=fake_client(server))
        assert isinstance(strategy, AdversarialRedaction) and strategy.name == "adversarial (fake)"
        assert strategy.redact("Ann is ill.", Policy("p", "Names are private.", frozenset())) \
            == "Someone is ill."
        assert "Names are private." in server.requests[0]["messages"][0]["content"]
