"""The study notebooks' panels, by their historical names; every study has the same one.

A study's panel is :func:`privlab.ui.panel.study_panel` on the study module: its
controls come from what the study's ``Config`` fields declare
(:func:`privlab.studies.params.param`) and its result is drawn by its renderer
(:data:`privlab.ui.renderers.RENDERERS`) or its own display. A notebook shows its study
in two lines::

    panel = study_panel(privlab.studies.quickstart, encoders=(ENCODER,))  # parameter cell
    panel.show()

The ``<study>_panel`` functions below are that call, kept for existing notebooks; a new
study needs none. Study 01's ladder and detector-miss panels are made here by hand: they
run on the corpus of the main panel's last run.
"""

from __future__ import annotations

from typing import Any, Sequence

import privlab.ui.controls as c
import privlab.ui.renderers as renderers
from privlab.ui.panel import StudyPanel, study_panel


def _params(**values: Any) -> dict[str, Any]:
    return dict(values)


def _generic(slug: str) -> Any:
    def make(**params: Any) -> StudyPanel:
        import importlib

        return study_panel(importlib.import_module(f"privlab.studies.{slug}"), **params)

    make.__name__ = f"{slug}_panel"
    make.__qualname__ = make.__name__
    make.__doc__ = (f"The panel of study ``{slug}``: ``study_panel(privlab.studies.{slug}, "
                    "**params)`` (keyword values: the parameter cell's).")
    return make


quickstart_panel = _generic("quickstart")
dicaprio_panel = _generic("dicaprio")
mcdonalds_panel = _generic("mcdonalds")
avengers_panel = _generic("avengers")
enron_panel = _generic("enron")
known_epsilon_panel = _generic("known_epsilon")
face_generators_panel = _generic("face_generators")
redacbench_panel = _generic("redacbench")
spia_panel = _generic("spia")
calibration_panel = _generic("calibration")
finetune_panel = _generic("finetune")
scale_panel = _generic("scale")


def image_panel(study: Any, **params: Any) -> StudyPanel:
    """An image study's panel (01, 02): ``study_panel(study, **params)``."""
    return study_panel(study, **params)


# --------------------------------------------------------------------------- 01 ladder, miss
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


__all__ = ["avengers_panel", "calibration_panel", "dicaprio_ladder_panel",
           "dicaprio_miss_panel", "dicaprio_panel", "enron_panel", "face_generators_panel",
           "finetune_panel", "image_panel", "known_epsilon_panel", "mcdonalds_panel",
           "quickstart_panel", "redacbench_panel", "scale_panel", "spia_panel"]
