"""Controls built from what a study's ``Config`` fields declare, so any study gets a panel.

A field declared with :func:`privlab.studies.params.param` gets one control chosen from
its type and declaration (a dropdown or checkboxes for choices, a checkbox, a number, a
slider, a text area or box); :func:`build_controls` does it for a whole Config, and
:func:`privlab.ui.panel.study_panel` calls it when given no controls.

See docs/methods/ui-panels.md.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Mapping

from privlab.studies.params import Choice, Param, declared, family_registry
import privlab.ui.controls as c
from privlab.ui.choices import Option, data_option, registry_options
from privlab.ui.controls import Control

_SCALARS = (bool, int, float, str)


def field_kind(hint: Any) -> tuple[str, bool]:
    """``(kind, optional)`` of a field's type hint: kind ``"bool"``, ``"int"``,
    ``"float"``, ``"str"``, ``"texts"`` (a sequence of strings) or ``"other"``.

    Example:
        >>> field_kind(int | None), field_kind(tuple[str, ...])
        (('int', True), ('texts', False))
    """
    from privlab.studies.contract import is_text_sequence

    optional = False
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        optional = len(args) < len(typing.get_args(hint))
        hint = args[0] if len(args) == 1 else Any
    if is_text_sequence(hint):
        return "texts", optional
    for kind in _SCALARS:
        if hint is kind:
            return kind.__name__, optional
    return "other", optional


def _hints(config: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(config)
    except Exception:  # an annotation naming something not importable here
        return {f.name: f.type for f in dataclasses.fields(config)}


def as_option(choice: Choice) -> Option:
    """The picker :class:`~privlab.ui.choices.Option` of a declared :class:`Choice`."""
    if choice.needs == "data":
        return data_option(choice.name, choice.description, choice.path, choice.fix)
    if choice.needs == "endpoint":
        return Option(choice.name, choice.description, "endpoint",
                      "needs an LLM endpoint").refresh()
    return Option(choice.name, choice.description)


def options_of(declaration: Param) -> list[Option]:
    """Every option a declared field offers: its own choices, then its family's members
    (each marked with what it needs, ready ones first)."""
    out = [as_option(choice) for choice in declaration.own_choices()]
    members = declaration.members()
    if members:
        out += registry_options(family_registry(declaration.family), names=members)
    return out


def control_for(name: str, declaration: Param, hint: Any) -> Control:
    """The control of one declared field (see the module's description)."""
    kind, optional = field_kind(hint)
    p = declaration
    options = options_of(p)
    if p.none is not None:
        options = [Option(p.none, p.help or "the study's own choice")] + options
    if options:
        if kind == "texts" and not (p.one or p.single):
            control = c.choices(options, label=p.label, columns=3 if len(options) > 6 else 1)
        else:
            control = c.choice(options, label=p.label, buttons=p.buttons,
                               as_tuple=p.one or p.single,
                               none=p.none)
    elif kind == "bool":
        control = c.flag(p.label)
    elif kind == "int":
        low, high = p.slider or (p.minimum if p.minimum is not None else 0,
                                 p.maximum if p.maximum is not None else 1_000_000)
        control = c.integer(p.label, minimum=int(low), maximum=int(high),
                            zero_means_none=p.zero_is_none)
    elif kind == "float":
        low, high = p.slider or (p.minimum if p.minimum is not None else 0.0,
                                 p.maximum if p.maximum is not None else 1.0)
        control = c.number(p.label, minimum=float(low), maximum=float(high),
                           step=p.step or 0.01, log=p.log)
    elif kind == "texts":
        control = c.phrases(p.label, rows=p.lines or 6)
    else:
        control = c.text(p.label, placeholder=p.help, empty=p.empty)
    if p.none_is is not None or (optional and kind == "texts" and not p.one and options):
        _none_when(control, p)
    control.declaration = p  # type: ignore[attr-defined]
    return control


def _none_when(control: Control, declaration: Param) -> None:
    """Make ``control`` stand for None where the declaration says so: the value
    ``none_is()`` gives, or (without it) nothing ticked ("the study's own list")."""
    get, put = control._get, control._put

    def standing() -> tuple | None:
        return tuple(declaration.none_is()) if declaration.none_is is not None else None

    def read() -> Any:
        value = get()
        wanted = standing()
        if wanted is not None:
            return None if tuple(value or ()) == wanted else value
        return value or None

    def write(value: Any) -> None:
        put(standing() if value is None else value)

    def chosen() -> list[Option]:  # what is ticked, whether or not it stands for None
        value = get()
        picked = set(value) if isinstance(value, (tuple, list)) else {value}
        return [o for o in control.options if o.name in picked]

    control._get, control._put = read, write
    control.chosen = chosen  # type: ignore[method-assign]


def build_controls(config: type, names: Any = None) -> dict[str, Control]:
    """One control per field of ``config`` declared with :func:`~privlab.studies.params.param`
    (``names``: only these), in field order."""
    hints = _hints(config)
    fields = declared(config)
    chosen = list(fields) if names is None else [n for n in fields if n in set(names)]
    return {name: control_for(name, fields[name], hints.get(name)) for name in chosen}


def redraw_fields(config: type) -> tuple[str, ...]:
    """The declared fields that are readings of a result, not settings of a run."""
    return tuple(name for name, p in declared(config).items() if p.redraw)


def link_availability(panel: Any) -> None:
    """Grey out, in every control whose field declares ``unavailable``, the choices the
    other settings rule out (with the reason), now and whenever a control changes."""
    linked = {name: control for name, control in panel.controls.items()
              if getattr(getattr(control, "declaration", None), "unavailable", None)
              and hasattr(control, "restrict")}
    if not linked:
        return

    def sync(_change: Any = None) -> None:
        settings = panel.values()
        for control in linked.values():
            rule = control.declaration.unavailable
            control.restrict(lambda option, rule=rule: rule(option, settings))

    for name, control in panel.controls.items():
        if name not in linked:
            control.observe(sync)
    sync()


def split_values(config: type, controls: Mapping[str, Control],
                 values: Mapping[str, Any]) -> tuple[dict, dict]:
    """``(params, fixed)``: parameter-cell values for the controls, and settings of the
    Config's other fields (no control; None keeps the study's own).

    Raises:
        PrivlabValueError: a name that is neither a control nor a field of ``config`` (an
            old setting name says its new one: ``RENAMED_SETTINGS``).
    """
    from privlab.errors import invalid
    from privlab.studies.params import refuse_renamed

    refuse_renamed(config, values, "study_panel")
    fields = {f.name for f in dataclasses.fields(config)}
    unknown = sorted(set(values) - fields - set(controls))
    if unknown:
        raise invalid(unknown[0], "study_panel", f"a field of {config.__qualname__} "
                      f"({sorted(fields)})", values[unknown[0]], "Check the spelling.")
    params = {k: v for k, v in values.items() if k in controls}
    fixed = {k: v for k, v in values.items() if k not in controls}
    return params, fixed


__all__ = ["as_option", "build_controls", "control_for", "field_kind", "link_availability",
           "options_of", "redraw_fields", "split_values"]
