"""The sample's keyword/proposition overlap, Cohen's kappa and the second labelling pass."""

from __future__ import annotations

import json
import math

import pytest

from privlab.errors import PrivlabValueError
from privlab.redaction.redacbench import load_redacbench, parse_document, sample_path
from privlab.redaction.redacbench.agreement import (cohen_kappa, content_words, entity_words,
                                                    keyword_overlaps, label_agreement,
                                                    load_second_labels, overlap_counts,
                                                    second_labels_path)


@pytest.fixture(scope="session")
def sample():
    return load_redacbench(sample_path())


def _doc(proposition: str, keywords: list[str]):
    return parse_document({
        "id": "d", "domain": "x", "text": "Ann had epilepsy in Cork on 3 May.",
        "propositions": [{"id": "p", "text": proposition}, {"id": "q", "text": "Ann is 40."}],
        "policies": [{"id": "h", "text": "health", "sensitive": ["p"], "keywords": keywords}],
        "checks": [{"text": "Ann had [REDACTED] in Cork on 3 May.",
                    "inferable": {"p": False, "q": True}, "origin": "masking under policy h"},
                   {"text": "Ann was unwell.", "inferable": {"p": True, "q": False},
                    "origin": "hand-written rewrite"}]})


def test_sample_propositions_share_no_content_word_with_keywords(sample):
    # the count the headline reports: 0 of 75 sensitive and 0 of 185 harmless pairs
    assert overlap_counts(sample) == {
        "sensitive pairs": 75, "harmless pairs": 185, "sensitive overlapping": 0,
        "harmless overlapping": 0, "sensitive verbatim": 0, "harmless verbatim": 0}
    assert keyword_overlaps(sample) == []


def test_overlaps_are_found_by_stem_and_spare_named_entities():
    found = keyword_overlaps([_doc("Ann has epileptic fits.", ["epilepsy"])])
    assert [(o.proposition, o.sensitive, o.shared, o.verbatim) for o in found] == \
        [("p", True, ("epileptic",), False)]
    verbatim = keyword_overlaps([_doc("Ann has epilepsy.", ["epilepsy"])])[0]
    assert verbatim.verbatim and verbatim.shared == ("epileps",)
    # names and values (capitalised or with a digit) may be repeated: no paraphrase avoids them
    assert keyword_overlaps([_doc("Ann was ill in Cork on 3 May.", ["Cork", "3 May"])]) == []
    # ... but a lower-case word beside a name is not a name
    found = keyword_overlaps([_doc("Ann used the Cork library.", ["Cork library"])])
    assert found[0].shared == ("librar",)
    counts = overlap_counts([_doc("Ann has epilepsy.", ["epilepsy"])])
    assert counts["sensitive overlapping"] == 1 and counts["harmless pairs"] == 1


def test_content_words_and_entity_words():
    assert content_words("The board signed off the takeover.") == {"board", "sign", "takeov"}
    assert content_words("collapsed") == content_words("collapse")
    assert entity_words(["Patient 1107", "34-year-old", "Home Office"]) == \
        {"patient", "1107", "34", "hom", "offic"}
    with pytest.raises(TypeError):
        content_words(3)


def test_cohen_kappa_known_values():
    # observed 0.75, expected 0.5: (0.75 - 0.5) / 0.5
    assert cohen_kappa([1, 1, 0, 0], [1, 0, 0, 0]) == pytest.approx(0.5)
    assert cohen_kappa([True, False, True], [True, False, True]) == 1.0
    # complete disagreement with balanced labels: -1
    assert cohen_kappa([1, 0, 1, 0], [0, 1, 0, 1]) == pytest.approx(-1.0)
    # a textbook table: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no -> kappa 0.4
    a = [1] * 25 + [0] * 25
    b = [1] * 20 + [0] * 5 + [1] * 10 + [0] * 15
    assert cohen_kappa(a, b) == pytest.approx(0.4)
    assert math.isnan(cohen_kappa([1, 1], [1, 1]))
    with pytest.raises(PrivlabValueError, match="second"):
        cohen_kappa([1, 0], [1])
    with pytest.raises(PrivlabValueError, match="first"):
        cohen_kappa([], [])


def test_second_pass_of_the_sample_agrees_with_the_first(sample):
    second = load_second_labels(second_labels_path(), sample)
    # the second and third check of every document (medical-02 has two): 31 texts
    assert len(second) == 31 and {s.check for s in second} == {1, 2}
    a = label_agreement(sample, second)
    assert a.pairs == 260 >= 100 and a.texts == 31
    assert sum(a.table.values()) == a.pairs and a.agree == a.table[(True, True)] + \
        a.table[(False, False)]
    first = [sample[[d.id for d in sample].index(s.document)].checks[s.check].inferable[p]
             for s in second for p in s.inferable]
    secondl = [v for s in second for v in s.inferable.values()]
    assert a.kappa == pytest.approx(cohen_kappa(first, secondl))
    assert len(a.disagreements) == a.pairs - a.agree
    assert a.summary() == (f"Cohen's kappa {a.kappa:.2f} ({a.agree} of 260 proposition-text "
                           "pairs agree, 31 checked texts)")


def test_second_labels_are_refused_with_file_and_line(tmp_path):
    doc = _doc("Ann has epilepsy.", ["epilepsy"])
    good = {"document": "d", "check": 1, "origin": "hand-written rewrite",
            "inferable": {"p": True, "q": True}}
    path = tmp_path / "second.jsonl"
    path.write_text(json.dumps(good) + "\n")
    a = label_agreement([doc], load_second_labels(path, [doc]))
    assert (a.pairs, a.agree, a.disagreements) == (2, 1, (("d", 1, "q", False, True),))
    for bad, message in [({**good, "check": 2}, "check must be 0..1"),
                         ({**good, "origin": "masking under policy h"}, "differs"),
                         ({**good, "document": "e"}, "unknown document"),
                         ({**good, "inferable": {"z": True}}, "inferable must map"),
                         ({**good, "inferable": {"p": 1}}, "inferable must map"),
                         ({k: v for k, v in good.items() if k != "origin"}, "exactly")]:
        path.write_text(json.dumps(good).replace('"check": 1', '"check": 0').replace(
            "hand-written rewrite", "masking under policy h") + "\n" + json.dumps(bad) + "\n")
        with pytest.raises(PrivlabValueError, match=message) as info:
            load_second_labels(path, [doc])
        assert "second.jsonl line 2" in str(info.value)
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n")
    with pytest.raises(PrivlabValueError, match="labelled twice"):
        load_second_labels(path, [doc])
