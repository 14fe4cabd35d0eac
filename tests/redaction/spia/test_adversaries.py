"""SPIA adversaries: the registry, the offline NER adversary, the two-stage LLM
adversary and the LLM value judge, end to end against a scripted server."""

from __future__ import annotations

import json

import pytest
from llm_server import FakeLLMServer

from privlab.redaction.spia.adversaries import (
    AdversaryError,
    LLMAdversary,
    LLMValueJudge,
    NERAdversary,
    NoAdversary,
    adversaries,
)
from privlab.redaction.spia.protection import protection
from privlab.redaction.spia.records import PII, SPIARecord, Subject, load_spia

TEXT = "Mrs Ann Lee (ann@lee.ie), 40, a teacher in Cork, met her lawyer Bob Kay."


def test_adversary_registry_lists_members_and_creates_one():
    assert adversaries.names() == ["ner", "none", "llm"]
    assert adversaries.names(offline=True) == ["ner", "none"]
    assert adversaries.names(weak=False) == ["llm"]
    # a baseline ignores options meant for the others, such as an LLM client
    none = adversaries.create("none", client=object())
    assert isinstance(none, NoAdversary) and none.infer([TEXT], ["d"])[0].subjects == ()


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


def adversary_responder(request):
    prompt = request["messages"][0]["content"]
    if "list every person" in prompt:
        return json.dumps({"subjects": [
            {"id": 0, "name": "Ann Lee", "description": "the teacher"},
            {"id": 1, "name": "Bob Kay", "description": "her lawyer"}]})
    if "- EMAIL_ADDRESS:" in prompt:
        assert "- AGE:" not in prompt  # CODE and NON-CODE tags are asked separately
        return json.dumps({"subjects": [{"id": 0, "PIIs": [
            {"tag": "EMAIL_ADDRESS", "keyword": "ann@lee.ie", "certainty": 5}]}]})
    return json.dumps({"subjects": [
        {"id": 0, "PIIs": [{"tag": "AGE", "keyword": "40", "certainty": 5},
                           {"tag": "LOCATION", "keyword": "Cork / Ireland", "certainty": 4},
                           {"tag": "OCCUPATION", "keyword": "teacher", "certainty": 5}]},
        {"id": 1, "PIIs": [{"tag": "OCCUPATION", "keyword": "lawyer", "certainty": 5}]}]})


def test_two_stage_adversary_end_to_end(tmp_path, fake_client):
    with FakeLLMServer(adversary_responder) as server:
        adversary = adversaries.create("llm", client=fake_client(server))
        assert isinstance(adversary, LLMAdversary)
        out = tmp_path / "profiles.jsonl"
        (record,) = adversary.infer_to_file([TEXT], ["d"], out)
        assert len(server.requests) == 3  # stage A, CODE, NON-CODE
    ann, bob = record.subjects
    assert ann.values("NAME") == ["Ann Lee"] and ann.values("EMAIL_ADDRESS") == ["ann@lee.ie"]
    assert bob.values("OCCUPATION") == ["lawyer"]
    assert out.is_file() and json.loads(out.read_text())["metadata"]["data_id"] == "d"
    gold = SPIARecord("d", TEXT, (
        Subject(0, "Ann Lee - teacher", (PII("NAME", "Ann Lee", 5), PII("AGE", "42", 4),
                                         PII("LOCATION", "Cork / Ireland", 5),
                                         PII("SEX", "Female", 5))),
        Subject(1, "Bob Kay - lawyer", (PII("NAME", "Bob Kay", 5),))))
    result = protection([gold], [record])
    # Ann: name, age (|42-40| <= 5), location inferred, sex not -> A = 3 of 4; Bob: 1 of 1
    assert result.cpr == pytest.approx(1 - 4 / 5)


def test_malformed_answers_are_retried_then_fail_clearly_without_a_file(tmp_path, fake_client):
    answers = iter(['{"subjects": "nobody"}', "not json at all"])
    with FakeLLMServer(lambda request: next(answers)) as server:
        adversary = LLMAdversary(fake_client(server, max_retries=1))
        out = tmp_path / "profiles.jsonl"
        with pytest.raises(AdversaryError, match="document 'd' after 0 of 1"):
            adversary.infer_to_file([TEXT], ["d"], out)
        assert len(server.requests) == 2  # the first answer and one retry
    assert not out.exists() and not list(tmp_path.iterdir())


def test_llm_value_judge_is_the_fallback_of_protection(fake_client):
    verdicts = iter(['{"verdict": "less precise"}'])
    with FakeLLMServer(lambda request: next(verdicts)) as server:
        judge = LLMValueJudge(fake_client(server))
        gold = SPIARecord("d", "", (Subject(0, "Ann", (PII("OCCUPATION", "Lawyer", 5),)),))
        pred = SPIARecord("d", "", (Subject(0, "Ann", (PII("OCCUPATION", "attorney", 3),)),))
        result = protection([gold], [pred], fallback=judge)
    assert result.cpr == 0.5 and result.piis[0]["score"] == 0.5
