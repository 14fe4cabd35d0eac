"""One panel for every study, built from what its Config fields declare."""

from __future__ import annotations

import dataclasses
import importlib
import sys
import types

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from privlab.errors import PrivlabValueError, invalid  # noqa: E402
from privlab.studies import registry  # noqa: E402
from privlab.studies.contract import Headline, StudyConfig  # noqa: E402
from privlab.studies.params import declared, family_registry, param  # noqa: E402
from privlab.ui.panel import study_panel  # noqa: E402
from tests.ui.conftest import shown_text  # noqa: E402

STUDIES = registry.names()

#: The settings each study's notebook lets a user change (what its hand-made panel
#: offered before the panels were built from the declarations): each must have a control.
USER_SETTINGS = {
    "quickstart": {"encoders", "weak_concepts", "strong_concepts"},
    "dicaprio": {"encoders", "sanitizers", "data", "recursive", "max_side", "gallery",
                 "logos", "delta", "placebo"},
    "mcdonalds": {"encoders", "sanitizers", "data", "recursive", "max_side", "gallery",
                  "logos", "delta", "placebo"},
    "avengers": {"encoders", "proxy", "sanitizers", "data", "keyword"},
    "enron": {"encoders", "data", "sanitizers", "limit", "match", "dedupe"},
    "known_epsilon": {"mechanism", "geometry", "n", "epsilon", "auditors", "full_grid"},
    "face_generators": {"data", "strength", "compare_strength", "encoders", "n_pairs",
                        "methods", "alpha", "cascade_passes"},
    "redacbench": {"data", "judge", "strategies", "headline"},
    "spia": {"data", "adversary", "anonymizers", "matcher", "value_decider"},
    "calibration": {"encoders", "data", "delta", "image_encoders", "image_data"},
    "finetune": {"encoders", "loss", "epochs", "lr", "mix"},
    "scale": {"m", "n", "d", "scenarios", "top_k", "screen_index", "cluster_workers"},
}


def _module(slug: str):
    return importlib.import_module(registry.entry(slug).factory.__module__)


def test_every_registered_study_is_listed_here():
    assert set(USER_SETTINGS) == set(STUDIES)


@pytest.mark.parametrize("slug", STUDIES)
def test_every_study_gets_its_panel_from_its_declarations_alone(slug, fresh_panels):
    module = _module(slug)
    fields = declared(module.Config)
    panel = study_panel(module)
    assert set(panel.controls) == set(fields)
    assert USER_SETTINGS[slug] <= set(panel.controls)
    for name, control in panel.controls.items():
        assert control.label, name
        p = fields[name]
        offered = [o.name for o in control.options]
        if p.family is not None and p.choices is None:
            # The family's members, read from the registry itself.
            registry_ = family_registry(p.family)
            expected = list(p.names) if p.names is not None else registry_.names(**p.filters)
            expected = [n for n in expected if n in registry_ and n not in p.exclude
                        and (p.online or registry_.entry(n).meta.get("offline", True)
                             is not False)]
            own = [c.name for c in p.own_choices()]
            assert offered[:len(own)] == own, name
            assert sorted(offered[len(own):]) == sorted(expected), name
            assert expected, f"{slug}.{name}: no member of {p.family} offered"
        elif p.choices is not None:
            expected = [c.name for c in p.options()]
            assert [n for n in offered if n != p.none] == expected, name
    # Its controls, untouched, stand for the study's own settings in this profile.
    config, smoke = panel.config(), module.Config.smoke()
    for name in panel.controls:
        assert getattr(config, name) == getattr(smoke, name), name


# --------------------------------------------------------------------------- a new study
@dataclasses.dataclass
class _CountConfig(StudyConfig):
    """A study written in this test: how many of its words are at least ``shortest`` long."""

    words: tuple[str, ...] = param(("ant", "bee", "cicada", "dragonfly"), lines=4)
    shortest: int = param(4, label="Shortest word", minimum=1, slider=(1, 20))
    case: str = param("lower", strict=True, buttons=True,
                      choices=(("lower", "as lower case"), ("upper", "as upper case")))
    encoder: str = param("lexical", family="encoder", filters={"modality": "text"})
    share: float = param(0.5, minimum=0.0, maximum=1.0)
    seed: int = 0

    @classmethod
    def smoke_settings(cls):
        return {"shortest": 5}


@dataclasses.dataclass
class _CountResult:
    config: _CountConfig
    kept: tuple[str, ...]
    provenance: dict = dataclasses.field(default_factory=dict)

    def headline(self) -> Headline:
        return Headline("99 count", f"{len(self.kept)} words kept", "descriptive",
                        ("words given in the test",))

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"word": self.kept})

    def _repr_html_(self) -> str:
        return "<p class='count-result'>kept: " + ", ".join(self.kept) + "</p>"


def _count_run(config: _CountConfig | None = None) -> _CountResult:
    config = config or _CountConfig.for_notebook()
    if not config.words:
        raise invalid("words", "count.run", "at least one word", config.words,
                      "Type one word per line.")
    kept = tuple((w.upper() if config.case == "upper" else w) for w in config.words
                 if len(w) >= config.shortest)
    return _CountResult(config, kept, {"config": dataclasses.asdict(config)})


@pytest.fixture
def count_study():
    module = types.ModuleType("privlab_test_count")
    module.Config, module.run, module.STUDY = _CountConfig, _count_run, "99 count"
    _count_run.__module__ = module.__name__
    sys.modules[module.__name__] = module
    yield module
    del sys.modules[module.__name__]


def test_an_old_setting_name_in_the_parameter_cell_names_the_new_one(fresh_panels):
    from privlab.studies import calibration, dicaprio

    with pytest.raises(PrivlabValueError, match="'folder' parameter of study_panel was "
                                                "renamed to 'data'"):
        study_panel(dicaprio, folder="photos")
    with pytest.raises(PrivlabValueError, match="Write image_encoders=\\('sface',\\)"):
        study_panel(calibration, image_members="sface")


def test_a_study_written_in_a_test_gets_a_working_panel(count_study, fresh_panels):
    panel = study_panel(count_study, case="upper")
    assert list(panel.controls) == ["words", "shortest", "case", "encoder", "share"]
    assert panel.controls["shortest"].label == "Shortest word"
    assert [o.name for o in panel.controls["case"].options] == ["lower", "upper"]
    text_encoders = family_registry("encoder").names(modality="text")
    assert sorted(o.name for o in panel.controls["encoder"].options) == sorted(text_encoders)
    # The smoke settings, with the parameter cell's value applied.
    assert panel.values()["shortest"] == 5 and panel.values()["case"] == "upper"
    result = panel.run()
    assert result.kept == ("CICADA", "DRAGONFLY")
    assert result.provenance["choices"]["case"] == "upper"
    assert "kept: CICADA, DRAGONFLY" in "\n".join(
        o["data"].get("text/html", "") for o in panel.output.outputs)
    assert "privlab-headline | 99 count | 2 words kept" in shown_text(panel)
    # A changed control reaches the Config and the result.
    panel.controls["shortest"].set(3)
    panel.controls["words"].widget.value = "ant\nwasp"
    assert panel.run().kept == ("ANT", "WASP")
    # Run All hands back the same panel, its choices kept.
    assert study_panel(count_study, case="upper") is panel
    assert panel.values()["shortest"] == 3


def test_a_declared_range_or_choice_is_refused_where_the_config_is_built(count_study):
    with pytest.raises(PrivlabValueError, match=r"'shortest' parameter .* \[1, inf\]"):
        _CountConfig(shortest=0)
    with pytest.raises(PrivlabValueError, match=r"'case' parameter .*\['lower', 'upper'\]"):
        _CountConfig(case="title")
    with pytest.raises(PrivlabValueError, match=r"'share'.*\[0, 1\]"):
        _CountConfig(share=1.5)
    assert _CountConfig(shortest=1, case="upper", share=1.0).case == "upper"


def test_a_refused_value_in_the_panel_is_a_short_message_and_the_result_stays(count_study,
                                                                               fresh_panels):
    panel = study_panel(count_study)
    first = panel.run()
    assert first is not None
    panel.controls["shortest"].widget.value = 0   # the declared range holds the widget
    assert panel.values()["shortest"] == 1
    panel.controls["words"].widget.value = ""
    assert panel.run() is None
    shown = "\n".join(o["data"].get("text/html", "") for o in panel.output.outputs)
    assert "words" in shown and "privlab-problem" in shown
    assert "kept: cicada, dragonfly" in shown     # the last good result, under the message


def test_an_unknown_keyword_names_the_fields(count_study, fresh_panels):
    with pytest.raises(PrivlabValueError, match="'shortst' parameter of study_panel"):
        study_panel(count_study, shortst=3)


def test_a_field_without_a_control_is_set_from_the_parameter_cell(count_study, fresh_panels):
    panel = study_panel(count_study, seed=7)
    assert "seed" not in panel.controls and panel.config().seed == 7


# --------------------------------------------------------------------------- declarations
def test_a_folder_greys_out_the_ground_truth_sanitizers_and_none_means_the_defaults(
        fresh_panels):
    from privlab.studies import dicaprio

    panel = study_panel(dicaprio, encoders=("ocr-text",))
    sanitizers = panel.controls["sanitizers"]
    cue_boxes = [b for o, b in zip(sanitizers.options, sanitizers.boxes)
                 if str(o.name).startswith("cues:")]
    assert cue_boxes and not any(b.disabled for b in cue_boxes)
    panel.controls["data"].set("/photos")
    assert all(b.disabled and not b.value for b in cue_boxes)
    config = panel.config()
    assert config.data == "/photos"
    kept = tuple(s for s in dicaprio.Config.smoke().sanitizers if not s.startswith("cues:"))
    assert kept and config.sanitizers == kept       # the smoke run's detector-based ones
    sanitizers.set(())                               # none ticked: the study's folder defaults
    assert panel.config().sanitizers == dicaprio.FOLDER_SANITIZERS
    panel.controls["data"].set(None)
    assert not any(b.disabled for b in cue_boxes)


def test_a_study_may_say_what_its_settings_cost_above_its_controls(fresh_panels):
    from privlab.studies import scale

    shown = "".join(str(getattr(w, "value", "")) for w in study_panel(scale).widget.children)
    assert "Larger m·n take longer" in shown


def test_the_default_auditors_ticked_stand_for_none(fresh_panels):
    from privlab.studies import known_epsilon

    panel = study_panel(known_epsilon)
    assert panel.values()["auditors"] is None
    assert set(panel.controls["auditors"].chosen()) and panel.config().auditors is None
    panel.controls["auditors"].set(("reserved",))
    assert panel.config().auditors == ("reserved",)
