"""What a study's ``Config`` field declares for the user: its label, choices, range and help.

A field declared with :func:`param` is checked when the Config is built and gets one
control in the study's panel. See ``docs/methods/studies-contract.md``.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import math
import numbers
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from privlab.errors import PrivlabValueError, invalid

#: Metadata key under which a field's :class:`Param` is stored.
KEY = "privlab"

#: The registry families a field can offer its choices from: the module of each...
FAMILIES = {
    "encoder": "privlab.encoders",
    "sanitizer": "privlab.sanitizers",
    "auditor": "privlab.epsilon.auditors",
    "redacbench-strategy": "privlab.redaction.redacbench",
    "redacbench-judge": "privlab.redaction.redacbench",
    "spia-adversary": "privlab.redaction.spia.adversaries",
    "spia-matcher": "privlab.redaction.spia.matching",
    "spia-anonymizer": "privlab.redaction.spia.spans",
}
#: ... and the name of its registry there (imported only when a panel lists the members).
REGISTRY_NAMES = {"redacbench-strategy": "strategies", "redacbench-judge": "judges",
                  "spia-adversary": "adversaries", "spia-matcher": "matchers",
                  "spia-anonymizer": "anonymizers"}


def family_registry(family: str) -> Any:
    """The :class:`privlab.registry.Registry` of a family named in :data:`FAMILIES`.

    Example:
        >>> family_registry("encoder").family
        'encoder'
    """
    if family not in FAMILIES:
        raise invalid("family", "privlab.studies.params", f"one of {sorted(FAMILIES)}", family,
                      "Add the family to privlab.studies.params.FAMILIES.")
    return getattr(importlib.import_module(FAMILIES[family]),
                   REGISTRY_NAMES.get(family, "registry"))


@dataclass(frozen=True)
class Choice:
    """One fixed choice of a field and what it needs before it can run.

    Attributes:
        name: the value the Config receives.
        description: a few words shown after the name.
        needs: ``""`` (nothing), ``"data"`` (the file or folder ``path``) or
            ``"endpoint"`` (an LLM endpoint).
        path: for ``needs="data"``, the file or folder that makes it ready.
        fix: for ``needs="data"``, what to do when it is missing.
    """

    name: Any
    description: str = ""
    needs: str = ""
    path: Any = None
    fix: str = ""


@dataclass(frozen=True)
class Param:
    """What a panel needs to offer one Config field (see :func:`param`)."""

    label: str = ""
    help: str = ""
    choices: Any = None
    family: str | None = None
    filters: Mapping[str, Any] = field(default_factory=dict)
    names: tuple[str, ...] | None = None
    exclude: tuple[str, ...] = ()
    online: bool = True
    extra: Any = ()
    one: bool = False
    single: bool = False
    buttons: bool = False
    strict: bool = False
    minimum: float | None = None
    maximum: float | None = None
    slider: tuple[float, float] | None = None
    step: float | None = None
    log: bool = False
    none: str | None = None
    none_is: Callable[[], Any] | None = None
    zero_is_none: bool = False
    empty: Any = None
    lines: int = 0
    redraw: bool = False
    unavailable: Callable[[Any, Mapping[str, Any]], str | None] | None = None

    def options(self) -> list[Choice]:
        """The choices offered, as :class:`Choice` objects: ``extra``, then the fixed
        ``choices`` or the family's members (``filters``, ``names``, ``exclude``,
        ``online`` applied), in that order. Empty for a free field.

        Example:
            >>> [c.name for c in Param(choices=("9", ("49", "all"))).options()]
            ['9', '49']
        """
        return self.own_choices() + [Choice(n) for n in self.members()]

    def own_choices(self) -> list[Choice]:
        """``extra``, then the fixed ``choices``, as :class:`Choice` objects."""
        out = [_as_choice(c) for c in _call(self.extra)]
        if self.choices is not None:
            out += [_as_choice(c) for c in _call(self.choices)]
        return out

    def members(self) -> list[str]:
        """The family's member names offered (none without a family, or with fixed
        ``choices``)."""
        if self.family is None or self.choices is not None:
            return []
        registry = family_registry(self.family)
        members = (list(self.names) if self.names is not None
                   else registry.names(**dict(self.filters)))
        return [n for n in members if n in registry and n not in self.exclude
                and (self.online or registry.entry(n).meta.get("offline", True) is not False)]

    def check(self, value: Any, name: str, caller: str) -> None:
        """Refuse a value outside the declared range, or outside the fixed choices when
        ``strict``; None is left to the study.

        Raises:
            PrivlabValueError: naming the field, what it accepts and the value given.
        """
        if value is None:
            return
        items = list(value) if isinstance(value, (tuple, list)) else [value]
        if self.single and (not isinstance(value, (tuple, list)) or len(items) != 1):
            raise invalid(name, caller, "exactly one name in a tuple", value,
                          f"This study takes one; pass {name}=('<name>',).")
        if self.minimum is not None or self.maximum is not None:
            for item in items:
                if not isinstance(item, numbers.Real) or isinstance(item, bool):
                    continue  # the type check of contract.value_checks says so
                low = -math.inf if self.minimum is None else self.minimum
                high = math.inf if self.maximum is None else self.maximum
                if not low <= item <= high:
                    raise invalid(name, caller, f"a number in [{low:g}, {high:g}]", item)
        if self.strict:
            allowed = [c.name for c in self.options()]
            for item in items:
                if item not in allowed:
                    raise invalid(name, caller, f"one of {allowed}", item)


def _call(value: Any) -> Any:
    return value() if callable(value) else (value or ())


def _as_choice(value: Any) -> Choice:
    if isinstance(value, Choice):
        return value
    if isinstance(value, tuple) and len(value) == 2:
        return Choice(value[0], str(value[1]))
    return Choice(value)


def param(default: Any = dataclasses.MISSING, *, default_factory: Any = dataclasses.MISSING,
          repr: bool = True, **declared: Any) -> Any:
    """A dataclass field whose metadata declares what a panel needs (a :class:`Param`).

    Args:
        default, default_factory, repr: as for :func:`dataclasses.field`.
        label: the control's label (default: the field's name, humanised).
        help: a line of help (a text box shows it as its placeholder).
        choices: fixed choices (values, ``(value, description)`` pairs or :class:`Choice`
            objects), or a function returning them, called when a panel is built.
        family: offer the members of a registry family (a key of :data:`FAMILIES`),
            with ``filters``, ``names``, ``exclude`` and ``online`` (False: offline only).
        extra: choices put before the family's members (a study's own specs).
        one: a tuple field chosen as one name (a dropdown; the value is ``(name,)``).
        single: like ``one``, and a value of other than one name is refused when the
            Config is built (a study that takes exactly one encoder).
        buttons: toggle buttons instead of a dropdown (a few short choices).
        strict: refuse, when the Config is built, a value outside the fixed choices.
        minimum, maximum: the numeric range, checked when the Config is built.
        slider: the range a control offers (default ``minimum``..``maximum``, else 0..1).
        step, log: the slider's step and whether it is logarithmic.
        none: the label of the choice that stands for None ("chosen by the study").
        none_is: a function giving the value None stands for (a control showing it sets None).
        zero_is_none: for an ``int | None`` field, 0 stands for None ("all").
        empty: for a text field, what an empty box stands for (default None).
        lines: for a list of strings, a text area of this many rows (one per line).
        redraw: a reading of the result: changing it redraws without running again.
        unavailable: ``(choice, settings) -> reason or None`` for choices the other
            settings rule out (greyed out).

    Example:
        >>> from dataclasses import dataclass, fields
        >>> @dataclass
        ... class Demo:
        ...     n: int = param(3, label="Items", minimum=1)
        >>> declared(Demo)["n"].label
        'Items'
    """
    unknown = sorted(set(declared) - {f.name for f in dataclasses.fields(Param)})
    if unknown:
        raise invalid(unknown[0], "privlab.studies.params.param",
                      f"one of {sorted(f.name for f in dataclasses.fields(Param))}",
                      declared[unknown[0]])
    return field(default=default, default_factory=default_factory, repr=repr,
                 metadata={KEY: Param(**declared)})


@functools.lru_cache(maxsize=None)
def _declared(cls: type) -> tuple[tuple[str, Param], ...]:
    if not dataclasses.is_dataclass(cls):
        return ()
    return tuple((f.name, f.metadata[KEY]) for f in dataclasses.fields(cls)
                 if isinstance(f.metadata.get(KEY), Param))


def declared(cls: type) -> dict[str, Param]:
    """``{field: Param}`` for every field of a Config dataclass declared with :func:`param`,
    in field order."""
    return dict(_declared(cls if isinstance(cls, type) else type(cls)))


def check_declared(config: Any, caller: str) -> None:
    """Refuse values outside what ``config``'s declared fields accept (see :meth:`Param.check`)."""
    for name, declaration in declared(type(config)).items():
        declaration.check(getattr(config, name), name, caller)


#: Settings renamed so that one idea has one name in every study, old name -> new name:
#: ``encoders`` (the distance mechanisms, a tuple of registry names, even where a study
#: takes one) and ``data`` (what is audited: texts, a folder, a file or a data choice).
#: Every Config refuses an old name and names the new one (:func:`refuse_renamed`).
RENAMED_SETTINGS = {
    "encoder": "encoders", "base_encoder": "encoders", "image_members": "image_encoders",
    "texts": "data", "folder": "data", "comments": "data", "corpus": "data",
    "source": "data", "table": "data", "image_source": "image_data",
}


def refuse_renamed(cls: type, settings: Mapping[str, Any], caller: str) -> None:
    """Refuse an old setting name (:data:`RENAMED_SETTINGS`) that ``cls`` now spells
    otherwise, naming both; names ``cls`` still has, or never had, are left alone.

    Example:
        >>> from privlab.studies.contract import StudyConfig
        >>> @dataclass
        ... class Demo(StudyConfig):
        ...     data: str = "sample"
        >>> Demo(folder="photos")
        Traceback (most recent call last):
        ...
        privlab.errors.PrivlabValueError: The 'folder' parameter of Demo was renamed to 'data' (what is audited, one name in every study). Write data='photos' instead of folder='photos'.
    """
    if not dataclasses.is_dataclass(cls):
        return
    fields = {f.name for f in dataclasses.fields(cls)}
    for old, value in settings.items():
        new = RENAMED_SETTINGS.get(old)
        if old not in fields and new in fields:
            if new.endswith("encoders") and isinstance(value, str):
                value = (value,)   # a tuple of names, even where a study takes one
            plain = isinstance(value, (str, int, float, tuple, type(None)))
            shown = repr(value) if plain else "..."
            raise PrivlabValueError(
                f"The '{old}' parameter of {caller} was renamed to '{new}' ({_IDEAS[new]}, "
                f"one name in every study). Write {new}={shown} instead of {old}={shown}.")


_IDEAS = {"encoders": "the distance mechanisms", "image_encoders": "the image encoders",
          "data": "what is audited", "image_data": "the images audited"}


__all__ = ["Choice", "FAMILIES", "KEY", "REGISTRY_NAMES", "RENAMED_SETTINGS", "Param",
           "check_declared", "declared", "family_registry", "param", "refuse_renamed"]
