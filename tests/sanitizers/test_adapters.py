"""Span adapters (fake pipelines, clear failures) and Presidio / entity types on known text."""

from __future__ import annotations

import pytest

from privlab.errors import MissingDependencyError
from privlab.sanitizers import (
    EntityTypeSanitizer, GLiNERSanitizer, PresidioSanitizer, TokenClassifierSanitizer)
from privlab.sanitizers.adapters import redact_spans
from privlab.sanitizers.text import BOX


def test_token_classifier_post_processing_on_a_fake_pipeline():
    text = "Mail Ken Lay at ken@enron.com"
    fake = lambda t: [{"start": 5, "end": 12, "entity_group": "private_person", "score": 0.9},  # noqa: E731
                      {"start": 16, "end": 29, "entity": "B-private_email", "score": 0.05}]
    assert TokenClassifierSanitizer(pipeline=fake).sanitize([text]) == [
        f"Mail {BOX * 3} {BOX * 3} at {BOX * 13}"]
    strict = TokenClassifierSanitizer(pipeline=fake, min_score=0.5, tags=True)
    assert strict.sanitize([text]) == ["Mail <private_person> at ken@enron.com"]


def test_gliner_post_processing_on_a_fake_model():
    class Fake:
        def predict_entities(self, text, labels, threshold):
            assert labels == ["film franchise"] and threshold == 0.3
            return [{"start": 8, "end": 23, "label": "film franchise", "score": 0.8}]

    s = GLiNERSanitizer(["film franchise"], threshold=0.3, model_object=Fake())
    assert s.sanitize(["I loved Vanguard Legion."]) == [f"I loved {BOX * 8} {BOX * 6}."]


def test_adapters_fail_clearly_when_models_are_absent(tmp_path):
    import importlib.util

    if importlib.util.find_spec("gliner") is None:
        with pytest.raises(MissingDependencyError, match="pip install --no-deps gliner==0.2.29"):
            GLiNERSanitizer(["person"]).sanitize(["Ken Lay"])
    with pytest.raises(ValueError, match="token-classification folder"):
        TokenClassifierSanitizer(model=str(tmp_path / "no-model")).sanitize(["Ken Lay"])
    with pytest.raises(ValueError, match="'spans' parameter of redact_spans"):
        redact_spans("abc", [(0, 9, "X")])


def test_presidio_most_inclusive_on_known_text():
    s = PresidioSanitizer()
    out = s.sanitize(["Marcus Whitfield wrote to mwhitfield@corvane.com from Tulsa."])[0]
    assert "<PERSON>" in out and "<EMAIL_ADDRESS>" in out and "Whitfield" not in out
    assert s.describe()["score_threshold"] == 0.0
    findings = s.analyze("Call 212-555-0143 now")
    assert any(f.entity_type == "PHONE_NUMBER" for f in findings)
    with pytest.raises(ValueError, match="'score_threshold'"):
        PresidioSanitizer(score_threshold=2)


def test_entity_types_remove_people_but_keep_other_words():
    out = EntityTypeSanitizer(["PERSON"]).sanitize(["Yesterday John Smith called the office."])
    assert out == [f"Yesterday {BOX * 4} {BOX * 5} called the office."]
    with pytest.raises(ValueError, match="'types' parameter"):
        EntityTypeSanitizer(["PEOPLE"])
