"""Widgets built from the registries, so every notebook offers the same choices.

Each picker has a plain default, so a notebook runs top to bottom headless; the
:class:`StudyPanel` re-runs a study when the user presses its button.
"""

from __future__ import annotations

from typing import Any, Callable

from privlab.errors import invalid


def encoder_picker(value: str = "minilm", *, modality: str = "text", description: str = "Encoder",
                   include_online: bool = True):
    """A dropdown of registered encoders of one modality (offline ones first)."""
    import ipywidgets as w

    from privlab.encoders import registry

    options = registry.options(modality=modality, offline=True)
    if include_online:
        options += [(label + " [needs download]", name)
                    for label, name in registry.options(modality=modality, offline=False)]
    if value not in [name for _, name in options]:
        raise invalid("value", "encoder_picker", f"a registered {modality} encoder", value)
    return w.Dropdown(options=options, value=value, description=description,
                      style={"description_width": "initial"}, layout=w.Layout(width="520px"))


def sanitizer_picker(value: str, *, modality: str = "text", description: str = "Sanitizer"):
    """A dropdown of registered sanitizers of one modality."""
    import ipywidgets as w

    from privlab.sanitizers import registry

    options = registry.options(modality=modality)
    if value not in [name for _, name in options]:
        raise invalid("value", "sanitizer_picker", f"a registered {modality} sanitizer", value)
    return w.Dropdown(options=options, value=value, description=description,
                      style={"description_width": "initial"}, layout=w.Layout(width="520px"))


def concept_editor(concepts, *, description: str = "Concepts"):
    """A text area holding one concept (word or phrase) per line."""
    import ipywidgets as w

    return w.Textarea(value="\n".join(concepts), description=description, rows=6,
                      layout=w.Layout(width="520px"), style={"description_width": "initial"})


def parse_concepts(text: str) -> tuple[str, ...]:
    """Concepts from a :func:`concept_editor` value: one per line, blanks dropped.

    Example:
        >>> parse_concepts("Einstein\\n\\n  relativity \\n")
        ('Einstein', 'relativity')
    """
    return tuple(line.strip() for line in text.splitlines() if line.strip())


class StudyPanel:
    """Controls, a Run button and an output area that re-renders a study.

    Args:
        controls: ``{name: widget}``; their values are passed to ``build`` by name.
        build: ``build(**values) -> config``.
        run: ``run(config) -> result``.
        render: ``render(result)`` displays the result (called inside the output area).
    """

    def __init__(self, controls: dict[str, Any], build: Callable[..., Any],
                 run: Callable[[Any], Any], render: Callable[[Any], None]):
        import ipywidgets as w

        self.controls = controls
        self.build = build
        self.run_study = run
        self.render = render
        self.button = w.Button(description="Run", button_style="primary", icon="play")
        self.output = w.Output()
        self.button.on_click(self._clicked)
        self.widget = w.VBox([*controls.values(), self.button, self.output])
        self.result = None

    def values(self) -> dict[str, Any]:
        """The controls' current values, by name."""
        return {name: widget.value for name, widget in self.controls.items()}

    def run(self):
        """Build the config from the controls, run the study and render it."""
        self.output.clear_output()
        with self.output:
            self.result = self.run_study(self.build(**self.values()))
            self.render(self.result)
        return self.result

    def _clicked(self, _button) -> None:
        self.button.disabled = True
        try:
            self.run()
        finally:
            self.button.disabled = False

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)
