"""The ``Sanitizer`` protocol: a privacy mechanism X_c that removes a concept c.

``sanitize(items) -> items`` returns one sanitized item per input, in order, of the
same kind (text -> text, image -> image). The public method is final and validates;
subclasses implement ``_sanitize`` (a batch) or ``_sanitize_one`` (one item); the items
of a batch are reported to :mod:`privlab.progress` as they are done (``"sanitized"``,
within the caller's step), so a long corpus moves the bar item by item.

:data:`registry` is the family's name -> factory registry; every member registers itself
beside its class with ``@registry.member(...)``. A factory takes the study's concept list
as ``concepts`` (ignored by members that need none).
"""

from __future__ import annotations

from abc import ABC
from typing import Any, Sequence

from privlab.errors import invalid, item_list, wrong_type
from privlab.progress import track
from privlab.registry import Registry

registry = Registry("sanitizer")


class Sanitizer(ABC):
    """Base class of every sanitizer.

    Attributes:
        name: display and provenance id (include the settings that change the output).
        modality: ``"text"`` or ``"image"``.
        cacheable: whether the same items and settings may reuse earlier outputs.
    """

    name: str = "sanitizer"
    modality: str = "text"
    #: Whether an audit may reuse this sanitizer's outputs for the same items and
    #: settings (:mod:`privlab.contrastive.sanitized`); False for a remote service.
    cacheable: bool = True

    def sanitize(self, items: Sequence[Any]) -> list[Any]:
        """Sanitize every item; returns a list of the same length and order.

        Raises:
            TypeError: ``items`` is a single string or an item has the wrong kind.
        """
        caller = f"{type(self).__name__}.sanitize"
        items = item_list(items, "items", caller)
        for index, item in enumerate(items):
            self._check_item(item, index, caller)
        out = list(self._sanitize(items))
        if len(out) != len(items):
            raise invalid("_sanitize", type(self).__name__, f"{len(items)} outputs",
                          f"{len(out)} outputs", given_is_text=True)
        return out

    def _sanitize(self, items: list[Any]) -> list[Any]:
        return [self._sanitize_one(item) for item in track(items, "sanitized", detail=True)]

    def _sanitize_one(self, item: Any) -> Any:
        raise TypeError(f"{type(self).__name__} must implement _sanitize or _sanitize_one")

    def _check_item(self, item: Any, index: int, caller: str) -> None:
        if self.modality == "text" and not isinstance(item, str):
            raise wrong_type(f"items[{index}]", caller, "a str", item)

    def describe(self) -> dict[str, Any]:
        """Provenance for results: the name, the class and the settings."""
        return {"sanitizer": self.name, "class": type(self).__name__}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


class Identity(Sanitizer):
    """Changes nothing: the baseline every audit should include (resolution 0 by construction).

    Example:
        >>> Identity().sanitize(["Ken Lay"])
        ['Ken Lay']
    """

    name = "identity"

    def __init__(self, modality: str = "text"):
        self.modality = modality

    def _sanitize_one(self, item: Any) -> Any:
        return item


@registry.member("identity", modality="text", offline=True,
                 description="changes nothing (baseline)")
def identity(concepts=None, **kw) -> Identity:
    """The text baseline: an :class:`Identity` (``concepts`` is ignored).

    Example:
        >>> identity(["Ken Lay"]).sanitize(["Ken Lay"])
        ['Ken Lay']
    """
    return Identity(**kw)


__all__ = ["Identity", "Sanitizer", "identity", "registry"]
