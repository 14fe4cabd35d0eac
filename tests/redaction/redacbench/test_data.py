"""RedacBench data: the loader's refusals and the benchmark derived from SPIA."""

from __future__ import annotations

import json

import pytest

from privlab.redaction.redacbench.data import (
    derive_from_spia,
    document_to_json,
    load_redacbench,
    parse_document,
    sample_path,
)


def test_sample_loads_and_round_trips():
    docs = load_redacbench(sample_path())
    assert len(docs) >= 6
    assert [parse_document(document_to_json(d)) for d in docs] == docs


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


def test_derive_from_spia(shared_data):
    from privlab.redaction.spia.records import load_spia

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
