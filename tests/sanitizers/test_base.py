"""The sanitizer protocol and registry: members in their order, the identity baselines."""

from __future__ import annotations

import pytest

from privlab.sanitizers import registry
from privlab.sanitizers.base import Identity, Sanitizer, identity

TEXT = ["identity", "concept-list", "regex-pii", "presidio", "entity-types", "llm", "gliner",
        "privacy-filter"]
IMAGE = ["image-identity", "face-blackout-yunet", "face-blur-yunet", "face-blackout-haar",
         "face-blackout-mtcnn", "text-blackout-ocr", "faces-and-text-blackout", "clipseg", "sam3",
         "face-inpaint-yunet", "text-inpaint-ocr", "faces-and-text-inpaint", "person-blackout-hog",
         "person-blackout-selfie", "people-and-text-blackout", "logo-blackout", "full-blackout"]


def test_the_built_in_members_are_registered_in_order():
    # Others (a new file in privlab/sanitizers/) may be registered too.
    assert [n for n in registry.names() if n in TEXT + IMAGE] == TEXT[:5] + IMAGE + TEXT[5:]
    assert [n for n in registry.names(modality="text") if n in TEXT + IMAGE] == TEXT
    assert [n for n in registry.names(modality="image") if n in TEXT + IMAGE] == IMAGE
    assert {"llm", "gliner", "privacy-filter"} <= set(registry.names(offline=False))
    assert registry.entry("sam3").description == "SAM 3 text-prompted regions (the paper's knobs)"


def test_every_factory_takes_the_concepts():
    for name in ("identity", "concept-list", "regex-pii", "llm", "image-identity"):
        assert isinstance(registry.create(name, concepts=["Ken Lay"]), Sanitizer)
    assert registry.create("llm", concepts=["Ken Lay", "Enron"]).concept == "Ken Lay, Enron"
    assert registry.create("concept-list", concepts=["Ken Lay"]).sanitize(["Ken Lay"]) == \
        ["███ ███"]


def test_identity_changes_nothing_and_checks_items():
    s = identity(["ignored"])
    assert s.sanitize(["Ken Lay"]) == ["Ken Lay"]
    with pytest.raises(TypeError, match="items\\[0\\]"):
        s.sanitize([3])
    with pytest.raises(TypeError):
        Identity().sanitize("Ken Lay")
