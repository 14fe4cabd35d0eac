"""Subject matching: by person first (the default), by value agreement (the upper bound),
one to one; the LLM alignment; the registry."""

from __future__ import annotations

import json

import pytest
from llm_server import FakeLLMServer

from privlab.redaction.spia.matching import (
    AgreementMatcher,
    LLMMatcher,
    OfflineMatcher,
    agreement,
    identity,
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


def test_agreement_matcher_decides_by_values_the_default_by_person():
    # gold 0 is a 40-year-old lawyer, gold 1 a 70-year-old judge; the prediction named
    # like gold 0 carries gold 1's values: agreement pairs it with gold 1, the person-first
    # matcher with the person it names (and its values then score nothing)
    g0 = Subject(0, "Ann Lee - lawyer", (PII("NAME", "Ann Lee", 5), PII("AGE", "40", 5),
                                         PII("OCCUPATION", "Lawyer", 5)))
    g1 = Subject(1, "Bob Kay - judge", (PII("NAME", "Bob Kay", 5), PII("AGE", "70", 5),
                                        PII("OCCUPATION", "Judge", 5)))
    p = Subject(0, "Ann Lee", (PII("NAME", "Ann Lee", 3), PII("AGE", "71", 3),
                               PII("OCCUPATION", "judge", 3)))
    assert agreement(g0, p) == 1.0 and agreement(g1, p) == 2.0
    assert AgreementMatcher().match([g0, g1], [p]) == [(1, 0)]
    assert OfflineMatcher().match([g0, g1], [p]) == [(0, 0)]


def eb4ff_like():
    """PANORAMA-EB4FF's people: the writer, married, and her spouse Thomas, married."""
    writer = Subject(0, "@mereana.ewart - Post author giving shoutout to family members", (
        PII("NAME", "Mereana Ewart", 4), PII("SEX", "Female", 3),
        PII("RELATIONSHIP", "Married", 5)))
    spouse = Subject(1, "Thomas - Spouse of the post author", (
        PII("NAME", "Thomas", 5), PII("SEX", "Male", 4), PII("RELATIONSHIP", "Married", 5)))
    return [writer, spouse]


def test_spouse_is_not_credited_with_the_writers_married():
    """The adversary says the *writer* is married and knows nothing of the spouse but a
    name. By values, its writer is as good a match for the spouse (both "Married");
    pairing by person credits "Married" to the writer only."""
    gold = eb4ff_like()
    predicted = [Subject(0, "The writer of the text", (PII("RELATIONSHIP", "Married", 3),)),
                 Subject(1, "Thomas - The spouse of the writer of the text",
                         (PII("NAME", "Thomas", 2),))]
    record = [SPIARecord("PANORAMA-EB4FF", "", tuple(gold))]
    guess = [SPIARecord("PANORAMA-EB4FF", "", tuple(predicted))]
    assert OfflineMatcher().match(gold, predicted) == [(0, 0), (1, 1)]
    rows = protection(record, guess).piis
    credited = {(r["subject"], r["tag"]): r["score"] for r in rows}
    assert credited == {(0, "NAME"): 0.0, (0, "SEX"): 0.0, (0, "RELATIONSHIP"): 1.0,
                        (1, "NAME"): 1.0, (1, "SEX"): 0.0, (1, "RELATIONSHIP"): 0.0}
    # the same prediction with the writer unlisted: "Married" is credited to nobody,
    # where pairing by values gave it to the spouse
    alone = [Subject(0, "The spouse of the writer", (PII("RELATIONSHIP", "Married", 3),))]
    assert OfflineMatcher().match(gold, alone) == [(1, 0)]
    assert identity(gold[0], alone[0]) == 0.0
    assert AgreementMatcher().match(gold, [Subject(0, "Person 1", (
        PII("RELATIONSHIP", "Married", 3),))]) in ([(0, 0)], [(1, 0)])


def test_roles_pair_across_a_court_judgment():
    """Two unnamed officials: each prediction goes to the person of its role, not to the
    one whose values it happens to fit."""
    judge = Subject(0, "The investigating judge - Judge who heard the case", (
        PII("OCCUPATION", "Judge", 5), PII("NATIONALITY", "Türkiye", 4)))
    prosecutor = Subject(1, "The public prosecutor - Prosecutor who closed the file", (
        PII("OCCUPATION", "Public prosecutor", 5), PII("NATIONALITY", "Türkiye", 4)))
    pred = [Subject(0, "The prosecutor, Public Prosecutor", (PII("NATIONALITY", "Türkiye", 2),
                                                            PII("OCCUPATION", "Judge", 2)))]
    assert AgreementMatcher().match([judge, prosecutor], pred) == [(0, 0)]
    assert OfflineMatcher().match([judge, prosecutor], pred) == [(1, 0)]


def test_similarity_falls_back_on_the_description_head_without_a_name():
    named = Subject(0, "Ann Lee - applicant", (PII("NAME", "Ann Lee", 5),))
    unnamed = Subject(1, "Ann Lee - the applicant", ())
    # name: "Ann Lee" against the head "Ann Lee" = 1; description: Jaccard of
    # {ann, lee, applicant} and {ann, lee, the, applicant} = 3/4; profile: NAME not
    # inferred = 0  ->  0.5 * 1 + 0.3 * 0.75 + 0.2 * 0 = 0.725
    assert subject_similarity(named, unnamed) == pytest.approx(0.725)
    # with no agreement, similarity 0.725 >= 0.45 still pairs them
    assert AgreementMatcher().match([named], [unnamed]) == [(0, 0)]
    with pytest.raises(ValueError, match="min_similarity"):
        AgreementMatcher(min_similarity=1.5)
    with pytest.raises(ValueError, match="min_identity"):
        OfflineMatcher(min_identity=-0.1)


def test_matcher_registry_lists_members_and_creates_one():
    builtin = ["offline", "agreement", "llm"]
    assert [n for n in matchers.names() if n in builtin] == builtin
    assert {"offline", "agreement"} <= set(matchers.names(offline=True))
    assert "llm" in matchers.names(offline=False)
    matcher = matchers.create("agreement", min_similarity=0.6)
    assert isinstance(matcher, AgreementMatcher) and matcher.min_similarity == 0.6
    assert matcher.name == "agreement(values first, min 0.6)"
    matcher = matchers.create("offline", min_identity=0.6)
    assert isinstance(matcher, OfflineMatcher)
    assert matcher.name == "offline(person first, min identity 0.6)"


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
    """The agreement matcher, the upper bound on recovery, finds people by their values
    however they are described; the person-first matcher does not credit values given
    to "Person k" in reverse order (they name nobody), so its CPR is higher."""
    records = loaded[name]
    predicted = generic_predictions(records)
    true = protection(records, predicted, matcher=KnownPairs()).cpr
    assert true == pytest.approx(TRUE_CPR[name])
    assert protection(records, predicted).cpr > true
    matcher = AgreementMatcher()
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
