"""On dask the certified kernel returns the single-machine answer, also when a worker dies."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from privlab.resolution import resolution
from privlab.scale import certified_resolution
from tests.test_resolution import problems, unit_rows

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")


def leaky(m=1200, n=900, d=32, seed=0):
    rng = np.random.default_rng(seed)
    S = unit_rows(rng.standard_normal((m, d))).astype(np.float32)
    T = (rng.standard_normal((n, d)) * 0.02).astype(np.float32)
    T[: n // 20] *= 6  # a few references changed a lot by sanitizing
    T[n // 2] = 0.3 * S[m // 3]  # and one leak
    return S, T


def same(a, b) -> list[str]:
    out = [name for name in ("value", "max_difference", "witness", "top")
           if getattr(a, name) != getattr(b, name)]
    for name in ("per_audited", "per_audited_reference", "flagged_items", "flagged_values"):
        x, y = getattr(a, name), getattr(b, name)
        if (x is None) != (y is None) or (x is not None and not np.array_equal(x, y)):
            out.append(name)
    return out  # work may differ: the rounds see bounds at other moments


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=problems())
def test_dask_arrays_on_the_default_scheduler_equal_the_single_machine_answer(problem):
    S, T, block, top_k = problem
    for mode, delta in (("per_audited", None), ("max", None), ("flagged", 0.25)):
        local = certified_resolution(S, T, mode=mode, delta=delta, top_k=top_k,
                                     block_size=block)
        lazy = certified_resolution(da.from_array(S, chunks=3), da.from_array(T, chunks=2),
                                    mode=mode, delta=delta, top_k=top_k, block_size=block)
        assert not same(lazy, local), (mode, same(lazy, local))
        assert lazy.work.scheduler.startswith("dask")


def test_a_threaded_local_cluster_equals_the_single_machine_answer():
    S, T = leaky()
    plain = resolution(S, T, top_k=5, block_size=128)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        for bound in ("norm", "cluster"):
            res = certified_resolution(S, T, mode="per_audited", bound=bound, clusters=4,
                                       block_size=128, client=client)
            local = certified_resolution(S, T, mode="per_audited", bound=bound, clusters=4,
                                         block_size=128)
            assert not same(res, local), same(res, local)
            assert (res.witness, res.top) == (plain.witness, plain.top)
            assert np.array_equal(res.per_audited, plain.per_audited)
            assert res.work.scheduler.startswith("dask.distributed")


def test_a_worker_killed_mid_run_is_retried_and_the_answer_does_not_change(tmp_path):
    S, T = leaky(1600, 1500, 24, seed=1)
    local = certified_resolution(S, T, mode="per_audited", block_size=100)
    from tests.scale.worker_plugins import KillOnce

    marker = tmp_path / "killed"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=50) as cluster, \
            distributed.Client(cluster) as client:
        client.register_plugin(KillOnce(str(marker)))
        before = set(client.scheduler_info()["workers"])
        res = certified_resolution(S, T, mode="per_audited", block_size=100, client=client)
        after = set(client.scheduler_info(n_workers=-1)["workers"])
    assert marker.exists(), "no worker was killed: the test did not test a failure"
    assert after != before, "the scheduler never saw a worker leave"
    assert not same(res, local), same(res, local)
    assert res.work.tiles_scored > 2


def test_inputs_on_dask_are_validated_like_the_kernels():
    S, T = leaky(40, 30, 8)
    bad = T.copy()
    bad[3, 2] = np.nan
    with pytest.raises(ValueError, match="'T' parameter of certified_resolution.*finite"):
        certified_resolution(da.from_array(S), da.from_array(bad))
    with pytest.raises(ValueError, match="'S' parameter.*normalize=True"):
        certified_resolution(da.from_array(2 * S), da.from_array(T))
    with pytest.raises(ValueError, match="'T' parameter.*same dimension"):
        certified_resolution(da.from_array(S), da.from_array(T[:, :4]))
    with pytest.raises(ValueError, match="'client' parameter"):
        certified_resolution(S, T, client="tcp://nowhere:8786")
    normalized = certified_resolution(da.from_array(2 * S), da.from_array(T), normalize=True)
    assert normalized.witness == certified_resolution(2 * S, T, normalize=True).witness
