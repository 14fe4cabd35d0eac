"""RedacBench scores: the confusion matrix, evaluation by policy and domain, a judge's errors."""

from __future__ import annotations

import json

import pytest
from llm_server import FakeLLMServer

from privlab.redaction.redacbench.data import load_redacbench, sample_path
from privlab.redaction.redacbench.evaluation import Confusion, confusion, evaluate
from privlab.redaction.redacbench.judge import LLMJudge, OracleJudge
from privlab.redaction.redacbench.strategy import AdversarialRedaction, Iterative, Masking


def test_confusion_worked_by_hand():
    # sensitive: p1 p2 p3 (p1 removed, p2 p3 leaked); harmless: p4 p5 p6 p7 (p7 lost)
    sensitive = [True, True, True, False, False, False, False]
    retained = [False, True, True, True, True, True, False]
    c = confusion(sensitive, retained)
    assert c == Confusion(tp=3, tn=1, fp=2, fn=1)
    assert c.security == pytest.approx(1 / 3) and c.utility == pytest.approx(3 / 4)
    assert Confusion().security != Confusion().security  # nan, never a silent 0


def test_evaluate_by_policy_and_domain_with_an_oracle():
    docs = load_redacbench(sample_path())
    doc = docs[0]  # two policies: health (p3, p4) and money (p5)
    masked = {p.id: Masking().redact(doc.text, p) for p in doc.policies}
    labels = {masked["health"]: {"p1": True, "p2": True, "p3": False, "p4": False,
                                 "p5": True, "p6": True},
              masked["money"]: {"p1": True, "p2": True, "p3": True, "p4": True,
                                "p5": False, "p6": False}}
    result = evaluate([doc], Masking(), OracleJudge(labels))
    by_policy = result.by_policy().set_index("policy")
    assert by_policy.loc["health", ["TP", "TN", "FP", "FN"]].tolist() == [4, 2, 0, 0]
    assert by_policy.loc["money", ["TP", "TN", "FP", "FN"]].tolist() == [4, 1, 0, 1]
    assert result.security == 1.0 and result.utility == pytest.approx(8 / 9)
    assert result.by_domain()["domain"].tolist() == ["personal"]
    assert result.confusion_frame().loc["non-sensitive", "removed"] == 1


def test_llm_judge_and_adversarial_redaction_on_the_sample(fake_client):
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
        result = evaluate(docs, Iterative(AdversarialRedaction(fake_client(server)), 2),
                          LLMJudge(fake_client(server)), errors=True)
    # every policy: p1, p2 kept, the rest removed -> sensitive all removed
    assert result.security == 1.0
    nonsensitive = sum(1 for r in result.rows if not r["sensitive"])
    assert result.overall.tp == 4 and result.overall.tp + result.overall.fn == nonsensitive
    # this scripted judge calls everything inferable in any other text, so on the gold
    # checks (source, hand-redacted, empty) it errs on every gold "not inferable"
    errors = result.judge_errors
    assert errors.false_inferable == 1.0 and errors.false_not_inferable == 0.0
    assert errors.counts == {"gold not inferable": 9, "gold inferable": 9}
