"""The study notebooks' panels, by their historical names; every study has the same one.

Each ``<study>_panel`` function is :func:`privlab.ui.panel.study_panel` on the study
module, kept for existing notebooks; a new study needs none. See docs/methods/ui-panels.md.
"""

from __future__ import annotations

from typing import Any

from privlab.ui.panel import StudyPanel, study_panel


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


__all__ = ["avengers_panel", "calibration_panel", "dicaprio_panel", "enron_panel",
           "face_generators_panel", "finetune_panel", "image_panel", "known_epsilon_panel",
           "mcdonalds_panel", "quickstart_panel", "redacbench_panel", "scale_panel",
           "spia_panel"]
