"""Sanitizer outputs kept in memory: another encoder re-encodes and sanitizes nothing again;
progress arrives item by item inside a stage."""

from __future__ import annotations

import numpy as np
import pytest

from privlab import progress
from privlab.contrastive import audit, sanitized
from privlab.encoders import LexicalEncoder
from privlab.sanitizers import ConceptListSanitizer
from privlab.sanitizers.base import Sanitizer
from privlab.studies import enron

TEXTS = ["Ken Lay met the board", "the board met Ken Lay again", "lunch at noon with Ken Lay",
         "Enron stock fell", "Ken Lay sold shares"]


RUNS: list[tuple[int, int]] = []  # (id of the sanitizer, items) per call of _sanitize


@pytest.fixture(autouse=True)
def _fresh_log():
    # Ids are reused once an object is gone: a sanitizer of an earlier test must not
    # lend its calls to a new one that happens to get the same id.
    RUNS.clear()
    yield
    RUNS.clear()


class Counting(Sanitizer):
    """Removes ``word``; each call is logged in RUNS."""

    def __init__(self, word: str = "Lay", fill: str = "██"):
        self.word, self.fill = word, fill
        self.name = f"counting[{word}]"

    def _sanitize(self, items):
        RUNS.append((id(self), len(items)))
        self.last_batch = len(items)  # what it records about its run
        return [text.replace(self.word, self.fill) for text in items]

    @property
    def calls(self) -> int:
        return sum(1 for who, _ in RUNS if who == id(self))

    @property
    def items(self) -> int:
        return sum(n for who, n in RUNS if who == id(self))


def test_another_encoder_reuses_the_outputs_and_sanitizes_nothing_again():
    first = Counting()
    a = audit(TEXTS, first, encoders=[LexicalEncoder(64)])
    b = audit(TEXTS, first, encoders=[LexicalEncoder(512)])
    assert (first.calls, first.items) == (1, len(TEXTS))
    assert a.sanitized == b.sanitized and "██" in b.sanitized[0]
    assert a.members[0].encoder != b.members[0].encoder  # it did encode again
    # A new sanitizer of the same class and settings (what a study rebuilds) reads the
    # kept outputs, with what the first one recorded about its run.
    fresh = Counting()
    c = audit(TEXTS, fresh, encoders=[LexicalEncoder(128)])
    assert fresh.calls == 0 and c.sanitized == a.sanitized and fresh.last_batch == len(TEXTS)
    assert sanitized.stats() == {"hits": 2, "misses": 1, "entries": 1}


def test_a_changed_setting_item_or_opt_out_runs_the_sanitizer_again():
    base = Counting()
    audit(TEXTS, base, encoders=[LexicalEncoder(64)])
    other_fill = Counting(fill="[X]")
    assert "[X]" in audit(TEXTS, other_fill, encoders=[LexicalEncoder(64)]).sanitized[0]
    assert other_fill.calls == 1
    edited = Counting()
    audit(TEXTS[:-1] + ["Ken Lay sold shares."], edited, encoders=[LexicalEncoder(64)])
    assert edited.calls == 1  # one character more in one item
    served = Counting()
    served.cacheable = False  # as a language model's redaction is
    audit(TEXTS, served, encoders=[LexicalEncoder(64)])
    assert served.calls == 1


def test_the_memory_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("PRIVLAB_SANITIZER_CACHE", "0")
    s = Counting()
    for _ in range(2):
        audit(TEXTS, s, encoders=[LexicalEncoder(64)])
    assert s.calls == 2 and sanitized.stats()["entries"] == 0


def test_kept_images_are_copies_and_the_memory_is_bounded(monkeypatch):
    class Darken(Sanitizer):
        modality = "image"

        def __init__(self, by: int):
            self.by, self.name, self.calls = by, f"darken-{by}", 0

        def _sanitize(self, items):
            self.calls += 1
            return [np.clip(x.astype(int) - self.by, 0, 255).astype(np.uint8) for x in items]

    images = [np.full((4, 4, 3), 200, np.uint8), np.full((4, 4, 3), 90, np.uint8)]
    out = sanitized.sanitize(Darken(50), images)
    out[0][:] = 0  # a caller that writes into an output
    again = sanitized.sanitize(Darken(50), images)
    assert int(again[0][0, 0, 0]) == 150 and int(again[1][0, 0, 0]) == 40
    monkeypatch.setattr(sanitized, "MAX_ENTRIES", 3)
    for by in range(1, 6):
        sanitized.sanitize(Darken(by), images)
    assert sanitized.stats()["entries"] == 3
    first = Darken(1)
    sanitized.sanitize(first, images)  # dropped as the least recently used
    assert first.calls == 1


def test_a_study_rerun_with_another_encoder_sanitizes_each_email_once(monkeypatch):
    calls = []
    original = ConceptListSanitizer._sanitize_one

    def counted(self, text):
        calls.append(text)
        return original(self, text)

    monkeypatch.setattr(ConceptListSanitizer, "_sanitize_one", counted)
    config = dict(data="offline", sanitizers=("concept-list", "identity"))
    first = enron.run(enron.Config(**config, encoders=("lexical",)))
    emails = len(first.corpus)
    assert emails > 1 and len(calls) == emails
    second = enron.run(enron.Config(**config, encoders=("minilm",)))
    assert len(calls) == emails  # the encoder changed: nothing was sanitized again
    assert [a.sanitized for a in second.table] == [a.sanitized for a in first.table]
    assert {m.encoder for a in second.table for m in a.members} != \
        {m.encoder for a in first.table for m in a.members}


def test_progress_arrives_per_item_within_the_sanitizing_and_encoding_stage():
    seen = []
    texts = [f"email {k}: Ken Lay wrote to the board" for k in range(40)]
    encoder = LexicalEncoder(64)
    encoder.batch_size = 8
    with progress.reporting(seen.append):
        progress.step("sanitizing and encoding with concept-list", 0, 1)
        audit(texts, ConceptListSanitizer(["Ken Lay"]), encoders=[encoder])
    items = [s.detail.detail for s in seen if s.detail is not None and s.detail.detail]
    sanitizing = [d.done for d in items if d.stage == "sanitized"]
    assert sanitizing == list(range(41))  # every email, as it is done
    encoded = [s.detail.detail.detail.done for s in seen if s.detail and s.detail.detail
               and s.detail.detail.detail and s.detail.detail.detail.stage == "encoded"]
    assert encoded[:6] == [0, 8, 16, 24, 32, 40]  # the originals, batch by batch
    assert all(s.stage == "sanitizing and encoding with concept-list" for s in seen)
    fractions = [s.fraction for s in seen]
    assert fractions == sorted(fractions) and 0 < fractions[len(fractions) // 2] < 1


def test_a_detail_with_no_step_around_it_reports_nothing_and_a_bad_count_is_refused():
    seen = []
    with progress.reporting(seen.append):
        progress.substep("encoded", 3, 9)  # before any step: the bar does not move
        with pytest.raises(ValueError, match="'done' parameter of progress.substep"):
            progress.substep("encoded", 10, 9)
        progress.step("a study's first stage", 0, 2)
        with progress.within():
            progress.substep("encoded", 3, 9)  # within a step: its detail
    assert seen == [progress.Step("a study's first stage", 0, 2),
                    progress.Step("a study's first stage", 0, 2, progress.Step("encoded", 3, 9))]


def test_a_new_closure_never_reads_the_outputs_of_a_gone_one():
    """A closure is keyed by identity; a new one that Python puts at the freed address of
    an old one must still run (its rule differs)."""
    import gc

    class WithRule(Sanitizer):
        def __init__(self, rule):
            self.rule, self.name = rule, "with-rule"

        def _sanitize(self, items):
            return [self.rule(text) for text in items]

    def make(word):
        return lambda text: text.replace(word, "██")

    for word in ("Lay", "Ken", "board", "Enron", "met", "stock"):
        rule = make(word)
        assert sanitized.sanitize(WithRule(rule), TEXTS) == [t.replace(word, "██") for t in TEXTS]
        del rule
        gc.collect()
