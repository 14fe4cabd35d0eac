"""The audit orchestration against hand-computed answers with an exact mock encoder."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.contrastive import (
    audit, audit_many, corpus_hash, exact_name_baseline, shared_terms, utility)
from privlab.encoders import Encoder
from privlab.resolution import brute_force_resolution
from privlab.sanitizers import ConceptListSanitizer, Identity


class TableEncoder(Encoder):
    """Maps each text to a fixed vector (normalised by the base class)."""

    modality = "text"

    def __init__(self, table: dict[str, list[float]], name: str):
        self.table = table
        self.name = name

    def _encode(self, items):
        return np.array([self.table[t] for t in items], dtype=float)


class ReplaceSanitizer(Identity):
    """Maps texts through a fixed dictionary."""

    def __init__(self, mapping):
        super().__init__()
        self.mapping = mapping
        self.name = "mapped"

    def _sanitize_one(self, item):
        return self.mapping.get(item, item)


def _unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def test_symmetric_audit_matches_hand_computation():
    # Three texts, sanitized versions point elsewhere; the answer is worked out directly.
    table = {"x0": [1, 0, 0], "x1": [0, 1, 0], "x2": [1, 1, 0],
             "s0": [0, 0, 1], "s1": [1, 0, 1], "s2": [0, 1, 1]}
    enc = TableEncoder(table, "table-a")
    san = ReplaceSanitizer({"x0": "s0", "x1": "s1", "x2": "s2"})
    result = audit(["x0", "x1", "x2"], san, encoders=[enc], top_k=3)
    E = np.stack([_unit(table[k]) for k in ("x0", "x1", "x2")])
    S = np.stack([_unit(table[k]) for k in ("s0", "s1", "s2")])
    a_max, witness, top = brute_force_resolution(S, E - S, top_k=3)
    member = result.members[0]
    assert member.value == pytest.approx(max(0.0, a_max), abs=1e-6)
    assert (member.witness.audited, member.witness.reference) == witness
    assert member.witness.audited_sanitized == f"s{witness[0]}"
    assert member.witness.reference_original == f"x{witness[1]}"
    np.testing.assert_allclose(member.utility, np.sum(E * S, axis=1), atol=1e-6)
    assert result.unchanged == 0 and result.symmetric


def test_identity_scores_zero_and_counts_unchanged():
    enc = TableEncoder({"a": [1, 0], "b": [0, 1]}, "table-b")
    result = audit(["a", "b"], Identity(), encoders=[enc])
    assert result.value == 0.0
    assert result.unchanged == 2
    assert result.members[0].mean_utility == pytest.approx(1.0)


def test_asymmetric_references_and_given_sanitized():
    table = {"x": [1, 0], "sx": [1, 1], "y": [1, 0], "sy": [0, 1]}
    enc = TableEncoder(table, "table-c")
    result = audit(["x"], sanitized=["sx"], references=["y"], references_sanitized=["sy"],
                   encoders=[enc])
    # (1,1)/sqrt2 . ((1,0) - (0,1)) = 0; nothing retained beyond chance.
    assert result.members[0].resolution.max_difference == pytest.approx(0.0, abs=1e-7)
    assert not result.symmetric and result.sanitizer == {"sanitizer": "given"}


def test_several_encoders_ensemble_is_the_max():
    t1 = {"x0": [1, 0], "x1": [0, 1], "s0": [1, 1], "s1": [1, 1]}
    t2 = {"x0": [1, 0], "x1": [0, 1], "s0": [1, 0.1], "s1": [0.1, 1]}
    san = ReplaceSanitizer({"x0": "s0", "x1": "s1"})
    result = audit(["x0", "x1"], san, encoders=[TableEncoder(t1, "t1"), TableEncoder(t2, "t2")])
    values = [m.value for m in result.members]
    assert result.value == max(values)
    assert list(result.to_frame()["encoder"]) == ["t1", "t2"]


def test_audit_many_and_rank_agreement_with_real_text():
    texts = ["Ken Lay chairs the board", "the board met Ken Lay", "Ken Lay sold shares"]
    table = audit_many(texts, [Identity(), ConceptListSanitizer(["Ken Lay"])],
                       encoders=["lexical"], names=["Ken Lay"])
    frame = table.to_frame()
    assert list(frame["name_matches"]) == [3, 0]
    assert frame["resolution"].iloc[0] == 0.0
    assert table.rank_agreement().shape == (1, 1)


def test_exact_name_baseline_counts_case_insensitive():
    texts = ["KEN LAY", "ken\nlay", "Kenneth Lay", "<PERSON>", "Ken Layton"]
    b = exact_name_baseline(texts, ["Ken Lay"])
    assert (b.count, b.indices, b.total) == (2, (0, 1), 5)
    assert b.share == pytest.approx(0.4)


def test_helpers_and_refusals():
    assert shared_terms("superhero movie night", "Watchmen is a superhero movie") == [
        "superhero", "movie"]
    assert utility(np.eye(2), np.eye(2)).tolist() == [1.0, 1.0]
    assert corpus_hash(["a"]) != corpus_hash(["b"])
    with pytest.raises(ValueError, match="'sanitizer' parameter of audit"):
        audit(["a"], encoders=["lexical"])
    with pytest.raises(ValueError, match="one item per original"):
        audit(["a", "b"], sanitized=["a"], encoders=["lexical"])
    with pytest.raises(TypeError, match="'originals' parameter of audit"):
        audit("a", Identity(), encoders=["lexical"])
    with pytest.raises(ValueError, match="'top_k'"):
        audit(["a"], Identity(), encoders=["lexical"], top_k=0)
