"""Shared by the panel tests: a fresh kernel's panels, and what a panel shows as text."""

from __future__ import annotations

import pytest

from privlab.ui.panel import forget_panels


@pytest.fixture
def fresh_panels(monkeypatch):
    """No kept panels before or after the test, and the studies on smoke settings."""
    forget_panels()
    monkeypatch.setenv("PRIVLAB_SMOKE", "1")
    yield
    forget_panels()


def shown_text(panel) -> str:
    """Every output of the panel's output area in its plain-text form, one per line."""
    return "\n".join(o["data"].get("text/plain", "") for o in panel.output.outputs)


def headlines_shown(panel) -> int:
    """How many headlines the panel's output area holds."""
    return sum(o["data"].get("text/plain", "").startswith("privlab-headline")
               for o in panel.output.outputs)
