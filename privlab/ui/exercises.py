"""Exercises in the notebooks: a check that says right or wrong and why, a folded solution.

The exercises of notebook ``NN`` are the ``EXERCISES`` of ``privlab.ui.lessons.nnNN``
(kinds ``"predict"``, ``"change-setting"``, ``"code-edit"``), with a ``fixture()`` that
lets the tests run every solution without the notebook. In a notebook::

    from privlab.ui import exercises
    answer = None   # your answer
    exercises.check("00.1", answer, result=panel.result)
    exercises.solution("00.1")

See docs/methods/ui-exercises.md.
"""

from __future__ import annotations

import html
import importlib
import pkgutil
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from privlab.errors import invalid, wrong_type

#: The kinds of exercise every notebook has at least one of.
KINDS = ("predict", "change-setting", "code-edit")

#: The package holding one exercise module per notebook (``nn00``, ``nn01a``, ...).
LESSONS = "privlab.ui.lessons"

_ID = re.compile(r"^(?P<notebook>\d\d[a-z]?)\.(?P<number>\d+)$")


@dataclass(frozen=True)
class Verdict:
    """What a check says about an answer.

    Attributes:
        ok: True when the answer is right.
        why: one or two sentences saying why it is right or what is wrong, with the
            number of this run where it helps.
        exercise: the exercise's id (``"00.1"``), filled in by :func:`check`.
    """

    ok: bool
    why: str
    exercise: str = ""

    def __str__(self) -> str:
        mark = "Right" if self.ok else "Not yet"
        head = f"Exercise {self.exercise}: {mark}." if self.exercise else f"{mark}."
        return f"{head} {self.why}"

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.ok else "#b35900"
        return f'<p style="color:{colour}">{html.escape(str(self))}</p>'


#: A check: ``check(answer, context) -> Verdict``; ``context`` holds the names it needs.
Check = Callable[[Any, Mapping[str, Any]], Verdict]


@dataclass(frozen=True)
class Exercise:
    """One exercise of a notebook.

    Attributes:
        id: ``"NN.k"``: the notebook's number (``"01a"`` for an appendix) and the
            exercise's number in it.
        kind: one of :data:`KINDS`.
        prompt: the task in one sentence (the notebook's text states it in full; the
            teacher's guide lists this one).
        check: ``check(answer, context) -> Verdict``.
        solution: Python code run in the notebook's namespace; it binds ``answer``.
        why: why the solution is right, shown with it (no figure of a run: those change).
        wrong: an answer the check must refuse, or ``wrong(context) -> answer``; the
            tests drive the check with it.
        needs: the names the check reads from its context, each with the expression in
            the notebook's namespace that the notebook passes (``{"result":
            "panel.result"}``: ``check("00.1", answer, result=panel.result)``); the tests
            evaluate these after running the solution.
    """

    id: str
    kind: str
    prompt: str
    check: Check
    solution: str
    why: str
    wrong: Any
    needs: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _ID.match(self.id):
            raise invalid("id", "Exercise", 'like "05.1" (notebook "05", exercise 1)', self.id)
        if self.kind not in KINDS:
            raise invalid("kind", "Exercise", f"one of {KINDS}", self.kind)
        if not callable(self.check):
            raise wrong_type("check", "Exercise", "a function (answer, context) -> Verdict",
                             self.check)
        compile(self.solution, f"<solution {self.id}>", "exec")  # a SyntaxError shows here
        for name, expression in dict(self.needs).items():
            compile(expression, f"<context {self.id}: {name}>", "eval")

    def context(self, namespace: Mapping[str, Any]) -> dict[str, Any]:
        """The context the notebook passes to the check, read from its ``namespace``."""
        return {name: eval(expression, {}, dict(namespace))  # noqa: S307 (our own code)
                for name, expression in dict(self.needs).items()}

    @property
    def notebook(self) -> str:
        """The notebook's number, e.g. ``"05"``."""
        return self.id.split(".")[0]


def notebooks() -> tuple[str, ...]:
    """The notebooks that have an exercise module, in order.

    Example:
        >>> "00" in notebooks()
        True
    """
    package = importlib.import_module(LESSONS)
    found = [m.name[2:] for m in pkgutil.iter_modules(package.__path__)
             if m.name.startswith("nn")]
    return tuple(sorted(found))


def lesson(notebook: str):
    """The exercise module of ``notebook`` (``"05"``), refusing an unknown one."""
    if not isinstance(notebook, str) or notebook not in notebooks():
        raise invalid("notebook", "exercises.lesson",
                      f"one of the notebooks with exercises {notebooks()}", notebook,
                      f"Add privlab/ui/lessons/nn{notebook}.py with EXERCISES and fixture().")
    return importlib.import_module(f"privlab.ui.lessons.nn{notebook}")


def exercises_for(notebook: str) -> tuple[Exercise, ...]:
    """The exercises of ``notebook``, in order.

    Example:
        >>> [e.kind for e in exercises_for("00")][:1]
        ['predict']
    """
    return tuple(lesson(notebook).EXERCISES)


def fixture_for(notebook: str) -> dict[str, Any]:
    """The names ``notebook``'s solutions and checks read, built on tiny settings."""
    return dict(lesson(notebook).fixture())


def exercise(exercise_id: str) -> Exercise:
    """The exercise ``exercise_id`` (``"05.1"``).

    Example:
        >>> exercise("00.1").kind
        'predict'
    """
    match = _ID.match(exercise_id) if isinstance(exercise_id, str) else None
    if match is None:
        raise invalid("exercise_id", "exercises.exercise", 'like "05.1"', exercise_id)
    for candidate in exercises_for(match["notebook"]):
        if candidate.id == exercise_id:
            return candidate
    known = [e.id for e in exercises_for(match["notebook"])]
    raise invalid("exercise_id", "exercises.exercise", f"one of {known}", exercise_id)


def verdict(exercise_id: str, answer: Any, **context: Any) -> Verdict:
    """The verdict on ``answer``, without printing it (see :func:`check`)."""
    chosen = exercise(exercise_id)
    if answer is None or answer is Ellipsis:
        return Verdict(False, "No answer yet: set `answer` in the cell above, then run it "
                              "again.", exercise_id)
    missing = [name for name in chosen.needs if name not in context]
    if missing:
        raise invalid("context", f"exercises.check({exercise_id!r})",
                      f"given the names {list(dict(chosen.needs))}", f"no {missing}",
                      given_is_text=True,
                      fix=f"Call check({exercise_id!r}, answer, "
                          + ", ".join(f"{n}={e}" for n, e in dict(chosen.needs).items())
                          + ").")
    result = chosen.check(answer, context)
    if not isinstance(result, Verdict):
        raise wrong_type("check", f"Exercise {exercise_id}", "a function returning a Verdict",
                         result)
    return Verdict(result.ok, result.why, exercise_id)


def check(exercise_id: str, answer: Any, **context: Any) -> Verdict:
    """Print whether ``answer`` to exercise ``exercise_id`` is right, and why.

    Args:
        exercise_id: ``"NN.k"``.
        answer: the student's answer; ``None`` means not answered yet.
        **context: the names the exercise's check reads (its ``needs``).

    Returns:
        The :class:`Verdict` it printed.

    Raises:
        PrivlabValueError: an unknown exercise, or a name the check needs is missing.

    Example:
        >>> check("00.1", None).ok
        Exercise 00.1: Not yet. No answer yet: set `answer` in the cell above, then run it again.
        False
    """
    result = verdict(exercise_id, answer, **context)
    print(result)
    return result


@dataclass(frozen=True)
class Solution:
    """A solution, folded: it renders as ``<details>`` in a notebook or an HTML copy."""

    exercise: str
    code: str
    why: str

    def _repr_html_(self) -> str:
        return (f"<details><summary>Solution to exercise {self.exercise}</summary>"
                f"<pre><code>{html.escape(self.code.strip())}</code></pre>"
                f"<p>{html.escape(self.why)}</p></details>")

    def __repr__(self) -> str:
        return f"Solution to exercise {self.exercise} (folded: open it in the notebook)"


def solution(exercise_id: str) -> Solution:
    """The folded solution of ``exercise_id``, for the last line of a notebook cell.

    Example:
        >>> "<details>" in solution("00.1")._repr_html_()
        True
    """
    chosen = exercise(exercise_id)
    return Solution(chosen.id, chosen.solution, chosen.why)
