"""One module per notebook, each on the study contract (:mod:`privlab.studies.contract`).

``from privlab.studies import registry`` lists the twelve studies in notebook order::

    >>> from privlab.studies import registry
    >>> registry.names()[:3]
    ['quickstart', 'dicaprio', 'mcdonalds']

Each entry's factory is the study's ``run``; its metadata give the notebook number,
title and module.
"""

from __future__ import annotations

import importlib
from typing import Any

from privlab.studies.contract import Headline, StudyConfig, StudyResult

#: Study modules in notebook order (00 ... 11).
STUDY_MODULES = ("quickstart", "dicaprio", "mcdonalds", "avengers", "enron", "known_epsilon",
                 "face_generators", "redacbench", "spia", "calibration", "finetune", "scale")


def __getattr__(name: str) -> Any:
    # The registry fills as the study modules import; load them all on first use so the
    # listing is complete without importing every study's dependencies up front.
    if name == "registry":
        for module in STUDY_MODULES:
            importlib.import_module(f"{__name__}.{module}")
        from privlab.studies.contract import registry

        return registry
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Headline", "STUDY_MODULES", "StudyConfig", "StudyResult", "registry"]
