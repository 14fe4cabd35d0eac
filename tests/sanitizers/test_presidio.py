"""Presidio through spaCy batches gives the same output as Presidio one text at a time."""

from __future__ import annotations

from privlab.datasets.text_corpora import executive_mailbox
from privlab.sanitizers.presidio import PresidioSanitizer


def test_batched_presidio_equals_one_text_at_a_time():
    texts = list(executive_mailbox().texts)[:12] + ["   ", "Call Ken Lay at 713-853-6773."]
    sanitizer = PresidioSanitizer()
    _, anonymizer = sanitizer.engines()
    one_by_one = [anonymizer.anonymize(text=t, analyzer_results=sanitizer.analyze(t)).text
                  if t.strip() else t for t in texts]
    batched = sanitizer.sanitize(texts)
    assert batched == one_by_one
    assert batched[-2] == "   "                        # blank text passes through untouched
    assert "Ken Lay" not in batched[-1] and "6773" not in batched[-1]
    assert sum(a != b for a, b in zip(batched, texts)) >= 10   # it did redact the emails
