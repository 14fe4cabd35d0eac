"""Model-free text sanitizers and the sanitizer protocol."""

from __future__ import annotations

import pytest

from privlab.sanitizers import (
    BOX,
    ConceptListSanitizer,
    Identity,
    RegexPIISanitizer,
    Sanitizer,
    registry,
)


def test_concept_list_is_case_insensitive_whole_word_and_length_preserving():
    s = ConceptListSanitizer(["Ken Lay", "Enron"])
    out = s.sanitize(["KEN LAY chairs enron; Kenneth Layton and Enronite stay.",
                      "Ken\n  Lay wrote"])
    assert out[0] == f"{BOX * 3} {BOX * 3} chairs {BOX * 5}; Kenneth Layton and Enronite stay."
    assert out[1] == f"{BOX * 3}\n  {BOX * 3} wrote"
    assert [len(a) for a in out] == [len("KEN LAY chairs enron; Kenneth Layton and Enronite stay."),
                                     len("Ken\n  Lay wrote")]


def test_longer_phrases_win_over_their_parts():
    s = ConceptListSanitizer(["Lay", "Ken Lay"], replacement="[X]", keep_length=False)
    assert s.sanitize(["Ken Lay met Lay."]) == ["[X] met [X]."]


def test_concept_list_is_idempotent():
    s = ConceptListSanitizer(["Einstein", "relativity"])
    once = s.sanitize(["Einstein's relativity"])
    assert s.sanitize(once) == once


def test_empty_concept_list_changes_nothing():
    assert ConceptListSanitizer([]).sanitize(["anything"]) == ["anything"]


@pytest.mark.parametrize("kwargs, match", [
    (dict(concepts="Ken Lay"), "Wrap it in a list"),
    (dict(concepts=["ok", 3]), r"concepts\[1\]"),
    (dict(concepts=["x"], replacement="##"), "'replacement'"),
])
def test_bad_settings_are_refused(kwargs, match):
    with pytest.raises((TypeError, ValueError), match=match):
        ConceptListSanitizer(**kwargs)


def test_sanitize_refuses_a_bare_string_and_wrong_items():
    with pytest.raises(TypeError, match="Wrap a single item"):
        Identity().sanitize("text")
    with pytest.raises(TypeError, match=r"items\[0\]"):
        ConceptListSanitizer(["a"]).sanitize([b"bytes"])


def test_regex_pii_replaces_formats_and_keeps_names():
    out = RegexPIISanitizer().sanitize([
        "Ken Lay (klay@enron.com, +1 713-853-6773) sold $101 million; SSN 123-45-6789; "
        "see https://example.org/x"])[0]
    assert out == ("Ken Lay (<EMAIL>, <PHONE>) sold <MONEY>; SSN <ID>; see <URL>")


def test_regex_pii_types_are_checked():
    with pytest.raises(ValueError, match="'types'"):
        RegexPIISanitizer(types=["EMAIL", "NAME"])


def test_a_sanitizer_that_drops_items_is_caught():
    class Dropper(Sanitizer):
        name = "dropper"

        def _sanitize(self, items):
            return items[:-1]

    with pytest.raises(ValueError, match="2 outputs"):
        Dropper().sanitize(["a", "b"])


def test_registry_builds_text_sanitizers_by_name():
    assert {"identity", "concept-list", "regex-pii"} <= set(registry.names(modality="text"))
    s = registry.create("concept-list", concepts=["Einstein"])
    assert s.sanitize(["Einstein"]) == [BOX * 8]
