"""Audits at scale: speed, memory and screen recall, as printed ratios (never asserted).

On generated audits (privlab.scale.synthetic: a planted leak, no leak, and realistic
references whose norms are mostly small), at m = n = 10^5 and d = 768:

  1. exact paths: the plain kernel, the certified path (norm bound) for the value and
     witness (mode "max", top_k = 1), for the top 5, and for every item's maximum
     (mode "per_audited"), and faiss.IndexFlatIP searched at k = 1 (float32, not
     exact); whether each certified answer equals the plain one, the share of trials it
     skipped, the time ratios, and peak traced memory (NumPy allocations) relative to
     the input size;
  2. dask: the certified path (value and witness) on a LocalCluster of 2 worker
     processes (1 thread each), inputs read by the workers from .npy files, against the
     same call in this process, with the norm bound and with no bound (all the work);
  3. screens: HNSW and IVF, rescored exactly; how often they find the decisive witness
     (over several seeds) and their speed-up over the plain kernel.

    python benchmarks/scale.py            # m = n = 100,000, d = 768 (hours on 2 cores)
    python benchmarks/scale.py --quick    # m = n = 20,000 (a few minutes)
    python benchmarks/scale.py --size 50000 --d 384 --seeds 2
    python benchmarks/scale.py --quick --sections exact --repeat 3   # exact paths only,
                                                                     # fastest of 3 calls
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

from privlab.resolution import resolution
from privlab.scale import certified_resolution
from privlab.scale.screen import screen_resolution
from privlab.scale.synthetic import SCENARIOS, synthetic_audit


SECTIONS = ("exact", "dask", "screens")


def timed(fn, repeat: int = 1):
    """``(result, seconds)`` of ``fn()``; with ``repeat`` > 1, the fastest of that many
    calls (others' processes on a shared machine only ever add time)."""
    best = np.inf
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return out, best


def peak_memory(fn) -> int:
    """Peak bytes of traced (NumPy) allocations during one call."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def same(a, b) -> bool:
    return (a.value, a.max_difference, a.witness, list(a.top)) == \
        (b.value, b.max_difference, b.witness, list(b.top))


def faiss_flat(S, T):
    """Best trial by faiss.IndexFlatIP at k = 1 (its float32 value and pair)."""
    import faiss

    index = faiss.IndexFlatIP(T.shape[1])
    index.add(np.ascontiguousarray(T, dtype=np.float32))
    values, found = index.search(np.ascontiguousarray(S, dtype=np.float32), 1)
    i = int(np.argmax(values[:, 0]))
    return float(values[i, 0]), (i, int(found[i, 0]))


def exact_paths(size: int, d: int, repeat: int = 1) -> dict:
    best_of = f", kernel times the fastest of {repeat} calls" if repeat > 1 else ""
    print(f"\n1. exact paths, m = n = {size:,}, d = {d}; x = plain seconds / path seconds, "
          f"skip = share of trials not scored, = = same answer as the plain kernel{best_of}")
    print(f"{'scenario':<10} {'plain s':>8} | {'max k=1 s':>9} {'x':>6} {'skip':>6} {'=':>5} | "
          f"{'max k=5 s':>9} {'x':>6} {'skip':>6} {'=':>5} | {'per-item s':>10} {'x':>6} "
          f"{'skip':>6} {'=':>5} | {'faiss s':>8} {'x':>6} {'same pair':>9}")
    plains = {}
    for scenario in SCENARIOS:
        audit = synthetic_audit(size, size, d, scenario=scenario, seed=0)
        plain, plain_s = timed(lambda: resolution(audit.S, audit.T, top_k=5, device="cpu"),
                               repeat)
        cells = []
        for mode, k in (("max", 1), ("max", 5), ("per_audited", 5)):
            res, s = timed(lambda: certified_resolution(audit.S, audit.T, top_k=k, mode=mode,
                                                        device="cpu"), repeat)
            agree = (res.value, res.witness, res.top) == (plain.value, plain.witness,
                                                          plain.top[:k])
            if mode == "per_audited":
                agree = agree and np.array_equal(res.per_audited, plain.per_audited)
            cells.append(f"{s:9.1f} {plain_s / s:6.2f} {res.work.skipped_fraction:6.1%} "
                         f"{str(agree):>5}")
        (flat_value, flat_pair), flat_s = timed(lambda: faiss_flat(audit.S, audit.T))
        plains[scenario] = (plain, plain_s)
        print(f"{scenario:<10} {plain_s:8.1f} | " + " | ".join(cells) +
              f" | {flat_s:8.1f} {plain_s / flat_s:6.2f} {str(flat_pair == plain.witness):>9}",
              flush=True)
    audit = synthetic_audit(size, size, d, scenario="realistic", seed=0)
    inputs = audit.S.nbytes + audit.T.nbytes
    plain_peak = peak_memory(lambda: resolution(audit.S, audit.T, device="cpu"))
    cert_peak = peak_memory(lambda: certified_resolution(audit.S, audit.T, device="cpu",
                                                         mode="per_audited"))
    print(f"peak traced (NumPy) memory of one call, scenario realistic, relative to the inputs "
          f"({inputs / 2**20:,.0f} MiB): plain {plain_peak / inputs:.2f}x, certified "
          f"per_audited {cert_peak / inputs:.2f}x")
    return plains


def _load_libraries() -> None:
    """Import what the tiles use, so that timing starts with warm workers."""
    import torch  # noqa: F401

    resolution(np.eye(4), np.eye(4))


def _load_rows(path: str, start: int, stop: int) -> np.ndarray:
    return np.load(path, mmap_mode="r")[start:stop].copy()


def _from_npy(path: Path, rows: int, d: int, chunk: int):
    import dask
    import dask.array as da

    parts = [da.from_delayed(dask.delayed(_load_rows)(str(path), s, min(s + chunk, rows)),
                             shape=(min(s + chunk, rows) - s, d), dtype=np.float32)
             for s in range(0, rows, chunk)]
    return da.concatenate(parts)


def dask_paths(size: int, d: int) -> None:
    from distributed import Client, LocalCluster

    print(f"\n2. dask LocalCluster (2 worker processes, 1 thread each) vs this process, "
          f"m = n = {size:,}, d = {d}")
    print(f"{'scenario':<10} {'bound':<6} {'local s':>8} {'cluster s':>9} {'local/cluster':>13} "
          f"{'= local':>7}")
    with tempfile.TemporaryDirectory() as folder, \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                         dashboard_address=None, silence_logs=40) as cluster, \
            Client(cluster) as client:
        client.run(_load_libraries)
        for scenario, bound in (("planted", "norm"), ("none", "norm"), ("none", "none")):
            audit = synthetic_audit(size, size, d, scenario=scenario, seed=0)
            np.save(Path(folder) / "S.npy", audit.S)
            np.save(Path(folder) / "T.npy", audit.T)
            S = _from_npy(Path(folder) / "S.npy", size, d, 2048)
            T = _from_npy(Path(folder) / "T.npy", size, d, 2048)
            local, local_s = timed(lambda: certified_resolution(audit.S, audit.T, bound=bound,
                                                                top_k=1, device="cpu"))
            remote, remote_s = timed(lambda: certified_resolution(S, T, bound=bound, top_k=1,
                                                                  device="cpu", client=client))
            print(f"{scenario:<10} {bound:<6} {local_s:8.1f} {remote_s:9.1f} "
                  f"{local_s / remote_s:13.2f} {str(same(local, remote)):>7}", flush=True)


def screens(size: int, d: int, seeds: int, plains: dict | None) -> None:
    """Section 3; ``plains`` holds section 1's plain results (computed here when None)."""
    if plains is None:
        plains = {}
        for scenario in SCENARIOS:
            audit = synthetic_audit(size, size, d, scenario=scenario, seed=0)
            plains[scenario] = timed(lambda: resolution(audit.S, audit.T, top_k=5, device="cpu"))
    print(f"\n3. screens rescored exactly, m = n = {size:,}, d = {d}, {seeds} seeds per "
          f"scenario (speed-up: plain seconds / screen seconds, seed 0)")
    print(f"{'scenario':<10} {'index':<5} {'witness found':>13} {'value/exact':>11} "
          f"{'screen s':>8} {'speed-up':>8}")
    for scenario in SCENARIOS:
        for index in ("hnsw", "ivf"):
            found, ratios, seconds = 0, [], []
            for seed in range(seeds):
                audit = synthetic_audit(size, size, d, scenario=scenario, seed=seed)
                exact = (plains[scenario][0] if seed == 0 else
                         certified_resolution(audit.S, audit.T, top_k=1, device="cpu"))
                screen, s = timed(lambda: screen_resolution(audit.S, audit.T, index=index))
                found += screen.recall(exact)
                ratios.append(screen.lower_bound / exact.value if exact.value else 1.0)
                seconds.append(s)
            print(f"{scenario:<10} {index:<5} {found:>6}/{seeds:<6} {min(ratios):11.3f} "
                  f"{seconds[0]:8.1f} {plains[scenario][1] / seconds[0]:8.2f}", flush=True)


def main() -> None:
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="m = n = 20,000")
    parser.add_argument("--size", type=int, default=None, help="m = n (default 100,000)")
    parser.add_argument("--d", type=int, default=768, help="embedding dimension")
    parser.add_argument("--seeds", type=int, default=None, help="screen seeds (3 quick, 2 full)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="calls per kernel timing in the exact paths, the fastest kept")
    parser.add_argument("--sections", nargs="+", choices=SECTIONS, default=list(SECTIONS),
                        help="which sections to run (default: all three)")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1 (got {args.repeat})")
    size = args.size or (20_000 if args.quick else 100_000)
    seeds = args.seeds or (3 if args.quick else 2)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; sizes m = n = "
          f"{size:,}, d = {args.d}")
    resolution(np.eye(4, dtype=np.float32), np.eye(4, dtype=np.float32))  # load libraries
    plains = exact_paths(size, args.d, args.repeat) if "exact" in args.sections else None
    if "dask" in args.sections:
        dask_paths(size, args.d)
    if "screens" in args.sections:
        screens(size, args.d, seeds, plains)
    print("\nRatios above 1 mean the path is faster than the one it is divided into.")


if __name__ == "__main__":
    main()
