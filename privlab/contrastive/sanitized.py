"""Sanitizer outputs kept in memory, so that changing only the encoder re-encodes and
nothing else.

:func:`sanitize` runs a sanitizer once per (corpus, sanitizer and settings) in this
process. The key (:func:`privlab.io.cache_key`) covers the items' content hashes, in
order, and the sanitizer's class, ``describe()`` and plain settings: a change of any
setting, or of one character or pixel, runs it again. The whole list is one entry (a
sanitizer may read the batch as a whole); what the sanitizer recorded on itself while it
ran is kept and set again on a hit, and is no part of the key. At most
:data:`MAX_ENTRIES` are kept (least recently used dropped first), arrays copied in and
out. A sanitizer with ``cacheable = False`` (a served model) runs every time;
``PRIVLAB_SANITIZER_CACHE=0`` turns the memory off and :func:`clear` empties it. Why:
``docs/decisions/2026-12-05-one-cache.md``.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Any, Sequence

import numpy as np

from privlab.hashing import content_hash
from privlab.io import cache_key
from privlab.progress import substep

#: Most (corpus, sanitizer) outputs kept at once.
MAX_ENTRIES = 24

_LOCK = threading.Lock()
_ENTRIES: "OrderedDict[str, tuple[list, dict]]" = OrderedDict()
_STATS = {"hits": 0, "misses": 0}
#: Closures a key names by id, kept alive so the id stays theirs.
_PINNED: dict[int, Any] = {}
#: Attributes each class of sanitizer set while it ran: a record of the run, not a setting.
_RECORDS: dict[type, set[str]] = {}


def _plain(value: Any, depth: int = 0) -> Any:
    """A JSON-able stand-in of a setting: plain values as they are, arrays by content,
    objects by their ``describe()`` (or their class when they have none)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if depth > 4:
        return type(value).__qualname__
    if isinstance(value, np.ndarray):
        return "array:" + content_hash(value)
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_plain(v, depth + 1) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    if hasattr(value, "tobytes") and hasattr(value, "mode") and hasattr(value, "size"):
        return "image:" + content_hash(value)  # a PIL image, by its pixels
    describe = getattr(value, "describe", None)
    if callable(describe) and not isinstance(value, type):
        try:
            return {"class": type(value).__qualname__, "describe": _plain(describe(), depth + 1)}
        except Exception:  # an object that cannot describe itself before it has run
            pass
    if callable(value) and not hasattr(value, "__dict__") or isinstance(value, type):
        return getattr(value, "__qualname__", type(value).__qualname__)
    if callable(value) and getattr(value, "__closure__", None) is not None:
        # A closure: only this very one matches. It is kept alive here, so that its id
        # cannot be handed to a new closure once this one is gone.
        _PINNED[id(value)] = value
        return f"{value.__qualname__}@{id(value)}"
    if hasattr(value, "__dict__") and not callable(value):
        return {"class": type(value).__qualname__,
                "settings": {k: _plain(v, depth + 1) for k, v in sorted(vars(value).items())
                             if not k.startswith("_")}}
    return getattr(value, "__qualname__", type(value).__qualname__)


def sanitizer_key(sanitizer: Any, records: Any = ()) -> str:
    """The SHA-256 of a sanitizer's class, ``describe()`` and plain settings.

    Args:
        sanitizer: the sanitizer.
        records: attributes left out (what a run of it records, not how it is set).

    Example:
        >>> from privlab.sanitizers import ConceptListSanitizer
        >>> a, b = ConceptListSanitizer(["Ken Lay"]), ConceptListSanitizer(["Ken Lay"])
        >>> sanitizer_key(a) == sanitizer_key(b) != sanitizer_key(ConceptListSanitizer(["Enron"]))
        True
    """
    cls = type(sanitizer)
    fingerprint = {"class": f"{cls.__module__}.{cls.__qualname__}",
                   "describe": _plain(sanitizer.describe()),
                   "settings": {k: _plain(v) for k, v in sorted(vars(sanitizer).items())
                                if not k.startswith("__") and k not in records}}
    return cache_key(fingerprint)


def _copy(items: Sequence[Any]) -> list:
    return [item.copy() if isinstance(item, np.ndarray) else item for item in items]


def enabled() -> bool:
    """Whether outputs are kept (``PRIVLAB_SANITIZER_CACHE`` is not ``0``)."""
    return os.environ.get("PRIVLAB_SANITIZER_CACHE", "1").strip().lower() not in (
        "0", "false", "no", "off")


def sanitize(sanitizer: Any, items: Sequence[Any]) -> list:
    """``sanitizer.sanitize(items)``, run once per (items, sanitizer and settings).

    Args:
        sanitizer: a :class:`privlab.sanitizers.Sanitizer`.
        items: the items, in order.

    Returns:
        The sanitized items (a new list; arrays are copies of the kept ones).

    Example:
        >>> from privlab.sanitizers import ConceptListSanitizer
        >>> clear(); s = ConceptListSanitizer(["Ken Lay"])
        >>> sanitize(s, ["Ken Lay called"]) == sanitize(s, ["Ken Lay called"]), stats()
        (True, {'hits': 1, 'misses': 1, 'entries': 1})
    """
    items = list(items)
    if not enabled() or not getattr(sanitizer, "cacheable", True):
        return list(sanitizer.sanitize(items))
    try:
        corpus = [content_hash(item) for item in items]
    except TypeError:  # items of a kind that has no content hash: run, keep nothing
        return list(sanitizer.sanitize(items))
    records = _RECORDS.get(type(sanitizer), set())
    key = cache_key(sanitizer_key(sanitizer, records), corpus)
    with _LOCK:
        found = _ENTRIES.get(key)
        if found is not None:
            _ENTRIES.move_to_end(key)
            _STATS["hits"] += 1
    if found is not None:
        outputs, recorded = found
        for name, value in recorded.items():
            setattr(sanitizer, name, value)
        substep("sanitized (kept from an earlier run)", len(items), len(items))
        return _copy(outputs)
    before = dict(vars(sanitizer))
    outputs = list(sanitizer.sanitize(items))
    recorded = {name: value for name, value in vars(sanitizer).items()
                if name not in before or before[name] is not value}
    if not set(recorded) <= records:  # kept under the settings as they were, less the records
        records = _RECORDS.setdefault(type(sanitizer), set())
        records.update(recorded)
        after = {k: v for k, v in vars(sanitizer).items()}
        vars(sanitizer).update(before)
        try:
            key = cache_key(sanitizer_key(sanitizer, records), corpus)
        finally:
            vars(sanitizer).update(after)
    with _LOCK:
        _STATS["misses"] += 1
        _ENTRIES[key] = (_copy(outputs), recorded)
        _ENTRIES.move_to_end(key)
        while len(_ENTRIES) > MAX_ENTRIES:
            _ENTRIES.popitem(last=False)
    return outputs


def clear() -> None:
    """Forget every kept output (and the counts of :func:`stats`)."""
    with _LOCK:
        _ENTRIES.clear()
        _STATS.update(hits=0, misses=0)


def stats() -> dict[str, int]:
    """How many calls were answered from memory, how many ran, and how many are kept."""
    with _LOCK:
        return {**_STATS, "entries": len(_ENTRIES)}


__all__ = ["MAX_ENTRIES", "clear", "enabled", "sanitize", "sanitizer_key", "stats"]
