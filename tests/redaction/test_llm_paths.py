"""Every LLM path end to end against a scripted OpenAI-compatible server on loopback."""

from __future__ import annotations

import json

import pytest
from llm_server import FakeLLMServer, Reply

from privlab.llm import LLMClient, LLMError
from privlab.redaction.redacbench import (
    AdversarialRedaction,
    Iterative,
    LLMJudge,
    Masking,
    evaluate,
    load_redacbench,
    sample_path,
)
from privlab.redaction.spia import PII, SPIARecord, Subject, protection
from privlab.redaction.spia_adversaries import (
    AdversaryError,
    LLMAdversary,
    LLMMatcher,
    LLMValueJudge,
)

TEXT = "Mrs Ann Lee (ann@lee.ie), 40, a teacher in Cork, met her lawyer Bob Kay."


def client(server, **kw):
    return LLMClient(base_url=server.base_url, model="fake", timeout=kw.pop("timeout", 5.0),
                     max_retries=kw.pop("max_retries", 1), backoff=0.01, cache=False, **kw)


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


def test_two_stage_adversary_end_to_end(tmp_path):
    with FakeLLMServer(adversary_responder) as server:
        adversary = LLMAdversary(client(server))
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


def test_malformed_answers_are_retried_then_fail_clearly_without_a_file(tmp_path):
    answers = iter(['{"subjects": "nobody"}', "not json at all"])
    with FakeLLMServer(lambda request: next(answers)) as server:
        adversary = LLMAdversary(client(server, max_retries=1))
        out = tmp_path / "profiles.jsonl"
        with pytest.raises(AdversaryError, match="document 'd' after 0 of 1"):
            adversary.infer_to_file([TEXT], ["d"], out)
        assert len(server.requests) == 2  # the first answer and one retry
    assert not out.exists() and not list(tmp_path.iterdir())


def test_a_retry_recovers_from_one_malformed_answer():
    answers = iter(['{"judgments": {"p1": "maybe"}}',
                    '{"judgments": {"p1": true, "p2": false}}'])
    with FakeLLMServer(lambda request: next(answers)) as server:
        judge = LLMJudge(client(server))
        from privlab.redaction.redacbench import Proposition

        labels = judge.judge("text", [Proposition("p1", "a"), Proposition("p2", "b")])
    assert labels == [True, False]


def test_slow_answers_time_out_then_fail_clearly():
    with FakeLLMServer(lambda request: Reply(200, None, delay=1.0)) as server:
        judge = LLMJudge(client(server, timeout=0.2, max_retries=1))
        from privlab.redaction.redacbench import Proposition

        with pytest.raises(LLMError, match="after 2 attempts"):
            judge.judge("text", [Proposition("p1", "a")])


def test_llm_judge_and_adversarial_redaction_on_the_sample():
    docs = load_redacbench(sample_path())[:1]

    def responder(request):
        prompt = request["messages"][0]["content"]
        if "Rewrite the text" in prompt:
            return json.dumps({"redacted": "A student in Leeds."})
        ids = [line.split(":")[0] for line in prompt.splitlines() if line[:1] == "p"
               and line.split(":")[0][1:].isdigit()]
        inferable = "A student in Leeds." not in prompt
        return json.dumps({"judgments": {i: inferable or i in ("p1", "p2") for i in ids}})

    with FakeLLMServer(responder) as server:
        result = evaluate(docs, Iterative(AdversarialRedaction(client(server)), 2),
                          LLMJudge(client(server)), errors=True)
    # every policy: p1, p2 kept, the rest removed -> sensitive all removed
    assert result.security == 1.0
    nonsensitive = sum(1 for r in result.rows if not r["sensitive"])
    assert result.overall.tp == 4 and result.overall.tp + result.overall.fn == nonsensitive
    # this scripted judge calls everything inferable in any other text, so on the gold
    # checks (source, hand-redacted, empty) it errs on every gold "not inferable"
    errors = result.judge_errors
    assert errors.false_inferable == 1.0 and errors.false_not_inferable == 0.0
    assert errors.counts == {"gold not inferable": 9, "gold inferable": 9}


def test_llm_masking_keywords():
    docs = load_redacbench(sample_path())[:1]
    with FakeLLMServer(lambda r: json.dumps({"keywords": ["diabetes", "insulin"]})) as server:
        text = Masking(client(server)).redact(docs[0].text, docs[0].policies[0])
    assert "diabetes" not in text and "insulin" not in text and "[REDACTED]" in text


def test_llm_matcher_and_value_judge():
    a = Subject(0, "Ann", (PII("NAME", "Ann Lee", 5),))
    b = Subject(1, "Bob", (PII("NAME", "Bob Kay", 5),))
    answers = iter(['{"pairs": [[0, 0], [1, 0]]}', '{"pairs": [[0, 1], [1, 0]]}'])
    with FakeLLMServer(lambda request: next(answers)) as server:
        assert LLMMatcher(client(server)).match([a, b], [b, a]) == [(0, 1), (1, 0)]
        assert len(server.requests) == 2  # the one-to-many answer was refused and retried
    verdicts = iter(['{"verdict": "less precise"}'])
    with FakeLLMServer(lambda request: next(verdicts)) as server:
        judge = LLMValueJudge(client(server))
        gold = SPIARecord("d", "", (Subject(0, "Ann", (PII("OCCUPATION", "Lawyer", 5),)),))
        pred = SPIARecord("d", "", (Subject(0, "Ann", (PII("OCCUPATION", "attorney", 3),)),))
        result = protection([gold], [pred], fallback=judge)
    assert result.cpr == 0.5 and result.piis[0]["score"] == 0.5
