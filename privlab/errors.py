"""Input validation with one message shape.

Every refusal names the parameter, the function that refused, what was expected, what
was given and, where there is one, the fix::

    The 'alpha' parameter of reserved_test must be in (0, 1). Got 1.5 instead.

Errors subclass ValueError or TypeError so callers can catch them the usual way.
Never use ``assert`` for input checks: it vanishes under ``python -O``.
"""

from __future__ import annotations

from typing import Any


class PrivlabValueError(ValueError):
    """A parameter had the right type but an unusable value."""


class PrivlabTypeError(TypeError):
    """A parameter had the wrong type."""


class MissingDependencyError(ImportError):
    """An optional dependency is not installed; the message gives the install command."""


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def invalid(parameter: str, caller: str, expected: str, got: Any, fix: str | None = None,
            *, given_is_text: bool = False) -> PrivlabValueError:
    """Build (not raise) the standard ValueError.

    Args:
        parameter: the parameter's name as the caller wrote it.
        caller: the public function or class that refused it.
        expected: what it must be, phrased to follow "must be" / "must have".
        got: the offending value, or a description when ``given_is_text``.
        fix: one sentence telling the user what to do instead.
        given_is_text: treat ``got`` as a ready description instead of a value.

    Returns:
        A PrivlabValueError to raise.

    Example:
        >>> str(invalid("alpha", "reserved_test", "in (0, 1)", 1.5))
        "The 'alpha' parameter of reserved_test must be in (0, 1). Got 1.5 instead."
    """
    given = got if given_is_text else _short(got)
    message = f"The '{parameter}' parameter of {caller} must be {expected}. Got {given} instead."
    if fix:
        message += f" {fix}"
    return PrivlabValueError(message)


def wrong_type(parameter: str, caller: str, expected: str, got: Any,
               fix: str | None = None) -> PrivlabTypeError:
    """Build (not raise) the standard TypeError; see :func:`invalid`."""
    message = (f"The '{parameter}' parameter of {caller} must be {expected}. "
               f"Got {type(got).__name__} instead.")
    if fix:
        message += f" {fix}"
    return PrivlabTypeError(message)


def require(module: str, install: str, purpose: str):
    """Import an optional dependency or fail with the command that installs it.

    Args:
        module: the importable module name, e.g. ``"presidio_analyzer"``.
        install: the pip requirement to suggest, e.g. ``"presidio-analyzer"``.
        purpose: what needs it, for the message.

    Returns:
        The imported module.

    Raises:
        MissingDependencyError: naming ``pip install <install>``.
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(
            f"{purpose} needs the '{module}' module, which is not installed. "
            f"Install it with: pip install {install}"
        ) from exc


def item_list(items: Any, parameter: str, caller: str) -> list:
    """``items`` as a list, refusing a bare string or bytes and non-sequences.

    A lone text passed where a list is expected would otherwise be read character by
    character.

    Example:
        >>> item_list(("a", "b"), "items", "encode")
        ['a', 'b']
    """
    if isinstance(items, (str, bytes)):
        raise wrong_type(parameter, caller, "a list of items", items,
                         f"A bare string would be read character by character. Wrap a "
                         f"single item in a list: [{_short(items)}].")
    if not hasattr(items, "__len__"):
        raise wrong_type(parameter, caller, "a list of items", items,
                         "Wrap a single item in a list.")
    return list(items)


def strings(value: Any, parameter: str, caller: str, *, also: tuple = (),
            example: str = "['Ken Lay', 'Kenneth Lay']") -> list:
    """A string or a list of strings as a list: a bare string is one item, never its letters.

    The one reading of "names", "methods", "concepts" and the like everywhere: ``"Ken Lay"``
    is ``["Ken Lay"]``. Items of the types in ``also`` (an Auditor object, say) pass too.

    Raises:
        PrivlabTypeError: ``value`` is neither, or an item is no string (nor in ``also``);
            the message names the item's position.

    Example:
        >>> strings("Ken Lay", "names", "audit"), strings(("a", "b"), "names", "audit")
        (['Ken Lay'], ['a', 'b'])
    """
    expected = "a string or a list of strings" + "".join(
        f" or {kind.__name__} objects" for kind in also)
    if isinstance(value, str):
        return [value]
    if isinstance(value, bytes) or not hasattr(value, "__iter__") or isinstance(value, dict):
        raise wrong_type(parameter, caller, expected, value, f"E.g. {example}.")
    items = list(value)
    for index, item in enumerate(items):
        if not isinstance(item, str) and not (also and isinstance(item, also)):
            raise wrong_type(parameter, caller, expected, item,
                             f"Item {index} is the one refused. E.g. {example}.")
    return items


#: The largest seed every generator privlab uses accepts (NumPy's legacy RandomState and
#: scikit-learn's ``random_state`` take ``0 <= seed < 2**32``).
MAX_SEED = 2**32 - 1


def check_seed(seed: Any, parameter: str, caller: str) -> int:
    """A seed every random generator accepts: an int in ``[0, 2**32 - 1]``.

    NumPy refuses negative seeds (and ``RandomState`` seeds of ``2**32`` or more) deep
    inside a computation; this refuses them where they are given.

    Raises:
        PrivlabValueError: naming ``parameter`` and ``caller``.

    Example:
        >>> check_seed(7, "seed", "demo")
        7
        >>> str(check_seed(-1, "seed", "demo"))
        Traceback (most recent call last):
        ...
        privlab.errors.PrivlabValueError: The 'seed' parameter of demo must be an int in [0, 2**32 - 1]. Got -1 instead. Random generators refuse negative seeds and seeds of 2**32 or more; pass e.g. seed % 2**32.
    """
    import numbers

    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) \
            or not 0 <= int(seed) <= MAX_SEED:
        raise invalid(parameter, caller, "an int in [0, 2**32 - 1]", seed,
                      "Random generators refuse negative seeds and seeds of 2**32 or more; "
                      "pass e.g. seed % 2**32.")
    return int(seed)
