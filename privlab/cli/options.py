"""Library refusals re-worded with the option the user typed (``--pairs``), never an
internal parameter (``n_pairs`` of ``select_pairs``).
"""

from __future__ import annotations

import re
from typing import Mapping

from privlab.errors import PrivlabTypeError, PrivlabValueError

_PARAMETER = re.compile(r"The '([^']+)' parameter of [\w.\[\]]+")


def in_options(exc: Exception, options: Mapping[str, str], command: str) -> Exception:
    """``exc`` (a privlab refusal) with each parameter of ``options`` named as its option.

    Args:
        exc: a PrivlabValueError or PrivlabTypeError from the library.
        options: ``{parameter: option}``, e.g. ``{"n_pairs": "--pairs"}``.
        command: the verb, e.g. ``"epsilon-benchmark"``.

    Returns:
        A refusal of the same type naming ``--option of privlab <command>``; ``exc``
        itself when it names no parameter of ``options``.

    Example:
        >>> from privlab.errors import invalid
        >>> str(in_options(invalid("n_pairs", "select_pairs", "at least 2", 1),
        ...                {"n_pairs": "--pairs"}, "epsilon-benchmark"))
        "The '--pairs' option of privlab epsilon-benchmark must be at least 2. Got 1 instead."
    """
    if not isinstance(exc, (PrivlabValueError, PrivlabTypeError)):
        return exc
    message = str(exc)

    def rename(match: re.Match) -> str:
        name = match.group(1)
        base = name.split("[", 1)[0]
        if base not in options:
            return match.group(0)
        return f"The '{options[base]}{name[len(base):]}' option of privlab {command}"

    renamed = _PARAMETER.sub(rename, message)
    return exc if renamed == message else type(exc)(renamed)


__all__ = ["in_options"]
