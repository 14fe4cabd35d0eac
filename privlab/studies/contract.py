"""The study contract: the ``Config``, ``run`` and ``Result`` every study module provides.

``StudyConfig`` gives every study the same settings profiles (default, smoke, demo, the
notebook's) and input checks; ``StudyResult`` and ``Headline`` give every result the same
face (headline with status, provenance, frame). See ``docs/methods/studies-contract.md``.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import functools
import math
import numbers
import re
import types
import typing
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from privlab.errors import PrivlabTypeError, check_seed, invalid, item_list, wrong_type
from privlab.registry import Registry
from privlab.status import Status

HEADLINE_MARKER = "privlab-headline"

class StudyRegistry(Registry):
    """The studies' registry: listed in notebook order whatever order they were imported in."""

    def names(self, **filters: Any) -> list[str]:
        """Registered study slugs matching every filter, by notebook number."""
        found = super().names(**filters)
        return sorted(found, key=lambda name: str(self.entry(name).meta.get("number", "")))


#: Every study's ``run``, by slug, in notebook order (loaded by ``privlab.studies.registry``).
registry = StudyRegistry("study")


#: Tokens that are internal ids, never words for a reader: a hex fragment of 7+ digits
#: (a hash, ``ge3b0c442``), a member id such as ``describe[ocr+faces]-minilm-g…`` or one
#: spelling its settings, such as ``sface-t0.8-m24-b0.2``.
INTERNAL_ID = re.compile(
    r"\b(?:g|sha|0x)?(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,}\b"
    r"|\w+\[[^\]\s]*\]-[\w.-]*"
    r"|\b[a-z][\w]*(?:-[a-z]\d[\d.]*){3,}", re.IGNORECASE)

#: How many words a headline's first line may take (the docs' headline block prints it alone).
FIRST_LINE_WORDS = 30


def first_line_problems(text: str) -> list[str]:
    """What keeps ``text`` from being a headline's first line a student can read: too many
    words (:data:`FIRST_LINE_WORDS`) or an internal id (:data:`INTERNAL_ID`).

    Example:
        >>> first_line_problems("resolution 0.217 (placebo 0.018)")
        []
        >>> first_line_problems("p95 0.000 (describe[ocr+faces]-minilm-ge3b0c442-m0.363)")
        ["an internal id 'describe[ocr+faces]-minilm-ge3b0c442-m0.363'"]
    """
    problems = []
    words = len(text.split())
    if words >= FIRST_LINE_WORDS:
        problems.append(f"{words} words (fewer than {FIRST_LINE_WORDS})")
    problems += [f"an internal id {m.group(0)!r}" for m in INTERNAL_ID.finditer(text)]
    return problems


def _lines(value: Any, name: str) -> tuple[str, ...]:
    items = (value,) if isinstance(value, str) else tuple(value)
    if any(not isinstance(c, str) or not c.strip() or "\n" in c for c in items):
        raise invalid(name, "Headline", "a sequence of non-empty single-line strings", value)
    return items


@dataclass(frozen=True)
class Headline:
    """What a study found, in one plain line, with the details folded beneath it.

    Attributes:
        study: number and short name, e.g. ``"00 quickstart"``.
        text: the first line: what was found, its key number and the control beside it
            (fewer than 30 words, no internal ids: :func:`first_line_problems`).
        status: the kind of claim, a :class:`privlab.status.Status` or its value.
        caveats: what the number rests on (the data, the model or judge).
        details: the numbers behind the first line, one line each, shown folded.
        status_note: what the status means here, e.g. ``"model-relative"``.
        figures: the run's figures quoted by the prose and docs, by name, as printed
            (``privlab quote`` fills ``<!--q:name-->`` markers with them).

    Example:
        >>> h = Headline("00 quickstart", "resolution 0.2", "diagnostic",
        ...              ("12 texts written by privlab",), details=("witness x6/y5",))
        >>> h.status is Status.DIAGNOSTIC, Headline.parse(h.lines()) == [h]
        (True, True)
    """

    study: str
    text: str
    status: Status
    caveats: tuple[str, ...] = ()
    details: tuple[str, ...] = ()
    status_note: str = ""
    figures: dict[str, str] = dataclasses.field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        for name in ("study", "text"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip() or "\n" in value:
                raise invalid(name, "Headline", "a non-empty single-line string", value)
        try:
            status = Status(self.status)
        except ValueError:
            raise invalid("status", "Headline", "one of " + ", ".join(
                repr(s.value) for s in Status.formal()), self.status,
                "Pass a privlab.status.Status; put the explanation in status_note.") from None
        if not isinstance(self.status_note, str) or "\n" in self.status_note:
            raise invalid("status_note", "Headline", "a single-line string", self.status_note)
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "caveats", _lines(self.caveats, "caveats"))
        object.__setattr__(self, "details", _lines(self.details, "details"))
        object.__setattr__(self, "figures", check_figures(self.figures, "Headline"))

    @property
    def status_line(self) -> str:
        """The status with this headline's note, e.g. ``"diagnostic — model-relative"``."""
        return self.status.value + (f" — {self.status_note}" if self.status_note else "")

    def lines(self) -> str:
        """The printed form: a marked first line, the details under it, then the status,
        then one line per caveat.

        Example:
            >>> print(Headline("05 known-ε", "ok", Status.DESCRIPTIVE, ("synthetic",),
            ...                details=("n 30",)).lines())
            privlab-headline | 05 known-ε | ok
                - n 30
                status: descriptive
                rests on: synthetic
        """
        out = [f"{HEADLINE_MARKER} | {self.study} | {self.text}"]
        out += [f"    - {detail}" for detail in self.details]
        out.append(f"    status: {self.status_line}")
        out += [f"    rests on: {caveat}" for caveat in self.caveats]
        out += [f"    figure: {name} = {value}" for name, value in self.figures.items()]
        return "\n".join(out)

    def with_figures(self, figures: "collections.abc.Mapping[str, str] | None") -> "Headline":
        """This headline with ``figures`` added (itself when there are none).

        Example:
            >>> Headline("04 Enron", "19 leaks", "diagnostic").with_figures({"leaks": "19"}).figures
            {'leaks': '19'}
        """
        if not figures:
            return self
        return dataclasses.replace(self, figures={**self.figures, **figures})

    def with_caveat(self, caveat: str | None) -> "Headline":
        """This headline with one more caveat (itself when ``caveat`` is None or already there).

        Example:
            >>> Headline("05 known-ε", "ok", "descriptive").with_caveat("demo settings").caveats
            ('demo settings',)
        """
        if not caveat or caveat in self.caveats:
            return self
        return dataclasses.replace(self, caveats=self.caveats + (caveat,))

    def show(self) -> None:
        """Print :meth:`lines`; returns None so a cell's last line shows it only once."""
        print(self.lines())

    @staticmethod
    def parse(text: str) -> list["Headline"]:
        """Every headline printed in ``text`` (e.g. an executed notebook's output).

        A status line that names no :class:`Status` is kept whole as the note of an
        ``unstated`` status.

        Example:
            >>> h, = Headline.parse("noise\\nprivlab-headline | 05 known-ε | ok\\n"
            ...                     "    - n 30\\n    status: descriptive — exact\\n")
            >>> h.text, h.details, h.status, h.status_note
            ('ok', ('n 30',), <Status.DESCRIPTIVE: 'descriptive'>, 'exact')
        """
        found: list[Headline] = []
        current: dict[str, Any] | None = None
        for raw in text.splitlines():
            if raw.startswith(HEADLINE_MARKER + " | "):
                if current:
                    found.append(Headline(**current))
                parts = raw.split(" | ", 2)
                current = ({"study": parts[1], "text": parts[2], "status": Status.UNSTATED,
                            "caveats": (), "details": (), "status_note": ""}
                           if len(parts) == 3 else None)
            elif current is not None and raw.startswith("    status: "):
                value = raw[len("    status: "):].strip()
                known = Status.split(value)
                current["status"], current["status_note"] = (
                    known if known else (Status.UNSTATED, value))
            elif current is not None and raw.startswith("    rests on: "):
                caveat = raw[len("    rests on: "):].strip()
                current["caveats"] = current["caveats"] + ((caveat,) if caveat else ())
            elif current is not None and raw.startswith("    - "):
                detail = raw[len("    - "):].strip()
                current["details"] = current["details"] + ((detail,) if detail else ())
            elif current is not None and raw.startswith("    figure: ") and " = " in raw:
                name, value = raw[len("    figure: "):].split(" = ", 1)
                current.setdefault("figures", {})[name.strip()] = value.strip()
            elif current is not None:
                found.append(Headline(**current))
                current = None
        if current:
            found.append(Headline(**current))
        return found

    def _repr_html_(self) -> str:
        import html

        def items(values: tuple[str, ...]) -> str:
            return "<ul>" + "".join(f"<li>{html.escape(v)}</li>" for v in values) + "</ul>"

        more = ""
        if self.details:
            more += f"<details><summary>details</summary>{items(self.details)}</details>"
        if self.caveats:
            more += f"<details><summary>rests on</summary>{items(self.caveats)}</details>"
        return (f"<div><b>{html.escape(self.study)}</b>: {html.escape(self.text)}<br>"
                f"<i>status</i>: <span title='{html.escape(self.status.description)}'>"
                f"{html.escape(self.status_line)}</span>{more}</div>")


#: A quoted figure's name: letters, digits, ``_``, ``-`` and ``.``.
FIGURE_NAME = re.compile(r"[A-Za-z0-9_.-]+")


def check_figures(figures: Any, caller: str) -> dict[str, str]:
    """``figures`` as a plain ``{name: printed value}`` dict, or a clear error.

    Names match :data:`FIGURE_NAME`; values are non-empty single-line strings (the figure
    as the prose should print it, e.g. ``"1,552"`` or ``"0.561"``).

    Example:
        >>> check_figures({"leaks": "19"}, "Headline")
        {'leaks': '19'}
    """
    if figures is None:
        return {}
    if not isinstance(figures, collections.abc.Mapping):
        raise invalid("figures", caller, "a mapping of figure names to printed values", figures)
    out: dict[str, str] = {}
    for name, value in figures.items():
        if not isinstance(name, str) or not FIGURE_NAME.fullmatch(name):
            raise invalid("figures", caller, "names of letters, digits, '_', '-' and '.'", name)
        if not isinstance(value, str) or not value.strip() or "\n" in value or "<" in value:
            raise invalid("figures", caller,
                          f"a non-empty single-line printed value for {name!r} (no '<')", value)
        out[name] = value.strip()
    return out


@dataclass(frozen=True)
class StudyResult:
    """Base of every study's result (and every sub-study's): what ``run`` returns.

    ``provenance`` is keyword-only (it follows the study's own fields); a result made
    without one derives it in :meth:`derive_provenance`.

    Attributes:
        provenance: settings, seeds, model names and data hashes that produced the result
            (a panel adds the choices it ran with, under ``"choices"``).

    Example:
        >>> @dataclass(frozen=True)
        ... class Demo(StudyResult):
        ...     n: int
        ...     def derive_provenance(self):
        ...         return {"n": self.n}
        ...     def headline(self):
        ...         return Headline("00 demo", f"{self.n} items", Status.DESCRIPTIVE, ("toy",))
        >>> Demo(3).provenance, Demo(3, provenance={"seed": 1}).provenance
        ({'n': 3}, {'seed': 1})
        >>> Demo(3).quoted_figures()
        {}
    """

    provenance: dict[str, Any] = dataclasses.field(default_factory=dict, kw_only=True)

    def __post_init__(self) -> None:
        if not isinstance(self.provenance, dict):
            raise wrong_type("provenance", type(self).__qualname__, "a dict", self.provenance)
        if not self.provenance:
            object.__setattr__(self, "provenance", dict(self.derive_provenance()))

    def derive_provenance(self) -> dict[str, Any]:
        """The provenance of a result made without one, from its own fields (none here)."""
        return {}

    def headline(self) -> Headline:
        """The number that matters, its control, its status and what it rests on."""
        raise NotImplementedError(f"{type(self).__qualname__} must define headline()")

    def quoted_figures(self) -> dict[str, str]:
        """The figures the notebook's prose and the docs quote, by name (``{"leaks": "19"}``,
        see :func:`check_figures`); none unless the study names some."""
        return {}

    def to_frame(self) -> Any:
        """The result as a pandas DataFrame (one row per audited unit)."""
        raise NotImplementedError(f"{type(self).__qualname__} must define to_frame()")

    def _repr_html_(self) -> str:
        """How a notebook shows the result (default: :meth:`to_frame` as a table)."""
        return self.to_frame().to_html(index=False)


class StudyConfig:
    """Base of every study's ``Config`` dataclass: full, demo, smoke and notebook settings.

    Full settings are the field defaults; :meth:`smoke_settings` and :meth:`demo_settings`
    name the fields that differ.

    Example:
        >>> @dataclass
        ... class Demo(StudyConfig):
        ...     n: int = 100
        ...     seed: int = 0
        ...     @classmethod
        ...     def smoke_settings(cls):
        ...         return {"n": 3}
        >>> Demo.default().n, Demo.smoke().n, Demo.smoke(seed=2).seed, Demo.default(n=7).n
        (100, 3, 2, 7)
    """

    #: For a sub-study's Config: the fields it takes from its parent study's config
    #: (:meth:`like`); its panel offers the others, and follows the parent's panel.
    parent_fields: ClassVar[tuple[str, ...]] = ()

    def __new__(cls, *args: Any, **settings: Any):
        # Before the dataclass's __init__ sees them: an old setting name is refused with
        # its new one (RENAMED_SETTINGS) rather than as an unexpected keyword.
        from privlab.studies.params import refuse_renamed

        refuse_renamed(cls, settings, cls.__qualname__)
        if dataclasses.is_dataclass(cls):  # a misspelt setting: named, with the nearest
            import difflib

            fields = [f.name for f in dataclasses.fields(cls) if f.init]
            for name in settings:
                if name not in fields:
                    near = difflib.get_close_matches(name, fields, n=1)
                    caller = f"{cls.__module__.rsplit('.', 1)[-1]}.{cls.__qualname__}"
                    message = invalid(name, caller, f"one of the settings {fields}",
                                      settings[name], f"Did you mean {near[0]!r}?" if near
                                      else "Check the spelling of the setting.")
                    raise PrivlabTypeError(str(message))  # a TypeError, as Python's own
        return super().__new__(cls)

    def __post_init__(self) -> None:
        """Check the fields (:func:`check_config_fields`); a subclass's own calls this first."""
        check_config_fields(self)

    @classmethod
    def smoke_settings(cls) -> dict[str, Any]:
        """The fields that differ from the full settings in a smoke run (none by default)."""
        return {}

    @classmethod
    def demo_settings(cls) -> dict[str, Any]:
        """The smaller fields that still show the finding in about a minute (none by default)."""
        return {}

    @classmethod
    def _build(cls, settings: dict[str, Any], caller: str):
        fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
        from privlab.studies.params import refuse_renamed

        refuse_renamed(cls, settings, f"{cls.__module__}.{cls.__qualname__}.{caller}")
        unknown = sorted(set(settings) - fields)
        if unknown:
            raise invalid(unknown[0], f"{cls.__module__}.{cls.__qualname__}.{caller}",
                          f"one of the fields {sorted(fields)}", settings[unknown[0]],
                          "Check the spelling of the setting.")
        return cls(**settings)

    @classmethod
    def default(cls, **overrides: Any):
        """The full settings, with ``overrides`` applied."""
        return cls._build(dict(overrides), "default")

    @classmethod
    def smoke(cls, **overrides: Any):
        """The tiny settings of :meth:`smoke_settings`, with ``overrides`` applied."""
        return cls._build({**cls.smoke_settings(), **overrides}, "smoke")

    @classmethod
    def like(cls, config: Any, **overrides: Any):
        """This class's settings with the :attr:`parent_fields` of another study's
        ``config`` (a sub-study on its parent's data), then ``overrides``."""
        settings = {name: getattr(config, name) for name in cls.parent_fields}
        return cls._build({**settings, **overrides}, "like")

    @classmethod
    def demo(cls, **overrides: Any):
        """The demo settings of :meth:`demo_settings`, with ``overrides`` applied."""
        return cls._build({**cls.demo_settings(), **overrides}, "demo")

    @classmethod
    def for_notebook(cls, **overrides: Any):
        """The settings of the active profile (:func:`privlab.config.profile`).

        :meth:`smoke` under ``PRIVLAB_SMOKE=1``, :meth:`demo` by default and :meth:`default`
        under ``PRIVLAB_PROFILE=full``; an override of None keeps the profile's setting.

        Example:
            >>> @dataclass
            ... class Demo(StudyConfig):
            ...     n: int = 100
            ...     name: str = "x"
            >>> Demo.for_notebook(n=None, name="y")
            Demo(n=100, name='y')
        """
        from privlab.config import profile

        given = {k: v for k, v in overrides.items() if v is not None}
        chosen = profile()
        if chosen == "smoke":
            return cls.smoke(**given)
        return cls.demo(**given) if chosen == "demo" else cls.default(**given)

    def settings_caveat(self) -> str | None:
        """A caveat naming the demo settings this config runs on where they are smaller
        (None for a full run, a smoke run or a user's own values).

        Example:
            >>> @dataclass
            ... class Demo(StudyConfig):
            ...     n: int = 100
            ...     @classmethod
            ...     def demo_settings(cls):
            ...         return {"n": 20}
            >>> Demo.demo().settings_caveat()
            'demo settings, smaller than the full ones: n 20 (full 100); make reproduce runs the full settings'
            >>> Demo.default().settings_caveat() is None, Demo.demo(n=50).settings_caveat() is None
            (True, True)
        """
        smoke, demo = type(self).smoke_settings(), type(self).demo_settings()
        if smoke != {k: demo.get(k) for k in smoke} and all(
                getattr(self, k) == v for k, v in smoke.items()):
            return None   # a smoke run (tests), not the demo
        full = type(self).default()
        reduced = [f"{name} {_brief(value)} (full {_brief(getattr(full, name))})"
                   for name, value in type(self).demo_settings().items()
                   if getattr(self, name) == value and value != getattr(full, name)]
        if not reduced:
            return None
        return ("demo settings, smaller than the full ones: " + ", ".join(reduced)
                + "; make reproduce runs the full settings")


def _brief(value: Any) -> str:
    """A short printable form of a setting (sequences by their length)."""
    if isinstance(value, (list, tuple)) and len(value) > 3:
        return f"{len(value)} entries"
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


_SEQUENCE_ORIGINS = (tuple, list, set, frozenset, collections.abc.Sequence,
                     collections.abc.Iterable, collections.abc.Collection)
# The same shapes, as written in a string annotation when the hints cannot be resolved.
_TEXT_SEQUENCE_TEXT = re.compile(r"^(?:tuple\[str, \.\.\.\]|(?:list|set|frozenset|Sequence|"
                                 r"Iterable|Collection)\[str\])(?: \| None)?$")


def is_text_sequence(hint: Any) -> bool:
    """Whether a type hint means a sequence of strings (``tuple[str, ...]``,
    ``list[str]``, ``Sequence[str]`` ..., possibly ``| None``).

    Example:
        >>> is_text_sequence(tuple[str, ...] | None), is_text_sequence(str)
        (True, False)
    """
    if isinstance(hint, str):
        return bool(_TEXT_SEQUENCE_TEXT.match(hint.strip()))
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        return any(is_text_sequence(a) for a in typing.get_args(hint) if a is not type(None))
    if origin not in _SEQUENCE_ORIGINS:
        return False
    args = [a for a in typing.get_args(hint) if a is not Ellipsis]
    return bool(args) and all(a is str for a in args)


@functools.lru_cache(maxsize=None)
def config_checks(cls: type) -> tuple[tuple[str, str], ...]:
    """``(field, kind)`` for each field of a Config dataclass that :func:`check_config_fields`
    checks: kind ``"texts"`` for a sequence of strings, ``"seed"`` for ``seed`` and
    ``*_seed`` fields.

    Example:
        >>> @dataclass
        ... class Demo(StudyConfig):
        ...     names: tuple[str, ...] = ("a",)
        ...     seed: int = 0
        >>> config_checks(Demo)
        (('names', 'texts'), ('seed', 'seed'))
    """
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # an annotation naming something not importable here
        hints = {}
    checks = []
    for f in dataclasses.fields(cls):
        if is_text_sequence(hints.get(f.name, f.type)):
            checks.append((f.name, "texts"))
        elif f.name == "seed" or f.name.endswith("_seed"):
            checks.append((f.name, "seed"))
    return tuple(checks)


def check_config_fields(config: Any) -> None:
    """Refuse field values of the wrong kind, naming the field and the Config.

    Raises:
        PrivlabTypeError: a bare string or bytes, or a value that is not a collection,
            where a list of strings belongs.
        PrivlabValueError: a seed outside ``[0, 2**32 - 1]``; a value outside the range
            or fixed choices a field declares (:func:`privlab.studies.params.param`).
    """
    if not dataclasses.is_dataclass(config):
        return
    cls = type(config)
    caller = f"{cls.__module__}.{cls.__qualname__}"
    for name, kind in config_checks(cls):
        value = getattr(config, name)
        if value is None:
            continue
        if kind == "texts":
            for item in item_list(value, name, caller):
                if not isinstance(item, str):
                    raise wrong_type(name, caller, "a list of strings", item,
                                     f"Every entry must be text; {item!r} is not.")
        else:
            check_seed(value, name, caller)
    for name, kind in value_checks(cls):
        _check_value(getattr(config, name), kind, name, caller)
    # What a field declares with privlab.studies.params.param: its range and choices.
    from privlab.studies.params import check_declared

    check_declared(config, caller)


_SCALARS = {bool: "bool", int: "int", float: "float", str: "str"}
_SCALAR_WORDS = {"bool": "True or False", "int": "an int", "float": "a number",
                 "str": "a string"}


@functools.lru_cache(maxsize=None)
def value_checks(cls: type) -> tuple[tuple[str, str], ...]:
    """``(field, kind)`` for each field of a Config dataclass annotated with a plain
    ``bool``, ``int``, ``float`` or ``str`` (possibly ``| None``), or a tuple of ``int``
    or ``float`` (kinds ``"ints"``, ``"floats"``); seeds and lists of strings are left to
    :func:`config_checks`.

    Example:
        >>> @dataclass
        ... class Demo(StudyConfig):
        ...     n: int = 3
        ...     rate: float | None = None
        ...     sizes: tuple[int, ...] = (1,)
        ...     seed: int = 0
        >>> value_checks(Demo)
        (('n', 'int'), ('rate', 'float'), ('sizes', 'ints'))
    """
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # an annotation naming something not importable here
        return ()
    other = {name for name, _ in config_checks(cls)}
    checks = []
    for f in dataclasses.fields(cls):
        if f.name in other:
            continue
        hint = hints.get(f.name)
        args = (set(typing.get_args(hint)) - {type(None)}
                if typing.get_origin(hint) in (typing.Union, types.UnionType) else {hint})
        if len(args) != 1:
            continue
        (hint,) = args
        if hint in _SCALARS:
            checks.append((f.name, _SCALARS[hint]))
        elif typing.get_origin(hint) is tuple:
            items = [a for a in typing.get_args(hint) if a is not Ellipsis]
            if items and all(a is int for a in items):
                checks.append((f.name, "ints"))
            elif items and all(a is float for a in items):
                checks.append((f.name, "floats"))
            elif len(items) == 1 and typing.get_origin(items[0]) is tuple:
                inner = typing.get_args(items[0])
                if inner and Ellipsis not in inner and all(a in _SCALARS for a in inner):
                    checks.append((f.name, "rows:" + ",".join(_SCALARS[a] for a in inner)))
    return tuple(checks)


def _check_value(value: Any, kind: str, name: str, caller: str) -> None:
    """Refuse a value of the wrong type for ``kind`` (None is left to the study)."""
    if value is None:
        return
    if kind in ("ints", "floats"):
        for item in item_list(value, name, caller):
            if item is None:
                raise invalid(name, caller, f"a list of {kind}", value,
                              "Every entry must be a number, not None.")
            _check_value(item, kind[:-1], name, caller)
        return
    if kind.startswith("rows:"):  # e.g. tuple[tuple[str, str], ...]: a list of pairs
        inner = kind[5:].split(",")
        for row in item_list(value, name, caller):
            if isinstance(row, (str, bytes)) or not isinstance(row, (tuple, list)) \
                    or len(row) != len(inner):
                raise invalid(name, caller, f"a list of {len(inner)}-tuples", row,
                              f"Each entry holds {len(inner)} values, e.g. "
                              f"{tuple(_SCALAR_WORDS[k] for k in inner)}.")
            for item, item_kind in zip(row, inner):
                if item is None:
                    raise invalid(name, caller, f"{len(inner)}-tuples without None", row)
                _check_value(item, item_kind, name, caller)
        return
    ok = {"bool": isinstance(value, (bool, np.bool_)),
          "int": isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)),
          "float": isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)),
          "str": isinstance(value, str)}[kind]
    if not ok:
        fix = ("A non-empty string such as 'no' counts as true; pass a bool."
               if kind == "bool" and isinstance(value, str) else
               f"Pass {_SCALAR_WORDS[kind]}, not text." if isinstance(value, str) else None)
        raise invalid(name, caller, _SCALAR_WORDS[kind], value, fix)
    if kind == "float" and math.isnan(value):
        raise invalid(name, caller, "a number, not NaN", value)


__all__ = ["FIGURE_NAME", "FIRST_LINE_WORDS", "HEADLINE_MARKER", "Headline", "INTERNAL_ID",
           "Status", "StudyConfig", "StudyRegistry", "StudyResult", "check_config_fields",
           "check_figures", "config_checks", "first_line_problems", "is_text_sequence",
           "registry", "value_checks"]
