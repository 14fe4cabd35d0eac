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


def avengers_config(encoder: str, proxy: str, sanitizers: Sequence[str], comments: str,
                    keyword: str, base: Any = None):
    """A study-03 ``Config`` from widget values; an empty ``comments`` means the offline set.

    Example:
        >>> c = avengers_config("lexical", "9", ["identity"], "  ", "Avengers")
        >>> c.comments, c.proxy
        (None, '9')
        >>> avengers_config("lexical", "49", ["identity"], "/data/avengers", "Avengers").comments
        '/data/avengers'
    """
    from privlab.studies import avengers

    base = base or avengers.Config.default()
    return avengers.Config.default(encoders=(encoder,), sanitizers=tuple(sanitizers),
                                   proxy=proxy, comments=comments.strip() or None,
                                   keyword=keyword.strip() or base.keyword,
                                   broad_concepts=base.broad_concepts, top_k=base.top_k)


def avengers_panel(config: Any = None) -> StudyPanel:
    """Study 03: encoder, proxy size, sanitizers and a folder of comments; press Run."""
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
        "comments": w.Text(value=config.comments or "", description="Comments",
                           placeholder="folder of .txt comments (empty: offline set)"),
        "keyword": w.Text(value=config.keyword, description="Keyword"),
    }

    def build(encoder, proxy, sanitizers, comments, keyword):
        return avengers_config(encoder, proxy, sanitizers, comments, keyword, config)

    return StudyPanel(controls, build, avengers.run, lambda result: display(result))


def enron_panel(config: Any = None) -> StudyPanel:
    """Study 04: encoder, corpus, sanitizers, email limit, selection rule; press Run."""
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
        "match": w.ToggleButtons(options=["substring", "word"], value=config.match,
                                 description="Name match"),
        "dedupe": w.Checkbox(value=config.dedupe, description="drop repeated bodies"),
    }

    def build(encoder, corpus, sanitizers, limit, match, dedupe):
        return enron.Config.default(corpus=corpus, sanitizers=tuple(sanitizers),
                                    encoders=(encoder,), limit=limit or None, match=match,
                                    dedupe=dedupe, proxy=config.proxy, top_k=config.top_k)

    return StudyPanel(controls, build, enron.run, lambda result: display(enron.table2(result)))


# --------------------------------------------------------------------------- image studies
class ImageStudyControls:
    """The widgets of an image study notebook (01, 02) and the config they describe.

    In folder mode (a folder typed in) the ``cues:`` sanitizers are taken off the list and
    a line under it says why: they need the generated scenes' ground truth.

    Args:
        study: the study module (``privlab.studies.dicaprio`` or ``mcdonalds``).
        encoders: members selected at first.
        sanitizers: sanitizers selected at first (None: the study's defaults).
        folder: a folder of photos ("" for the generated corpus).
        delta: the resolution at which images are flagged.
        gallery: a folder of named face crops (``<name>/*.jpg`` or ``<name>.jpg``); "" for
            the default (the generated corpus's faces, none for a folder).
        recursive: include the folder's sub-folders.
        max_side: photos are downscaled to this longer side (None: the study's setting).
        placebo: audit each sanitizer's placebo twin (the excess over it is reported).
    """

    def __init__(self, study: Any, encoders: Sequence[str], sanitizers: Sequence[str] | None,
                 folder: str = "", delta: float = 0.0, gallery: str = "",
                 recursive: bool = False, max_side: int | None = None, placebo: bool = True):
        import ipywidgets as widgets

        from privlab.encoders import registry as encoder_registry
        from privlab.sanitizers import registry as sanitizer_registry
        from privlab.studies._images import CUE_PREFIX

        self.study = study
        self.defaults: StudyConfig = study.Config.for_notebook()
        self._registry = sanitizer_registry.names(modality="image", offline=True)
        self._all = [CUE_PREFIX + k for k in study.PRESETS] + self._registry
        self._generated_choice = tuple(sanitizers or self.defaults.sanitizers)
        self.encoders = widgets.SelectMultiple(
            options=encoder_registry.names(modality="image"), value=tuple(encoders),
            description="members")
        self.sanitizers = widgets.SelectMultiple(options=self._all, value=(), rows=8,
                                                 description="sanitizers")
        self.note = widgets.HTML(value="")
        self.folder = widgets.Text(value=folder, description="folder",
                                   placeholder="empty: the generated scenes")
        self.recursive = widgets.Checkbox(value=bool(recursive), description="sub-folders too")
        self.max_side = widgets.IntText(value=int(max_side or self.defaults.max_side),
                                        description="max side")
        self.gallery = widgets.Text(value=gallery, description="gallery",
                                    placeholder="folder of <name>/*.jpg or <name>.jpg faces")
        self.delta = widgets.FloatSlider(value=delta, min=0.0, max=0.5, step=0.01,
                                         description="δ")
        self.placebo = widgets.Checkbox(value=bool(placebo), description="placebo control")
        self._sync()
        self.sanitizers.value = tuple(v for v in self._generated_choice
                                      if v in self.sanitizers.options) or self._folder_defaults()
        self.folder.observe(lambda change: self._sync(), names="value")
        self.widget = widgets.VBox([self.encoders, self.sanitizers, self.note, self.folder,
                                    self.recursive, self.max_side, self.gallery, self.delta,
                                    self.placebo])

    def _folder_defaults(self) -> tuple[str, ...]:
        return tuple(s for s in self.study.Config.folder_sanitizers
                     if s in self.sanitizers.options)

    def _sync(self) -> None:
        """Offer the sanitizers the corpus allows; say why the others are off."""
        from privlab.studies._images import GROUND_TRUTH_REASON, folder_reason

        chosen = tuple(self.sanitizers.value)
        if self.folder.value.strip():
            options = [s for s in self._all if folder_reason(s) is None]
            self.note.value = f"<i>Off for a folder: {GROUND_TRUTH_REASON}.</i>"
            keep = tuple(s for s in chosen if s in options)
            self.sanitizers.options = options
            self.sanitizers.value = keep or self._folder_defaults()
        else:
            self.note.value = ""
            self.sanitizers.options = self._all
            self.sanitizers.value = chosen or self._generated_choice

    def disabled(self) -> dict[str, str]:
        """``{sanitizer: reason}`` for the sanitizers the current corpus rules out.

        Example:
            >>> from privlab.studies import mcdonalds
            >>> c = ImageStudyControls(mcdonalds, ["sface"], None, folder="/photos")
            >>> sorted(c.disabled())[0], c.sanitizers.value[0]
            ('cues:every cue', 'text-blackout-ocr')
        """
        from privlab.studies._images import folder_reason

        if not self.folder.value.strip():
            return {}
        return {s: folder_reason(s) for s in self._all if folder_reason(s)}

    def config(self):
        """The study's Config for the widgets' current values."""
        return self.study.Config.default(
            n_images=self.defaults.n_images, folder=self.folder.value.strip() or None,
            recursive=self.recursive.value, max_side=self.max_side.value,
            gallery=self.gallery.value.strip() or None,
            encoders=tuple(self.encoders.value), sanitizers=tuple(self.sanitizers.value),
            delta=self.delta.value, leak_table=True, placebo=self.placebo.value)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


__all__ = ["ImageStudyControls", "avengers_config", "avengers_panel", "enron_panel",
           "quickstart_config", "quickstart_panel", "render_quickstart", "text_sanitizer_options"]
