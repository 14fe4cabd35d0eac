"""Shared test settings: an isolated cache, the GPU marker, optional shared data."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # lets tests import llm_server

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory):
    """The test session's cache folder, set before any session fixture runs a study.

    Under pytest-xdist the workers (and the notebook kernels they start) share one
    folder, so what one computed (OCR readings, embeddings, known-ε settings) the other
    reads back; every cache there is written by rename, safe across processes."""
    patch = pytest.MonkeyPatch()
    base = tmp_path_factory.getbasetemp()
    cache = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "privlab-cache"
    patch.setenv("PRIVLAB_CACHE", str(cache))
    yield cache
    patch.undo()


@pytest.fixture(autouse=True)
def _isolated_cache(_session_cache, monkeypatch):
    """Each test session writes caches to a temporary folder, never the user's."""
    monkeypatch.setenv("PRIVLAB_CACHE", str(_session_cache))
    from privlab.contrastive import sanitized

    sanitized.clear()  # sanitizer outputs kept in memory: none carried from another test


def pytest_collection_modifyitems(config, items):
    try:
        import torch

        has_cuda = torch.cuda.is_available()
    except ImportError:
        has_cuda = False
    skip_gpu = pytest.mark.skip(reason="needs a CUDA device (none visible to torch)")
    for item in items:
        if "gpu" in item.keywords and not has_cuda:
            item.add_marker(skip_gpu)


@pytest.fixture
def shared_data() -> Path:
    """``../shared/data`` beside the repository; skips the test when it is absent."""
    from privlab.config import shared_data_dir

    path = shared_data_dir()
    if path is None:
        pytest.skip("reference data folder ../shared/data is absent (see data/README.md)")
    return path

# Small generated image corpora, built once per session.
@pytest.fixture(scope="session")
def celebrity():
    from privlab.datasets.scenes import celebrity_scenes

    return celebrity_scenes(12, seed=0)


@pytest.fixture(scope="session")
def brand():
    from privlab.datasets.scenes import brand_scenes

    return brand_scenes(6, seed=0)
