"""Groups of reference rows and the bounds that let whole groups be skipped.

A group is a set of rows of T with one upper bound, per audited row, on every trial
against it: ``"norm"``, ``"cluster"`` (k-means centres) or ``"none"``. How each is built:
``docs/methods/scale-internals.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import privlab.scale.bounds as bounds

BOUNDS = ("norm", "cluster", "none")
# Most clusters by default: the bound keeps an (m, clusters) float32 table of s . c.
MAX_DEFAULT_CLUSTERS = 64


@dataclass(frozen=True)
class Group:
    """Reference rows scored together, with what their bound needs.

    Attributes:
        cols: int64 reference indices, increasing.
        t_max: the largest computed norm among them.
        eta: the largest underflow slack among them (Lemma 2 of :mod:`bounds`).
        centre: index of the cluster centre bounding them, or -1.
        radius: an upper bound on ``||t - c||`` over them (clusters only).
        centre_norm: computed ``||c||`` (clusters only).
    """

    cols: np.ndarray
    t_max: float
    eta: float
    centre: int = -1
    radius: float = np.inf
    centre_norm: float = 0.0


@dataclass
class Grouping:
    """The groups of one call and the table their cluster bounds read."""

    groups: list
    d: int
    sc: np.ndarray | None = None  # (m, clusters) float32, never below fl(s . c)
    bound: str = "norm"
    clusters: int = 0

    def upper(self, g: Group, s_hat: np.ndarray, rows=slice(None)) -> np.ndarray:
        """Upper bounds on the kernel's value of every trial of ``rows`` against ``g``."""
        if self.bound == "none":
            return np.full(np.asarray(s_hat[rows]).shape, np.inf)
        s = s_hat[rows]
        out = bounds.norm_bound(s, g.t_max, self.d, g.eta)
        if g.centre >= 0:
            out = np.minimum(out, bounds.cluster_bound(self.sc[rows, g.centre], s,
                                                       g.centre_norm, g.radius, g.t_max,
                                                       self.d, g.eta))
        return out


# The first norm group holds this many references (or a block, if smaller); each next
# group doubles, up to a block. A few large references (a leak, the references that
# sanitizing changed most) then settle the bounds after little work.
FIRST_GROUP = 64


def _chunks(order: np.ndarray, block: int, grow: bool = False):
    start, size = 0, min(block, FIRST_GROUP) if grow else block
    while start < order.size:
        yield np.sort(order[start:start + size])
        start += size
        size = min(block, 2 * size)


def build(bound: str, *, S, s_hat: np.ndarray, T, t_hat: np.ndarray, t_exps: np.ndarray,
          t_absmax: np.ndarray, block: int, clusters: int | None, seed: int) -> Grouping:
    """Group the rows of T for ``bound`` (docs/methods/scale-internals.md)."""
    n, d = T.shape
    eta = bounds.underflow_slack(d, float(np.max(s_hat)), t_exps)
    if bound == "none":
        groups = [Group(cols, np.inf, np.inf) for cols in _chunks(np.arange(n), block)]
        return Grouping(groups, d, bound="none")
    ordinary = (t_exps == 0) & (t_absmax > 0)
    if bound == "cluster" and ordinary.sum() >= 2:
        return _cluster_grouping(S, s_hat, T, t_hat, eta, ordinary, block, clusters, seed)
    return Grouping(_norm_groups(np.arange(n), t_hat, eta, block), d, bound="norm")


def _norm_groups(index: np.ndarray, t_hat: np.ndarray, eta: np.ndarray, block: int) -> list:
    order = index[np.argsort(-t_hat[index], kind="stable")]
    return [Group(cols, float(np.max(t_hat[cols])), float(np.max(eta[cols])))
            for cols in _chunks(order, block, grow=True)]


def default_clusters(rows: int, block: int) -> int:
    """Clusters when none are asked for: about one per two blocks, at most 64.

    Example:
        >>> default_clusters(100_000, 2048), default_clusters(10, 2048)
        (24, 1)
    """
    return int(min(MAX_DEFAULT_CLUSTERS, max(1, rows // (2 * block))))


def kmeans(X: np.ndarray, k: int, *, seed: int = 0, iterations: int = 10,
           sample: int = 20_000) -> np.ndarray:
    """Lloyd's k-means on at most ``sample`` rows (float32); returns ``(k', d)`` centres.

    The bounds hold for any centres, so this needs only to be good, not exact.

    Example:
        >>> X = np.r_[np.zeros((5, 2)), np.ones((5, 2))]
        >>> sorted(kmeans(X, 2).sum(axis=1).tolist())
        [0.0, 2.0]
    """
    rng = np.random.default_rng(seed)
    if X.shape[0] > sample:
        X = X[np.sort(rng.choice(X.shape[0], sample, replace=False))]
    X = np.asarray(X, dtype=np.float32)
    k = min(k, X.shape[0])
    centres = X[rng.choice(X.shape[0], k, replace=False)].copy()
    for _ in range(iterations):
        labels = _nearest(X, centres)
        for c in range(k):
            members = X[labels == c]
            if members.shape[0]:
                centres[c] = members.mean(axis=0)
    return centres


def _nearest(X: np.ndarray, centres: np.ndarray, chunk: int = 16_384) -> np.ndarray:
    """Index of the nearest centre of each row (squared Euclidean distance)."""
    half = 0.5 * np.einsum("ij,ij->i", centres, centres)
    out = np.empty(X.shape[0], dtype=np.int64)
    for start in range(0, X.shape[0], chunk):
        out[start:start + chunk] = np.argmax(X[start:start + chunk] @ centres.T - half, axis=1)
    return out


def _host64(array, index: np.ndarray) -> np.ndarray:
    import torch

    if isinstance(array, torch.Tensor):
        return array.index_select(0, torch.as_tensor(index, device=array.device)).to(
            "cpu", torch.float64).numpy()
    return np.asarray(array[index], dtype=np.float64)


def _cluster_grouping(S, s_hat, T, t_hat, eta, ordinary, block, clusters, seed) -> Grouping:
    n, d = T.shape
    index = np.flatnonzero(ordinary)
    k = clusters if clusters is not None else default_clusters(index.size, block)
    sample = np.sort(np.random.default_rng(seed).choice(index, min(index.size, 20_000),
                                                        replace=False))
    centres = kmeans(_host64(T, sample).astype(np.float32), k, seed=seed)
    labels = np.empty(index.size, dtype=np.int64)
    for start in range(0, index.size, 16_384):
        part = index[start:start + 16_384]
        labels[start:start + part.size] = _nearest(_host64(T, part).astype(np.float32), centres)
    # Centres in float64: each cluster's mean (any vector would give a valid bound).
    C = np.zeros((centres.shape[0], d))
    counts = np.bincount(labels, minlength=centres.shape[0])
    distances = np.empty(index.size)
    for start in range(0, index.size, 16_384):
        part = index[start:start + 16_384]
        np.add.at(C, labels[start:start + part.size], _host64(T, part))
    C /= np.maximum(counts, 1)[:, None]
    for start in range(0, index.size, 16_384):
        part = index[start:start + 16_384]
        diff = _host64(T, part) - C[labels[start:start + part.size]]
        distances[start:start + part.size] = np.sqrt(np.einsum("ij,ij->i", diff, diff))
    centre_norms = np.sqrt(np.einsum("ij,ij->i", C, C))
    groups = []
    for c in np.flatnonzero(counts):
        members = index[labels == c]
        member_dist = distances[labels == c]
        order = np.argsort(-t_hat[members], kind="stable")
        for start in range(0, members.size, block):
            pick = order[start:start + block]
            cols = members[pick]
            sort = np.argsort(cols)
            groups.append(Group(cols[sort], float(np.max(t_hat[cols])),
                                float(np.max(eta[cols])), int(c),
                                bounds.radius_upper(member_dist[pick], d),
                                float(centre_norms[c])))
    rest = np.flatnonzero(~ordinary)
    if rest.size:
        groups += _norm_groups(rest, t_hat, eta, block)
    return Grouping(groups, d, sc=_sc_table(S, C), bound="cluster", clusters=int(counts.size))


def _sc_table(S, C: np.ndarray, chunk: int = 8192) -> np.ndarray:
    """``fl(S @ C.T)`` in float64, stored as float32 rounded up."""
    import torch

    m = S.shape[0]
    out = np.empty((m, C.shape[0]), dtype=np.float32)
    for start in range(0, m, chunk):
        block = S[start:start + chunk]
        if isinstance(block, torch.Tensor):
            values = (block.double() @ torch.as_tensor(C, device=block.device).T).cpu().numpy()
        else:
            values = np.asarray(block, dtype=np.float64) @ C.T
        out[start:start + block.shape[0]] = bounds.round_up_float32(values)
    return out


__all__ = ["BOUNDS", "Group", "Grouping", "build", "default_clusters", "kmeans"]
