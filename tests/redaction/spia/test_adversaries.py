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
    failed_documents,
)
from privlab.redaction.spia.protection import protection
from privlab.redaction.spia.records import PII, SPIARecord, Subject, load_spia

TEXT = "Mrs Ann Lee (ann@lee.ie), 40, a teacher in Cork, met her lawyer Bob Kay."


def test_adversary_registry_lists_members_and_creates_one():
    # The built-in members in their order, with their flags (others may follow).
    builtin = ["ner", "none", "llm", "contextual", "base-rate"]
    assert [n for n in adversaries.names() if n in builtin] == builtin
    assert {"ner", "none", "contextual", "base-rate"} <= set(adversaries.names(offline=True))
    assert "llm" in adversaries.names(weak=False) and "llm" not in adversaries.names(offline=True)
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
    if "Find every person" in prompt:
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


def test_two_step_adversary_end_to_end(tmp_path, fake_client):
    with FakeLLMServer(adversary_responder) as server:
        adversary = adversaries.create("llm", client=fake_client(server))
        assert isinstance(adversary, LLMAdversary)
        out = tmp_path / "profiles.jsonl"
        (record,) = adversary.infer_to_file([TEXT], ["d"], out)
        assert len(server.requests) == 3  # step 1, CODE, NON-CODE
        step1, code, non_code = (r["messages"][0]["content"] for r in server.requests)
    assert "Son 1, Son 2, Son 3" in step1 and "always points to a person" in step1
    assert "Give all ten tags for every person" in non_code and "never answer" in non_code
    assert "age in years on 1 September 2025" in non_code
    assert "premises / sub-city / city / country" in non_code
    assert 'keyword "" and\ncertainty 0' in code or 'keyword ""' in code
    ann, bob = record.subjects
    assert ann.values("NAME") == ["Ann Lee"] and ann.values("EMAIL_ADDRESS") == ["ann@lee.ie"]
    assert bob.values("OCCUPATION") == ["lawyer"]
    assert out.is_file() and json.loads(out.read_text())["metadata"]["data_id"] == "d"
    # 10 NON-CODE tags asked of each; Ann got 3 (+ NAME from step 1), Bob 1 (+ NAME)
    assert adversary.stats == {"retries": 0, "empty_non_code": (10 - 4) + (10 - 2)}
    gold = SPIARecord("d", TEXT, (
        Subject(0, "Ann Lee - teacher", (PII("NAME", "Ann Lee", 5), PII("AGE", "42", 4),
                                         PII("LOCATION", "Cork / Ireland", 5),
                                         PII("SEX", "Female", 5))),
        Subject(1, "Bob Kay - lawyer", (PII("NAME", "Bob Kay", 5),))))
    result = protection([gold], [record])
    # Ann: name, age (|42-40| <= 5), location inferred, sex not -> A = 3 of 4; Bob: 1 of 1
    assert result.cpr == pytest.approx(1 - 4 / 5)


def test_reference_date_is_configurable(fake_client):
    with FakeLLMServer(adversary_responder) as server:
        LLMAdversary(fake_client(server), reference_date="2030-01-15").infer([TEXT], ["d"])
        assert "age in years on 15 January 2030" in server.requests[2]["messages"][0]["content"]


def test_retries_say_what_was_wrong_and_warm_up(fake_client):
    answers = iter([
        json.dumps({"subjects": [{"id": 0, "name": "Ann", "description": "teacher"}]}),
        '{"subjects": []}',  # CODE: nobody has a code
        json.dumps({"subjects": [{"id": 0, "PIIs": [{"tag": "SHOE_SIZE", "keyword": "38",
                                                     "certainty": 2}]}]}),
        json.dumps({"subjects": [{"id": 0, "PIIs": [{"tag": "SEX", "keyword": "Female"}]}]}),
        json.dumps({"subjects": [{"id": 0, "PIIs": [{"tag": "SEX", "keyword": "Female",
                                                     "certainty": 4}]}]})])
    with FakeLLMServer(lambda request: next(answers)) as server:
        adversary = LLMAdversary(fake_client(server))
        (record,) = adversary.infer([TEXT], ["d"])
        requests = server.requests
    assert record.subjects[0].values("SEX") == ["Female"]
    tag_retry, certainty_retry = requests[3], requests[4]
    assert "'SHOE_SIZE' is not one of the tags" in tag_retry["messages"][-1]["content"]
    assert "has no certainty" in certainty_retry["messages"][-1]["content"]
    assert [r["temperature"] for r in requests[2:]] == pytest.approx([0.0, 0.2, 0.4])
    assert adversary.stats["retries"] == 2


def test_a_document_that_keeps_failing_is_recorded_and_the_run_goes_on(tmp_path, fake_client):
    def responder(request):
        prompt = request["messages"][0]["content"]
        if "BROKEN" in prompt:
            return "not json at all"
        return adversary_responder(request)

    with FakeLLMServer(responder) as server:
        adversary = LLMAdversary(fake_client(server), attempts=2)
        records = adversary.infer(["BROKEN text", TEXT], ["bad", "good"], on_failure="record")
        assert len(server.requests) == 2 + 3  # two tries on the broken one, then 3 calls
        assert failed_documents(records) == {"bad": failed_documents(records)["bad"]}
        assert "not valid JSON" in failed_documents(records)["bad"]
        assert len(records[1].subjects) == 2
        out = tmp_path / "profiles.jsonl"
        with pytest.raises(AdversaryError, match="document 'bad' after 0 of 2"):
            adversary.infer_to_file(["BROKEN text", TEXT], ["bad", "good"], out)
    assert not out.exists() and not list(tmp_path.iterdir())
    with pytest.raises(ValueError, match="on_failure"):
        NoAdversary().infer([TEXT], ["d"], on_failure="skip")


def test_llm_value_judge_is_the_fallback_of_protection(fake_client):
    verdicts = iter(['{"verdict": "maybe"}', '{"verdict": "less precise"}'])
    with FakeLLMServer(lambda request: next(verdicts)) as server:
        judge = LLMValueJudge(fake_client(server))
        gold = SPIARecord("d", "", (Subject(0, "Ann", (PII("OCCUPATION", "Lawyer", 5),)),))
        pred = SPIARecord("d", "", (Subject(0, "Ann", (PII("OCCUPATION", "attorney", 3),)),))
        result = protection([gold], [pred], fallback=judge)
        assert "'maybe'" in server.requests[1]["messages"][-1]["content"]
        assert "Lawyer" in server.requests[0]["messages"][0]["content"]
    assert result.cpr == 0.5 and result.piis[0]["score"] == 0.5 and judge.calls == 1
