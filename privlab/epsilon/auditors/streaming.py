"""Auditing straight from a mechanism: rows drawn in batches, counted, dropped.

A *sampler* is any callable ``sampler(n, rng) -> array`` returning n fresh outputs of one
input, shape (n, d) or (n,). The rows a rule is counted on are drawn, counted and dropped
a batch at a time. See docs/methods/epsilon-certificates.md.
"""

from __future__ import annotations

from typing import Callable, Iterator

import numpy as np

from privlab.arrays import check_array
from privlab.errors import invalid, wrong_type

#: sampler(n, rng) -> n outputs of one input, shape (n, d) or (n,).
Sampler = Callable[[int, np.random.Generator], np.ndarray]

#: Rows drawn at once when the caller does not say.
DEFAULT_BATCH = 1 << 20


def check_sampler(sampler, name: str, caller: str) -> Sampler:
    """``sampler`` if it is callable, else the standard refusal naming ``name``."""
    if not callable(sampler):
        raise wrong_type(name, caller, "a callable sampler(n, rng) -> array (n, d)", sampler,
                         fix="Wrap a mechanism with mechanism_sampler(mechanism, identity).")
    return sampler


def check_size(value, name: str, caller: str, minimum: int = 1) -> int:
    """A row count: an int ≥ ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise invalid(name, caller, f"an int >= {minimum}", value)
    return int(value)


def draw(sampler: Sampler, n: int, rng: np.random.Generator, name: str,
         caller: str) -> np.ndarray:
    """n rows from ``sampler``, checked: a finite float array of shape (n, d).

    Example:
        >>> draw(lambda n, rng: rng.normal(size=n), 3, np.random.default_rng(0), "s", "f").shape
        (3, 1)
    """
    rows = check_array(sampler(n, rng), name, caller, expected="an array of shape (n, d)")
    rows = np.asarray(rows, dtype=float)
    if rows.ndim == 1:
        rows = rows[:, None]
    if rows.ndim != 2 or rows.shape[0] != n:
        raise invalid(name, caller, f"to return {n} rows, shape ({n}, d) or ({n},)",
                      f"shape {rows.shape}", given_is_text=True)
    return rows


def batches(sampler: Sampler, n: int, batch_size: int, rng: np.random.Generator,
            name: str, caller: str) -> Iterator[np.ndarray]:
    """n rows in consecutive batches of at most ``batch_size``, drawn from one generator.

    Example:
        >>> [len(b) for b in batches(lambda n, rng: np.zeros(n), 5, 2,
        ...                          np.random.default_rng(0), "s", "f")]
        [2, 2, 1]
    """
    for start in range(0, n, batch_size):
        yield draw(sampler, min(batch_size, n - start), rng, name, caller)


def count_in_batches(sampler: Sampler, n: int, batch_size: int, rng: np.random.Generator,
                     inside: Callable[[np.ndarray], np.ndarray], name: str,
                     caller: str) -> int:
    """How many of n fresh rows ``inside`` marks True, holding one batch at a time.

    Example:
        >>> count_in_batches(lambda n, rng: np.arange(n), 10, 3, np.random.default_rng(0),
        ...                  lambda x: x[:, 0] < 2, "s", "f")  # batches 0-2, 0-2, 0-2, 0
        7
    """
    return int(sum(int(np.count_nonzero(inside(rows)))
                   for rows in batches(sampler, n, batch_size, rng, name, caller)))


def scores_in_batches(sampler: Sampler, n: int, batch_size: int, rng: np.random.Generator,
                      score: Callable[[np.ndarray], np.ndarray], name: str,
                      caller: str) -> np.ndarray:
    """The scores of n fresh rows (float64, n of them), the rows dropped batch by batch."""
    out = np.empty(n)
    start = 0
    for rows in batches(sampler, n, batch_size, rng, name, caller):
        out[start:start + len(rows)] = score(rows)
        start += len(rows)
    return out


def mechanism_sampler(mechanism, identity: int) -> Sampler:
    """The sampler of one identity of a privlab mechanism (anything with ``sample(i, n, rng)``).

    Example:
        >>> from privlab.epsilon.validity import laplace_1d
        >>> s = mechanism_sampler(laplace_1d(1.0), 0)
        >>> s(4, np.random.default_rng(0)).shape
        (4, 1)
    """
    if not callable(getattr(mechanism, "sample", None)):
        raise wrong_type("mechanism", "mechanism_sampler", "an object with sample(i, n, rng)",
                         mechanism)

    def sampler(n: int, rng: np.random.Generator) -> np.ndarray:
        return mechanism.sample(identity, n, rng)

    sampler.__name__ = f"{type(mechanism).__name__}[{identity}]"
    return sampler
