"""RedacBench scores: the confusion matrix, evaluation by policy and domain, text utility,
and a judge's errors on hand labels only."""

from __future__ import annotations

import json

import pytest
from llm_server import FakeLLMServer

from privlab.errors import PrivlabValueError
from privlab.redaction.redacbench.data import load_redacbench, sample_path
from privlab.redaction.redacbench.evaluation import (
    Confusion,
    confusion,
    evaluate,
    judge_errors,
    score_redactions,
)
from privlab.redaction.redacbench.judge import LLMJudge, OracleJudge
from privlab.redaction.redacbench.strategy import (
    AdversarialRedaction,
    Iterative,
    Masking,
    NoRedaction,
)

DOCS = load_redacbench(sample_path())


def test_confusion_worked_by_hand():
    # sensitive: p1 p2 p3 (p1 removed, p2 p3 leaked); harmless: p4 p5 p6 p7 (p7 lost)
    sensitive = [True, True, True, False, False, False, False]
    retained = [False, True, True, True, True, True, False]
    c = confusion(sensitive, retained)
    assert c == Confusion(tp=3, tn=1, fp=2, fn=1)
    assert c.security == pytest.approx(1 / 3) and c.utility == pytest.approx(3 / 4)
    assert Confusion().security != Confusion().security  # nan, never a silent 0


def test_masking_scored_by_the_hand_labels_by_policy_and_domain():
    doc = DOCS[0]  # health: p3 p4 p8 sensitive; location: p2
    result = evaluate([doc], Masking(), OracleJudge.from_documents([doc]))
    by_policy = result.by_policy().set_index("policy")
    # by hand: masking the health words leaves the epilepsy (p3, "a year without a fit")
    # and the exam arrangements (p8) inferable; only the collapse (p4) is gone
    assert by_policy.loc["health", ["TP", "TN", "FP", "FN"]].tolist() == [5, 1, 2, 0]
    # masking the town removes the town (p2) and nothing else
    assert by_policy.loc["location", ["TP", "TN", "FP", "FN"]].tolist() == [7, 1, 0, 0]
    assert result.security == 0.5 and result.utility == 1.0
    assert result.by_domain()["domain"].tolist() == ["personal"]
    assert result.confusion_frame().loc["sensitive", "retained"] == 2
    assert sorted(result.leaks()["proposition"]) == ["p3", "p8"]


def test_masking_on_the_whole_sample_by_hand_and_its_text_utility():
    result = evaluate(DOCS, Masking(), OracleJudge.from_documents(DOCS))
    assert result.overall == Confusion(tp=184, tn=32, fp=43, fn=1)
    assert result.security == pytest.approx(32 / 75)  # RedacBench reports 36-52% for Masking
    u = result.text_utility
    assert 0.5 < u["bleu"] < u["rougeL"] < 1.0  # masks cost BLEU more than ROUGE-L
    texts = result.texts()
    assert len(texts) == 31 and (texts["rougeL"] < 1.0).all()
    plain = evaluate(DOCS, NoRedaction(), OracleJudge.from_documents(DOCS))
    assert plain.security == 0.0 and plain.utility == 1.0
    assert plain.text_utility == {"bleu": 1.0, "rouge1": 1.0, "rougeL": 1.0}


def test_judge_errors_use_hand_labels_only():
    # an oracle that knows only the hand-labelled texts: judging the source or the
    # empty text would raise, so none is added behind the user's back
    oracle = OracleJudge.from_documents(DOCS, include_source=False)
    errors = judge_errors(DOCS, oracle)
    assert errors.counts == {"gold not inferable": 104, "gold inferable": 290}
    assert errors.false_inferable == 0.0 and errors.false_not_inferable == 0.0
    assert errors.intervals["false_inferable"][0] == 0.0
    assert 0.0 < errors.intervals["false_inferable"][1] < 0.05  # 0 of 104: at most ~3.5%
    kinds = errors.by_origin().set_index("kind")
    assert kinds.loc["masking", "gold not inferable"] == 33
    assert kinds.loc["hand-written rewrite", "gold not inferable"] == 71
    derived = [d.__class__(d.id, d.domain, d.text, d.propositions, d.policies) for d in DOCS]
    unmeasured = judge_errors(derived, oracle)
    assert unmeasured.labels == 0 and not unmeasured.measured
    assert unmeasured.summary().startswith("error rates not measured")


def test_score_redactions_needs_a_text_for_every_policy():
    doc = DOCS[0]
    with pytest.raises(PrivlabValueError, match=r"none for \('personal-01', 'location'\)"):
        score_redactions([doc], {(doc.id, "health"): doc.text},
                         OracleJudge.from_documents([doc]))


def test_llm_judge_and_adversarial_redaction_on_the_sample(fake_client):
    docs = DOCS[:1]

    def responder(request):
        prompt = request["messages"][0]["content"]
        if "Rewrite the text" in prompt:
            return json.dumps({"redacted": "A chemistry student wants to do a PhD."})
        ids = [line.split(":")[0] for line in prompt.splitlines() if line[:1] == "p"
               and line.split(":")[0][1:].isdigit()]
        rewritten = "A chemistry student wants to do a PhD." in prompt
        return json.dumps({"judgments": {i: not rewritten or i in ("p1", "p7") for i in ids}})

    with FakeLLMServer(responder) as server:
        result = evaluate(docs, Iterative(AdversarialRedaction(fake_client(server)), 2),
                          LLMJudge(fake_client(server)), errors=True)
    # every policy: p1, p7 kept, the rest removed -> every sensitive proposition removed
    assert result.security == 1.0
    assert result.overall == Confusion(tp=4, tn=4, fp=0, fn=8)
    # on the hand-labelled texts this scripted judge calls everything inferable, so it
    # errs on every hand label "not inferable": health mask p4, location mask p2, and
    # the rewrite's p2 p3 p4 p8
    errors = result.judge_errors
    assert errors.false_inferable == 1.0 and errors.false_not_inferable == 0.0
    assert errors.counts == {"gold not inferable": 6, "gold inferable": 18}
