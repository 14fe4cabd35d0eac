"""RedacBench data: the sample's make-up, its hand labels, the loader's refusals, SPIA."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from privlab.redaction.redacbench.data import (
    derive_from_spia,
    document_to_json,
    load_redacbench,
    parse_document,
    sample_path,
)
from privlab.redaction.redacbench.strategy import Masking

DOCS = load_redacbench(sample_path())
_STOP = set("the a an of in on at to for and or by is are was were be been has have had with "
            "from that this as it its their his her he she they who which not".split())


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9']+", text.lower()) if w not in _STOP and len(w) > 1}


def test_sample_loads_round_trips_and_spans_four_domains():
    assert len(DOCS) == 16
    assert Counter(d.domain for d in DOCS) == {"personal": 4, "corporate": 4,
                                               "government": 4, "medical": 4}
    assert sum(len(d.propositions) for d in DOCS) == 134
    assert sum(len(d.policies) for d in DOCS) == 31
    assert sum(len(p.sensitive) for d in DOCS for p in d.policies) == 75
    assert [parse_document(document_to_json(d)) for d in DOCS] == DOCS


def test_every_label_is_a_hand_label_on_a_real_redaction():
    checks = [(d, c) for d in DOCS for c in d.checks]
    assert len(checks) == 47
    # nothing made up: no check is the source text (all inferable by construction) or
    # the empty text (none inferable by construction); each labels every proposition
    for doc, check in checks:
        assert check.text.strip() and check.text != doc.text
        assert set(check.inferable) == {p.id for p in doc.propositions}
        assert check.origin in {"hand-written rewrite"} | {
            f"masking under policy {p.id}" for p in doc.policies}
    labels = [v for _, c in checks for v in c.inferable.values()]
    assert len(labels) == 394 and labels.count(True) == 290 and labels.count(False) == 104
    # both classes occur in both kinds of text, so both error rates are measurable there
    for kind in ("masking", "hand-written"):
        values = [v for _, c in checks if c.origin.startswith(kind)
                  for v in c.inferable.values()]
        assert True in values and False in values


def test_masked_checks_are_exactly_what_masking_produces():
    for doc in DOCS:
        for policy in doc.policies:
            made = [c for c in doc.checks if c.origin == f"masking under policy {policy.id}"]
            assert len(made) == 1 and made[0].text == Masking().redact(doc.text, policy)
            assert "[REDACTED]" in made[0].text  # every keyword list hits the text


def test_masking_leaves_sensitive_facts_inferable_without_the_masked_words():
    sensitive = leaked = apart = 0
    for doc in DOCS:
        for policy in doc.policies:
            check = next(c for c in doc.checks if c.origin.endswith(f"policy {policy.id}"))
            masked_words = _words(" ".join(k for k in policy.keywords
                                           if k.lower() in doc.text.lower()))
            for p in doc.propositions:
                if p.id in policy.sensitive:
                    sensitive += 1
                    if check.inferable[p.id]:
                        leaked += 1
                        apart += not (_words(p.text) & masked_words)
    # by hand, 43 of the 75 sensitive propositions can still be inferred after masking
    # (Security 32/75 = 0.43), and all 43 share no word with what was masked (the
    # propositions are worded apart from the keywords): they leak through paraphrase,
    # implication or combined details
    assert (sensitive, leaked, apart) == (75, 43, 43)


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
    gold = dict(good, policies=[dict(good["policies"][0], keywords_from="guess")])
    path.write_text(json.dumps(gold) + "\n")
    with pytest.raises(ValueError, match=r"line 1: .*keywords_from must be one of \['text', "
                                         r"'gold'\], found 'guess'"):
        load_redacbench(path)
    unlabelled = dict(good, checks=[dict(good["checks"][0], origin=3)])
    path.write_text(json.dumps(unlabelled) + "\n")
    with pytest.raises(ValueError, match=r"line 1: checks\[0\].origin must be a string"):
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
        # gold keywords (masking with them is an oracle); nothing labelled by hand
        assert {p.keywords_from for p in doc.policies} == {"gold"} and doc.checks == ()
        assert Masking().oracle_on([doc])
