"""The study notebooks' panels: which controls each study offers, and how it is drawn.

Every panel is a :class:`privlab.ui.panel.StudyPanel` made by :func:`study_panel`, so it
is made once per kernel and keeps its choices through Run All. A notebook shows its
study in two lines::

    panel = panels.quickstart_panel(encoder=ENCODER)   # the parameter cell's values
    panel.show()

The studies themselves know nothing of widgets: each panel builds its study's ``Config``
from the controls and calls the study's ``run``.
"""

from __future__ import annotations

from typing import Any, Sequence

from privlab.studies.contract import StudyConfig
import privlab.ui.controls as c
import privlab.ui.renderers as renderers
from privlab.ui.choices import Option, data_option
from privlab.ui.panel import StudyPanel, study_panel
from privlab.ui.widgets import parse_concepts


def _params(**values: Any) -> dict[str, Any]:
    return dict(values)


# --------------------------------------------------------------------------- 00 quickstart
def quickstart_config(encoder: str, weak: str, strong: str):
    """A quickstart ``Config`` from widget values (concept lists as one-per-line text).

    Example:
        >>> quickstart_config("lexical", "Einstein", "Einstein\\nrelativity").strong_concepts
        ('Einstein', 'relativity')
    """
    from privlab.studies.quickstart import Config

    return Config.default(encoder=encoder, weak_concepts=parse_concepts(weak),
                          strong_concepts=parse_concepts(strong))


def quickstart_panel(*, encoder: str | None = None, weak_concepts: Sequence[str] | None = None,
                     strong_concepts: Sequence[str] | None = None) -> StudyPanel:
    """Study 00: pick the encoder, edit both concept lists, press Run."""
    return study_panel("quickstart", {
        "encoder": c.encoder("text"),
        "weak_concepts": c.phrases("Weak list", rows=4),
        "strong_concepts": c.phrases("Strong list", rows=8),
    }, renderers.quickstart, params=_params(encoder=encoder, weak_concepts=weak_concepts,
                                            strong_concepts=strong_concepts))


# --------------------------------------------------------------------------- text studies
def text_sanitizer_options() -> list[str]:
    """Sanitizer specs a text-study widget offers: the broad concept list plus every text sanitizer.

    Example:
        >>> text_sanitizer_options()[:2]
        ['concept-list-broad', 'identity']
    """
    from privlab.sanitizers import registry

    return ["concept-list-broad"] + registry.names(modality="text")


BROAD_OPTION = Option("concept-list-broad", "the name plus a longer list written before "
                                            "reading the texts")


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


def avengers_panel(*, encoders: Sequence[str] | None = None, proxy: str | None = None,
                   sanitizers: Sequence[str] | None = None, comments: str | None = None,
                   keyword: str | None = None) -> StudyPanel:
    """Study 03: encoder, proxy set, sanitizers and a folder of comments; press Run."""
    return study_panel("avengers", {
        "encoders": c.encoder("text", as_tuple=True),
        "proxy": c.choice([("9 (the fixed proxy set)", "9"), ("49 (all)", "49")],
                          label="Comments", buttons=True),
        "sanitizers": c.sanitizer("text", extra=[BROAD_OPTION]),
        "comments": c.text("Comment folder",
                           placeholder="a folder of .txt comments (empty: privlab's offline set)"),
        "keyword": c.text("Keyword", placeholder="the franchise's name in those comments",
                          empty="Avengers"),
    }, renderers.avengers, params=_params(encoders=encoders, proxy=proxy, sanitizers=sanitizers,
                                          comments=comments, keyword=keyword))


def enron_panel(*, encoders: Sequence[str] | None = None, corpus: str | None = None,
                limit: int | None = None, match: str | None = None, dedupe: bool | None = None,
                sanitizers: Sequence[str] | None = None) -> StudyPanel:
    """Study 04: encoder, mailbox, sanitizers, email limit, selection rule; press Run."""
    from privlab.datasets.enron import default_mailbox_path

    corpora = [Option("auto", "the real mailbox when present, else the offline one"),
               data_option("real", "Ken Lay's mailbox (kenneth_json.zip)", default_mailbox_path(),
                           "Put kenneth_json.zip under ../shared/data/enron/ (see data/README.md)."),
               Option("offline", "privlab's mailbox about a fictional executive")]
    return study_panel("enron", {
        "encoders": c.encoder("text", as_tuple=True),
        "corpus": c.choice(corpora, label="Mailbox"),
        "sanitizers": c.sanitizer("text"),
        "limit": c.integer("Emails (0 = all)", zero_means_none=True),
        "match": c.choice([("anywhere (the paper's rule)", "substring"),
                           ("whole words only", "word")], label="Name match", buttons=True),
        "dedupe": c.flag("Drop repeated bodies"),
    }, renderers.enron, params=_params(encoders=encoders, corpus=corpus, limit=limit,
                                       match=match, dedupe=dedupe, sanitizers=sanitizers))


# --------------------------------------------------------------------------- redaction
def redacbench_panel(*, data: str | None = None, judge: str | None = None,
                     strategies: Sequence[str] | None = None,
                     headline: str | None = None) -> StudyPanel:
    """Study 07: data, judge, strategies and the headline strategy (fixed before running)."""
    from privlab.redaction.redacbench import judges
    from privlab.redaction.redacbench import strategies as registry
    from privlab.studies import redacbench as study

    headline_names = [n for n in registry.names(oracle=False) if n != study.BASELINE]
    return study_panel("redacbench", {
        "data": c.choice(study.data_options(), label="Data"),
        "judge": c.registry_choice(judges, label="Judge", oracle=False),
        "strategies": c.registry_choice(registry, many=True, label="Strategies", oracle=False),
        "headline": c.registry_choice(registry, label="Headline strategy",
                                      names=headline_names),
    }, renderers.redacbench, params=_params(data=data, judge=judge, strategies=strategies,
                                            headline=headline))


def spia_panel(*, data: str | None = None, adversary: str | None = None,
               anonymizers: Sequence[str] | None = None, matcher: str | None = None,
               value_decider: str | None = None, reference_date: str | None = None) -> StudyPanel:
    """Study 08: data, adversary, anonymizers, subject matcher and value decider
    (``reference_date``: the date ages are inferred at, from the parameter cell)."""
    from privlab.redaction.spia.adversaries import adversaries
    from privlab.redaction.spia.matching import matchers
    from privlab.redaction.spia.spans import anonymizers as anonymizer_registry

    deciders = [Option("rule", "SPIA's per-tag rules only"),
                Option("rule+llm", "rules, then the model where a rule says 0", "endpoint",
                       "needs an LLM endpoint").refresh()]
    return study_panel("spia", {
        "data": c.text("Data", placeholder="a SPIA .jsonl file, or 'sample'"),
        "adversary": c.registry_choice(adversaries, label="Adversary"),
        "anonymizers": c.registry_choice(anonymizer_registry, many=True, label="Anonymizers"),
        "matcher": c.registry_choice(matchers, label="Subject matcher"),
        "value_decider": c.choice(deciders, label="Value decider"),
    }, renderers.spia, params=_params(data=data, adversary=adversary, anonymizers=anonymizers,
                                      matcher=matcher, value_decider=value_decider),
        fixed={"reference_date": reference_date})


# --------------------------------------------------------------------------- 09, 10
def calibration_panel(*, encoders: Sequence[str] | None = None, source: str | None = None,
                      delta: float | None = None, image_members: Sequence[str] | None = None,
                      image_source: str | None = None) -> StudyPanel:
    """Study 09: text encoder, sentence set, image members and the resolution to read."""
    from privlab.encoders import registry
    from privlab.studies import calibration as study

    sources = [Option("auto", "the paper's sentence files when present, else privlab's"),
               data_option("shared", "the paper's sentence files", study.shared_concepts_dir(),
                           "Put the concept sentence files under ../shared/data/concepts."),
               Option("default", "privlab's own small sets (12 sentences per concept)")]
    return study_panel("calibration", {
        "encoders": c.encoder("text", as_tuple=True),
        "source": c.choice(sources, label="Sentences"),
        "delta": c.number("Resolution to read", maximum=0.5, value=0.13),
        "image_members": c.registry_choice(registry, many=True, label="Image members",
                                           online=False, modality="image"),
        "image_source": c.text("Image folder", empty="generated",
                               placeholder="a folder with images/ and masks/ (empty: generated)"),
    }, renderers.calibration, params=_params(encoders=encoders, source=source, delta=delta,
                                             image_members=image_members,
                                             image_source=image_source))


def finetune_panel(*, base_encoder: str | None = None, loss: str | None = None,
                   epochs: int | None = None, lr: float | None = None,
                   mix: float | None = None) -> StudyPanel:
    """Study 10: base encoder, loss, epochs, learning rate and the blend."""
    from privlab.encoders import registry
    from privlab.studies import finetune as study

    mixes = [Option("validation", "chosen on the validation scenes")] + [
        Option(m, "given") for m in study.MIX_CANDIDATES]
    return study_panel("finetune", {
        "base_encoder": c.registry_choice(registry, label="Base D", names=list(study.BASES)),
        "loss": c.choice(["siglip", "clip"], label="Loss", buttons=True),
        "epochs": c.integer("Epochs", minimum=1, maximum=500),
        "lr": c.number("Learning rate", minimum=1e-4, maximum=1e-1, log=True),
        "mix": c.choice(mixes, label="Blend m", none="validation"),
    }, renderers.finetune, params=_params(base_encoder=base_encoder, loss=loss, epochs=epochs,
                                          lr=lr, mix=mix))


# --------------------------------------------------------------------------- image studies
def _image_build(values: dict, defaults: Any) -> Any:
    """The image study's Config: no sanitizer ticked means the study's own list (the
    folder defaults for a folder, the generated scenes' otherwise)."""
    import dataclasses

    settings = {f.name: getattr(defaults, f.name) for f in dataclasses.fields(defaults)}
    settings.update(values)
    settings["sanitizers"] = tuple(values.get("sanitizers") or ()) or None
    return type(defaults)(**settings)


def image_panel(study: Any, *, encoders: Sequence[str] | None = None,
                sanitizers: Sequence[str] | None = None, folder: str | None = None,
                recursive: bool | None = None, max_side: int | None = None,
                gallery: str | None = None, logos: str | None = None,
                delta: float | None = None, placebo: bool | None = None) -> StudyPanel:
    """An image study (01, 02): members, sanitizers, a folder of photos, galleries, δ; press Run.

    Typing a folder greys out the ``cues:`` sanitizers, with the reason beside them: they
    black out the generated scenes' ground truth, which a folder of photos does not have.
    With no sanitizer left ticked, a folder run uses the study's folder defaults.

    Args:
        study: the study module (``privlab.studies.dicaprio`` or ``mcdonalds``).
        encoders, sanitizers, folder, recursive, max_side, gallery, logos, delta, placebo:
            the parameter cell's values (None: the study's settings); ``logos`` is a
            folder with one sub-folder or image per brand (crops of the logo).
    """
    CUE_PREFIX, folder_reason = study.CUE_PREFIX, study.folder_reason

    cues = [Option(CUE_PREFIX + k, "blacks out the generated scenes' seeded cues")
            for k in study.PRESETS]
    panel = study_panel(study, {
        "encoders": c.encoder("image", many=True, label="Members"),
        "sanitizers": c.sanitizer("image", extra=cues),
        "folder": c.text("Photo folder", placeholder="empty: the generated scenes"),
        "recursive": c.flag("Include sub-folders"),
        "max_side": c.integer("Longest side (px)", minimum=32, maximum=16384),
        "gallery": c.text("Known faces",
                          placeholder="a folder of <name>/*.jpg or <name>.jpg face crops"),
        "logos": c.text("Logo gallery",
                        placeholder="a folder of <brand>/*.jpg or <brand>.jpg logo crops"),
        "delta": c.number("Flag at δ", maximum=0.5),
        "placebo": c.flag("Placebo control"),
    }, renderers.image_study, build=_image_build,
        params=_params(encoders=encoders, sanitizers=sanitizers, folder=folder,
                       recursive=recursive, max_side=max_side, gallery=gallery, logos=logos,
                       delta=delta, placebo=placebo))
    if not getattr(panel, "_folder_sync", False):  # once per panel, kept through Run All
        def sync(_change: Any = None) -> None:
            typed = panel.controls["folder"].value
            panel.controls["sanitizers"].restrict(folder_reason if typed else None)

        panel.controls["folder"].observe(sync)
        panel._folder_sync = True  # type: ignore[attr-defined]
        sync()
    return panel


def dicaprio_panel(**params: Any) -> StudyPanel:
    """Study 01 (see :func:`image_panel`)."""
    from privlab.studies import dicaprio

    return image_panel(dicaprio, **params)


def _follow(main: StudyPanel, panel: StudyPanel, like: Any, what: str) -> None:
    """Mark ``panel`` stale when ``main`` runs on another corpus than the one it used."""
    def check(source: StudyPanel) -> None:
        used = panel.config_used
        if used is None or source.config_used is None:
            return
        fresh = like(source.config_used, used)
        if not (fresh == used):
            panel.mark_stale(f"The study above ran on other settings: press Run to audit "
                             f"{what} on them (below: the previous corpus).")

    main.after_run(panel.slug + ":" + what, check)


def _base(main: StudyPanel) -> Any:
    """The main panel's last config (its current choices before its first run)."""
    return main.config_used if main.config_used is not None else main.config()


def dicaprio_ladder_panel(main: StudyPanel, *, encoders: Sequence[str] | None = None
                          ) -> StudyPanel:
    """Study 01's ladder on the corpus of ``main``'s last run: pick the members, press Run.

    Args:
        main: the study's panel (:func:`dicaprio_panel`); its corpus, placebo and δ are used.
        encoders: the members (None: :data:`privlab.studies.dicaprio.LADDER_MEMBERS`).
    """
    from privlab.studies import dicaprio

    def build(values: dict, defaults: Any) -> Any:
        return dicaprio.LadderConfig.like(_base(main), encoders=tuple(values["encoders"]))

    panel = study_panel(dicaprio.run_ladder, {
        "encoders": c.encoder("image", many=True, label="Members"),
    }, renderers.dicaprio_ladder, params=_params(encoders=encoders), build=build,
        key="dicaprio-ladder", config=dicaprio.LadderConfig,
        hint="The ladder runs on the corpus of the study above (its last run). Change the "
             "members, then press <b>Run</b>.")
    _follow(main, panel, lambda cfg, used: dicaprio.LadderConfig.like(
        cfg, encoders=used.encoders), "the ladder")
    return panel


def dicaprio_miss_panel(main: StudyPanel, *, tilt: float | None = None) -> StudyPanel:
    """Study 01's detector miss on the corpus of ``main``'s last run: the tilt, then Run.

    Args:
        main: the study's panel (:func:`dicaprio_panel`).
        tilt: degrees by which every other target portrait is turned (None: 30).
    """
    from privlab.studies import dicaprio

    def build(values: dict, defaults: Any) -> Any:
        return dicaprio.MissConfig.like(_base(main), tilt=float(values["tilt"]))

    panel = study_panel(dicaprio.run_detector_miss, {
        "tilt": c.number("Tilt (degrees)", minimum=0.0, maximum=60.0, step=5.0),
    }, renderers.dicaprio_miss, params=_params(tilt=tilt), build=build,
        key="dicaprio-miss", config=dicaprio.MissConfig,
        hint="The detector miss runs on the corpus of the study above (its last run). "
             "Change the tilt, then press <b>Run</b>.")
    _follow(main, panel, lambda cfg, used: dicaprio.MissConfig.like(cfg, tilt=used.tilt),
            "the detector miss")
    return panel


def mcdonalds_panel(**params: Any) -> StudyPanel:
    """Study 02 (see :func:`image_panel`)."""
    from privlab.studies import mcdonalds

    return image_panel(mcdonalds, **params)


# --------------------------------------------------------------------------- 05, 06 ε studies
def _known_epsilon_build(values: dict, defaults: Any) -> Any:
    """Study 05's Config: the default auditors ticked are the study's own (None)."""
    import dataclasses

    from privlab.studies.known_epsilon import default_auditors

    values = dict(values)
    if tuple(values.get("auditors") or ()) == default_auditors():
        values["auditors"] = None
    return dataclasses.replace(defaults, **values)


def known_epsilon_panel(*, mechanism: str | None = None, geometry: str | None = None,
                        n: int | None = None, epsilon: float | None = None,
                        auditors: Sequence[str] | None = None,
                        full_grid: bool | None = None) -> StudyPanel:
    """Study 05: the explored setting (mechanism, geometry, n, ε) and its auditors; Run.

    The sub-grids (null table, Figures 2 and 3, appendix) are stored once computed, so a
    new explored setting recomputes only itself.
    """
    from privlab.epsilon.benchmark import EPSILON_GRID, benchmark_methods
    from privlab.epsilon.mechanisms import GEOMETRIES
    from privlab.studies import known_epsilon as study

    return study_panel("known_epsilon", {
        "mechanism": c.choice(["laplace", "gaussian", "randomized_response",
                               "anisotropic_gaussian"], label="Mechanism"),
        "geometry": c.choice(list(GEOMETRIES), label="Geometry", buttons=True),
        "n": c.choice([Option(v, str(v)) for v in (30, 100, 300)], label="n per identity",
                      buttons=True),
        "epsilon": c.choice([Option(float(e), f"{e:g}") for e in EPSILON_GRID],
                            label="True ε", buttons=True),
        "auditors": c.choices(list(benchmark_methods()), label="Auditors", columns=3),
        "full_grid": c.flag("The paper's full grids (hours)"),
    }, renderers.known_epsilon, build=_known_epsilon_build, params=_params(
        mechanism=mechanism, geometry=geometry, n=n, epsilon=epsilon,
        auditors=tuple(auditors or study.default_auditors()), full_grid=full_grid))


def face_generators_panel(*, table: str | None = None, strength: float | None = None,
                          compare_strength: float | None = None, encoder: str | None = None,
                          n_pairs: int | None = None, methods: Sequence[str] | None = None,
                          alpha: float | None = None,
                          cascade_passes: int | None = None) -> StudyPanel:
    """Study 06: a table or the toy generators, their strengths, the encoder, the pairs,
    the routes and α; press Run."""
    from privlab.encoders import registry
    from privlab.epsilon import AUDITORS

    faces = [n for n in ("sface", "dlib-face") if n in registry]
    return study_panel("face_generators", {
        "table": c.text("Embedding table", empty=None,
                        placeholder="a .csv or .npz of generated-face embeddings "
                                    "(empty: the offline toy generator)"),
        "strength": c.number("Strength"),
        "compare_strength": c.number("Compare with"),
        "encoder": c.registry_choice(registry, label="Encoder", names=faces),
        "n_pairs": c.integer("Pairs", minimum=1, maximum=10_000),
        "methods": c.choices(list(AUDITORS), label="Routes", columns=3),
        "alpha": c.number("α (all bounds)", minimum=0.01, maximum=0.2),
        "cascade_passes": c.integer("Cascade passes (0 skips)", maximum=20),
    }, renderers.face_generators, params=_params(
        table=table, strength=strength, compare_strength=compare_strength, encoder=encoder,
        n_pairs=n_pairs, methods=methods, alpha=alpha, cascade_passes=cascade_passes))


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
        CUE_PREFIX = study.CUE_PREFIX

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
        GROUND_TRUTH_REASON = self.study.GROUND_TRUTH_REASON
        folder_reason = self.study.folder_reason

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
        folder_reason = self.study.folder_reason

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


# --------------------------------------------------------------------------- 11 scale
def scale_panel(*, m: int | None = None, n: int | None = None, d: int | None = None,
                top_k: int | None = None, cluster_workers: int | None = None) -> StudyPanel:
    """Study 11: audit sizes, scenarios, the top list, the screen and the cluster's workers."""
    from privlab.scale.synthetic import SCENARIOS

    described = {"planted": "a planted leak", "none": "no leak",
                 "realistic": "realistic references (most barely moved)"}
    return study_panel("scale", {
        "m": c.integer("Audited items m", minimum=1, maximum=10_000_000),
        "n": c.integer("References n", minimum=1, maximum=10_000_000),
        "d": c.integer("Dimension d", minimum=2, maximum=4096),
        "scenarios": c.choices([Option(s, described.get(s, "")) for s in SCENARIOS],
                               label="Scenarios"),
        "top_k": c.integer("Top list k", minimum=0, maximum=100),
        "screen_index": c.choice([Option("hnsw", "HNSW graph"), Option("ivf", "IVF lists")],
                                 label="Screen"),
        "cluster_workers": c.integer("Cluster workers", minimum=0, maximum=16),
    }, renderers.scale, params=_params(m=m, n=n, d=d, top_k=top_k,
                                       cluster_workers=cluster_workers),
        hint="Change any setting, then press <b>Run</b>. Larger m·n take longer: the plain "
             "kernel scores every trial, for comparison.")


__all__ = ["BROAD_OPTION", "ImageStudyControls", "avengers_config", "avengers_panel",
           "calibration_panel", "dicaprio_ladder_panel", "dicaprio_miss_panel",
           "dicaprio_panel", "enron_panel", "face_generators_panel", "finetune_panel",
           "image_panel", "known_epsilon_panel",
           "mcdonalds_panel", "quickstart_config",
           "quickstart_panel", "redacbench_panel", "scale_panel", "spia_panel", "text_sanitizer_options"]
