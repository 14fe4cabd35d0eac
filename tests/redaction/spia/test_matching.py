"""Subject matching: optimal and one to one, offline or by the model; the registry."""

from __future__ import annotations

import pytest
from llm_server import FakeLLMServer

from privlab.redaction.spia.matching import (
    LLMMatcher,
    OfflineMatcher,
    matchers,
    subject_similarity,
)
from privlab.redaction.spia.records import PII, Subject


def test_matcher_is_one_to_one_and_optimal():
    a = Subject(0, "Ann Lee", (PII("NAME", "Ann Lee", 5),))
    b = Subject(1, "Ann Leigh", (PII("NAME", "Ann Leigh", 5),))
    # one prediction resembling both: only one gold subject may take it, the closer one
    pred = [Subject(0, "Ann Leigh", (PII("NAME", "Ann Leigh", 5),))]
    assert OfflineMatcher().match([a, b], pred) == [(1, 0)]
    # a stranger matches nobody
    stranger = [Subject(0, "Zed Quorum - pilot", (PII("NAME", "Zed Quorum", 5),))]
    assert OfflineMatcher().match([a, b], stranger) == []


def test_similarity_falls_back_on_the_description_head_without_a_name():
    named = Subject(0, "Ann Lee - applicant", (PII("NAME", "Ann Lee", 5),))
    unnamed = Subject(1, "Ann Lee - the applicant", ())
    # name: "Ann Lee" against the head "Ann Lee" = 1; description: Jaccard of
    # {ann, lee, applicant} and {ann, lee, the, applicant} = 3/4; profile: NAME not
    # inferred = 0  ->  0.5 * 1 + 0.3 * 0.75 + 0.2 * 0 = 0.725
    assert subject_similarity(named, unnamed) == pytest.approx(0.725)
    with pytest.raises(ValueError, match="min_similarity"):
        OfflineMatcher(min_similarity=1.5)


def test_matcher_registry_lists_members_and_creates_one():
    assert matchers.names() == ["offline", "llm"]
    assert matchers.names(offline=True) == ["offline"]
    matcher = matchers.create("offline", min_similarity=0.6)
    assert isinstance(matcher, OfflineMatcher) and matcher.min_similarity == 0.6
    assert matcher.name == "offline(min 0.6)"


def test_llm_matcher_refuses_one_to_many_pairs(fake_client):
    a = Subject(0, "Ann", (PII("NAME", "Ann Lee", 5),))
    b = Subject(1, "Bob", (PII("NAME", "Bob Kay", 5),))
    answers = iter(['{"pairs": [[0, 0], [1, 0]]}', '{"pairs": [[0, 1], [1, 0]]}'])
    with FakeLLMServer(lambda request: next(answers)) as server:
        matcher = matchers.create("llm", client=fake_client(server), min_similarity=0.5)
        assert isinstance(matcher, LLMMatcher)
        assert matcher.match([a, b], [b, a]) == [(0, 1), (1, 0)]
        assert len(server.requests) == 2  # the one-to-many answer was refused and retried
