"""Interactive panels of the study notebooks: controls, a Run button, the rendered result.

Each panel builds its study's ``Config`` from widget values and calls the study's ``run``;
the studies themselves know nothing of widgets.
"""

from __future__ import annotations

from typing import Any, Sequence

from privlab.studies.contract import StudyConfig
from privlab.ui.widgets import StudyPanel, concept_editor, encoder_picker, parse_concepts


# --------------------------------------------------------------------------- 00 quickstart
def render_quickstart(result: Any) -> None:
    """Display the quickstart's summary table and both decisive witnesses."""
    from IPython.display import Markdown, display

    display(result.to_frame())
    for label in result.audits:
        display(Markdown(f"**Decisive witness, {label} list**"))
        display(result.witness_frame(label))


def quickstart_config(encoder: str, weak: str, strong: str):
    """A quickstart ``Config`` from widget values (concept lists as one-per-line text).

    Example:
        >>> quickstart_config("lexical", "Einstein", "Einstein\\nrelativity").strong_concepts
        ('Einstein', 'relativity')
    """
    from privlab.studies.quickstart import Config

    return Config.default(encoder=encoder, weak_concepts=parse_concepts(weak),
                          strong_concepts=parse_concepts(strong))


def quickstart_panel(config: Any = None) -> StudyPanel:
    """Pick the encoder, edit both concept lists, press Run."""
    from privlab.studies import quickstart

    config = config or quickstart.Config.for_notebook()
    controls = {"encoder": encoder_picker(config.encoder, include_online=False),
                "weak": concept_editor(config.weak_concepts, description="Weak list"),
                "strong": concept_editor(config.strong_concepts, description="Strong list")}
    return StudyPanel(controls, quickstart_config, quickstart.run, render_quickstart)


# --------------------------------------------------------------------------- text studies
def text_sanitizer_options() -> list[str]:
    """Sanitizer specs a text-study widget offers: the broad concept list plus every text sanitizer.

    Example:
        >>> text_sanitizer_options()[:2]
        ['concept-list-broad', 'identity']
    """
    from privlab.sanitizers import registry

    return ["concept-list-broad"] + registry.names(modality="text")


def avengers_panel(config: Any = None) -> StudyPanel:
    """Study 03: encoder, proxy size and sanitizers; press Run."""
    import ipywidgets as w
    from IPython.display import display

    from privlab.studies import avengers

    config = config or avengers.Config.for_notebook()
    controls = {
        "encoder": encoder_picker(config.encoders[0], include_online=False),
        "proxy": w.ToggleButtons(options=["9", "49"], value=config.proxy, description="Proxy set"),
        "sanitizers": w.SelectMultiple(options=text_sanitizer_options(),
                                       value=tuple(config.sanitizers),
                                       description="Sanitizers", rows=7),
    }

    def build(encoder, proxy, sanitizers):
        return avengers.Config.default(encoders=(encoder,), sanitizers=tuple(sanitizers),
                                       proxy=proxy, broad_concepts=config.broad_concepts,
                                       top_k=config.top_k)

    return StudyPanel(controls, build, avengers.run, lambda result: display(result))


def enron_panel(config: Any = None) -> StudyPanel:
    """Study 04: encoder, corpus, sanitizers, email limit; press Run."""
    import ipywidgets as w
    from IPython.display import display

    from privlab.studies import enron

    config = config or enron.Config.for_notebook()
    controls = {
        "encoder": encoder_picker(config.encoders[0], include_online=False),
        "corpus": w.Dropdown(options=["auto", "real", "offline"], value=config.corpus,
                             description="Corpus"),
        "sanitizers": w.SelectMultiple(options=text_sanitizer_options(), value=config.sanitizers,
                                       description="Sanitizers", rows=6),
        "limit": w.IntText(value=config.limit or 0, description="Emails (0 = all)"),
    }

    def build(encoder, corpus, sanitizers, limit):
        return enron.Config.default(corpus=corpus, sanitizers=tuple(sanitizers),
                                    encoders=(encoder,), limit=limit or None, proxy=config.proxy,
                                    top_k=config.top_k)

    return StudyPanel(controls, build, enron.run, lambda result: display(enron.table2(result)))


# --------------------------------------------------------------------------- image studies
class ImageStudyControls:
    """The widgets of an image study notebook (01, 02) and the config they describe.

    Args:
        study: the study module (``privlab.studies.dicaprio`` or ``mcdonalds``).
        encoders: members selected at first.
        sanitizers: sanitizers selected at first (None: the study's defaults).
        folder: a folder of photos ("" for the generated corpus).
        delta: the resolution at which images are flagged.
    """

    def __init__(self, study: Any, encoders: Sequence[str], sanitizers: Sequence[str] | None,
                 folder: str = "", delta: float = 0.0):
        import ipywidgets as widgets

        from privlab.encoders import registry as encoder_registry
        from privlab.sanitizers import registry as sanitizer_registry
        from privlab.studies._images import CUE_PREFIX

        self.study = study
        self.defaults: StudyConfig = study.Config.for_notebook()
        choices = [CUE_PREFIX + k for k in study.PRESETS] + sanitizer_registry.names(
            modality="image", offline=True)
        self.encoders = widgets.SelectMultiple(
            options=encoder_registry.names(modality="image"), value=tuple(encoders),
            description="members")
        self.sanitizers = widgets.SelectMultiple(
            options=choices, value=tuple(sanitizers or self.defaults.sanitizers),
            description="sanitizers")
        self.folder = widgets.Text(value=folder, description="folder",
                                   placeholder="empty: the generated scenes")
        self.delta = widgets.FloatSlider(value=delta, min=0.0, max=0.5, step=0.01,
                                         description="δ")
        self.widget = widgets.VBox([self.encoders, self.sanitizers, self.folder, self.delta])

    def config(self):
        """The study's Config for the widgets' current values."""
        return self.study.Config.default(
            n_images=self.defaults.n_images, folder=self.folder.value or None,
            encoders=tuple(self.encoders.value), sanitizers=tuple(self.sanitizers.value),
            delta=self.delta.value, leak_table=True)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


__all__ = ["ImageStudyControls", "avengers_panel", "enron_panel", "quickstart_config",
           "quickstart_panel", "render_quickstart", "text_sanitizer_options"]
