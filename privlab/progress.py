"""Progress of a long computation, reported to whoever is listening (a notebook panel).

A study marks its steps with :func:`step`; outside a listener (a script, a test, the CLI)
the call does nothing and costs almost nothing. A panel listens with :func:`reporting`::

    from privlab import progress

    for i, name in enumerate(sanitizers):
        progress.step(f"auditing {name}", i, len(sanitizers))
        ...

The listener is held in a :class:`contextvars.ContextVar`, so two computations in two
threads or tasks report to their own listeners.
"""

from __future__ import annotations

import contextvars
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, TypeVar

from privlab.errors import invalid

T = TypeVar("T")


@dataclass(frozen=True)
class Step:
    """One report: ``done`` of ``total`` units of ``stage`` are finished.

    Attributes:
        stage: what is being done, in words ("encoding", "auditing presidio").
        done: units finished so far (0 when the stage starts).
        total: units in the stage (at least 1).
    """

    stage: str
    done: int
    total: int

    @property
    def fraction(self) -> float:
        """``done / total``, clipped to [0, 1].

        Example:
            >>> Step("encoding", 3, 12).fraction
            0.25
        """
        return min(1.0, max(0.0, self.done / self.total))


_listener: contextvars.ContextVar[Callable[[Step], None] | None] = contextvars.ContextVar(
    "privlab_progress_listener", default=None)


def step(stage: str, done: int, total: int) -> None:
    """Report that ``done`` of ``total`` units of ``stage`` are finished (no-op unheard).

    Args:
        stage: what is being done, in words.
        done: units finished, 0 to ``total``.
        total: units in the stage; 0 is read as 1 (an empty stage is one step).

    Raises:
        PrivlabValueError: ``done`` or ``total`` is negative, or ``done > total``.

    Example:
        >>> seen = []
        >>> with reporting(seen.append):
        ...     step("encoding", 1, 4)
        >>> seen
        [Step(stage='encoding', done=1, total=4)]
        >>> step("encoding", 2, 4)  # nobody listens: nothing happens
    """
    listener = _listener.get()
    if listener is None:
        return
    total = max(int(total), 1)
    if not 0 <= int(done) <= total:
        raise invalid("done", "progress.step", f"between 0 and total ({total})", done)
    listener(Step(str(stage), int(done), total))


def track(items: Iterable[T], stage: str, total: int | None = None) -> Iterator[T]:
    """Yield ``items``, reporting a step before each one and one when all are done.

    Args:
        items: what to iterate over.
        stage: the stage's name; each step is labelled with it.
        total: the number of items (default ``len(items)``).

    Example:
        >>> seen = []
        >>> with reporting(seen.append):
        ...     names = list(track(["a", "b"], "auditing"))
        >>> [(s.done, s.total) for s in seen], names
        ([(0, 2), (1, 2), (2, 2)], ['a', 'b'])
    """
    if total is None and not hasattr(items, "__len__"):
        items = list(items)
    n = len(items) if total is None else total  # type: ignore[arg-type]
    for i, item in enumerate(items):
        step(stage, min(i, n), n)
        yield item
    step(stage, n, n)


@contextmanager
def reporting(listener: Callable[[Step], None]) -> Iterator[None]:
    """Send every :func:`step` made inside the block to ``listener``.

    Args:
        listener: called with one :class:`Step` per report.
    """
    if not callable(listener):
        raise invalid("listener", "progress.reporting", "a callable taking a Step", listener)
    token = _listener.set(listener)
    try:
        yield
    finally:
        _listener.reset(token)


def listening() -> bool:
    """Whether a listener is set (a study may skip costly progress bookkeeping otherwise).

    Example:
        >>> listening()
        False
    """
    return _listener.get() is not None


__all__ = ["Step", "listening", "reporting", "step", "track"]
