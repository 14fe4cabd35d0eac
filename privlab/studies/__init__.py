"""One module per notebook, each on the study contract (:mod:`privlab.studies.contract`).

``from privlab.studies import registry`` lists the studies in notebook order::

    >>> from privlab.studies import registry
    >>> registry.names()[:3]
    ['quickstart', 'dicaprio', 'mcdonalds']

Each entry's factory is the study's ``run``; its metadata give the notebook number,
title and notebook. A study is a module here that registers its ``run``
(``@registry.member(slug, number=..., title=..., notebook=...)``); :func:`load_members`
finds it, so a new study needs no edit to any other file. Modules whose name starts
with ``_`` hold what several studies share.
"""

from __future__ import annotations

import importlib
from typing import Any

from privlab.registry import member_modules
from privlab.studies.contract import Headline, Status, StudyConfig, StudyResult


def load_members() -> tuple[str, ...]:
    """Import every module of this package, so that each study in it registers itself.

    Called on first use of :data:`registry` or :data:`STUDY_MODULES`, so importing
    ``privlab.studies`` loads no study and its dependencies. Returns the modules' names,
    sorted.
    """
    return tuple(importlib.import_module(f"{__name__}.{name}").__name__
                 for name in member_modules(__path__))


def __getattr__(name: str) -> Any:
    # The registry fills as the study modules import; load them all on first use so the
    # listing is complete without importing every study's dependencies up front.
    if name in ("registry", "STUDY_MODULES"):
        load_members()
        from privlab.studies.contract import registry

        if name == "registry":
            return registry
        #: Study modules in notebook order (00, 01, ...).
        return tuple(e.factory.__module__.rpartition(".")[2] for e in registry.entries())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Headline", "STUDY_MODULES", "Status", "StudyConfig", "StudyResult", "load_members",
           "registry"]
