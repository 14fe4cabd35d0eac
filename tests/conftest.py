"""Shared test settings: an isolated cache, the GPU marker, optional shared data."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # lets tests import llm_server

# The browser tests' shared JupyterLab and Chromium (fixtures ``lab``, ``chromium``).
pytest_plugins = ["tests.browser.fixtures"]

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


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    """Under pytest-xdist the controller, which runs no test, starts pip's dry runs of the
    install commands (tests/pip_dry_runs.py): they wait on the package index, not the CPU."""
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    fixes = Path(__file__).parent / "test_fixes.py"
    chosen = [Path(str(a).split("::")[0]).resolve() for a in config.args]
    if chosen and not any(p == fixes or p in fixes.parents for p in chosen):
        return
    from pip_dry_runs import start_prefetch

    slow = "slow" in (config.getoption("-m") or "")
    config._pip_dry_runs = start_prefetch(config._tmp_path_factory.getbasetemp(), slow)


def pytest_unconfigure(config):
    thread = getattr(config, "_pip_dry_runs", None)
    if thread is not None:
        thread.join(timeout=600)  # no pip process outlives the session


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    _mark_groups(config, items)
    _skip_gpu(items)


@pytest.fixture(autouse=True)
def _timeline(request):
    """With ``PRIVLAB_TEST_TIMELINE=<file>``, each test's worker, start and end are
    appended there (to see where a worker waits alone)."""
    path = os.environ.get("PRIVLAB_TEST_TIMELINE")
    if not path:
        yield
        return
    import time

    start = time.time()
    yield
    with open(path, "a") as out:
        out.write(f"{os.environ.get('PYTEST_XDIST_WORKER', 'gw0')} {start:.2f} {time.time():.2f} "
                  f"{request.node.nodeid}\n")


def _mark_groups(config, items) -> None:
    """Give each ``xdist_group`` test its group in its node id, as ``--dist loadgroup`` needs.

    pytest-xdist 3.8 writes the ``@group`` suffix to an attribute that pytest 9.2 no longer
    reads, so without this every group was split across the workers and a module's
    expensive session fixtures were built once per worker.
    """
    if not getattr(config.option, "loadgroup", False):
        return
    from _pytest.nodeid import NodeId

    for item in items:
        if "@" in item.nodeid:
            continue  # already suffixed (an older pytest)
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if names:
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")


def _skip_gpu(items) -> None:
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
