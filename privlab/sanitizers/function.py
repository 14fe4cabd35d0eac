"""Any callable as a sanitizer: ``str -> str`` or ``image -> image``, no subclass needed.

A user's anonymizer is usually a plain function. :func:`as_sanitizer` turns one into a
:class:`FunctionSanitizer` (named by the function's ``__name__`` or the name given) and
passes a :class:`~privlab.sanitizers.base.Sanitizer` through unchanged, so every verb that
takes a sanitizer takes a function too::

    from privlab.contrastive import audit
    audit(texts, lambda t: t.replace("Marie Curie", "[NAME]"))

The function is called once per item. What it returns is checked (a text for a text, an
image for an image) and what it raises is re-raised naming the item, with the original
exception chained, so nothing is lost. A function's outputs are never reused from memory
(``cacheable = False``): privlab cannot tell whether it reads anything beyond its
argument, so each audit runs it again.
"""

from __future__ import annotations

from typing import Any, Callable

from privlab.errors import PrivlabValueError, invalid, wrong_type
from privlab.sanitizers.base import Sanitizer


def _is_image(item: Any) -> bool:
    if hasattr(item, "mode") and hasattr(item, "size") and hasattr(item, "convert"):
        return True
    shape = getattr(item, "shape", None)
    return shape is not None and len(shape) in (2, 3) and hasattr(item, "dtype")


def function_name(function: Callable, name: str | None = None) -> str:
    """The display name of a callable: ``name`` when given, else its ``__name__``
    (``"lambda"`` for a lambda), else its class name.

    Example:
        >>> function_name(lambda t: t), function_name(str.upper), function_name(len, "mine")
        ('lambda', 'upper', 'mine')
    """
    if name is not None:
        if not isinstance(name, str) or not name.strip():
            raise invalid("name", "function_name", "a non-empty string", name)
        return name.strip()
    label = getattr(function, "__name__", None) or type(function).__name__
    return "lambda" if label == "<lambda>" else label


class FunctionSanitizer(Sanitizer):
    """A sanitizer that calls ``function`` on each item.

    Args:
        function: ``item -> sanitized item`` (text -> text, image -> image).
        modality: ``"text"`` or ``"image"``.
        name: display and provenance name (default :func:`function_name`).
        parameter: how errors name the function (``"sanitize"`` for ``privlab.audit``).
        caller: the public function errors name.

    Example:
        >>> s = FunctionSanitizer(lambda t: t.replace("Ken Lay", "[NAME]"))
        >>> s.name, s.sanitize(["Ken Lay met Jeff"])
        ('lambda', ['[NAME] met Jeff'])
    """

    cacheable = False

    def __init__(self, function: Callable[[Any], Any], *, modality: str = "text",
                 name: str | None = None, parameter: str = "sanitizer",
                 caller: str = "FunctionSanitizer"):
        if not callable(function):
            raise wrong_type(parameter, caller, "a callable item -> sanitized item", function)
        if modality not in ("text", "image"):
            raise invalid("modality", caller, "'text' or 'image'", modality)
        self.function = function
        self.modality = modality
        self.name = function_name(function, name)
        self.parameter, self.caller = parameter, caller

    def _check_item(self, item: Any, index: int, caller: str) -> None:
        if self.modality == "text" and not isinstance(item, str):
            raise wrong_type(f"items[{index}]", caller, "a str", item)
        if self.modality == "image" and not _is_image(item):
            raise wrong_type(f"items[{index}]", caller, "a PIL image or a uint8 array", item)

    def _sanitize(self, items: list[Any]) -> list[Any]:
        out = []
        kind = "a str" if self.modality == "text" else "an image (PIL image or uint8 array)"
        for index, item in enumerate(items):
            try:
                result = self.function(item)
            except Exception as exc:
                raise PrivlabValueError(
                    f"The '{self.parameter}' parameter of {self.caller} must be a function "
                    f"that accepts every item. {self.name} raised {type(exc).__name__}: "
                    f"{exc} on item {index}. Fix the function (the original error is "
                    "chained below).") from exc
            ok = isinstance(result, str) if self.modality == "text" else _is_image(result)
            if not ok:
                raise wrong_type(self.parameter, self.caller,
                                 f"a function that returns {kind} for each item (item "
                                 f"{index} gave another kind)", result,
                                 "Return the sanitized item itself, not a list or None.")
            out.append(result)
        return out

    def describe(self) -> dict[str, Any]:
        module = getattr(self.function, "__module__", None) or ""
        qualname = getattr(self.function, "__qualname__", None) or type(self.function).__name__
        return {"sanitizer": self.name, "class": type(self).__name__,
                "function": f"{module}:{qualname}" if module else qualname,
                "modality": self.modality}


def as_sanitizer(value: Any, *, modality: str = "text", name: str | None = None,
                 parameter: str = "sanitizer", caller: str = "as_sanitizer") -> Sanitizer:
    """A :class:`Sanitizer` from a Sanitizer (returned as it is) or any callable (wrapped
    in a :class:`FunctionSanitizer`).

    Args:
        value: a Sanitizer or a callable ``item -> sanitized item``.
        modality: the items' kind, for a callable.
        name: the callable's display name.
        parameter: how errors name ``value``.
        caller: the public function errors name.

    Raises:
        TypeError: anything else, with the fix.

    Example:
        >>> as_sanitizer(str.upper).sanitize(["ken"])
        ['KEN']
    """
    if isinstance(value, Sanitizer):
        return value
    if callable(value) and not isinstance(value, type):
        return FunctionSanitizer(value, modality=modality, name=name, parameter=parameter,
                                 caller=caller)
    raise wrong_type(parameter, caller, "a function item -> sanitized item or a privlab "
                     "Sanitizer", value,
                     "Pass e.g. lambda t: t.replace('Marie Curie', '[NAME]').")


__all__ = ["FunctionSanitizer", "as_sanitizer", "function_name"]
