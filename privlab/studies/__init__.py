"""One module per notebook, each on the study contract (:mod:`privlab.studies.contract`).

A study module registers its ``run`` and is found by :func:`load_members`, so a new study
needs no edit elsewhere; modules starting with ``_`` hold what several studies share.
See ``docs/methods/studies-contract.md``.

    >>> from privlab.studies import registry
    >>> registry.names()[:3]
    ['quickstart', 'dicaprio', 'mcdonalds']
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from typing import Any, Callable

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


@dataclass(frozen=True)
class SubStudy:
    """A run beside a registered study, from its module's ``SUB_STUDIES``.

    Attributes:
        parent: the study's slug, e.g. ``"dicaprio"``.
        name: the sub-study's name in ``SUB_STUDIES``, e.g. ``"ladder"``.
        run: ``run(config) -> Result``, a result on the study contract.
        Config: its settings (a :class:`StudyConfig`; ``Config.smoke()`` works).
        title: what its headline is labelled, e.g. ``"01 DiCaprio · ladder"``.
    """

    parent: str
    name: str
    run: Callable[..., Any]
    Config: type
    title: str

    @property
    def slug(self) -> str:
        """``"<parent>.<name>"``, the key :func:`sub_studies` lists it under."""
        return f"{self.parent}.{self.name}"


def sub_studies() -> dict[str, SubStudy]:
    """Every registered study's sub-studies, by ``"<parent>.<name>"``, in notebook order.

    Example:
        >>> sorted(sub_studies())
        ['dicaprio.detector_miss', 'dicaprio.ladder']
    """
    load_members()
    from privlab.studies.contract import registry

    out = {}
    for entry in registry.entries():
        module = sys.modules[entry.factory.__module__]
        for name, (run, config, title) in getattr(module, "SUB_STUDIES", {}).items():
            sub = SubStudy(entry.name, name, run, config, title)
            out[sub.slug] = sub
    return out


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


__all__ = ["Headline", "STUDY_MODULES", "Status", "StudyConfig", "StudyResult", "SubStudy",
           "load_members", "registry", "sub_studies"]
