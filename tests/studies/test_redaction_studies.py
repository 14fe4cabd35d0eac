"""The two studies run end to end on tiny settings."""

from __future__ import annotations

import pytest

from privlab.studies import redacbench, spia


def test_spia_study_on_the_sample_shows_the_span_inference_gap():
    result = spia.run(spia.Config(data="sample", anonymizers=("none", "gold-spans",
                                                              "regex-pii")))
    table = result.to_frame().set_index("anonymizer")
    assert table.loc["none", "token recall"] == 0.0
    assert table.loc["gold-spans", "token recall"] == 1.0
    assert 0.0 < table.loc["none", "CPR"] < 1.0
    assert result.provenance["data_digest"] == "privlab sample"
    assert "weak" in result.status


def test_spia_study_records_why_an_anonymizer_was_skipped(monkeypatch):
    from privlab.redaction.spia import spans as spia_spans
    from privlab.registry import Registry

    missing = "not-yet-written"  # a sanitizer nobody has registered
    scratch = Registry("SPIA anonymizer")
    scratch.register("none", spia_spans.anonymizers.entry("none").factory)
    scratch.register("future", lambda **kw: spia_spans.SanitizerAnonymizer(missing, **kw),
                     sanitizer=missing)
    monkeypatch.setattr(spia_spans, "anonymizers", scratch)
    result = spia.run(spia.Config(data="sample", anonymizers=("none", "future"),
                                  adversary="none"))
    assert list(result.protection) == ["none"] and "not-yet-written" in result.skipped["future"]


def test_spia_study_on_shared_data_smoke(shared_data):
    result = spia.run(spia.Config.smoke())
    assert result.provenance["spans"] == "entity_panorama_151.jsonl"
    assert result.to_frame().set_index("anonymizer").loc["gold-spans", "token recall"] == 1.0


def test_redacbench_study_smoke():
    result = redacbench.run(redacbench.Config.smoke())
    table = result.to_frame().set_index("strategy")
    assert table.loc["masking", "security"] > table.loc["none", "security"]
    assert result.judge_errors.counts["gold inferable"] > 0
    with pytest.raises(ValueError, match="rounds"):
        redacbench.run(redacbench.Config(rounds=0))
