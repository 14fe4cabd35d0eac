"""Every notebook exercise: its solution runs, its check accepts it and refuses a wrong answer.

The solutions run in a copy of the lesson module's ``fixture()`` (the notebook's names on
tiny settings), one fixture per notebook.
"""

from __future__ import annotations

import pytest

from privlab.errors import PrivlabValueError
from privlab.ui import exercises
from privlab.ui.exercises import KINDS, Exercise, Verdict
from smoke_results import EXERCISE_GROUPS

ALL = [e for nb in exercises.notebooks() for e in exercises.exercises_for(nb)]
#: Each exercise on the worker of its notebook's group, so each fixture is built once.
GROUPED = [pytest.param(e, id=e.id, marks=pytest.mark.xdist_group(
    EXERCISE_GROUPS.get(e.notebook, f"exercises.{e.notebook}"))) for e in ALL]
_FIXTURES: dict[str, dict] = {}


def namespace(notebook: str) -> dict:
    """A fresh copy of ``notebook``'s fixture (built once per session)."""
    if notebook not in _FIXTURES:
        _FIXTURES[notebook] = exercises.fixture_for(notebook)
    return dict(_FIXTURES[notebook])


@pytest.mark.parametrize("notebook", exercises.notebooks())
def test_each_notebook_has_three_exercises_one_of_each_kind(notebook):
    found = exercises.exercises_for(notebook)
    assert len(found) >= 3
    assert {e.kind for e in found} == set(KINDS)
    ids = [e.id for e in found]
    assert ids == [f"{notebook}.{k}" for k in range(1, len(found) + 1)], ids


@pytest.mark.parametrize("chosen", GROUPED)
def test_solution_runs_and_is_right_and_the_wrong_answer_is_refused(chosen, capsys):
    ns = namespace(chosen.notebook)
    exec(compile(chosen.solution, f"<solution {chosen.id}>", "exec"), ns)  # noqa: S102
    assert "answer" in ns, f"the solution of {chosen.id} binds no answer"
    context = chosen.context(ns)
    right = exercises.check(chosen.id, ns["answer"], **context)
    assert right.ok, f"{chosen.id}: the solution's answer {ns['answer']!r} is refused: {right.why}"
    assert f"Exercise {chosen.id}: Right." in capsys.readouterr().out
    wrong = chosen.wrong(context) if callable(chosen.wrong) else chosen.wrong
    refused = exercises.verdict(chosen.id, wrong, **context)
    assert not refused.ok, f"{chosen.id} accepts the wrong answer {wrong!r}"
    assert len(refused.why.split()) >= 4, "a refusal says why"


@pytest.mark.parametrize("chosen", ALL, ids=lambda e: e.id)
def test_no_answer_yet_is_not_right_and_solution_folds(chosen):
    assert not exercises.verdict(chosen.id, None).ok
    html = exercises.solution(chosen.id)._repr_html_()
    assert html.startswith("<details>") and "answer" in html and chosen.why[:20] in html


def test_a_missing_context_name_is_refused_with_the_call_to_write():
    chosen = next(e for e in ALL if e.needs)
    with pytest.raises(PrivlabValueError, match=r"check\(") as info:
        exercises.check(chosen.id, 0.5)
    assert "'context' parameter" in str(info.value)


def test_unknown_exercises_and_bad_definitions_are_refused():
    with pytest.raises(PrivlabValueError, match="one of"):
        exercises.exercise("00.99")
    with pytest.raises(PrivlabValueError, match='like "05.1"'):
        exercises.exercise("five")
    with pytest.raises(PrivlabValueError, match="notebooks with exercises"):
        exercises.exercises_for("99")
    with pytest.raises(PrivlabValueError, match="kind"):
        Exercise("00.9", "guess", "p", lambda a, c: Verdict(True, "ok"), "answer = 1", "w", 0)
    with pytest.raises(SyntaxError):
        Exercise("00.9", "predict", "p", lambda a, c: Verdict(True, "ok"), "answer = (", "w", 0)


def test_verdict_reads_as_a_sentence():
    assert str(Verdict(True, "Both are 0.5.", "00.1")) == "Exercise 00.1: Right. Both are 0.5."
    assert "Not yet" in Verdict(False, "No.")._repr_html_()
