"""Where the bound would skip almost nothing, the walk hands the rest to the plain kernel's
blocks, and the answer is still the plain kernel's, field for field."""

from __future__ import annotations

import numpy as np
import pytest

import privlab.scale.certified as certified
from privlab.resolution import resolution
from privlab.scale import certified_resolution
from privlab.scale.groups import FIRST_GROUP
from privlab.scale.rules import Known
from privlab.scale.synthetic import synthetic_audit
from tests.scale.test_certified import planted


def differences(S, T, *, top_k: int, delta: float, **options) -> tuple[list[str], list]:
    """Fields of the three modes that differ from the plain kernel, and the three results."""
    plain = resolution(S, T, top_k=top_k, block_size=options.get("block_size", 2048))
    full = certified_resolution(S, T, mode="per_audited", top_k=top_k, **options)
    quick = certified_resolution(S, T, mode="max", top_k=top_k, **options)
    flag = certified_resolution(S, T, mode="flagged", delta=delta, top_k=top_k, **options)
    reaches = (lambda v: v >= delta) if delta > 0 else (lambda v: v > 0)
    items = plain.flagged(delta)
    pairs = {
        "per_audited value": (full.value, plain.value),
        "per_audited max_difference": (full.max_difference, plain.max_difference),
        "per_audited witness": (full.witness, plain.witness),
        "per_audited top": (full.top, plain.top),
        "per_audited maxima": (full.per_audited.tolist(), plain.per_audited.tolist()),
        "per_audited references": (full.per_audited_reference.tolist(),
                                   plain.per_audited_reference.tolist()),
        "max value": (quick.value, plain.value),
        "max max_difference": (quick.max_difference, plain.max_difference),
        "max witness": (quick.witness, plain.witness),
        "max top": (quick.top, plain.top),
        "flagged items": (flag.flagged_items.tolist(), items.tolist()),
        "flagged values": (flag.flagged_values.tolist(), plain.per_audited[items].tolist()),
        "flagged references": (flag.flagged_references.tolist(),
                               plain.per_audited_reference[items].tolist()),
        "flagged top": (flag.top, [t for t in plain.top if reaches(t[2])]),
    }
    return [f"{name}: {got} != {want}" for name, (got, want) in pairs.items() if got != want], \
        [full, quick, flag]


def test_without_a_leak_every_mode_goes_to_the_plain_kernel_and_equals_it():
    audit = synthetic_audit(700, 500, 32, scenario="none", seed=1)
    found, results = differences(audit.S, audit.T, top_k=6, delta=0.0, block_size=64)
    assert not found, "\n".join(found)
    for res in results:
        # Norms all alike: from the start, the bound would keep every trial.
        assert res.work.plain_remainder == 500
        assert res.work.scored == res.work.trials == 700 * 500
        assert res.work.tiles_scored == res.work.tiles
        assert res.work.references_untouched == 0
        assert "500 references in one plain-kernel pass" in res.work.describe()
        assert res.to_dict()["work"]["plain_remainder"] == 500


def test_ties_keep_the_smallest_audited_then_reference_index_after_the_switch():
    # Items: entries +-1/4 in the first 16 of 20 dimensions (unit rows). References: one
    # of 12 patterns of +-1/32 there, plus some of 2**-6 .. 3 * 2**-6 in the last four,
    # which changes their norms (hence the order the walk visits them in) but not their
    # values. Every product and sum is exact: trial values take a handful of values,
    # each reached by many (i, j) whose references lie in different groups.
    rng = np.random.default_rng(5)
    S = np.zeros((300, 20))
    S[:, :16] = rng.choice([-0.25, 0.25], size=(300, 16))
    patterns = rng.choice([-1.0, 1.0], size=(12, 16)) / 32
    T = np.zeros((220, 20))
    T[:, :16] = patterns[rng.integers(0, 12, 220)]
    T[:, 16:] = rng.integers(0, 4, size=(220, 4)) * 2.0**-6
    for top_k in (1, 9, 40):
        found, results = differences(S, T, top_k=top_k, delta=0.1, block_size=(64, 50))
        assert not found, f"top_k={top_k}\n" + "\n".join(found)
        assert all(res.work.plain_remainder == 220 for res in results)
    full = results[0]
    # The tie rule, checked directly: each item's maximum goes to its smallest reference.
    values = S @ T.T
    best = values.max(axis=1)
    first = np.array([np.flatnonzero(values[i] == best[i])[0] for i in range(S.shape[0])])
    assert np.array_equal(full.per_audited_reference, first)


def test_a_walk_that_finds_the_bound_useless_hands_over_the_references_left(monkeypatch):
    # Make the first estimate claim that everything can be skipped: the walk then scores
    # the first group in tiles, sees from the exact values that the bound keeps every
    # remaining trial, and scores the rest in one pass; the merge must be exact.
    everything_skippable = lambda data, cols, k: Known(  # noqa: E731
        best=np.full(data.shape[0], np.inf), kth_lower=np.inf)
    monkeypatch.setattr(certified, "preview", everything_skippable)
    audit = synthetic_audit(500, 400, 24, scenario="none", seed=2)
    found, results = differences(audit.S, audit.T, top_k=5, delta=0.0, block_size=128)
    assert not found, "\n".join(found)
    for res in results:
        assert res.work.plain_remainder == 400 - FIRST_GROUP
        assert res.work.scored == res.work.trials


def test_torch_inputs_take_the_same_path_and_give_the_same_answer():
    import torch

    audit = synthetic_audit(300, 260, 16, scenario="none", seed=3)
    a = certified_resolution(audit.S, audit.T, mode="per_audited", block_size=64)
    b = certified_resolution(torch.from_numpy(audit.S), torch.from_numpy(audit.T),
                             mode="per_audited", block_size=64)
    assert a.work.plain_remainder == b.work.plain_remainder == 260
    assert (a.witness, a.top) == (b.witness, b.top)
    assert np.array_equal(a.per_audited, b.per_audited)
    assert np.array_equal(a.per_audited_reference, b.per_audited_reference)


@pytest.mark.parametrize("mode, delta", [("max", None), ("flagged", 0.1)])
def test_a_planted_leak_keeps_the_walk_and_its_skipping(mode, delta):
    S, T = planted()
    plain = resolution(S, T, top_k=1)
    res = certified_resolution(S, T, mode=mode, delta=delta, top_k=1, block_size=256)
    assert res.work.plain_remainder == 0
    assert (res.value, res.witness, res.top) == (plain.value, plain.witness, plain.top)
    # Only the first group (the largest norms) was scored, and not against every row.
    assert 0 < res.work.scored <= S.shape[0] * FIRST_GROUP
    assert res.work.references_untouched == T.shape[0] - FIRST_GROUP
    assert "plain-kernel pass" not in res.work.describe()


def test_bound_none_walks_every_tile_and_never_switches():
    audit = synthetic_audit(300, 200, 16, scenario="none", seed=4)
    res = certified_resolution(audit.S, audit.T, bound="none", block_size=64)
    assert res.work.plain_remainder == 0
    assert res.work.tiles_scored == res.work.tiles == 4 * 2  # 4 groups x 2 row windows


def test_the_estimate_counts_trials_on_evenly_spaced_rows():
    rows = certified.estimate_rows(10 * certified.ESTIMATE_ROWS + 3)
    assert rows.size == certified.ESTIMATE_ROWS
    assert rows[0] == 0 and rows[-1] == 10 * certified.ESTIMATE_ROWS + 2
    assert (np.diff(rows) > 0).all()


def test_the_preview_estimates_from_the_inputs_at_any_magnitude():
    audit = synthetic_audit(60, 50, 8, scenario="none", seed=6)
    T = audit.T.astype(np.float64)
    T[:5] *= 2.0**300  # rows the kernel rescales by a power of two
    data = certified.prepare(audit.S, T, normalize=False, caller="test")
    cols = np.array([0, 3, 7, 20])
    known = certified.preview(data, cols, k=3, chunk=16)
    values = audit.S.astype(np.float64) @ T[cols].T
    assert np.allclose(known.best, values.max(axis=1), rtol=1e-5)
    assert known.kth_lower == pytest.approx(np.sort(values.ravel())[-3], rel=1e-5)
