"""RedacBench judges: the registry, the weak offline judge, the LLM judge's retries."""

from __future__ import annotations

import pytest
from llm_server import FakeLLMServer, Reply

from privlab.llm import LLMError
from privlab.redaction.redacbench.data import Proposition, load_redacbench, sample_path
from privlab.redaction.redacbench.evaluation import evaluate, judge_errors
from privlab.redaction.redacbench.judge import HeuristicJudge, LLMJudge, judges
from privlab.redaction.redacbench.strategy import Masking, NoRedaction


def test_judge_registry_lists_members_and_creates_one():
    assert judges.names() == ["heuristic", "llm"]
    assert judges.names(offline=True, weak=True) == ["heuristic"]
    judge = judges.create("heuristic", threshold=0.7)
    assert isinstance(judge, HeuristicJudge) and judge.threshold == 0.7
    assert judge.name == "heuristic minilm >= 0.7 (weak)"


def test_heuristic_judge_is_weak_but_separates_source_from_empty():
    docs = load_redacbench(sample_path())
    judge = HeuristicJudge()
    assert judge.weak and "weak" in judge.name
    errors = judge_errors(docs, judge)
    assert errors.false_inferable <= 0.1 and errors.false_not_inferable <= 0.2
    plain = evaluate(docs, NoRedaction(), judge)
    masked = evaluate(docs, Masking(), judge)
    assert masked.security > plain.security + 0.4
    assert judge.judge("", [Proposition("p", "Ann is ill.")]) == [False]


def test_a_retry_recovers_from_one_malformed_answer(fake_client):
    answers = iter(['{"judgments": {"p1": "maybe"}}',
                    '{"judgments": {"p1": true, "p2": false}}'])
    with FakeLLMServer(lambda request: next(answers)) as server:
        judge = judges.create("llm", client=fake_client(server), threshold=0.7)
        assert isinstance(judge, LLMJudge)
        labels = judge.judge("text", [Proposition("p1", "a"), Proposition("p2", "b")])
    assert labels == [True, False]


def test_slow_answers_time_out_then_fail_clearly(fake_client):
    with FakeLLMServer(lambda request: Reply(200, None, delay=1.0)) as server:
        judge = LLMJudge(fake_client(server, timeout=0.2, max_retries=1))
        with pytest.raises(LLMError, match="after 2 attempts"):
            judge.judge("text", [Proposition("p1", "a")])
