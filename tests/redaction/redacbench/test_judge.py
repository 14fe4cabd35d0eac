"""RedacBench judges: the registry, the weak offline judge measured on hand labels, the
LLM judge's question and retries on loopback, the oracle."""

from __future__ import annotations

import json
import re

import pytest
from llm_server import FakeLLMServer, Reply

from privlab.errors import PrivlabValueError
from privlab.llm import LLMError
from privlab.redaction.redacbench.data import Proposition, load_redacbench, sample_path
from privlab.redaction.redacbench.evaluation import evaluate, judge_errors
from privlab.redaction.redacbench.judge import (
    JUDGE_QUESTION,
    HeuristicJudge,
    LLMJudge,
    OracleJudge,
    judge_prompt,
    judges,
)
from privlab.redaction.redacbench.strategy import NoRedaction

DOCS = load_redacbench(sample_path())


def test_judge_registry_lists_members_and_marks_the_oracle():
    assert [n for n in judges.names() if n in ("heuristic", "llm", "oracle")] == \
        ["heuristic", "llm", "oracle"]
    assert {"heuristic", "llm"} <= set(judges.names(oracle=False))
    assert "oracle" in judges.names(oracle=True)
    assert "heuristic" in judges.names(offline=True, weak=True)
    assert "llm" not in judges.names(offline=True)
    judge = judges.create("heuristic", threshold=0.7)
    assert isinstance(judge, HeuristicJudge) and judge.threshold == 0.7
    assert judge.name == "heuristic minilm >= 0.7 (weak)" and not judge.oracle
    oracle = judges.create("oracle", documents=DOCS[:1])
    assert isinstance(oracle, OracleJudge) and oracle.oracle
    with pytest.raises(PrivlabValueError, match="Pass documents="):
        judges.create("oracle")


def test_heuristic_judge_is_weak_and_its_errors_are_measured_on_hand_labels():
    judge = HeuristicJudge()
    assert judge.weak and "weak" in judge.name
    errors = judge_errors(DOCS, judge)
    assert errors.counts == {"gold not inferable": 104, "gold inferable": 290}
    # it misses facts kept through paraphrase and implication (about one in five) and
    # takes shared words for kept facts (about one in ten)
    assert 0.15 <= errors.false_not_inferable <= 0.30
    assert 0.05 <= errors.false_inferable <= 0.20
    low, high = errors.intervals["false_not_inferable"]
    assert 0.1 < low < errors.false_not_inferable < high < 0.35
    frame = errors.to_frame()
    misses = frame[frame["gold"] & ~frame["judged"]]
    assert len(misses) == round(errors.false_not_inferable * 290)
    # even on the unredacted texts it calls some sensitive propositions not inferable
    plain = evaluate(DOCS, NoRedaction(), judge)
    assert plain.overall.tn > 0 and plain.security > 0.1
    assert judge.judge("", [Proposition("p", "Ann is ill.")]) == [False]


def test_llm_judge_asks_whether_each_proposition_can_still_be_inferred(fake_client):
    doc = DOCS[0]
    check = doc.checks[0]
    answer = {p.id: check.inferable[p.id] for p in doc.propositions}
    with FakeLLMServer(lambda request: json.dumps({"judgments": answer})) as server:
        labels = LLMJudge(fake_client(server)).judge(check.text, doc.propositions)
        prompt = server.requests[0]["messages"][0]["content"]
    assert labels == [answer[p.id] for p in doc.propositions]
    assert len(server.requests) == 1  # one request per text, all propositions at once
    assert prompt == judge_prompt(check.text, doc.propositions)
    assert JUDGE_QUESTION == "Can it still be inferred from the text?" and JUDGE_QUESTION in prompt
    assert "necessarily" not in prompt and "in other words" in prompt
    assert f"<<<\n{check.text}\n>>>" in prompt
    listed = re.findall(r"^(p\d+): (.*)$", prompt, re.M)
    assert listed == [(p.id, p.text) for p in doc.propositions]
    assert prompt.rstrip().endswith('{"judgments": {"<id>": true or false, ...}}')


def test_llm_judge_measured_against_the_hand_labels_on_loopback(fake_client):
    gold = {c.text: c.inferable for d in DOCS for c in d.checks}

    def faithful(request):
        text = re.search(r"<<<\n(.*)\n>>>", request["messages"][0]["content"], re.S).group(1)
        return json.dumps({"judgments": gold[text]})

    with FakeLLMServer(faithful) as server:
        perfect = judge_errors(DOCS, LLMJudge(fake_client(server)))
    assert perfect.false_inferable == 0.0 and perfect.false_not_inferable == 0.0
    assert len(server.requests) == 47  # every hand-labelled text, nothing else

    def credulous(request):
        ids = re.findall(r"^(p\d+): ", request["messages"][0]["content"], re.M)
        return json.dumps({"judgments": {i: True for i in ids}})

    with FakeLLMServer(credulous) as server:
        errors = judge_errors(DOCS, LLMJudge(fake_client(server)))
    assert errors.false_inferable == 1.0 and errors.false_not_inferable == 0.0
    assert errors.summary() == ("false 'inferable' 1.00 (104 of 104), false 'not inferable' "
                                "0.00 (0 of 290) on 394 hand labels")


def test_a_retry_recovers_from_one_malformed_answer(fake_client):
    answers = iter(['{"judgments": {"p1": "maybe"}}',
                    '{"judgments": {"p1": true, "p2": false}}'])
    with FakeLLMServer(lambda request: next(answers)) as server:
        judge = judges.create("llm", client=fake_client(server), threshold=0.7)
        assert isinstance(judge, LLMJudge)
        labels = judge.judge("text", [Proposition("p1", "a"), Proposition("p2", "b")])
    assert labels == [True, False] and len(server.requests) == 2


def test_slow_answers_time_out_then_fail_clearly(fake_client):
    with FakeLLMServer(lambda request: Reply(200, None, delay=1.0)) as server:
        judge = LLMJudge(fake_client(server, timeout=0.2, max_retries=1))
        with pytest.raises(LLMError, match="after 2 attempts"):
            judge.judge("text", [Proposition("p1", "a")])


def test_oracle_reads_hand_labels_and_refuses_unknown_texts():
    doc = DOCS[0]
    oracle = OracleJudge.from_documents([doc])
    check = doc.checks[-1]
    assert oracle.judge(check.text, doc.propositions) == \
        [check.inferable[p.id] for p in doc.propositions]
    assert oracle.judge(doc.text, doc.propositions) == [True] * len(doc.propositions)
    assert not OracleJudge.from_documents([doc], include_source=False).knows(
        doc.text, doc.propositions)
    with pytest.raises(PrivlabValueError, match="a text labelled for every proposition"):
        oracle.judge("some other text", doc.propositions)
    clash = doc.__class__(doc.id, doc.domain, doc.text, doc.propositions, doc.policies,
                          (check, check.__class__(check.text, {"p1": not check.inferable["p1"]})))
    with pytest.raises(PrivlabValueError, match="checks that agree on a text"):
        OracleJudge.from_documents([clash])
