"""A quick look: approximate inner-product search, rescored exactly, as a lower bound.

Section 4.5 of the paper: an HNSW or IVF index over the rows of T finds trials with large
differences without scoring every trial; the candidates are rescored exactly, so the
screened value is a **lower bound** (status ``"uncertified screen (lower bound)"``) and
only the exact kernel certifies a resolution. More: ``docs/methods/scale-internals.md``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.errors import check_seed, invalid, require
from privlab.resolution.inputs import check_top_k
from privlab.resolution.kernel import canonical_dots
from privlab.resolution.result import TopFrame
from privlab.scale.certified import prepare

STATUS = "uncertified screen (lower bound)"
INDEXES = ("hnsw", "ivf")


@dataclass(frozen=True)
class ScreenResult(TopFrame):
    """What an approximate screen found, rescored exactly.

    Attributes:
        lower_bound: ``max(0, best difference found)``; the exact resolution is at least
            this. Not a certificate of anything else.
        best_found: the largest signed difference among the candidates.
        witness: the candidate attaining it (ties: smallest i, then j); not known to be
            the decisive witness. None when the index returned no candidate.
        top: the ``top_k`` largest candidates ``(i, j, difference)``.
        candidates: number of (audited, reference) pairs rescored.
        index: ``"hnsw"`` or ``"ivf"`` and its settings.
        seconds: ``{"build": ..., "search": ..., "rescore": ...}`` wall-clock time.
        shape: ``(m, n, d)``.
        status: always :data:`STATUS`.
    """

    lower_bound: float
    best_found: float
    witness: tuple[int, int] | None
    top: list
    candidates: int
    index: dict
    seconds: dict = field(repr=False)
    shape: tuple[int, int, int] = (0, 0, 0)
    status: str = STATUS

    def recall(self, exact) -> bool:
        """Whether the screen found the exact result's decisive witness (benchmarks).

        Args:
            exact: a :class:`~privlab.resolution.Resolution` or certified result of the
                same S and T.
        """
        return self.witness is not None and tuple(self.witness) == tuple(exact.witness)

    def _repr_html_(self) -> str:
        m, n, d = self.shape
        best = ("no candidate" if self.witness is None else
                f"best candidate: audited {self.witness[0]} vs reference {self.witness[1]}")
        return (f"<div><b>Screened lower bound {self.lower_bound:.4f}</b> ({self.status}); "
                f"{best}; "
                f"{self.candidates:,} candidates of {m * n:,} trials from "
                f"{self.index['kind']}.</div>")


def _check_int(value: Any, name: str, caller: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise invalid(name, caller, f"an int >= {minimum}", value)
    return int(value)


def screen_resolution(S, T, *, index: str = "hnsw", k: int = 8, top_k: int = 5,
                      normalize: bool = False, m_links: int = 16, ef_construction: int = 64,
                      ef_search: int = 48, nlist: int | None = None, nprobe: int = 8,
                      threads: int | None = None, seed: int = 0) -> ScreenResult:
    """Screen S against T with a faiss index; rescore the candidates exactly.

    Args:
        S: ``(m, d)`` unit rows, the sanitized audited items (the queries).
        T: ``(n, d)`` reference directions (the indexed rows).
        index: ``"hnsw"`` (graph; ``m_links``, ``ef_construction``, ``ef_search``) or
            ``"ivf"`` (k-means lists; ``nlist``, default about ``4 sqrt(n)``, and
            ``nprobe``).
        k: candidates per audited row.
        top_k: how many of the best candidates to list.
        normalize: normalise the rows of S instead of refusing non-unit rows.
        m_links, ef_construction, ef_search: HNSW's links per node, build and search depth.
        nlist, nprobe: IVF's number of lists and lists visited per query.
        threads: faiss threads (default: faiss's own).
        seed: seed of the IVF training sample.

    Returns:
        A :class:`ScreenResult`, a lower bound with status :data:`STATUS`.

    Raises:
        ValueError: the kernel's input errors, or a bad ``index``, ``k``, ``top_k``,
            ``m_links``, ``ef_construction``, ``ef_search``, ``nlist`` or ``nprobe``.

    Example:
        >>> import numpy as np
        >>> r = screen_resolution(np.eye(4), np.diag([0.1, 0.4, 0.0, 0.2]), k=2)
        >>> r.lower_bound, r.witness, r.status
        (0.4, (1, 1), 'uncertified screen (lower bound)')
    """
    caller = "screen_resolution"
    if index not in INDEXES:
        raise invalid("index", caller, f"one of {list(INDEXES)}", index)
    top_k = check_top_k(top_k, caller)
    k = _check_int(k, "k", caller)
    for name, value in (("m_links", m_links), ("ef_construction", ef_construction),
                        ("ef_search", ef_search), ("nprobe", nprobe)):
        _check_int(value, name, caller)
    if nlist is not None:
        _check_int(nlist, "nlist", caller)
    faiss = require("faiss", "faiss-cpu==1.15.1", "Screening with an approximate index")
    seed = check_seed(seed, "seed", caller)
    data = prepare(S, T, normalize=normalize, caller=caller)
    m, n, d = data.shape
    if index == "ivf" and nlist is not None and nlist > n:
        raise invalid("nlist", caller, f"at most the number of references (n = {n})", nlist,
                      "IVF trains one list per reference at most; pass a smaller nlist, or "
                      "None for the default (about 4 sqrt(n)).")
    k = min(k, n)
    if threads is not None:
        faiss.omp_set_num_threads(_check_int(threads, "threads", caller))
    # The index sees T scaled by one power of two (exact) so float32 holds any magnitude.
    shift = int(np.frexp(float(np.max(data.t_absmax)) or 1.0)[1])
    Tq = _float32(data.T, -shift if abs(shift) > 60 else 0)
    Sq = _float32(data.S, 0)
    start = time.perf_counter()
    if index == "hnsw":
        built = faiss.IndexHNSWFlat(d, m_links, faiss.METRIC_INNER_PRODUCT)
        built.hnsw.efConstruction = ef_construction
        built.add(Tq)
        built.hnsw.efSearch = max(ef_search, k)
        settings = {"kind": "hnsw", "M": m_links, "efConstruction": ef_construction,
                    "efSearch": max(ef_search, k), "k": k}
    else:
        lists = nlist or int(max(1, min(n // 39, round(4 * np.sqrt(n)))))
        quantizer = faiss.IndexFlatIP(d)
        built = faiss.IndexIVFFlat(quantizer, d, lists, faiss.METRIC_INNER_PRODUCT)
        rng = np.random.default_rng(seed)
        train = Tq if n <= 64 * lists else Tq[np.sort(rng.choice(n, 64 * lists, replace=False))]
        built.train(train)
        built.add(Tq)
        built.nprobe = min(nprobe, lists)
        settings = {"kind": "ivf", "nlist": lists, "nprobe": min(nprobe, lists), "k": k}
    build = time.perf_counter() - start
    start = time.perf_counter()
    _, found = built.search(Sq, k)
    search = time.perf_counter() - start
    start = time.perf_counter()
    rows = np.repeat(np.arange(m), k)
    cols = found.reshape(-1).astype(np.int64)
    valid = cols >= 0
    rows, cols = rows[valid], cols[valid]
    values = canonical_dots(data.S, data.T, rows, cols, data.t_exps)
    order = np.lexsort((cols, rows, -values))
    rows, cols, values = rows[order], cols[order], values[order]
    # An index can return a reference twice for one query; keep each trial once.
    pair = rows * n + cols
    _, first = np.unique(pair, return_index=True)
    keep = np.sort(first)
    rows, cols, values = rows[keep], cols[keep], values[keep]
    rescore = time.perf_counter() - start
    top = [(int(i), int(j), float(v)) for i, j, v in zip(rows[:max(top_k, 1)],
                                                          cols[:max(top_k, 1)],
                                                          values[:max(top_k, 1)])]
    best = top[0] if top else (None, None, -np.inf)  # an IVF probe may find nothing
    return ScreenResult(lower_bound=max(0.0, best[2]), best_found=best[2],
                        witness=(best[0], best[1]) if top else None, top=top[:top_k],
                        candidates=int(rows.size), index=settings,
                        seconds={"build": build, "search": search, "rescore": rescore},
                        shape=(m, n, d))


def _float32(array, exponent: int) -> np.ndarray:
    """A C-contiguous float32 NumPy copy of ``array * 2**exponent``."""
    import torch

    if isinstance(array, torch.Tensor):
        array = array.detach().cpu().numpy()
    array = np.asarray(array)
    if exponent:
        array = np.ldexp(array.astype(np.float64), exponent)
    return np.ascontiguousarray(array, dtype=np.float32)


__all__ = ["INDEXES", "STATUS", "ScreenResult", "screen_resolution"]
