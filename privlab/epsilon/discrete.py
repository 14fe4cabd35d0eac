"""Exact samplers of discrete noise from uniform integer draws only (no double in the law).

Canonne, Kamath & Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020),
vectorised over numpy arrays; the Laplace member of the known-ε benchmark draws its noise
here. Why: docs/decisions/2026-12-05-exact-benchmark-noise.md.
"""

from __future__ import annotations

import sys

import numpy as np

from privlab.errors import invalid

_WORD = 0xFFFFFFFF
#: Up to this many draws, :func:`discrete_laplace` runs on Python integers (same draws).
_SMALL = 384


def bernoulli_exp(numerator: np.ndarray, denominator: int,
                  rng: np.random.Generator) -> np.ndarray:
    """Exact Bernoulli(exp(−n/d)) draws for integers 0 ≤ n ≤ d, from uniform integers only.

    Canonne, Kamath & Steinke (2020), Algorithm 1: K counts the successes of
    Bernoulli(γ/K), K = 1, 2, …; the draw is 1 when K ends odd. Every draw still going
    in round K shares that K, so each round is one draw of uniform integers below d·K.

    Args:
        numerator: integers n, each in [0, d].
        denominator: the integer d ≥ 1.
        rng: the generator.

    Returns:
        Boolean array shaped like ``numerator``.

    Example:
        >>> draws = bernoulli_exp(np.ones(20_000, np.int64), 1, np.random.default_rng(0))
        >>> round(float(draws.mean()), 2)  # exp(-1) = 0.3679
        0.37
    """
    num = np.asarray(numerator, np.int64)
    odd = np.ones(num.shape, bool)
    todo = np.flatnonzero(num > 0)
    # d = 1: round 1 draws below 1, which numpy does without a word: all go on
    k = 2 if denominator == 1 else 1
    while todo.size:  # round k: each draw still going succeeds with probability n/(d·k)
        success = rng.integers(0, int(denominator) * k, todo.size) < num[todo]
        odd[todo[~success]] = k % 2 == 1  # those stop with K = k
        todo = todo[success]
        k += 1
    return odd


def discrete_laplace(t: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """Exact draws of the discrete Laplace law P(y) ∝ exp(−|y|/t) on the integers.

    Canonne, Kamath & Steinke (2020), Algorithm 2, vectorised: every step is a uniform
    integer draw, so the law is exact, unlike inverse-CDF noise on doubles.

    Args:
        t: the scale, a positive integer.
        size: number of draws.
        rng: the generator.

    Returns:
        int64 array of ``size`` draws.

    Raises:
        PrivlabValueError: when ``t`` is not a positive integer.

    Example:
        >>> y = discrete_laplace(4, 20_000, np.random.default_rng(0))
        >>> y.dtype.name, round(float(np.abs(y).mean()), 1)  # 2q/(1 − q²) = 3.96, q = e^{−1/4}
        ('int64', 4.0)
    """
    if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 1:
        raise invalid("t", "discrete_laplace", "a positive integer", t)
    if size <= _SMALL and type(rng.bit_generator) is np.random.PCG64 \
            and sys.byteorder == "little":
        words = _Words(rng)
        try:
            return np.array(_small_laplace(int(t), int(size), words), np.int64)
        finally:
            words.close()
    out = np.empty(size, np.int64)
    pending = np.arange(size)
    while pending.size:
        u = rng.integers(0, t, pending.size)
        keep = bernoulli_exp(u, t, rng)
        v = np.zeros(pending.size, np.int64)
        going = np.flatnonzero(keep)
        while going.size:
            going = going[_bernoulli_exp_one(going.size, rng)]
            v[going] += 1
        x = u + t * v
        negative = rng.integers(0, 2, pending.size) == 1
        ok = keep & ~(negative & (x == 0))
        out[pending[ok]] = np.where(negative[ok], -x[ok], x[ok])
        pending = pending[~ok]
    return out


def _bernoulli_exp_one(size: int, rng: np.random.Generator) -> np.ndarray:
    """``bernoulli_exp(np.ones(size), 1, rng)``, draw for draw, without the numerators."""
    odd = np.ones(size, bool)
    todo = np.arange(size)
    k = 2  # round 1 draws below 1: no word, all go on
    while todo.size:
        stop = rng.integers(0, k, todo.size) != 0  # goes on only on a draw below n = 1
        odd[todo[stop]] = k % 2 == 1
        todo = todo[~stop]
        k += 1
    return odd


class _Words:
    """``rng.integers(0, high, size)`` as a list, value for value and state for state.

    Why: a numpy call costs about 12 µs, most of the sampler's time on small arrays.
    numpy (PCG64) draws each integer below ``high`` ≤ 2³² from 32-bit words, the low half
    of a 64-bit output first, the high half kept in the generator for the next word;
    Lemire's method takes a word w when w·high mod 2³² ≥ (2³² − high) mod high and gives
    w·high >> 32, else takes the next word. Here the 64-bit outputs come from
    ``random_raw`` as they are needed, and the kept half goes back at :meth:`close`.
    """

    def __init__(self, rng: np.random.Generator):
        self.rng, self.bitgen = rng, rng.bit_generator
        self._load()

    def _load(self) -> None:
        state = self.bitgen.state
        self.first = (state["has_uint32"], state["uinteger"])
        self.kept = [state["uinteger"]] if state["has_uint32"] else []
        self.last_high = state["uinteger"]

    def close(self) -> None:
        """Leave the generator's state as numpy's own calls would have."""
        now = (len(self.kept), self.last_high)
        if now != self.first:
            state = self.bitgen.state
            state["has_uint32"], state["uinteger"] = now
            self.bitgen.state = state
            self.first = now

    def integers(self, high: int, size: int) -> list[int]:
        if high == 1 or size == 0:
            return [0] * size  # numpy draws no word for these
        if high - 1 > _WORD:  # numpy's 64-bit route: its own call
            self.close()
            out = self.rng.integers(0, high, size).tolist()
            self._load()
            return out
        threshold = ((_WORD + 1) - high) % high
        out, words, i = [], self.kept, 0
        while len(out) < size:
            if i == len(words):  # each value takes at least a word: at most one left over
                raw = self.bitgen.random_raw((size - len(out) + 1) // 2).tolist()
                words, i = [w for r in raw for w in (r & _WORD, r >> 32)], 0
                self.last_high = raw[-1] >> 32
            product = words[i] * high
            i += 1
            if product & _WORD >= threshold:
                out.append(product >> 32)
        self.kept = words[i:]
        return out


def _small_bernoulli_exp(num: list[int], d: int, words: _Words) -> list[bool]:
    """:func:`bernoulli_exp` on Python integers, drawing what it draws in the same order."""
    odd = [True] * len(num)
    todo = [i for i, n in enumerate(num) if n > 0]
    k = 2 if d == 1 else 1  # as in bernoulli_exp
    while todo:
        going = []
        for i, r in zip(todo, words.integers(d * k, len(todo))):
            if r < num[i]:
                going.append(i)
            else:
                odd[i] = k % 2 == 1
        todo, k = going, k + 1
    return odd


def _small_laplace(t: int, size: int, words: _Words) -> list[int]:
    """:func:`discrete_laplace`'s vectorised loop on Python integers, draw for draw."""
    out = [0] * size
    pending = list(range(size))
    while pending:
        m = len(pending)
        u = words.integers(t, m)
        keep = _small_bernoulli_exp(u, t, words)
        v = [0] * m
        going = [i for i in range(m) if keep[i]]
        while going:
            going = [g for g, ok in zip(going, _small_bernoulli_exp([1] * len(going), 1, words))
                     if ok]
            for g in going:
                v[g] += 1
        negative = words.integers(2, m)
        left = []
        for i in range(m):
            x = u[i] + t * v[i]
            if keep[i] and not (negative[i] and x == 0):
                out[pending[i]] = -x if negative[i] else x
            else:
                left.append(pending[i])
        pending = left
    return out
