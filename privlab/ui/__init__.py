"""What a notebook shows: study panels, controls, tables for people, plots, figures.

The names below load their module on first use, so importing :mod:`privlab.ui` stays
cheap (the CLI imports it to run notebooks headless)::

    from privlab.ui import StudyPanel, study_panel, present, projector
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "StudyPanel": "privlab.ui.panel", "study_panel": "privlab.ui.panel",
    "forget_panels": "privlab.ui.panel", "Report": "privlab.ui.report",
    "present": "privlab.ui.tables", "numbered": "privlab.ui.tables",
    "display_name": "privlab.ui.tables", "headline_html": "privlab.ui.tables",
    "projector": "privlab.ui.plots", "Problem": "privlab.ui.problems",
    "explain": "privlab.ui.problems", "Option": "privlab.ui.choices",
}


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = sorted(_EXPORTS)
