"""Progress of a long computation, reported to whoever listens: a notebook panel or a bar.

A study marks its stages with :func:`step`; code deeper down reports within them
(:func:`substep`, :func:`within`, ``track(..., detail=True)``) and names a wait with no
count (:func:`note`), so the bar moves inside a long stage and says what it waits for.
Outside a listener every call does nothing. A listener set with :func:`reporting` gets
one :class:`Step` per report, its levels chained in ``detail``; :func:`bar` draws them on
a ``tqdm.auto`` bar (widgets in a notebook, text in a terminal) and :func:`recording`
times the waits between them. The listener is a context variable, so two computations in
two threads report to their own listeners.

See docs/methods/ui-progress.md and docs/decisions/2026-12-05-progress-on-tqdm.md.
"""

from __future__ import annotations

import contextvars
import dataclasses
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Optional, TextIO, TypeVar

from privlab.errors import invalid

T = TypeVar("T")


@dataclass(frozen=True)
class Step:
    """One report: ``done`` of ``total`` units of ``stage`` are finished.

    Attributes:
        stage: what is being done, in words ("encoding", "auditing presidio").
        done: units finished so far (0 when the stage starts).
        total: units in the stage (at least 1).
        detail: progress within the unit now under way (None when not reported).
        message: a :func:`note` (what is under way, with no count): its label is the
            stage alone, and it adds nothing to the fraction.
    """

    stage: str
    done: int
    total: int
    detail: Optional["Step"] = None
    message: bool = field(default=False, repr=False)

    @property
    def fraction(self) -> float:
        """``done / total``, plus the unit under way's share of its detail; in [0, 1].

        Example:
            >>> Step("encoding", 3, 12).fraction
            0.25
            >>> Step("auditing", 1, 4, Step("sanitized", 50, 100)).fraction
            0.375
        """
        inner = self.detail.fraction if self.detail is not None and self.done < self.total \
            else 0.0
        return min(1.0, max(0.0, (self.done + inner) / self.total))

    def label(self) -> str:
        """The step in words, one level after the other.

        Example:
            >>> Step("auditing presidio", 1, 4, Step("sanitized", 50, 1552)).label()
            'auditing presidio: 1 of 4 · sanitized: 50 of 1552'
            >>> Step("auditing presidio", 1, 4, Step("loading spaCy …", 0, 1, message=True)).label()
            'auditing presidio: 1 of 4 · loading spaCy …'
        """
        text = self.stage if self.message else f"{self.stage}: {self.done} of {self.total}"
        return text if self.detail is None else f"{text} · {self.detail.label()}"


@dataclass
class _State:
    """One listener and the steps reported at each level so far (outermost first)."""

    listener: Callable[[Step], None]
    levels: list = field(default_factory=list)
    depth: int = 0
    #: The levels whose step came from :func:`substep` with no step above it there.
    detail_levels: set = field(default_factory=set)

    def report(self, level: int, new: Step, detail: bool = False) -> None:
        """Keep ``new`` at ``level``, drop the levels below it, send the composed step."""
        del self.levels[level:]
        self.detail_levels = {k for k in self.detail_levels if k < level}
        if detail:
            self.detail_levels.add(level)
        self.levels.extend([None] * (level - len(self.levels)))
        self.levels.append(new)
        composed = None
        for outer in reversed([s for s in self.levels if s is not None]):
            composed = outer if composed is None else dataclasses.replace(outer, detail=composed)
        self.listener(composed)

    def report_detail(self, new: Step) -> bool:
        """Report ``new`` as the detail of the current level's step; False before any step."""
        depth = self.depth
        if not any(s is not None for s in self.levels[:depth + 1]):
            return False
        above = len(self.levels) > depth and self.levels[depth] is not None and \
            depth not in self.detail_levels
        self.report(depth + 1 if above else depth, new, detail=not above)
        return True


_listener: contextvars.ContextVar[_State | None] = contextvars.ContextVar(
    "privlab_progress_listener", default=None)


def _checked(stage: str, done: int, total: int, caller: str) -> Step:
    total = max(int(total), 1)
    if not 0 <= int(done) <= total:
        raise invalid("done", caller, f"between 0 and total ({total})", done)
    return Step(str(stage), int(done), total)


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
        [Step(stage='encoding', done=1, total=4, detail=None)]
        >>> step("encoding", 2, 4)  # nobody listens: nothing happens
    """
    state = _listener.get()
    if state is None:
        return
    state.report(state.depth, _checked(stage, done, total, "progress.step"))


def substep(stage: str, done: int, total: int) -> None:
    """Report progress *within* the last step of the current level (no-op unheard).

    The listener gets that step with this one as its ``detail``; before any step,
    nothing is reported (see docs/methods/ui-progress.md).

    Args:
        stage: what the units are, in words ("sanitized", "encoded").
        done: units finished, 0 to ``total``.
        total: units in all; 0 is read as 1.

    Raises:
        PrivlabValueError: ``done`` or ``total`` is negative, or ``done > total``.

    Example:
        >>> seen = []
        >>> with reporting(seen.append):
        ...     step("auditing presidio", 1, 4)
        ...     substep("sanitized", 3, 10)
        >>> seen[-1].label(), seen[-1].fraction
        ('auditing presidio: 1 of 4 · sanitized: 3 of 10', 0.325)
    """
    state = _listener.get()
    if state is None:
        return
    state.report_detail(_checked(stage, done, total, "progress.substep"))


def note(message: str) -> None:
    """Say what is under way now, with no count, within the current step (no-op unheard).

    For a wait with no items to count (a model loading): the line under the bar names
    it until the next detail at the same level takes its place.

    Args:
        message: what is under way, in words ("loading spaCy en_core_web_sm …").

    Raises:
        PrivlabValueError: ``message`` is empty.

    Example:
        >>> seen = []
        >>> with reporting(seen.append):
        ...     step("auditing presidio", 1, 4)
        ...     note("loading spaCy en_core_web_sm …")
        ...     substep("sanitized", 1, 10)
        >>> [s.label() for s in seen[1:]]
        ['auditing presidio: 1 of 4 · loading spaCy en_core_web_sm …', \
'auditing presidio: 1 of 4 · sanitized: 1 of 10']
        >>> seen[1].fraction
        0.25
    """
    state = _listener.get()
    if state is None:
        return
    if not isinstance(message, str) or not message.strip():
        raise invalid("message", "progress.note", "a non-empty str", message)
    new = Step(message, 0, 1, message=True)
    if not state.report_detail(new):
        state.listener(new)  # before any step: the note alone, kept nowhere


@contextmanager
def within() -> Iterator[None]:
    """Steps made inside the block are details of the innermost step reported so far.

    Example:
        >>> seen = []
        >>> with reporting(seen.append):
        ...     step("auditing presidio", 1, 4)
        ...     with within():
        ...         step("encoding with minilm", 1, 2)
        ...         substep("encoded", 64, 128)
        >>> seen[-1].label()
        'auditing presidio: 1 of 4 · encoding with minilm: 1 of 2 · encoded: 64 of 128'
    """
    state = _listener.get()
    if state is None:
        yield
        return
    depth, kept = state.depth, len(state.levels)
    state.depth = max(depth + 1, kept)
    try:
        yield
    finally:
        state.depth = depth
        del state.levels[kept:]
        state.detail_levels = {k for k in state.detail_levels if k < kept}


def track(items: Iterable[T], stage: str, total: int | None = None, *,
          detail: bool = False) -> Iterator[T]:
    """Yield ``items``, reporting a step before each one and one when all are done.

    Args:
        items: what to iterate over.
        stage: the stage's name; each step is labelled with it.
        total: the number of items (default ``len(items)``).
        detail: report each item as a :func:`substep` (progress within the current step)
            instead of a step of its own.

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
    report = substep if detail else step
    for i, item in enumerate(items):
        report(stage, min(i, n), n)
        yield item
    report(stage, n, n)


@contextmanager
def reporting(listener: Callable[[Step], None]) -> Iterator[None]:
    """Send every report made inside the block to ``listener``.

    Args:
        listener: called with one :class:`Step` per report.

    Raises:
        PrivlabValueError: ``listener`` is not callable.
    """
    if not callable(listener):
        raise invalid("listener", "progress.reporting", "a callable taking a Step", listener)
    token = _listener.set(_State(listener))
    try:
        yield
    finally:
        _listener.reset(token)


@dataclass(frozen=True)
class Gap:
    """The wait between two reports (or between the start or end of a recording and one).

    Attributes:
        seconds: how long nothing was reported.
        after: the label of the report before the wait ("the start" for the first one).
        before: the label of the report that ended it ("the end" for the last one).
    """

    seconds: float
    after: str
    before: str

    def __str__(self) -> str:
        return f"{self.seconds:.1f} s after '{self.after}', before '{self.before}'"


class Recorder:
    """A listener that keeps every report with the time it came (see :func:`recording`).

    Attributes:
        ticks: ``(seconds since the start, step)`` per report, in order.
        start, end: the clock's readings when the recording began and ended (``end`` is
            None while it lasts).
        forward: another listener every report is also sent to (None: none).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 forward: Callable[[Step], None] | None = None):
        self.clock, self.forward = clock, forward
        self.start, self.end = clock(), None
        self.ticks: list[tuple[float, Step]] = []

    def __call__(self, step: Step) -> None:
        self.ticks.append((self.clock() - self.start, step))
        if self.forward is not None:
            self.forward(step)

    def gaps(self) -> list[Gap]:
        """Every wait: start to the first report, report to report, the last to the end.

        Example:
            >>> clock = iter([0.0, 2.0, 7.5, 9.0]).__next__
            >>> rec = Recorder(clock)
            >>> rec(Step("a", 0, 2)); rec(Step("a", 1, 2)); rec.stop()
            >>> [round(g.seconds, 1) for g in rec.gaps()]
            [2.0, 5.5, 1.5]
        """
        times = [0.0] + [t for t, _ in self.ticks]
        labels = ["the start"] + [s.label() for _, s in self.ticks]
        end = (self.end if self.end is not None else self.clock()) - self.start
        times.append(end)
        labels.append("the end")
        return [Gap(times[k + 1] - times[k], labels[k], labels[k + 1])
                for k in range(len(times) - 1)]

    def longest_gap(self) -> Gap:
        """The longest wait with nothing reported.

        Example:
            >>> clock = iter([0.0, 2.0, 7.5, 9.0]).__next__
            >>> rec = Recorder(clock)
            >>> rec(Step("a", 0, 2)); rec(Step("a", 1, 2)); rec.stop()
            >>> str(rec.longest_gap())
            "5.5 s after 'a: 0 of 2', before 'a: 1 of 2'"
        """
        return max(self.gaps(), key=lambda g: g.seconds)

    def stop(self) -> None:
        """End the recording (the last wait ends here)."""
        if self.end is None:
            self.end = self.clock()


@contextmanager
def recording(forward: Callable[[Step], None] | None = None, *,
              clock: Callable[[], float] = time.monotonic) -> Iterator[Recorder]:
    """Record every report made inside the block with its time (a benchmark's listener).

    Args:
        forward: also send each report to this listener (a panel's), or None.
        clock: the clock read at each report (seconds; :func:`time.monotonic`).

    Example:
        >>> with recording() as rec:
        ...     for _ in track(range(3), "encoding"):
        ...         pass
        >>> len(rec.ticks), rec.longest_gap().seconds < 1
        (4, True)
    """
    if forward is not None and not callable(forward):
        raise invalid("forward", "progress.recording", "a callable taking a Step, or None",
                      forward)
    recorder = Recorder(clock, forward)
    try:
        with reporting(recorder):
            yield recorder
    finally:
        recorder.stop()


#: A bar's format: the fraction done, the time taken and the report's label (no item
#: counts or rates: the bar runs over the composed fraction, not over items).
_BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {elapsed}{postfix}"


@contextmanager
def bar(desc: str = "privlab", *, file: TextIO | None = None,
        disable: bool | None = False) -> Iterator[Any]:
    """Draw every report made inside the block on a ``tqdm.auto`` progress bar.

    tqdm draws an ipywidgets bar in a notebook and a line of text in a terminal; the bar
    shows :attr:`Step.fraction` and, after it, :meth:`Step.label`.

    Args:
        desc: the words before the bar.
        file: where a text bar is written (default standard error).
        disable: True draws nothing; None draws only when ``file`` is a terminal.

    Yields:
        The ``tqdm`` bar.

    Raises:
        PrivlabValueError: ``desc`` is not a str.

    Example:
        >>> import io
        >>> out = io.StringIO()
        >>> with bar("audit", file=out):
        ...     step("encoding", 1, 4)
        >>> out.getvalue().strip().splitlines()[-1].split("|")[0]
        'audit:  25%'
        >>> out.getvalue().rstrip().endswith("encoding: 1 of 4")
        True
    """
    from tqdm.auto import tqdm

    if not isinstance(desc, str):
        raise invalid("desc", "progress.bar", "a str", desc)
    with tqdm(total=1.0, desc=desc, file=file, disable=disable, miniters=0,
              bar_format=_BAR_FORMAT) as drawn:

        def draw(step: Step) -> None:
            drawn.set_postfix_str(step.label(), refresh=False)
            drawn.update(step.fraction - drawn.n)

        with reporting(draw):
            yield drawn


def listening() -> bool:
    """Whether a listener is set (a study may skip costly progress bookkeeping otherwise).

    Example:
        >>> listening()
        False
    """
    return _listener.get() is not None


__all__ = ["Gap", "Recorder", "Step", "bar", "listening", "note", "recording", "reporting",
           "step", "substep", "track", "within"]
