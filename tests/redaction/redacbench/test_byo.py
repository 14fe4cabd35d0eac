"""privlab.redacbench.score: a function or a file of outputs on the embedded sample, with
the unredacted control and the judge's errors, every number worked out from the data."""

from __future__ import annotations

import json

import pytest

import privlab.redacbench
from privlab.errors import PrivlabTypeError, PrivlabValueError
from privlab.redaction.redacbench import (
    FunctionStrategy,
    Judge,
    NoRedaction,
    evaluate,
    load_redacbench,
    sample_path,
)
from privlab.redaction.redacbench.byo import score

DOCS = load_redacbench(sample_path())
ORIGINALS = {d.text for d in DOCS}
MEDICAL = {d.text for d in DOCS if d.domain == "medical"}


class Unchanged(Judge):
    """A scripted judge: every proposition is retained while the text is an original,
    none once it was changed at all."""

    name = "unchanged-text judge"

    def _judge(self, text, propositions):
        return [text in ORIGINALS] * len(propositions)


def blank_medical(text: str) -> str:
    return "[REDACTED]" if text in MEDICAL else text


def _counts(redacted_domain: str | None = None, policy_word: str | None = None):
    """(removed sensitive, all sensitive, kept harmless, all harmless) over every policy of
    every document, when the documents of ``redacted_domain`` (or the policies whose text
    holds ``policy_word``) are redacted and the judge sees nothing left in them."""
    removed = sensitive = kept = harmless = 0
    for d in DOCS:
        for p in d.policies:
            gone = d.domain == redacted_domain or (policy_word or "\0") in p.text.lower()
            n_sensitive = sum(q.id in p.sensitive for q in d.propositions)
            sensitive += n_sensitive
            harmless += len(d.propositions) - n_sensitive
            removed += n_sensitive if gone else 0
            kept += 0 if gone else len(d.propositions) - n_sensitive
    return removed, sensitive, kept, harmless


def test_a_function_on_the_embedded_sample_with_its_unredacted_control():
    r = score(blank_medical, judge=Unchanged())
    removed, sensitive, kept, harmless = _counts("medical")
    assert 0 < removed < sensitive
    assert r.security == pytest.approx(removed / sensitive)
    assert r.utility == pytest.approx(kept / harmless)
    # The control: the same judge on the texts left as they were removes nothing.
    assert r.unredacted.security == 0.0 and r.unredacted.utility == 1.0
    assert r.excess == pytest.approx(removed / sensitive)
    # The judge's errors on the hand labels: no check text is an original, so it calls
    # every hand-labelled "inferable" not inferable, and never the other way round.
    errors = r.result.judge_errors
    assert errors.false_inferable == 0.0 and errors.false_not_inferable == 1.0
    line = r.headline()
    assert line.startswith(f"blank_medical (Utility {kept / harmless:.3f}): Security "
                           f"{removed / sensitive:.3f} (unredacted 0.000, excess "
                           f"+{removed / sensitive:.3f}) — descriptive")
    assert "false 'not inferable' 1.00" in line
    rows = r.face_rows()
    assert [row["redaction"] for row in rows] == ["blank_medical", "unredacted (control)"]
    assert privlab.redacbench.score is score


def test_a_policy_aware_function_gets_the_policy_text():
    def health_only(text: str, policy: str) -> str:
        return "[REDACTED]" if "health" in policy.lower() else text

    r = score(health_only, judge=Unchanged(), errors=False)
    removed, sensitive, _, _ = _counts(policy_word="health")
    assert 0 < removed < sensitive
    assert r.security == pytest.approx(removed / sensitive)
    assert r.result.judge_errors is None


def test_a_file_of_outputs_scores_like_the_function(tmp_path):
    per_policy = tmp_path / "outputs.jsonl"
    blind = tmp_path / "blind.jsonl"  # one line per document: for every policy
    per_policy.write_text("".join(
        json.dumps({"document": d.id, "policy": p.id, "redacted": blank_medical(d.text)}) + "\n"
        for d in DOCS for p in d.policies), encoding="utf-8")
    blind.write_text("".join(json.dumps({"id": d.id, "text": blank_medical(d.text)}) + "\n"
                             for d in DOCS), encoding="utf-8")
    expected = score(blank_medical, judge=Unchanged(), errors=False)
    for outputs in (per_policy, str(blind)):
        r = score(outputs, judge=Unchanged(), errors=False)
        assert (r.security, r.utility) == (expected.security, expected.utility)
        assert r.strategy == "your outputs"


def test_evaluate_now_takes_a_function():
    docs = DOCS[:2]
    by_function = evaluate(docs, lambda t: t, Unchanged())
    by_strategy = evaluate(docs, NoRedaction(), Unchanged())
    assert by_function.overall == by_strategy.overall
    assert FunctionStrategy(str.upper).name == "upper"


def test_bad_redactions_are_named_with_the_fix(tmp_path):
    with pytest.raises(PrivlabValueError, match="ZeroDivisionError") as info:
        score(lambda t: 1 / 0, judge=Unchanged())
    assert "'redact_or_outputs' parameter of privlab.redacbench.score" in str(info.value)
    with pytest.raises(PrivlabValueError, match="a function returning a str"):
        score(lambda t: None, judge=Unchanged())
    with pytest.raises(PrivlabTypeError, match="Pass your redaction function itself"):
        score(42, judge=Unchanged())
    partial = {DOCS[0].id: "x"}
    with pytest.raises(PrivlabValueError, match="missing") as info:
        score(partial, judge=Unchanged())
    assert "Key each output by the data's document id" in str(info.value)
    with pytest.raises(PrivlabValueError, match="'judge' parameter"):
        score(blank_medical, judge="oracle")


def test_the_report_shows_a_leak(tmp_path):
    r = score(blank_medical, judge=Unchanged(), errors=False)
    (first, *_) = r.face_witnesses()
    assert first.items[0][0] == "sensitive fact" and first.items[1][1] in ORIGINALS
    page = r.report(tmp_path / "redac.html").read_text(encoding="utf-8")
    assert "Witness" in page and "<math" in page


def test_iterative_takes_a_function_too():
    from privlab.redaction.redacbench import Iterative, Policy

    twice = Iterative(lambda t: t + "!", 2)
    assert twice.redact("ok", Policy("p", "", frozenset())) == "ok!!"
    with pytest.raises(PrivlabTypeError, match="'base' parameter of Iterative"):
        Iterative(42, 2)
