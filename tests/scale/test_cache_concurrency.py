"""The embedding cache stays correct with many processes writing at once."""

from __future__ import annotations

import multiprocessing as mp
import warnings

import numpy as np

from privlab.encoders.cache import EmbeddingCache

WRITERS = 6
OWN = 150     # keys only one writer stores
SHARED = 150  # keys every writer stores (the same content gives the same vector)
DIM = 24


def vector(key: str) -> np.ndarray:
    """The vector a deterministic encoder would give ``key``."""
    rng = np.random.default_rng([ord(c) for c in key])
    v = rng.standard_normal(DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def writer(path: str, index: int, barrier, failures) -> None:
    """Store own and shared keys in small batches, reading back as it goes."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a damaged-cache warning would be a failure
            barrier.wait()
            cache = EmbeddingCache(path)
            own = [f"w{index}-{k}" for k in range(OWN)]
            shared = [f"shared-{k}" for k in range(SHARED)]
            keys = [key for pair in zip(own, shared) for key in pair]
            for start in range(0, len(keys), 25):
                batch = keys[start:start + 25]
                cache.put_many("model", [(key, vector(key)) for key in batch])
                got = cache.get_many("model", batch)
                if set(got) != set(batch) or any(
                        not np.array_equal(got[key], vector(key)) for key in batch):
                    failures.put(f"writer {index}: wrong read-back after writing {batch[:2]}")
    except BaseException as exc:  # reported to the parent, which fails the test
        failures.put(f"writer {index}: {type(exc).__name__}: {exc}")


def test_many_processes_writing_the_same_and_different_keys(tmp_path):
    path = str(tmp_path / "embeddings.sqlite")
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(WRITERS)
    failures = ctx.Queue()
    processes = [ctx.Process(target=writer, args=(path, i, barrier, failures))
                 for i in range(WRITERS)]
    for p in processes:
        p.start()
    for p in processes:
        p.join(timeout=300)
    errors = []
    while not failures.empty():
        errors.append(failures.get())
    assert not errors, "\n".join(errors)
    assert all(p.exitcode == 0 for p in processes)
    cache = EmbeddingCache(path)
    assert cache.count("model") == WRITERS * OWN + SHARED
    keys = [f"w{i}-{k}" for i in range(WRITERS) for k in range(OWN)] + \
        [f"shared-{k}" for k in range(SHARED)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = cache.get_many("model", keys, dim=DIM)
    assert set(got) == set(keys)
    assert all(np.array_equal(got[key], vector(key)) for key in keys)
    assert not list(tmp_path.glob("*.damaged*")), "a busy database was mistaken for a damaged one"
