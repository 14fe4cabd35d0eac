"""Speed and memory of the exact resolution kernel, as printed ratios (never asserted).

For m = n in {1k, 10k, 50k} and d in {384, 1024}, on the same data, the kernel's time
is divided by:

  (a) torch.mm of the same FLOPs followed by a max: the machine's limit. One product
      when the m x n matrix fits in 4 GB, otherwise the same product walked in the
      kernel's blocks with a max per block (still no screening, no rescoring);
  (b) the full-matrix NumPy approach: S @ T.T, then argmax (skipped above 4 GB);
  (c) faiss.IndexFlatIP over T, searched with S at k = 1;
  (d) a per-pair Python loop, the way a direct transcription of the definition computes
      each trial (1k only; it is timed on a slice and scaled).

Then the kernel's peak resident memory at m = n = 50k, d = 1024, measured in a fresh
process, against the input size (m + n) d 4 bytes.

    python benchmarks/kernel.py            # all sizes (about 15 minutes on 2 cores)
    python benchmarks/kernel.py --quick    # 1k and 10k only
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import numpy as np
import torch

import privlab
from privlab.config import default_device
from privlab.resolution import DEFAULT_BLOCK_SIZE

FOUR_GB = 4 * 1024**3


def data(m: int, n: int, d: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    S = rng.standard_normal((m, d), dtype=np.float32)
    S /= np.linalg.norm(S, axis=1, keepdims=True)
    T = (rng.standard_normal((n, d), dtype=np.float32) * 0.05).astype(np.float32)
    return S, T


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def mm_limit(S, T, block: int) -> None:
    St, Tt = torch.from_numpy(S), torch.from_numpy(T)
    if S.shape[0] * T.shape[0] * 4 <= FOUR_GB:
        (St @ Tt.T).max()
        return
    for j in range(0, T.shape[0], block):
        Tb = Tt[j:j + block]
        for i in range(0, S.shape[0], block):
            (St[i:i + block] @ Tb.T).max()


def numpy_full(S, T) -> None:
    P = S @ T.T
    np.unravel_index(np.argmax(P), P.shape)


def faiss_flat(S, T) -> None:
    import faiss

    index = faiss.IndexFlatIP(T.shape[1])
    index.add(T)
    values, _ = index.search(S, 1)
    values.max()


def python_loop(S, T, rows: int) -> float:
    """Seconds for the first ``rows`` audited items, trial by trial."""
    start = time.perf_counter()
    best = -np.inf
    for i in range(rows):
        s = S[i]
        for j in range(T.shape[0]):
            value = float(np.dot(s, T[j]))
            if value > best:
                best = value
    return time.perf_counter() - start


def peak_memory(m: int, d: int) -> None:
    """Peak resident memory during one call, sampled every 2 ms in a fresh process."""
    code = f"""
import json, os, sys, threading, time
import numpy as np, privlab
sys.path.insert(0, {str(__file__.rsplit('/', 1)[0])!r})
from kernel import data
page = os.sysconf("SC_PAGE_SIZE")
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * page
S, T = data({m}, {m}, {d})
privlab.resolution(S[:64], T[:64])  # load libraries before measuring
base = rss()
peak = [base]
done = threading.Event()
def watch():
    while not done.is_set():
        peak[0] = max(peak[0], rss())
        time.sleep(0.002)
watcher = threading.Thread(target=watch)
watcher.start()
privlab.resolution(S, T, top_k=5, device="cpu")
done.set()
watcher.join()
print(json.dumps({{"base": base, "peak": max(peak[0], rss())}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    numbers = json.loads(out.stdout.strip().splitlines()[-1])
    inputs = 2 * m * d * 4
    extra = numbers["peak"] - numbers["base"]
    print(f"\npeak memory, m = n = {m:,}, d = {d}: inputs (m + n) d 4 B = {inputs / 2**20:,.0f} MiB; "
          f"the call added at most {extra / 2**20:,.0f} MiB above the resident inputs, so "
          f"inputs + kernel = {(inputs + extra) / inputs:.2f}x the input size")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only 1k and 10k")
    args = parser.parse_args()
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 50_000]
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"device {default_device()}")
    print(f"{'m = n':>7} {'d':>5} {'kernel s':>9} {'/ mm+max':>9} {'/ numpy':>9} "
          f"{'/ faiss':>9} {'/ py loop':>10}")
    for m in sizes:
        for d in (384, 1024):
            S, T = data(m, m, d)
            repeat = 3 if m <= 10_000 else 1
            block = DEFAULT_BLOCK_SIZE
            kernel = best_of(lambda: privlab.resolution(S, T, top_k=5, device="cpu"), repeat)
            limit = best_of(lambda: mm_limit(S, T, block), repeat)
            full = (best_of(lambda: numpy_full(S, T), repeat)
                    if m * m * 4 <= FOUR_GB else None)
            flat = best_of(lambda: faiss_flat(S, T), repeat)
            loop = python_loop(S, T, rows=20) * m / 20 if m == 1_000 else None
            ratio = lambda base: f"{kernel / base:9.2f}" if base else f"{'skipped':>9}"
            print(f"{m:>7,} {d:>5} {kernel:9.2f} {ratio(limit)} {ratio(full)} {ratio(flat)} "
                  f"{(f'{kernel / loop:10.4f}' if loop else f'{chr(8212):>10}')}", flush=True)
    print("Ratios are kernel time / baseline time: below 1 is faster than the baseline.")
    peak_memory(50_000 if not args.quick else 10_000, 1024)


if __name__ == "__main__":
    main()
