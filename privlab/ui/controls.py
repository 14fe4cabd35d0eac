"""Labelled controls for a :class:`~privlab.ui.panel.StudyPanel`, built from the registries.

Each factory returns a :class:`Control`: one widget, the setting value it stands for, and
the :class:`~privlab.ui.choices.Option` objects currently chosen (so the panel can say
what a choice needs before it runs). A panel binds each control to a ``Config`` field
(or to a display option) by the name it is given::

    StudyPanel("quickstart", {"encoders": encoder(as_tuple=True),
                              "weak_concepts": phrases("Weak list"),
                              "strong_concepts": phrases("Strong list")})
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from privlab.errors import invalid
from privlab.ui.choices import Option, as_options, registry_options

#: Width of every control's label column, so the controls line up.
LABEL_WIDTH = "11em"


def _layout(width: str = "min(48em, 96%)"):
    import ipywidgets as w

    return w.Layout(width=width)


def _style() -> dict:
    return {"description_width": LABEL_WIDTH}


def humanise(name: str) -> str:
    """A setting's name as a control label.

    Example:
        >>> humanise("weak_concepts"), humanise("max_side")
        ('Weak concepts', 'Max side')
    """
    text = name.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


class Control:
    """One labelled widget standing for one setting.

    Args:
        widget: what is displayed.
        get: reads the setting value from the widget.
        put: sets the widget from a setting value.
        options: the options offered, for controls that choose among them.
        label: the label (set from the setting's name when the panel binds it, if empty).
        describe: sets the label on the widget.
        watch: the widgets whose ``value`` changes mean the setting changed.
    """

    def __init__(self, widget: Any, get: Callable[[], Any], put: Callable[[Any], None], *,
                 options: Sequence[Option] = (), label: str = "",
                 describe: Callable[[str], None] | None = None,
                 watch: Iterable[Any] | None = None, value: Any = None):
        self.widget = widget
        self._get, self._put = get, put
        self.options = list(options)
        self.label = label
        self._describe = describe
        self._watch = list(watch) if watch is not None else [widget]
        self.default = value

    @property
    def value(self) -> Any:
        """The setting value the widget shows now."""
        return self._get()

    def set(self, value: Any) -> None:
        """Show ``value`` in the widget."""
        self._put(value)

    def bind(self, name: str) -> None:
        """Label the control after the setting ``name`` unless it has a label already."""
        if not self.label:
            self.label = humanise(name)
        if self._describe is not None:
            self._describe(self.label)

    def chosen(self) -> list[Option]:
        """The options currently chosen (empty for a control without options)."""
        if not self.options:
            return []
        value = self.value
        picked = set(value) if isinstance(value, (tuple, list)) else {value}
        return [o for o in self.options if o.name in picked]

    def observe(self, callback: Callable[[Any], None]) -> None:
        """Call ``callback(change)`` whenever the setting changes."""
        for widget in self._watch:
            widget.observe(callback, names="value")


# --------------------------------------------------------------------------- choosing
def choice(options: Iterable[Any], *, label: str = "", value: Any = None,
           buttons: bool = False, as_tuple: bool = False, none: Any = None) -> Control:
    """Pick one of ``options`` (a dropdown, or toggle buttons for a few short ones).

    Args:
        options: :class:`Option` objects, plain values or ``(label, value)`` pairs.
        label: the label (default: from the setting's name).
        value: the first value (default: the setting's value in the study's Config).
        buttons: toggle buttons instead of a dropdown.
        as_tuple: the setting is a tuple of one (``encoders=("minilm",)``): the control
            reads and writes ``(name,)`` and shows the first name of a longer tuple.
        none: the option that stands for the setting None ("chosen by the study").

    A value outside the options (a model folder typed in a parameter cell) is added as
    an option of its own, marked "(given)".

    Example:
        >>> c = choice(["9", "49"], buttons=True)
        >>> c.set("49"); c.value
        '49'
    """
    import ipywidgets as w

    opts = as_options(options)
    if not opts:
        raise invalid("options", "choice", "at least one option", options)
    def shown(o: Option) -> str:  # a button carries its short description, if any
        return (o.description or str(o.name)) if buttons else o.label

    widget = (w.ToggleButtons(options=[(shown(o), o.name) for o in opts],
                              style={**_style(), "button_width": "auto"},
                              tooltips=[o.label for o in opts])
              if buttons else
              w.Dropdown(options=[(o.label, o.name) for o in opts], style=_style(),
                         layout=_layout()))
    control: Control

    def put(v: Any) -> None:
        if as_tuple and isinstance(v, (tuple, list)):
            v = v[0] if v else opts[0].name
        if v is None and none is not None:
            v = none
        if v not in [o.name for o in control.options]:
            control.options.append(Option(v, "(given)"))
            widget.options = [(shown(o), o.name) for o in control.options]
        widget.value = v

    def describe(text: str) -> None:
        widget.description = text

    def get() -> Any:
        if none is not None and widget.value == none:
            return None
        return (widget.value,) if as_tuple else widget.value

    control = Control(widget, get, put, options=opts, label=label, describe=describe,
                      value=value)
    if label:
        describe(label)
    return control


def choices(options: Iterable[Any], *, label: str = "", value: Sequence[Any] | None = None,
            columns: int = 1) -> Control:
    """Tick any number of ``options`` (one checkbox each, its need in its label).

    The setting value is the tuple of ticked names: those given to :meth:`Control.set` in
    their order, then any ticked since, in the options' order.

    Example:
        >>> c = choices(["identity", "regex-pii", "presidio"])
        >>> c.set(("presidio", "identity")); c.value
        ('presidio', 'identity')
        >>> c.boxes[1].value = True; c.value
        ('presidio', 'identity', 'regex-pii')
    """
    import ipywidgets as w

    opts = as_options(options)
    boxes = [w.Checkbox(value=False, description=o.label, indent=False,
                        layout=w.Layout(width="auto", margin="0 1.2em 0 0"),
                        style={"description_width": "initial"}) for o in opts]
    title = w.Label(value=label, layout=w.Layout(width=LABEL_WIDTH, min_width=LABEL_WIDTH))
    note = w.HTML(value="")
    grid = (w.GridBox(boxes, layout=w.Layout(grid_template_columns=f"repeat({columns}, auto)"))
            if columns > 1 else w.VBox(boxes))
    widget = w.HBox([title, w.VBox([grid, note])])

    order: list[Any] = []  # the order the setting was given in, kept for what stays ticked

    def get() -> tuple:
        ticked = [o.name for o, b in zip(opts, boxes) if b.value]
        return tuple([v for v in order if v in ticked] + [v for v in ticked if v not in order])

    def put(values: Any) -> None:
        values = [values] if isinstance(values, str) else list(values or ())
        unknown = [v for v in values if v not in [o.name for o in opts]]
        if unknown:
            raise invalid("value", "choices", f"names among {[o.name for o in opts]}",
                          unknown[0])
        order[:] = values
        for o, b in zip(opts, boxes):
            b.value = o.name in values

    def describe(text: str) -> None:
        title.value = text

    def restrict(reason: Callable[[Any], str | None] | None) -> None:
        """Untick and grey out the options ``reason`` gives a reason for, and say why."""
        why = set()
        for o, b in zip(opts, boxes):
            text = reason(o.name) if reason is not None else None
            b.disabled = bool(text)
            if text:
                b.value = False
                why.add(text)
        note.value = (f"<i style='color:#555'>Greyed out: {'; '.join(sorted(why))}.</i>"
                      if why else "")

    control = Control(widget, get, put, options=opts, label=label, describe=describe,
                      watch=boxes, value=value)
    control.restrict = restrict  # type: ignore[attr-defined]
    control.boxes = boxes  # type: ignore[attr-defined]
    if label:
        describe(label)
    return control


def registry_choice(registry: Any, *, many: bool = False, label: str = "",
                    online: bool = True, names: Iterable[str] | None = None,
                    extra: Iterable[Any] = (), value: Any = None, as_tuple: bool = False,
                    **filters: Any) -> Control:
    """Members of a registry, each marked with what it needs (see :mod:`privlab.ui.choices`).

    Args:
        registry: a :class:`privlab.registry.Registry`.
        many: tick several (checkboxes) instead of picking one (a dropdown).
        label: the label.
        online: also offer members fetched on first use.
        names: only these members, in this order.
        extra: options put before the registry's (e.g. a study's own spec).
        value: the first value (default: the Config's).
        as_tuple: with ``many=False``, the setting is a tuple of one name.
        filters: metadata filters (``modality="text"``).
    """
    options = as_options(extra) + registry_options(registry, names=names, online=online,
                                                   **filters)
    return (choices(options, label=label, value=value) if many
            else choice(options, label=label, value=value, as_tuple=as_tuple))


def encoder(modality: str = "text", *, many: bool = False, online: bool = True,
            label: str = "", value: Any = None, as_tuple: bool = False) -> Control:
    """Encoders (distance mechanisms) of one modality, offline and ready ones first.

    Example:
        >>> c = encoder()
        >>> c.options[0].name, any(o.kind == "download" for o in c.options)
        ('minilm', True)
    """
    from privlab.encoders import registry

    return registry_choice(registry, many=many, online=online, modality=modality,
                           label=label or ("Encoders" if many else "Encoder"), value=value,
                           as_tuple=as_tuple)


def sanitizer(modality: str = "text", *, many: bool = True, extra: Iterable[Any] = (),
              label: str = "", value: Any = None) -> Control:
    """Sanitizers of one modality (``extra``: study-specific specs put first)."""
    from privlab.sanitizers import registry

    return registry_choice(registry, many=many, modality=modality, extra=extra,
                           label=label or ("Sanitizers" if many else "Sanitizer"), value=value)


# --------------------------------------------------------------------------- typing in
def phrases(label: str = "", *, rows: int = 6, value: Sequence[str] | None = None) -> Control:
    """A text area with one word or phrase per line; the value is a tuple of them.

    Example:
        >>> c = phrases()
        >>> c.set(("Ken Lay", "Enron")); c.widget.value
        'Ken Lay\\nEnron'
        >>> c.widget.value = "Ken Lay\\n\\n  CEO "; c.value
        ('Ken Lay', 'CEO')
    """
    import ipywidgets as w

    widget = w.Textarea(rows=rows, style=_style(), layout=_layout())

    def put(v: Any) -> None:
        widget.value = "\n".join(v or ())

    def describe(text: str) -> None:
        widget.description = text

    get = lambda: tuple(line.strip() for line in widget.value.splitlines() if line.strip())  # noqa: E731
    control = Control(widget, get, put, label=label, describe=describe, value=value)
    if label:
        describe(label)
    return control


def text(label: str = "", *, placeholder: str = "", empty: Any = None,
         value: Any = None) -> Control:
    """A one-line text box; an empty box stands for ``empty`` (None: the study's default).

    Example:
        >>> c = text(placeholder="a folder")
        >>> c.set(None); c.value is None, c.widget.value
        (True, '')
    """
    import ipywidgets as w

    widget = w.Text(placeholder=placeholder, style=_style(), layout=_layout())

    def put(v: Any) -> None:
        widget.value = "" if v is None or v == empty else str(v)

    def describe(text: str) -> None:
        widget.description = text

    control = Control(widget, lambda: widget.value.strip() or empty, put, label=label,
                      describe=describe, value=value)
    if label:
        describe(label)
    return control


def integer(label: str = "", *, minimum: int = 0, maximum: int = 1_000_000,
            zero_means_none: bool = False, value: Any = None) -> Control:
    """A whole number; with ``zero_means_none`` 0 stands for None ("all", "the default").

    Example:
        >>> c = integer(zero_means_none=True)
        >>> c.set(None); c.widget.value, c.value
        (0, None)
    """
    import ipywidgets as w

    widget = w.BoundedIntText(min=minimum, max=maximum, style=_style(),
                              layout=_layout("min(24em, 96%)"))

    def put(v: Any) -> None:
        widget.value = 0 if v is None else int(v)

    def get() -> Any:
        return None if zero_means_none and widget.value == 0 else int(widget.value)

    def describe(text: str) -> None:
        widget.description = text

    control = Control(widget, get, put, label=label, describe=describe, value=value)
    if label:
        describe(label)
    return control


def number(label: str = "", *, minimum: float = 0.0, maximum: float = 1.0, step: float = 0.01,
           log: bool = False, value: Any = None) -> Control:
    """A number on a slider (``log``: a logarithmic slider between the two bounds).

    Example:
        >>> c = number(maximum=0.5)
        >>> c.set(0.13); c.value
        0.13
    """
    import math

    import ipywidgets as w

    if log:
        widget = w.FloatLogSlider(base=10, min=math.log10(minimum), max=math.log10(maximum),
                                  step=0.1, style=_style(), layout=_layout("min(36em, 96%)"))
    else:
        widget = w.FloatSlider(min=minimum, max=maximum, step=step, style=_style(),
                               layout=_layout("min(36em, 96%)"), readout_format=".2f")

    def put(v: Any) -> None:
        widget.value = float(v)

    def describe(text: str) -> None:
        widget.description = text

    control = Control(widget, lambda: float(widget.value), put, label=label, describe=describe,
                      value=value)
    if label:
        describe(label)
    return control


def flag(label: str = "", *, value: Any = None) -> Control:
    """A checkbox.

    Example:
        >>> c = flag("placebo control")
        >>> c.set(True); c.value
        True
    """
    import ipywidgets as w

    widget = w.Checkbox(indent=True, style=_style(), layout=_layout("auto"))

    def describe(text: str) -> None:
        widget.description = text

    control = Control(widget, lambda: bool(widget.value),
                      lambda v: setattr(widget, "value", bool(v)), label=label,
                      describe=describe, value=value)
    if label:
        describe(label)
    return control


__all__ = ["Control", "LABEL_WIDTH", "choice", "choices", "encoder", "flag", "humanise",
           "integer", "number", "phrases", "registry_choice", "sanitizer", "text"]
