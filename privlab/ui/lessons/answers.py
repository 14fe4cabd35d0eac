"""Reading a student's answer, shared by the exercise modules ``nnNN``.

A check receives whatever the student bound to ``answer``: a number typed as text, a
bool, a word. These helpers read it the same way in every notebook, and say the same
thing when the panel has no result to check against.
"""

from __future__ import annotations

from typing import Any

from privlab.ui.exercises import Verdict


def number(answer: Any) -> float | None:
    """``answer`` as a float, or None when it is not a number (a bool is not one).

    Example:
        >>> number("0.5"), number(3), number("half"), number(True)
        (0.5, 3.0, None, None)
    """
    if isinstance(answer, bool):
        return None
    try:
        return float(answer)
    except (TypeError, ValueError):
        return None


def truth_word(answer: Any) -> bool | None:
    """``True``/``False`` from a bool (NumPy's too) or the words yes, no, true, false.

    Example:
        >>> truth_word("Yes"), truth_word(False), truth_word("maybe")
        (True, False, None)
    """
    return {"yes": True, "no": False, "true": True, "false": False}.get(
        str(answer).strip().lower())


def no_result(result: Any, fix: str = "press Run first.") -> Verdict | None:
    """A refusal when the panel has no result to check against (None otherwise).

    Example:
        >>> no_result(None).ok, no_result(object())
        (False, None)
    """
    if result is None:
        return Verdict(False, f"The panel has no result: {fix}")
    return None
