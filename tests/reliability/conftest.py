"""Fixtures shared by the reliability tests."""

from __future__ import annotations

import io
import logging

import pytest


@pytest.fixture
def every_log():
    """Everything every logger writes at DEBUG, formatted as a user's basicConfig would
    (exceptions and stacks included)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
