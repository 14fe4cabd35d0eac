"""The two studies run end to end on tiny settings."""

from __future__ import annotations

import pytest
from smoke_results import smoke_result

from privlab.studies import Status, redacbench, spia
from privlab.errors import PrivlabValueError

# Shares the contract test's smoke runs (tests/smoke_results.py): one worker.
pytestmark = pytest.mark.xdist_group("studies.redaction")


def test_spia_study_on_the_sample_shows_the_span_inference_gap():
    result = spia.run(spia.Config(data="sample", anonymizers=("none", "gold-spans",
                                                              "regex-pii")))
    table = result.to_frame().set_index("anonymizer")
    assert table.loc["none", "token recall"] == 0.0
    assert table.loc["gold-spans", "token recall"] == 1.0
    assert table["oracle"].to_dict() == {"none": False, "gold-spans": True, "regex-pii": False}
    # the contextual adversary reads most of the sample unredacted, and some of it
    # after every annotated span is masked
    assert 1 - table.loc["none", "CPR"] > 0.7
    assert 0.0 < 1 - table.loc["gold-spans", "CPR"] < 0.5
    assert result.provenance["data_digest"] == "privlab sample"
    assert "weak" in result.status
    headline = result.headline()
    # never an oracle: regex-pii is the only real anonymizer here
    assert headline.text.startswith("regex-pii:") and "unredacted text" in headline.details[-1]
    assert any("oracles (gold-spans)" in c for c in headline.caveats)
    assert any("weak offline stand-in" in c for c in headline.caveats)
    with pytest.raises(ValueError, match="non-oracle"):
        spia.run(spia.Config(data="sample", headline_anonymizer="gold-spans"))
    with pytest.raises(ValueError, match="value_decider"):
        spia.run(spia.Config(data="sample", value_decider="human"))


def test_spia_study_records_why_an_anonymizer_was_skipped(monkeypatch):
    from privlab.redaction.spia import spans as spia_spans
    from privlab.registry import Registry

    missing = "not-yet-written"  # a sanitizer nobody has registered
    scratch = Registry("SPIA anonymizer")
    scratch.register("none", spia_spans.anonymizers.entry("none").factory, oracle=False)
    scratch.register("future", lambda **kw: spia_spans.SanitizerAnonymizer(missing, **kw),
                     sanitizer=missing)
    monkeypatch.setattr(spia_spans, "anonymizers", scratch)
    result = spia.run(spia.Config(data="sample", anonymizers=("none", "future"),
                                  adversary="none"))
    assert list(result.protection) == ["none"] and "not-yet-written" in result.skipped["future"]
    assert result.headline().text.startswith("no non-oracle anonymizer was run")


def test_spia_study_llm_paths_failed_documents_and_value_decider(monkeypatch):
    """SPIA's LLM adversary and rule -> LLM decider through the study, one document failing."""
    import json

    from llm_server import FakeLLMServer

    def responder(request):
        prompt = request["messages"][-1]["content"]
        first = request["messages"][0]["content"]
        if "Do they state the same fact" in first:
            return json.dumps({"verdict": "less precise"})
        if "kiri_walker" in first:
            return "no JSON here"  # the forum post fails every time
        if "Find every person" in first:
            name = "Tomas Rehak" if "Rehak" in first else "Marta Lindqvist"
            return json.dumps({"subjects": [{"id": 0, "name": name, "description": "someone"}]})
        if "- EMAIL_ADDRESS:" in first:
            return json.dumps({"subjects": []})
        return json.dumps({"subjects": [{"id": 0, "PIIs": [
            {"tag": "OCCUPATION", "keyword": "worker", "certainty": 2}]}]})

    with FakeLLMServer(responder) as server:
        monkeypatch.setenv("PRIVLAB_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("PRIVLAB_LLM_MODEL", "fake")
        result = spia.run(spia.Config(data="sample", anonymizers=("none",), adversary="llm",
                                      value_decider="rule+llm"))
    assert list(result.failed["none"]) == ["SAMPLE-forum"]
    table = result.to_frame().set_index("anonymizer")
    assert table.loc["none", "failed documents"] == 1
    assert result.protection["none"].provenance["documents"] == 2
    assert "rule then llm" in result.provenance["value_decider"]
    judged = [r for r in result.protection["none"].piis if r["score"] == 0.5]
    assert judged and all(r["tag"] == "OCCUPATION" for r in judged)
    assert any("1 of 3 documents failed under none" in c for c in result.headline().caveats)
    assert not result.provenance["weak"] and "not an offline stand-in" in " ".join(
        result.headline().caveats)
    # SPIA's third decider: a person overrules the model where it disagreed with the rule.
    pending = result.review.disagreements()
    assert pending and {d.tag for d in pending} == {"OCCUPATION"}
    assert {d.model_score for d in pending} == {0.5}
    before = result.protection["none"]
    overruled = result.rescored({d.key: "no" for d in pending})  # no further model calls
    after = overruled.protection["none"]
    assert not [r for r in after.piis if r["score"] == 0.5]
    assert after.cpr > before.cpr
    assert after.cpr - before.cpr == pytest.approx(0.5 * len(judged) / len(before.piis))
    assert "a person (" in overruled.provenance["value_decider"]
    assert result.rescored({}).protection["none"].cpr == pytest.approx(before.cpr)
    with pytest.raises(PrivlabValueError, match="decisions"):
        result.rescored({("AGE", "1", "2"): "no"})
    with pytest.raises(PrivlabValueError, match="decisions"):
        result.rescored({pending[0].key: "maybe"})


def test_spia_study_on_shared_data_smoke(shared_data):
    result = smoke_result("spia")
    assert result.provenance["spans"] == "entity_panorama_151.jsonl"
    table = result.to_frame().set_index("anonymizer")
    assert table.loc["gold-spans", "token recall"] == 1.0
    assert result.headline_anonymizer() == "regex-pii"
    assert len(result.departures("none")) == 6
    # the split is in the provenance: these are evaluation documents
    split = result.provenance["split"]
    assert split["documents_scored"] == {"development": 0, "evaluation": 8}
    assert split["scored_on"] == "evaluation" and "minus the 151" in split["development"]
    # the text-blind baseline ran on the same texts, and the excess is the difference
    assert result.provenance["baseline"] == "base-rate (text-blind)"
    for name in ("none", "regex-pii", "gold-spans"):
        row = table.loc[name]
        assert row["excess recovered"] == pytest.approx(row["recovered"]
                                                        - row["baseline recovered"])
    assert "beyond the text-blind base-rate guess" in result.headline().text
    assert any("SPIA reports on PANORAMA" in d for d in result.headline().details)
    development = spia.run(spia.Config(data=str(shared_data / "spia" / "spia_panorama_531.jsonl"),
                                       split="development", anonymizers=("none",),
                                       max_documents=3, baseline=None))
    assert development.provenance["split"]["scored_on"] == "development"
    assert not development.baseline and "beyond" not in development.headline().text
    with pytest.raises(ValueError, match="split"):
        spia.run(spia.Config(data="sample", split="test"))


@pytest.mark.slow
def test_spia_gap_on_panorama_151(shared_data):
    """The finding on real evaluation data (the rules were developed on other documents):
    the oracle span masker leaves almost nothing to this adversary; presidio leaves more
    but its gap is negative (this weak adversary recovers less than the spans presidio
    left, the opposite of SPIA's +0.185 against Claude), and most of what the contextual
    adversary recovers from presidio's output a blind guess also gets."""
    result = spia.run(spia.Config(anonymizers=("none", "presidio", "gold-spans")))
    table = result.to_frame().set_index("anonymizer")
    none, presidio, oracle = (table.loc[n] for n in ("none", "presidio", "gold-spans"))
    assert 0.40 < none["recovered"] < 0.50 and 0.15 < none["baseline recovered"] < 0.25
    assert none["excess recovered"] > 0.15  # reading the unredacted text beats a guess
    gap = presidio["token recall"] - presidio["CPR"]
    assert -0.30 < gap < -0.15
    assert 0.0 < presidio["excess recovered"] < 0.10
    assert oracle["CPR"] > 0.98
    assert result.headline_anonymizer() == "presidio"
    text = " ".join(result.headline().details)
    assert f"(token recall - CPR) {gap:+.2f}" in text and "+0.185" in text
    assert f"(gap {gap:+.2f})" in result.headline().text
    assert result.provenance["split"]["scored_on"] == "evaluation"


def test_redacbench_study_smoke():
    result = smoke_result("redacbench")
    table = result.to_frame().set_index("strategy")
    assert table.loc["masking", "security"] > table.loc["none", "security"]
    # the first four documents: 16 sensitive propositions, 5 removed by masking (by hand)
    assert table.loc["masking", "hand security"] == pytest.approx(5 / 16)
    assert table.loc["none", "hand security"] == 0.0 and not table["oracle"].any()
    assert table.loc["none", "BLEU"] == 1.0 and table.loc["masking", "ROUGE-L"] < 1.0
    # 4 documents x (2 masked texts + 1 rewrite) x 8 or 9 propositions, all by hand
    assert result.judge_errors.labels == 3 * (8 + 8 + 8 + 9)
    with pytest.raises(ValueError, match="rounds"):
        redacbench.run(redacbench.Config(rounds=0))


def test_redacbench_headline_reports_the_chosen_strategy_against_none():
    result = redacbench.run(redacbench.Config(strategies=("regex-pii", "masking"),
                                              headline="regex-pii", max_documents=2))
    assert list(result.results) == ["none", "regex-pii", "masking"]  # baseline added
    headline = result.headline()
    chosen, base = result.results["regex-pii"], result.results["none"]
    # regex-pii (policy-blind) is reported although masking scores higher: fixed in advance
    assert result.results["masking"].security > chosen.security
    # regex-pii leaves these texts as they are, so the hand labels score it (every
    # proposition is inferable from its source text): hand values first, judge beside
    hand = result.hand["regex-pii"]
    assert hand.security == 0.0 and hand.utility == 1.0
    assert headline.text == (
        f"regex-pii on 2 privlab-written documents: security 0.00 by the hand labels (0 of "
        f"{hand.fp} sensitive propositions removed; unredacted 0.00), utility 1.00 "
        f"(unredacted 1.00)")
    assert headline.details[0].startswith(
        f"beside it judge {result.provenance['judge']}: security "
        f"{chosen.security:.2f} (unredacted {base.security:.2f}), utility {chosen.utility:.2f}")
    errors = result.judge_errors
    assert f"false 'not inferable' {errors.false_not_inferable:.2f}" in headline.details[1]
    assert f"on {errors.labels} hand labels" in headline.details[1]
    assert "weak" in headline.status_note
    rests = " ".join(headline.caveats)
    assert "2 short documents written for privlab" in rests and "8,053 propositions" in rests
    assert "weak offline stand-in" in rests and "fixed in the Config" in rests
    # who labelled, and the second pass on these two documents (6 texts, 48 pairs)
    assert "written by one annotator" in rests
    a = result.agreement
    assert (a.texts, a.pairs) == (4, 32)
    assert f"Cohen's kappa {a.kappa:.2f}" in rests
    assert "0 of 8 sensitive and 0 of 24 harmless" in rests


def test_redacbench_headline_reports_hand_security_first_on_the_sample():
    result = redacbench.run(redacbench.Config(strategies=("masking",)))
    hand, judged = result.hand["masking"], result.results["masking"]
    text = result.headline().text
    # 75 sensitive propositions; masking removes 32 of them by the hand labels
    assert (hand.tn, hand.tn + hand.fp) == (32, 75)
    assert text.startswith("masking on 16 privlab-written documents: security 0.43 by the "
                           "hand labels (32 of 75 sensitive propositions removed; unredacted "
                           "0.00)")
    details = result.headline().details
    assert details[0].startswith("beside it judge ") and \
        f"security {judged.security:.2f}" in details[0] and "BLEU" in details[-1]
    assert result.headline().status is Status.DESCRIPTIVE
    assert "Security and Utility by the hand labels" in result.headline().status_note
    assert result.overlaps["sensitive overlapping"] == 0
    a = result.agreement
    assert a.pairs == 260 and a.texts == 31 and a.kappa > 0.9


def test_redacbench_refuses_oracles_and_unnamed_headlines():
    with pytest.raises(ValueError, match="'headline' .* other than 'none'"):
        redacbench.run(redacbench.Config(headline="none"))
    with pytest.raises(ValueError, match="'headline' .* one of the strategies"):
        redacbench.run(redacbench.Config(strategies=("none", "regex-pii")))
    with pytest.raises(ValueError, match="'judge' .* not an oracle"):
        redacbench.run(redacbench.Config(judge="oracle"))


def test_redacbench_on_spia_names_masking_an_oracle(shared_data):
    result = redacbench.run(redacbench.Config(data="spia", max_documents=2))
    assert result.oracle["masking"] and not result.oracle["none"]
    headline = result.headline()
    assert headline.text.startswith("no headline: masking reads the answer key")
    assert "unmeasured" in headline.status_note
