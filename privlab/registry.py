"""Name -> factory registries, one per family, and how a family finds its members.

Every family (encoders, sanitizers, ε auditors, RedacBench strategies and judges, SPIA
adversaries, matchers and anonymizers, studies) keeps one :class:`Registry`. Members
register themselves with a decorator beside their class or factory, so a widget lists
them and a user adds one the same way::

    from privlab.encoders import registry

    @registry.member("my-encoder", modality="text", offline=True,
                     description="my fine-tuned model")
    class MyEncoder(Encoder):
        ...

A family's ``load_members()`` imports every module :func:`member_modules` lists, so a
member in a new file is registered without editing any other file. Families load on
import, except :mod:`privlab.studies`, which loads on first use of its ``registry``.
"""

from __future__ import annotations

import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from privlab.errors import invalid


def member_modules(path: Iterable[str]) -> list[str]:
    """The module names a family's ``load_members()`` imports, sorted.

    Every module and subpackage in the package folders ``path`` not starting with ``_``. A
    member in a new file there registers without editing any other file; the modules its
    package imports for the names they export register first, the rest in name order.

    Example:
        >>> import privlab.redaction.redacbench as rb
        >>> member_modules(rb.__path__)
        ['agreement', 'byo', 'data', 'evaluation', 'judge', 'strategy']
    """
    return sorted(info.name for info in pkgutil.iter_modules(list(path))
                  if not info.name.startswith("_"))


@dataclass(frozen=True)
class Entry:
    """One registered member: its name, how to build it, and what a widget shows."""

    name: str
    factory: Callable[..., Any]
    description: str = ""
    meta: dict[str, Any] = field(default_factory=dict)


class Registry:
    """A named collection of factories for one family.

    Example:
        >>> r = Registry("greeter")
        >>> r.register("hello", lambda: "hi", description="says hi", offline=True)
        >>> r.names(offline=True), r.create("hello")
        (['hello'], 'hi')
    """

    def __init__(self, family: str):
        self.family = family
        self._entries: dict[str, Entry] = {}

    def register(self, name: str, factory: Callable[..., Any], *, description: str = "",
                 replace: bool = False, **meta: Any) -> None:
        """Add a member. ``meta`` keys (e.g. ``modality``, ``offline``) filter :meth:`names`."""
        if not isinstance(name, str) or not name:
            raise invalid("name", f"{self.family} registry register", "a non-empty string", name)
        if name in self._entries and not replace:
            raise invalid("name", f"{self.family} registry register", "a name not yet registered",
                          name, "Pass replace=True to override the existing entry.")
        self._entries[name] = Entry(name, factory, description, dict(meta))

    def member(self, name: str, *, description: str = "", replace: bool = False,
               **meta: Any) -> Callable[[Any], Any]:
        """Decorator form of :meth:`register`: the decorated class or function is the factory.

        Example:
            >>> r = Registry("greeter")
            >>> @r.member("hello", description="says hi")
            ... def hello():
            ...     return "hi"
            >>> r.create("hello"), hello()
            ('hi', 'hi')
        """
        def decorate(factory: Any) -> Any:
            self.register(name, factory, description=description, replace=replace, **meta)
            return factory

        return decorate

    def names(self, **filters: Any) -> list[str]:
        """Registered names whose metadata match every filter, in registration order."""
        return [e.name for e in self._entries.values()
                if all(e.meta.get(k) == v for k, v in filters.items())]

    def entry(self, name: str) -> Entry:
        """The entry for ``name``; unknown names list the known ones."""
        if name not in self._entries:
            raise invalid("name", f"the {self.family} registry", f"one of {self.names()}", name,
                          f"Register it first with privlab's {self.family} registry.")
        return self._entries[name]

    def create(self, name: str, /, **kwargs: Any) -> Any:
        """Build the member ``name`` (keyword arguments go to its factory)."""
        return self.entry(name).factory(**kwargs)

    def options(self, **filters: Any) -> list[tuple[str, str]]:
        """``(label, name)`` pairs for a widget dropdown."""
        out = []
        for name in self.names(**filters):
            e = self._entries[name]
            label = f"{name} — {e.description}" if e.description else name
            if not self.available(name):
                label += f" [not installed: {e.meta.get('install', e.meta['requires'])}]"
            out.append((label, name))
        return out

    def available(self, name: str) -> bool:
        """False when the entry's ``requires`` module (its metadata) is not importable."""
        from importlib.util import find_spec

        module = self.entry(name).meta.get("requires")
        if module is None:
            return True
        try:
            return find_spec(module) is not None
        except (ImportError, ValueError):  # a dotted name whose parent package is missing
            return False

    def entries(self, **filters: Any) -> list[Entry]:
        """The entries whose metadata match every filter, in registration order."""
        return [self._entries[name] for name in self.names(**filters)]

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self):
        return iter(self.names())
