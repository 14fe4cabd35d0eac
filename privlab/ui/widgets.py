"""Widgets built from the registries, so every notebook offers the same choices.

Each picker has a plain default, so a notebook runs top to bottom headless. The study
panels (:mod:`privlab.ui.panel`) use the richer controls of :mod:`privlab.ui.controls`,
which also say what each entry needs.
"""

from __future__ import annotations

from privlab.errors import invalid


def encoder_picker(value: str = "minilm", *, modality: str = "text", description: str = "Encoder",
                   include_online: bool = True):
    """A dropdown of registered encoders of one modality (offline ones first), each label
    saying what the entry needs (see :mod:`privlab.ui.choices`)."""
    import ipywidgets as w

    from privlab.encoders import registry
    from privlab.ui.choices import registry_options

    chosen = registry.names(modality=modality, offline=True)
    if include_online:
        chosen += registry.names(modality=modality, offline=False)
    options = [(o.label, o.name) for o in registry_options(registry, names=chosen)]
    options.sort(key=lambda pair: chosen.index(pair[1]))
    if value not in [name for _, name in options]:
        raise invalid("value", "encoder_picker", f"a registered {modality} encoder", value)
    return w.Dropdown(options=options, value=value, description=description,
                      style={"description_width": "initial"}, layout=w.Layout(width="520px"))


def sanitizer_picker(value: str, *, modality: str = "text", description: str = "Sanitizer"):
    """A dropdown of registered sanitizers of one modality, each label saying what the
    entry needs."""
    import ipywidgets as w

    from privlab.sanitizers import registry
    from privlab.ui.choices import registry_options

    chosen = registry.names(modality=modality)
    options = [(o.label, o.name) for o in registry_options(registry, names=chosen)]
    options.sort(key=lambda pair: chosen.index(pair[1]))
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
