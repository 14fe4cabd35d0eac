"""RedacBench: loader, confusion matrix, strategies, the offline judge, the SPIA builder."""

from __future__ import annotations

import json

import pytest

from privlab.redaction.redacbench import (
    Confusion,
    HeuristicJudge,
    Iterative,
    Masking,
    NoRedaction,
    OracleJudge,
    Policy,
    Proposition,
    confusion,
    derive_from_spia,
    evaluate,
    judge_errors,
    load_redacbench,
    sample_path,
)


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


def test_masking_and_iterative():
    policy = Policy("p", "", frozenset(), ("Harlow Bank", "loan"))
    text = "A loan from Harlow  Bank; loans are common."
    assert Masking().redact(text, policy) == "A [REDACTED] from [REDACTED]; loans are common."
    assert Iterative(Masking(), 3).redact(text, policy) == Masking().redact(text, policy)
    with pytest.raises(ValueError, match="rounds"):
        Iterative(Masking(), 0)


def test_loader_refuses_malformed_lines_by_number(tmp_path):
    good = json.loads(sample_path().read_text().splitlines()[0])
    bad = dict(good, policies=[{"id": "x", "text": "t", "sensitive": ["p99"]}])
    path = tmp_path / "b.jsonl"
    path.write_text(json.dumps(good) + "\n\n" + json.dumps(dict(bad, id="other")) + "\n")
    with pytest.raises(ValueError, match=r"line 3: .*unknown propositions \['p99'\]"):
        load_redacbench(path)
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n")
    with pytest.raises(ValueError, match="line 2: .*already used on line 1"):
        load_redacbench(path)


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


def test_derive_from_spia(shared_data):
    from privlab.redaction.spia import load_spia

    records = load_spia(shared_data / "spia" / "spia_panorama_151.jsonl")
    docs = derive_from_spia(records, max_documents=5)
    assert len(docs) == 5 and all(d.domain == "online" for d in docs)
    for doc, record in zip(docs, [r for r in records if len(r.text) <= 4000]):
        assert doc.id == record.data_id
        n = sum(len(s.counted_piis()) for s in record.subjects)
        if n:
            assert len(doc.propositions) == n
        target = next(p for p in doc.policies if p.id == "target")
        assert all(kw.lower() in doc.text.lower() for kw in target.keywords)
