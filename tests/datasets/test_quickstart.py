"""The quickstart corpus: twelve texts about Albert Einstein and two concept lists."""

from __future__ import annotations

import re

from privlab.datasets import quickstart
from privlab.names import name_pattern
from privlab.sanitizers import ConceptListSanitizer
from privlab.sanitizers.text import BOX


def _mentions(concepts, text: str) -> list[str]:
    pattern = name_pattern(list(concepts))
    return pattern.findall(text)


def test_twelve_distinct_short_texts_about_the_target():
    texts = quickstart.TEXTS
    assert isinstance(texts, tuple) and len(texts) == 12
    assert all(isinstance(t, str) and t == t.strip() for t in texts)
    assert len(set(texts)) == 12
    # Short: one sentence each.
    assert all(len(t) <= 100 for t in texts)
    assert all(t.endswith(".") and t.count(". ") == 0 for t in texts)
    assert quickstart.TARGET == "Albert Einstein"


def test_weak_list_is_the_name_only_and_a_subset_of_the_strong_list():
    weak, strong = quickstart.WEAK_CONCEPTS, quickstart.STRONG_CONCEPTS
    assert weak == ("Albert Einstein", "Einstein", "Albert")
    assert quickstart.TARGET in weak
    # Every weak entry is a part of the target's name.
    assert all(set(w.split()) <= set(quickstart.TARGET.split()) for w in weak)
    assert set(weak) < set(strong)
    assert list(strong[:len(weak)]) == list(weak)
    # No entry is listed twice (case-insensitively).
    assert len({s.lower() for s in strong}) == len(strong) == 31
    assert len(set(weak)) == len(weak)


def test_some_texts_name_the_target_and_the_others_only_through_details():
    named = [i for i, t in enumerate(quickstart.TEXTS) if _mentions(quickstart.WEAK_CONCEPTS, t)]
    assert named == [0, 2, 5, 8, 11]
    # Every text the name list misses still carries a detail of the strong list.
    details = [c for c in quickstart.STRONG_CONCEPTS if c not in quickstart.WEAK_CONCEPTS]
    for i, text in enumerate(quickstart.TEXTS):
        if i not in named:
            assert _mentions(details, text), (i, text)
    # The text naming him in full is the first one.
    assert re.search(r"\bAlbert Einstein\b", quickstart.TEXTS[0])
    assert sum(bool(re.search(r"\bAlbert Einstein\b", t)) for t in quickstart.TEXTS) == 1


def test_every_strong_concept_occurs_in_the_corpus():
    for concept in quickstart.STRONG_CONCEPTS:
        hits = [i for i, t in enumerate(quickstart.TEXTS) if _mentions([concept], t)]
        assert hits, concept


def test_weak_sanitizer_leaves_the_details_and_strong_removes_them():
    weak = ConceptListSanitizer(list(quickstart.WEAK_CONCEPTS)).sanitize(list(quickstart.TEXTS))
    strong = ConceptListSanitizer(list(quickstart.STRONG_CONCEPTS)).sanitize(
        list(quickstart.TEXTS))
    names = name_pattern(quickstart.WEAK_CONCEPTS)
    details = [c for c in quickstart.STRONG_CONCEPTS if c not in quickstart.WEAK_CONCEPTS]

    # Weak: the name is gone everywhere, exactly the five naming texts changed.
    assert not any(names.search(t) for t in weak)
    changed = [i for i, (a, b) in enumerate(zip(quickstart.TEXTS, weak)) if a != b]
    assert changed == [0, 2, 5, 8, 11]
    # ... and every text still carries at least one identifying detail.
    assert all(_mentions(details, t) for t in weak)
    # The first text loses exactly "Albert Einstein" (15 characters, 14 boxed).
    assert weak[0] == f"{BOX * 6} {BOX * 8} published four landmark papers in 1905 while working in Bern."

    # Strong: every text changes, nothing of either list is left, lengths are kept.
    assert all(a != b for a, b in zip(quickstart.TEXTS, strong))
    assert not any(_mentions(quickstart.STRONG_CONCEPTS, t) for t in strong)
    assert [len(t) for t in strong] == [len(t) for t in quickstart.TEXTS]
    # Every text holds a detail beyond the name, so strong boxes strictly more than weak.
    assert all(s.count(BOX) > w.count(BOX) for w, s in zip(weak, strong))


def test_study_defaults_use_the_corpus():
    from privlab.studies.quickstart import Config

    config = Config()
    assert config.data == quickstart.TEXTS
    assert config.weak_concepts == quickstart.WEAK_CONCEPTS
    assert config.strong_concepts == quickstart.STRONG_CONCEPTS
