"""Subject matching: PII-value agreement first, one to one; the LLM alignment; the registry."""

from __future__ import annotations

import json

import pytest
from llm_server import FakeLLMServer

from privlab.redaction.spia.matching import (
    LLMMatcher,
    OfflineMatcher,
    agreement,
    matchers,
    subject_similarity,
)
from privlab.redaction.spia.protection import protection
from privlab.redaction.spia.records import PII, SPIARecord, Subject

from .conftest import FILES


def test_matcher_is_one_to_one_and_optimal():
    a = Subject(0, "Ann Lee", (PII("NAME", "Ann Lee", 5),))
    b = Subject(1, "Ann Leigh", (PII("NAME", "Ann Leigh", 5),))
    # one prediction resembling both: only one gold subject may take it, the closer one
    pred = [Subject(0, "Ann Leigh", (PII("NAME", "Ann Leigh", 5),))]
    assert OfflineMatcher().match([a, b], pred) == [(1, 0)]
    # a stranger matches nobody
    stranger = [Subject(0, "Zed Quorum - pilot", (PII("NAME", "Zed Quorum", 5),))]
    matcher = OfflineMatcher()
    assert matcher.match([a, b], stranger) == []
    assert matcher.unmatched_fraction() == 1.0 and matcher.tally == {
        "gold": 2, "unmatched": 2, "predicted": 1}


def test_agreement_decides_before_names():
    # gold 0 is a 40-year-old lawyer, gold 1 a 70-year-old judge; the prediction named
    # like gold 0 carries gold 1's values: agreement pairs it with gold 1
    g0 = Subject(0, "Ann Lee - lawyer", (PII("NAME", "Ann Lee", 5), PII("AGE", "40", 5),
                                         PII("OCCUPATION", "Lawyer", 5)))
    g1 = Subject(1, "Bob Kay - judge", (PII("NAME", "Bob Kay", 5), PII("AGE", "70", 5),
                                        PII("OCCUPATION", "Judge", 5)))
    p = Subject(0, "Ann Lee - judge", (PII("AGE", "71", 3), PII("OCCUPATION", "judge", 3)))
    assert agreement(g0, p) == 0.0 and agreement(g1, p) == 2.0
    assert OfflineMatcher().match([g0, g1], [p]) == [(1, 0)]


def test_similarity_falls_back_on_the_description_head_without_a_name():
    named = Subject(0, "Ann Lee - applicant", (PII("NAME", "Ann Lee", 5),))
    unnamed = Subject(1, "Ann Lee - the applicant", ())
    # name: "Ann Lee" against the head "Ann Lee" = 1; description: Jaccard of
    # {ann, lee, applicant} and {ann, lee, the, applicant} = 3/4; profile: NAME not
    # inferred = 0  ->  0.5 * 1 + 0.3 * 0.75 + 0.2 * 0 = 0.725
    assert subject_similarity(named, unnamed) == pytest.approx(0.725)
    # with no agreement, similarity 0.725 >= 0.45 still pairs them
    assert OfflineMatcher().match([named], [unnamed]) == [(0, 0)]
    with pytest.raises(ValueError, match="min_similarity"):
        OfflineMatcher(min_similarity=1.5)


def test_matcher_registry_lists_members_and_creates_one():
    assert [n for n in matchers.names() if n in ("offline", "llm")] == ["offline", "llm"]
    assert "offline" in matchers.names(offline=True)
    assert "llm" in matchers.names(offline=False)
    matcher = matchers.create("offline", min_similarity=0.6)
    assert isinstance(matcher, OfflineMatcher) and matcher.min_similarity == 0.6
    assert matcher.name == "offline(agreement, min 0.6)"


class KnownPairs:
    """The true pairing: predicted subject k is gold subject k (built that way)."""

    name = "true pairing"

    def match(self, gold, predicted, text="", original=""):
        ids = {s.id: i for i, s in enumerate(predicted)}
        return [(i, ids[g.id]) for i, g in enumerate(gold) if g.id in ids]


class SimilarityOnly:
    """privlab's former matcher: names, descriptions and profile share, weights .5/.3/.2."""

    name = "similarity only"

    def match(self, gold, predicted, text="", original=""):
        import numpy as np
        from scipy.optimize import linear_sum_assignment

        sim = np.array([[subject_similarity(g, p) for p in predicted] for g in gold])
        rows, cols = linear_sum_assignment(-sim)
        return [(int(r), int(c)) for r, c in zip(rows, cols) if sim[r, c] >= 0.45]


def generic_predictions(records):
    """Every non-name PII right, names dropped, people described as "Person k" (reversed)."""
    out = []
    for r in records:
        subjects = [Subject(s.id, f"Person {k + 1}", tuple(p for p in s.piis if p.tag != "NAME"))
                    for k, s in enumerate(r.subjects)]
        out.append(SPIARecord(r.data_id, r.text, tuple(reversed(subjects))))
    return out


# CPR of the true pairing: only the names are not inferred (365 of 3064 on TAB-144)
TRUE_CPR = {"spia_tab_144.jsonl": 365 / 3064, "spia_panorama_151.jsonl": 200 / 943,
            "spia_panorama_531.jsonl": 653 / 2969}


@pytest.mark.parametrize("name", sorted(FILES))
def test_generic_descriptions_cannot_inflate_cpr(shared_data, loaded, name):
    records = loaded[name]
    predicted = generic_predictions(records)
    true = protection(records, predicted, matcher=KnownPairs()).cpr
    assert true == pytest.approx(TRUE_CPR[name])
    matcher = OfflineMatcher()
    found = protection(records, predicted, matcher=matcher)
    assert abs(found.cpr - true) <= 0.05
    # only people whose every counted PII is a name have nothing left to agree on
    counted = [s for r in records for s in r.subjects if s.counted_piis()]
    names_only = sum(all(p.tag == "NAME" for p in s.counted_piis()) for s in counted)
    assert matcher.unmatched_fraction() <= names_only / len(counted) + 0.005
    # the similarity-only pairing left most people unmatched and so "protected"
    inflated = protection(records, predicted, matcher=SimilarityOnly()).cpr
    assert inflated - true > 0.5


def test_llm_alignment_reads_both_texts_and_the_piis(fake_client):
    a = Subject(0, "Ann - teacher", (PII("NAME", "Ann Lee", 5), PII("AGE", "40", 4)))
    b = Subject(1, "Bob - lawyer", (PII("NAME", "Bob Kay", 5),))
    answers = iter(['{"pairs": [[0, 0], [1, 0]]}', '{"pairs": [[0, 1], [1, 0]]}'])
    with FakeLLMServer(lambda request: next(answers)) as server:
        matcher = matchers.create("llm", client=fake_client(server), min_similarity=0.5)
        assert isinstance(matcher, LLMMatcher)
        pred = [Subject(0, "the lawyer", (PII("OCCUPATION", "lawyer", 3),)),
                Subject(1, "the teacher", (PII("AGE", "41", 3),))]
        assert matcher.match([a, b], pred, "[MASKED] met [MASKED].",
                             original="Ann Lee met Bob Kay.") == [(0, 1), (1, 0)]
        first, second = server.requests
    prompt = first["messages"][0]["content"]
    for part in ("Ann Lee met Bob Kay.", "[MASKED] met [MASKED].", "AGE=40",
                 "OCCUPATION=lawyer", "0: Ann - teacher"):
        assert part in prompt
    # the one-to-many answer was refused, said so, and asked again a little warmer
    assert "one to one" in second["messages"][-1]["content"]
    assert second["temperature"] > first["temperature"]
    assert json.loads(second["messages"][-2]["content"]) == {"pairs": [[0, 0], [1, 0]]}
