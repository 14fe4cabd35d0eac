"""Shared fixtures for the image tests: small generated corpora, built once per session."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def celebrity():
    from privlab.datasets.scenes import celebrity_scenes

    return celebrity_scenes(12, seed=0)


@pytest.fixture(scope="session")
def brand():
    from privlab.datasets.scenes import brand_scenes

    return brand_scenes(6, seed=0)
