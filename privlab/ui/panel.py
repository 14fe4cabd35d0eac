"""One interaction model for every study notebook: choose, press Run, read one output area.

A :class:`StudyPanel` shows labelled controls (from the registries and the study's
``Config`` fields), a **Run** button with a progress bar fed by :mod:`privlab.progress`,
and one output area where the headline, tables, plots and witnesses are redrawn together
(a part can be shown in a cell of its own, beside its reading guide, and is redrawn too);
:func:`study_panel` keeps one panel per study in the kernel, so choices survive Run All.
A choice that cannot run here says why and how to fix it; the old result stays, dimmed,
until the new one replaces it; the choices are recorded in the result's provenance.

See docs/methods/ui-panels.md.
"""

from __future__ import annotations

import contextlib
import dataclasses
import html
import importlib
import io
import sys
import time
from typing import Any, Callable, Mapping

from privlab.errors import invalid
from privlab.progress import Step, reporting
from privlab.ui.controls import Control
from privlab.ui.problems import Problem, explain, unready_problem
from privlab.ui.report import Report

_STYLE = ("<style>.privlab-stale{opacity:.38;transition:opacity .3s}"
          ".privlab-panel .widget-label{font-weight:500}</style>")

#: The panels of this kernel, by study (see :func:`study_panel`).
_PANELS: dict[str, "StudyPanel"] = {}

Render = Callable[[Report, Any, Mapping[str, Any]], None]


def _resolve(study: Any) -> tuple[str, Callable[[Any], Any], Any, str]:
    """``(slug, run, Config class, title)`` of a study slug, module or ``run`` function,
    or of a sub-study (:class:`privlab.studies.SubStudy`, or its ``"<parent>.<name>"``)."""
    from privlab.studies import STUDY_MODULES, SubStudy, sub_studies

    if isinstance(study, str) and "." in study:
        subs = sub_studies()
        if study not in subs:
            raise invalid("study", "StudyPanel", f"one of {list(STUDY_MODULES) + list(subs)}",
                          study)
        study = subs[study]
    if isinstance(study, SubStudy):
        return study.slug, study.run, study.Config, study.title
    if isinstance(study, str):
        if study not in STUDY_MODULES:
            raise invalid("study", "StudyPanel", f"one of {list(STUDY_MODULES)}", study)
        module = importlib.import_module(f"privlab.studies.{study}")
    elif callable(study) and hasattr(study, "__module__") and not hasattr(study, "run"):
        module = sys.modules[study.__module__]
    elif hasattr(study, "run") and hasattr(study, "Config"):
        module = study
    else:
        raise invalid("study", "StudyPanel", "a study slug, module or run function", study)
    run = study if callable(study) and not hasattr(study, "run") else module.run
    slug = module.__name__.rsplit(".", 1)[-1]
    return slug, run, module.Config, str(getattr(module, "STUDY", slug))


@contextlib.contextmanager
def _quiet(log: io.StringIO):
    """Keep what a study prints or displays while it runs (libraries' own progress bars,
    warnings) out of the page; the text goes to ``log``, shown folded under the result."""
    try:
        from IPython import get_ipython
        from IPython.utils.capture import capture_output
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        get_ipython = None
    if get_ipython is None or get_ipython() is None:
        with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
            yield
        return
    with capture_output(stdout=True, stderr=True, display=True) as captured:
        try:
            yield
        finally:
            log.write(captured.stdout + captured.stderr)
            for output in captured.outputs:  # a library's progress widget is dropped
                data = getattr(output, "data", {}) or {}
                if "application/vnd.jupyter.widget-view+json" not in data:
                    log.write(str(data.get("text/plain", "")) + "\n")


def _same(a: Any, b: Any) -> bool:
    """Whether two configs are equal (a config that cannot be compared is never equal)."""
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:  # fields whose comparison is ambiguous (arrays)
        return False


def with_choices(result: Any, choices: Mapping[str, Any]) -> tuple[Any, bool]:
    """A copy of ``result`` whose ``provenance["choices"]`` holds ``choices``.

    The copy replaces the field the provenance is read from (``provenance``, ``settings``,
    ``choices``, or a sub-study's ``run``); ``result`` itself is left as it was built.

    Args:
        result: a study's result (a dataclass).
        choices: the panel's values, by control name.

    Returns:
        ``(result or its copy, whether the choices are now in its provenance)``; a result
        none of these fields fits comes back unchanged, with False.

    Example:
        >>> from dataclasses import dataclass, field
        >>> @dataclass(frozen=True)
        ... class R:
        ...     provenance: dict = field(default_factory=dict)
        >>> r = R({"data": "x"})
        >>> copy, recorded = with_choices(r, {"encoder": "lexical"})
        >>> recorded, copy.provenance, r.provenance
        (True, {'data': 'x', 'choices': {'encoder': 'lexical'}}, {'data': 'x'})
    """
    choices = {k: (list(v) if isinstance(v, tuple) else v) for k, v in choices.items()}
    copy = _with_choices(result, choices)
    try:
        return copy, copy.provenance.get("choices") == choices
    except AttributeError:
        return result, False


def _with_choices(result: Any, choices: dict[str, Any]) -> Any:
    """``result`` with ``choices`` in the field its provenance is read from, if any."""
    if not dataclasses.is_dataclass(result) or isinstance(result, type):
        return result
    fields = {f.name for f in dataclasses.fields(result) if f.init}
    for name in ("provenance", "settings"):
        value = getattr(result, name, None)
        if name in fields and isinstance(value, dict):
            return dataclasses.replace(result, **{name: {**value, "choices": choices}})
    if "choices" in fields:
        return dataclasses.replace(result, choices=choices)
    if "run" in fields and dataclasses.is_dataclass(getattr(result, "run", None)):
        return dataclasses.replace(result, run=_with_choices(result.run, choices))
    return result


def quoted_figures(result: Any) -> dict[str, str]:
    """The figures the study's notebook prose quotes (``result.quoted_figures()``; none
    when the result defines no such method)."""
    method = getattr(result, "quoted_figures", None)
    return dict(method()) if callable(method) else {}


def default_render(report: Report, result: Any, options: Mapping[str, Any]) -> None:
    """The result's own display (``_repr_html_``), else its table: what a study without a
    renderer in :data:`privlab.ui.renderers.RENDERERS` shows."""
    show = getattr(result, "_repr_html_", None)
    if callable(show):
        report.html(show(), str(getattr(result, "to_frame", lambda: "")()))
    else:
        report.table(result.to_frame())


def study_render(slug: str) -> Render:
    """The renderer of study ``slug``: its entry in :data:`privlab.ui.renderers.RENDERERS`,
    else :func:`default_render` (the result's own display)."""
    from privlab.ui.renderers import RENDERERS

    return RENDERERS.get(slug, default_render)


class StudyPanel:
    """Controls, a Run button with progress, and one output area for one study.

    Args:
        study: the study's slug (``"quickstart"``), its module or its ``run`` function.
        controls: ``{name: Control}``. A name that is a field of the study's ``Config``
            sets that field; any other name is a display option passed to ``render``.
        render: ``render(report, result, options)`` fills the :class:`Report` (default:
            the result's table). The panel adds the headline above and the settings below.
        params: the notebook's parameter-cell values, by control name; None keeps the
            study's own setting in the active profile (privlab.config.profile).
        build: ``build(values, defaults) -> Config`` for a study whose fields are not set
            one-to-one from the controls (default: the defaults with the values replaced).
        hint: a line above the controls.
        fixed: Config settings from the parameter cell that have no control (None keeps
            the study's own); they are part of every run's defaults.
        config: the Config class when it is not the study module's ``Config`` (a run
            function such as ``dicaprio.run_ladder`` with its ``LadderConfig``).
        redraw: Config fields that are readings of the result, not settings of the run
            (passed to ``render`` with the display options; changing one redraws the
            result without running the study again).
    """

    def __init__(self, study: Any, controls: Mapping[str, Control], render: Render | None = None,
                 *, params: Mapping[str, Any] | None = None,
                 build: Callable[[dict, Any], Any] | None = None, hint: str | None = None,
                 fixed: Mapping[str, Any] | None = None, config: type | None = None,
                 redraw: Any = ()):
        import ipywidgets as w

        self.slug, self.run_study, self.Config, self.title = _resolve(study)
        if config is not None:
            self.Config = config
        self._after_run: dict[str, Callable[["StudyPanel"], None]] = {}
        self.controls = dict(controls)
        for name, control in self.controls.items():
            if not isinstance(control, Control):
                raise invalid(name, "StudyPanel", "a privlab.ui.controls Control", control)
            control.bind(name)
        self.fields = {f.name for f in dataclasses.fields(self.Config)}
        self.redraw = set(redraw) & self.fields
        self.fixed = {k: v for k, v in (fixed or {}).items() if v is not None}
        unknown = sorted(set(self.fixed) - self.fields)
        if unknown:
            raise invalid(unknown[0], "StudyPanel fixed", f"a field of {self.Config.__qualname__}",
                          self.fixed[unknown[0]])
        self.render_result = render or default_render
        self.build = build
        self.result: Any = None
        #: The last good result while a failed run's message is shown (kept, dimmed, below it).
        self.previous_result: Any = None
        self._shown: tuple[dict, ...] = ()
        #: The last run's report and the output areas of its parts shown elsewhere (part()).
        self._report: Report | None = None
        self._parts: dict[str, Any] = {}
        self.config_used: Any = None
        self.problem: Problem | None = None
        self.choices: dict[str, Any] = {}
        self.seconds = 0.0
        self.runs = 0
        self._params: dict[str, Any] = {}
        self._last_step = 0.0
        self._started = 0.0
        self.apply_params(params or {}, initial=True)

        self.button = w.Button(description="Run", button_style="primary", icon="play",
                               tooltip="Run the study with these choices",
                               layout=w.Layout(width="9em"))
        self.bar = w.FloatProgress(value=0.0, min=0.0, max=1.0, bar_style="info",
                                   layout=w.Layout(width="16em", visibility="hidden"))
        self.status = w.HTML(value="")
        self.needs = w.HTML(value="")
        self.output = w.Output(layout=w.Layout(min_height="2em"))
        self.output.add_class("privlab-output")
        self.button.on_click(lambda _button: self.run())
        for control in self.controls.values():
            control.observe(self._changed)
        hint = hint if hint is not None else (
            "Change any choice, then press <b>Run</b>: the results below are redrawn together.")
        rows = [w.HTML(_STYLE), w.HTML(f"<div style='color:#555;margin:.2em 0 .4em'>{hint}</div>")]
        rows += [c.widget for c in self.controls.values()]
        rows += [self.needs,
                 w.HBox([self.button, self.bar, self.status],
                        layout=w.Layout(align_items="center", margin=".4em 0")),
                 self.output]
        self.widget = w.VBox(rows)
        self.widget.add_class("privlab-panel")
        self._update_needs()

    # ----------------------------------------------------------------- settings
    def apply_params(self, params: Mapping[str, Any], *, initial: bool = False) -> None:
        """Set the controls from parameter-cell values.

        On the first call every control is set (a None parameter takes the study's own
        setting); afterwards only parameters whose value changed since the previous call
        are applied, so choices made in the widgets survive Run All.
        """
        params = dict(params)
        unknown = sorted(set(params) - set(self.controls))
        if unknown:
            raise invalid(unknown[0], "StudyPanel params", f"one of the controls "
                          f"{sorted(self.controls)}", params[unknown[0]])
        given = {k: v for k, v in params.items() if k in self.fields and v is not None}
        defaults = self.Config.for_notebook(**{**self.fixed, **given})
        for name, control in self.controls.items():
            if not initial and name in params and params[name] == self._params.get(name):
                continue
            if not initial and name not in params:
                continue
            value = params.get(name)
            if value is None:
                value = getattr(defaults, name) if name in self.fields else control.default
            if value is not None or name in self.fields:
                control.set(value)
        self._params = params

    def values(self) -> dict[str, Any]:
        """Every control's current setting value, by name."""
        return {name: control.value for name, control in self.controls.items()}

    def options(self, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The display options (controls that are not Config fields)."""
        values = self.values() if values is None else values
        return {k: v for k, v in values.items() if k not in self.fields or k in self.redraw}

    def config(self, values: Mapping[str, Any] | None = None) -> Any:
        """The study's Config for the controls' values (or ``values``)."""
        values = self.values() if values is None else dict(values)
        fields = {k: v for k, v in values.items() if k in self.fields}
        defaults = self.Config.for_notebook(**self.fixed)
        if self.build is not None:
            return self.build(fields, defaults)
        return dataclasses.replace(defaults, **fields)

    def chosen(self) -> list:
        """The options chosen in every control, their readiness checked again."""
        return [o.refresh() for c in self.controls.values() for o in c.chosen()]

    # ----------------------------------------------------------------- running
    def run(self) -> Any:
        """Run the study with the current choices and redraw the output area.

        When only display options changed since the last result (a control that is not a
        Config field, such as the resolution to read), the result is redrawn, not
        recomputed.

        Returns:
            The result, or None when a choice cannot run here or the run failed (the
            output area then shows why and how to fix it).
        """
        values = self.values()
        chosen = self.chosen()
        self._begin()
        report = Report()
        problem = unready_problem(chosen)
        result = None
        log = io.StringIO()
        try:
            if problem is None:
                try:
                    config = self.config(values)
                    with reporting(self._step), _quiet(log):
                        options = self.options(values)
                        if (self.result is not None and self._same_run(config)
                                and options != self.options(self.choices)):
                            result = self.result  # only a display option changed: redraw
                        else:
                            result = self.run_study(config)
                        result, _ = with_choices(result, values)
                        # The demo profile's smaller settings are named beside the number.
                        caveat = getattr(config, "settings_caveat", lambda: None)()
                        report.headline(result.headline().with_caveat(caveat)
                                        .with_figures(quoted_figures(result)))
                        self.render_result(report, result, options)
                    self.config_used = config
                except Exception as exc:
                    problem = explain(exc, chosen)
            if problem is not None:
                report = Report()
                report.problem(problem)
                if self._shown:   # the last good result stays in view, dimmed, under the message
                    report.previous(self._shown, self.choices)
                result = None
            else:
                report.part("")   # the messages and settings stay in the panel's own area
                printed = log.getvalue().strip()
                if printed:
                    report.details("Messages printed while running",
                                   f"<pre style='font-size:85%;white-space:pre-wrap'>"
                                   f"{html.escape(printed[-20000:])}</pre>")
                report.settings(values)
            if problem is None:
                self.choices, self._shown = values, report.outputs()
            else:
                self.previous_result = self.result or self.previous_result
            self.problem, self.result, self._report = problem, result, report
            self._draw()
        finally:
            self._end()
        for callback in list(self._after_run.values()):
            callback(self)
        return result

    def _same_run(self, config: Any) -> bool:
        """Whether ``config`` asks for the run that made the shown result (the fields in
        :attr:`redraw` set aside)."""
        used = self.config_used
        if not self.redraw or used is None or type(used) is not type(config):
            return _same(config, used)
        try:
            return all(bool(getattr(config, f.name) == getattr(used, f.name))
                       for f in dataclasses.fields(config) if f.name not in self.redraw)
        except Exception:  # fields whose comparison is ambiguous (arrays)
            return False

    def after_run(self, key: str, callback: Callable[["StudyPanel"], None]) -> None:
        """Call ``callback(self)`` after every run (one callback per ``key``: registering
        the same key again, as Run All does, replaces it)."""
        self._after_run[key] = callback

    def part(self, name: str) -> Any:
        """An output area that shows part ``name`` of the result, redrawn on every run.

        Displayed in a cell of its own, it puts one table or figure beside the reading guide
        that says how to read it; the panel's own output area keeps the headline and the
        other parts, with a line where this one moved out. After a run that shows a message
        instead of a result, or a run that drew no such part (a study's image part when
        only text ran), it says so.

        Args:
            name: a part the study's renderer names (``Report.part``), e.g. ``"curve"``.

        Returns:
            The part's ``ipywidgets.Output`` (the same one on every call).
        """
        import ipywidgets as w

        if name not in self._parts:
            self._parts[name] = w.Output(layout=w.Layout(min_height="1.5em"))
            self._parts[name].add_class("privlab-part")
        self._draw()
        return self._parts[name]

    def _draw(self) -> None:
        """Fill the output area and each part's from the last run's report."""
        if self._report is None:
            return
        kept, parts = self._report.split(self._parts)
        self.output.outputs = kept
        for name, area in self._parts.items():
            note = Report()
            note.text(f"No part named {name!r} in this run (it draws {self._report.parts()}): "
                      "see the panel's output above."
                      if self.problem is None else
                      "This run shows a message instead of a result: see the panel above.")
            area.outputs = parts.get(name) or note.outputs()

    def mark_stale(self, message: str) -> None:
        """Dim the output area and say why under the Run button (until the next run):
        what a panel computed from another panel's result shows when that one ran again."""
        self.output.add_class("privlab-stale")
        self.status.value = f"<span style='color:#b35806'>{html.escape(message)}</span>"

    def show(self) -> None:
        """Display the panel, then run it with the current choices (what Run All does)."""
        from IPython.display import display

        display(self)
        self.run()

    @property
    def provenance(self) -> dict[str, Any]:
        """The last result's provenance with the choices it was made with."""
        base = dict(getattr(self.result, "provenance", {}) or {})
        return {**base, "choices": dict(self.choices)}

    # ----------------------------------------------------------------- feedback
    def _begin(self) -> None:
        self._started = self._last_step = time.monotonic()
        self.button.disabled = True
        self.button.description, self.button.icon = "Running…", "hourglass-half"
        self.bar.value, self.bar.bar_style = 0.0, "info"
        self.bar.layout.visibility = "visible"
        self.status.value = "<span style='color:#555'>Running… the results below are the " \
                            "previous ones until this run finishes.</span>"
        for area in (self.output, *self._parts.values()):
            area.add_class("privlab-stale")

    def _step(self, step: Step) -> None:
        now = time.monotonic()
        if now - self._last_step < 0.1 and step.done < step.total:
            return
        self._last_step = now
        self.bar.value = step.fraction
        self.status.value = (f"<span style='color:#555'>{html.escape(step.label())} · "
                             f"{now - self._started:.0f} s</span>")

    def _end(self) -> None:
        self.seconds = time.monotonic() - self._started
        self.runs += 1
        for area in (self.output, *self._parts.values()):
            area.remove_class("privlab-stale")
        self.button.disabled = False
        self.button.description, self.button.icon = "Run", "play"
        self.bar.value = 1.0
        self.bar.layout.visibility = "hidden"
        if self.problem is None:
            self.status.value = (f"<span style='color:#1a7837'>✓ done in {self.seconds:.1f} s"
                                 "</span>")
        else:
            self.status.value = (f"<span style='color:#b2182b'>✗ {html.escape(self.problem.title)}"
                                 "</span>")

    def _changed(self, _change: Any = None) -> None:
        self._update_needs()
        if self.runs:
            self.status.value = ("<span style='color:#b35806'>Choices changed: press Run to "
                                 "update the results below.</span>")

    def _update_needs(self) -> None:
        lines = []
        for option in self.chosen():
            if not option.needs:
                continue
            colour = "#b2182b" if not option.ready else "#555"
            state = "" if option.ready else " — not available here: press Run for the fix"
            lines.append(f"<li style='color:{colour}'><b>{html.escape(str(option.name))}</b> "
                         f"{html.escape(option.needs)}{state}</li>")
        self.needs.value = (f"<ul style='margin:.2em 0 .2em 1.2em;padding:0'>{''.join(lines)}</ul>"
                            if lines else "")

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


def _signature(controls: Mapping[str, Control]) -> tuple:
    return tuple((name, type(c.widget).__name__, tuple(str(o.name) for o in c.options))
                 for name, c in controls.items())


def study_panel(study: Any, controls: Mapping[str, Control] | None = None,
                render: Render | None = None, *, params: Mapping[str, Any] | None = None,
                build: Callable[[dict, Any], Any] | None = None, key: str | None = None,
                hint: str | None = None, fixed: Mapping[str, Any] | None = None,
                config: type | None = None, follow: StudyPanel | None = None,
                **values: Any) -> StudyPanel:
    """The panel of ``study`` in this kernel: made on the first call, the same one after.

    Run All hands back the existing panel with its choices and applies only the
    parameter-cell values that changed; a panel whose controls changed is made anew.
    Sub-studies and the rest: docs/methods/ui-panels.md.

    Args:
        study, controls, render, params, build, hint, fixed, config: as for
            :class:`StudyPanel` (no ``controls``: built from the ``Config`` fields; no
            ``render``: :func:`study_render`).
        key: tells apart two panels of one study in one kernel (default: the study).
        follow: the parent study's panel, for a sub-study (``"dicaprio.ladder"``).
        values: the parameter cell's values, by control or Config field name (None: the
            study's own setting in the active profile).

    Returns:
        The :class:`StudyPanel`.

    Raises:
        PrivlabValueError: an unknown study, ``follow`` for a study with no parent
            fields, or keyword values with hand-made controls.
    """
    slug, _run, study_config, _title = _resolve(study)
    config_class = config or study_config
    key = key or slug
    redraw: tuple[str, ...] = ()
    generic = controls is None
    inherited: tuple[str, ...] = tuple(getattr(config_class, "parent_fields", ()))
    if follow is not None:
        if not isinstance(follow, StudyPanel) or not inherited:
            raise invalid("follow", "study_panel", "the parent study's panel, for a sub-study "
                          "whose Config declares parent_fields", follow)
        hint = hint if hint is not None else (
            f"This runs on the settings of {html.escape(follow.title)} above (its last run). "
            "Change these choices, then press <b>Run</b>.")
    if generic:
        from privlab.studies.params import declared
        from privlab.ui.generic import build_controls, redraw_fields, split_values

        own = [n for n in declared(config_class) if follow is None or n not in inherited]
        controls = build_controls(config_class, own)
        redraw = redraw_fields(config_class)
        given, extra_fixed = split_values(config_class, controls, values)
        params = {**(params or {}), **given}
        fixed = {**(fixed or {}), **extra_fixed}
        render = render or study_render(slug)
        # A study may say in one line what its settings cost (its module's PANEL_HINT).
        hint = hint if hint is not None else getattr(sys.modules.get(_run.__module__),
                                                     "PANEL_HINT", None)
    elif values:
        raise invalid(sorted(values)[0], "study_panel", "no keyword values with hand-made "
                      "controls", values[sorted(values)[0]], "Pass them as params={...}.")
    if follow is not None and build is None:
        build = _following(follow, config_class, fixed or {})
    panel = _PANELS.get(key)
    if panel is not None and _signature(panel.controls) == _signature(controls):
        panel.render_result = render or default_render  # the newest code draws
        panel.build = build
        panel.fixed = {k: v for k, v in (fixed or {}).items() if v is not None}
        panel.apply_params(params or {})
    else:
        panel = StudyPanel(study, controls, render, params=params, build=build, hint=hint,
                           fixed=fixed, config=config, redraw=redraw)
        if generic:
            from privlab.ui.generic import link_availability

            link_availability(panel)
        _PANELS[key] = panel
    if follow is not None:
        _mark_when_parent_changes(follow, panel, inherited)
    return panel


def _following(parent: StudyPanel, config: type,
               fixed: Mapping[str, Any]) -> Callable[[dict, Any], Any]:
    """A sub-study panel's ``build``: its Config on the parent panel's last settings (its
    current choices before its first run), with the sub-study's own settings (``fixed``,
    then its controls' values)."""
    own = {k: v for k, v in fixed.items() if v is not None}

    def build(values: dict, defaults: Any) -> Any:
        base = parent.config_used if parent.config_used is not None else parent.config()
        return config.like(base, **{**own, **values})

    return build


def _mark_when_parent_changes(parent: StudyPanel, panel: StudyPanel,
                              inherited: tuple[str, ...]) -> None:
    """Dim ``panel`` with a note when ``parent`` runs on other settings than the ones its
    shown result used (one callback per sub-panel: Run All replaces it)."""
    def check(source: StudyPanel) -> None:
        used = panel.config_used
        if used is None or source.config_used is None:
            return
        if not all(_same_value(getattr(source.config_used, n), getattr(used, n))
                   for n in inherited):
            panel.mark_stale(f"{source.title} ran on other settings: press Run to run "
                             "this on them (below: the result on the previous ones).")

    parent.after_run(f"follow:{panel.slug}", check)


def _same_value(a: Any, b: Any) -> bool:
    """Whether two settings are equal (values that cannot be compared: the same object)."""
    try:
        return bool(a == b)
    except Exception:  # e.g. galleries holding arrays
        return a is b


def forget_panels() -> None:
    """Drop every kept panel (the next :func:`study_panel` call makes a new one)."""
    _PANELS.clear()


__all__ = ["StudyPanel", "default_render", "forget_panels", "quoted_figures", "study_panel",
           "study_render", "with_choices"]
