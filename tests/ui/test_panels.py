"""The notebook panels build their study's Config from widget values and run it."""

from __future__ import annotations

import pytest

from privlab.studies import avengers, enron, quickstart
from privlab.ui import panels


def test_quickstart_panel_runs_the_study_from_its_controls(monkeypatch):
    from privlab.ui.panel import forget_panels

    monkeypatch.setenv("PRIVLAB_SMOKE", "1")
    forget_panels()
    panel = panels.quickstart_panel(encoders=("lexical",))
    assert panel.values()["encoders"] == ("lexical",)
    result = panel.run()
    assert isinstance(result, quickstart.QuickstartResult)
    assert sorted(result.audits) == ["strong", "weak"]
    direct = quickstart.run(quickstart.Config(encoders=("lexical",)))
    for label in ("weak", "strong"):
        assert result.audits[label].members[0].value == direct.audits[label].members[0].value
    forget_panels()


def test_text_panels_offer_the_broad_list_and_every_text_sanitizer(monkeypatch):
    from privlab.sanitizers import registry
    from privlab.ui.panel import forget_panels

    monkeypatch.setenv("PRIVLAB_SMOKE", "1")
    forget_panels()
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
    panel = panels.enron_panel(data="offline", encoders=("lexical",))
    assert panel.values()["limit"] == enron.SMOKE_LIMIT
    panel.controls["limit"].set(None)
    assert panel.controls["limit"].widget.value == 0
    config = panel.config()
    assert config.limit is None and config.data == "offline"
    assert any(o.name == "real" for o in panel.controls["data"].options)
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
