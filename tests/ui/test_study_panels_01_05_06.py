"""The panels of studies 01, 05 and 06: progress from the studies, the sections of 01 that
run on the main panel's corpus, and one rendering of each result."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from privlab import progress  # noqa: E402
from privlab.errors import PrivlabValueError  # noqa: E402
from privlab.studies import dicaprio, face_generators, known_epsilon, sub_studies  # noqa: E402
from privlab.ui import panels, study_panel  # noqa: E402
from tests.ui.conftest import headlines_shown as _headlines, shown_text as _plain  # noqa: E402


pytestmark = pytest.mark.usefixtures("fresh_panels")


def test_the_image_study_reports_each_member_then_each_sanitizer():
    config = dicaprio.Config.smoke(n_images=3, encoders=("ocr-text", "efficientnet-lite0"),
                                   sanitizers=("cues:every cue", "cues:faces only"),
                                   placebo=False, leak_table=False)
    seen = []
    with progress.reporting(seen.append):
        result = dicaprio.run(config)
    stages = list(dict.fromkeys((s.stage, s.done, s.total) for s in seen if not s.message))
    assert stages == [("encoding the originals with ocr-text", 0, 5),
                      ("encoding the originals with efficientnet-lite0", 1, 5),
                      ("sanitizing and auditing cues:every cue", 2, 5),
                      ("sanitizing and auditing cues:faces only", 3, 5),
                      ("checking whether each concept is still there", 4, 5),
                      ("audit done", 5, 5)]
    # Within each stage, the images as they are read, sanitized and encoded.
    details = [s.label() for s in seen if s.detail is not None]
    assert any(t.startswith("encoding the originals with ocr-text: 0 of 5 · encoded: 0 of 3 · "
                            "images read: ") for t in details)
    assert any(t.startswith("sanitizing and auditing cues:faces only: 3 of 5 · sanitizing: 0 of 3 · "
                            "sanitized: ")
               for t in details)
    fractions = [s.fraction for s in seen]
    assert fractions == sorted(fractions)
    # the audits are those of one audit_many call over both sanitizers
    from privlab.contrastive import audit_many
    from privlab.studies._images import build_encoders, build_sanitizers

    corpus = dicaprio.celebrity_scenes(3, config.seed)
    encoders = build_encoders(config.encoders, corpus.gallery)
    reference = audit_many(corpus.images, build_sanitizers(config.sanitizers, dicaprio.PRESETS,
                                                           corpus),
                           encoders=encoders, top_k=config.top_k, placebo=False)
    assert result.members().to_dict() == {
        m: {a.name: v for a, v in zip(reference, col)}
        for m, col in ((m, [a.members[i].value for a in reference])
                       for i, m in enumerate(config.encoders))}


def test_the_epsilon_studies_move_the_bar_to_the_end():
    for study, config in ((face_generators, face_generators.Config.smoke(cascade_passes=0)),):
        seen = []
        with progress.reporting(seen.append):
            study.run(config)
        assert seen[0].done == 0 and seen[-1].fraction == 1.0
        assert [s.done for s in seen] == sorted(s.done for s in seen)


def test_known_epsilon_panel_runs_its_explored_setting_and_draws_every_section():
    panel = panels.known_epsilon_panel()
    # The study's default auditors are ticked; ticked as they are, they stand for None.
    assert ({o.name for o in panel.controls["auditors"].chosen()}
            == set(known_epsilon.default_auditors()))
    assert panel.values()["auditors"] is None and panel.config().auditors is None
    seen = []
    panel._step = seen.append
    result = panel.run()
    assert panel.problem is None and result.config.mechanism == "laplace"
    assert [s.done for s in seen][-1] == seen[-1].total
    text = _plain(panel)
    assert _headlines(panel) == 1
    for section in ("The explored setting", "Table 4", "Figure 2", "Figure 3", "Appendix",
                    "Validity"):
        assert section in text, section
    panel.controls["mechanism"].set("gaussian")
    again = panel.run()
    assert again.config.mechanism == "gaussian" and "gaussian" in _plain(panel)


def test_face_generators_panel_draws_the_generators_and_the_cascade_once():
    panel = panels.face_generators_panel(strength=0.1, compare_strength=0.4)
    result = panel.run()
    assert panel.problem is None and result.config.strength == 0.1
    text = _plain(panel)
    assert _headlines(panel) == 1
    assert "What the toy generators make" in text and "The random-donor cascade" in text
    assert text.count("<Figure") >= 2
    panel.controls["cascade_passes"].set(0)
    panel.run()
    assert "Skipped" in _plain(panel) and panel.result.cascade is None


def test_the_ladder_and_the_miss_run_on_the_main_panels_corpus_and_say_when_it_changed():
    main = panels.dicaprio_panel(encoders=["ocr-text"], sanitizers=["cues:every cue"],
                                 placebo=False)
    main.run()
    assert main.problem is None
    ladder = study_panel("dicaprio.ladder", follow=main, encoders=["ocr-text"])
    miss = study_panel(sub_studies()["dicaprio.detector_miss"], follow=main, tilt=30.0)
    # built from the sub-studies' Configs: their own declared settings, not the corpus's
    assert list(ladder.controls) == ["encoders"] and list(miss.controls) == ["tilt"]
    assert isinstance(ladder.config(), dicaprio.LadderConfig)
    assert ladder.title == "01 DiCaprio · ladder" and "above" in ladder.widget.children[1].value
    assert ladder.config().n_images == main.config_used.n_images
    assert ladder.config().placebo is False and ladder.config().encoders == ("ocr-text",)
    assert miss.config().tilt == 30.0 and miss.config().placebo is False
    ladder.run()
    assert ladder.problem is None and _headlines(ladder) == 1
    assert "Raw resolution δ* per rung" in _plain(ladder)
    # the main panel runs again on the same corpus: the ladder stays as it is
    main.controls["sanitizers"].set(("cues:faces only",))
    main.run()
    assert "privlab-stale" not in ladder.output._dom_classes
    # ... on another corpus (the placebo on): the ladder says so and is dimmed
    main.controls["placebo"].set(True)
    main.run()
    assert "privlab-stale" in ladder.output._dom_classes
    assert "press Run" in ladder.status.value
    assert ladder.config().placebo is True  # its next run takes the new corpus
    # Run All hands back the same panels, with one callback each
    assert study_panel("dicaprio.ladder", follow=main, encoders=["ocr-text"]) is ladder
    assert len(main._after_run) == 2
    miss.run()
    assert miss.problem is None and _headlines(miss) == 1 and miss.result.config.tilt == 30.0
    assert miss.result.provenance["choices"] == {"tilt": 30.0}


def test_a_sub_study_panel_needs_a_parent_panel_only_to_follow():
    alone = study_panel("dicaprio.ladder")   # its own Config's settings, every control
    assert {"encoders", "data", "placebo"} <= set(alone.controls)
    assert isinstance(alone.config(), dicaprio.LadderConfig)
    main = panels.dicaprio_panel(encoders=["ocr-text"])
    with pytest.raises(PrivlabValueError, match="'follow' parameter of study_panel"):
        study_panel(dicaprio, follow=main)   # a main study follows no panel
    with pytest.raises(PrivlabValueError, match="'study' parameter of StudyPanel"):
        study_panel("dicaprio.no_such_part", follow=main)


def test_an_offline_hub_member_ends_in_a_short_message(monkeypatch):
    from privlab.ui.choices import hub_offline

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert hub_offline()
    main = panels.dicaprio_panel(encoders=["clip-vit-b-32"], sanitizers=["cues:every cue"],
                                 placebo=False)
    assert main.run() is None
    if main.problem is None:  # pragma: no cover - the weights are cached here
        pytest.skip("clip-vit-b-32's weights are in the local cache")
    text = _plain(main)
    assert "clip-vit-b-32" in text and "Fix:" in text and "Traceback" not in text
