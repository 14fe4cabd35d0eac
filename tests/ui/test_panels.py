"""The notebook panels build their study's Config from widget values and run it."""

from __future__ import annotations

import pytest

from privlab.studies import avengers, dicaprio, enron, quickstart
from privlab.ui import panels


def test_quickstart_config_parses_the_concept_editors():
    config = panels.quickstart_config("lexical", "Einstein\n", "Einstein\n\n relativity \n")
    assert isinstance(config, quickstart.Config)
    assert config.encoder == "lexical"
    assert config.weak_concepts == ("Einstein",)
    assert config.strong_concepts == ("Einstein", "relativity")


def test_quickstart_panel_runs_the_study_from_its_controls(monkeypatch):
    from privlab.ui.panel import forget_panels

    monkeypatch.setenv("PRIVLAB_SMOKE", "1")
    forget_panels()
    panel = panels.quickstart_panel(encoder="lexical")
    assert panel.values()["encoder"] == "lexical"
    result = panel.run()
    assert isinstance(result, quickstart.QuickstartResult)
    assert sorted(result.audits) == ["strong", "weak"]
    direct = quickstart.run(quickstart.Config(encoder="lexical"))
    for label in ("weak", "strong"):
        assert result.audits[label].members[0].value == direct.audits[label].members[0].value
    forget_panels()


def test_text_panels_offer_the_broad_list_and_every_text_sanitizer(monkeypatch):
    from privlab.sanitizers import registry
    from privlab.ui.panel import forget_panels

    monkeypatch.setenv("PRIVLAB_SMOKE", "1")
    forget_panels()
    options = panels.text_sanitizer_options()
    assert options[0] == "concept-list-broad"
    assert options[1:] == registry.names(modality="text")
    panel = panels.avengers_panel(encoders=("lexical",))
    offered = [o.name for o in panel.controls["sanitizers"].options]
    assert offered[0] == "concept-list-broad"
    assert sorted(offered[1:]) == sorted(registry.names(modality="text"))
    assert panel.values()["proxy"] == "9"
    config = panel.config()
    assert isinstance(config, avengers.Config)
    assert config.encoders == ("lexical",) and config.proxy == "9"
    assert set(config.sanitizers) == set(avengers.Config.smoke().sanitizers)
    forget_panels()


def test_enron_panel_maps_zero_emails_to_all(monkeypatch):
    from privlab.ui.panel import forget_panels

    monkeypatch.setenv("PRIVLAB_SMOKE", "1")
    forget_panels()
    panel = panels.enron_panel(corpus="offline", encoders=("lexical",))
    assert panel.values()["limit"] == enron.SMOKE_LIMIT
    panel.controls["limit"].set(None)
    assert panel.controls["limit"].widget.value == 0
    config = panel.config()
    assert config.limit is None and config.corpus == "offline"
    assert any(o.name == "real" for o in panel.controls["corpus"].options)
    forget_panels()


@pytest.mark.parametrize("make, study", [
    ("redacbench_panel", "redacbench"), ("spia_panel", "spia"),
    ("calibration_panel", "calibration"), ("finetune_panel", "finetune"),
    ("known_epsilon_panel", "known_epsilon"), ("face_generators_panel", "face_generators"),
    ("dicaprio_panel", "dicaprio"), ("scale_panel", "scale")])
def test_every_panel_builds_its_studys_smoke_config_from_its_defaults(monkeypatch, make, study):
    import importlib

    from privlab.ui.panel import forget_panels

    monkeypatch.setenv("PRIVLAB_SMOKE", "1")
    forget_panels()
    module = importlib.import_module(f"privlab.studies.{study}")
    panel = getattr(panels, make)()
    smoke = module.Config.smoke()
    config = panel.config()
    for name in panel.fields & set(panel.controls):
        assert getattr(config, name) == getattr(smoke, name), name
    forget_panels()


def test_finetune_panel_reads_the_validation_choice_as_none(monkeypatch):
    from privlab.ui.panel import forget_panels

    monkeypatch.setenv("PRIVLAB_SMOKE", "1")
    forget_panels()
    panel = panels.finetune_panel()
    assert panel.controls["mix"].widget.value == "validation" and panel.config().mix is None
    panel.controls["mix"].set(0.5)
    assert panel.config().mix == 0.5
    forget_panels()


def test_image_controls_build_the_studys_config():
    controls = panels.ImageStudyControls(dicaprio, ["sface"], None, "", 0.1)
    config = controls.config()
    assert isinstance(config, dicaprio.Config)
    assert config.encoders == ("sface",) and config.delta == 0.1 and config.folder is None
    assert config.sanitizers == dicaprio.Config.default().sanitizers
    controls.folder.value = "/photos"
    assert controls.config().folder == "/photos"


def test_image_controls_turn_ground_truth_sanitizers_off_for_a_folder():
    controls = panels.ImageStudyControls(dicaprio, ["sface"], None, "", 0.0)
    assert any(s.startswith("cues:") for s in controls.sanitizers.value)
    controls.folder.value = "/photos"
    assert not any(s.startswith("cues:") for s in controls.sanitizers.options)
    assert "ground truth" in controls.note.value and controls.disabled()
    config = controls.config()  # accepted: no cue preset left selected
    assert set(config.sanitizers) <= set(dicaprio.Config.default().sanitizers) | set(
        dicaprio.FOLDER_SANITIZERS)
    controls.gallery.value, controls.recursive.value, controls.max_side.value = "/faces", True, 320
    config = controls.config()
    assert (config.gallery, config.recursive, config.max_side) == ("/faces", True, 320)
    controls.folder.value = ""
    assert controls.note.value == "" and controls.disabled() == {}
    assert any(s.startswith("cues:") for s in controls.sanitizers.options)

