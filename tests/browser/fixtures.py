"""One JupyterLab server and one headless Chromium for a run of consecutive browser tests.

Registered for the whole suite by ``tests/conftest.py``. The ``lab`` fixture gives each
test a fresh copy of the notebooks (its own folder on the shared server) and shuts its
kernels down after it; ``lab_page`` is one JupyterLab page kept open, in which each test
opens its notebook after closing the last test's, as a person opens the next notebook;
the ``chromium`` fixture gives each test a fresh browser context (no cookies, storage or
cache carried over) in the shared browser. Only start-ups are shared: the server's and the
browser's (a few seconds each) and JupyterLab's in the page (about 5 s).

The JupyterLab tests share one xdist group (``GROUP``), the other Chromium tests another
(``PAGES``), so that each group runs on one worker, one test after the other; what they
share is closed as soon as the worker goes on to a test outside the group that does not
use it (Playwright's event loop marks itself running between calls: it must not outlive
the browser tests into another test's ``asyncio.run``), and at the end of the session.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
#: The xdist group of the tests that use ``lab`` (one worker runs them one after the other).
GROUP = "browser.lab"
#: The xdist group of the other tests that use ``chromium`` (pages without JupyterLab).
PAGES = "browser.pages"
TOKEN = "privlab-test-token"


class Lab(NamedTuple):
    """A test's view of the shared server: its address, token and the folder (relative to
    the server's root) holding the test's own copy of the notebooks."""

    base: str
    token: str
    folder: str

    def url(self, name: str) -> str:
        """The address of notebook ``name`` in the test's own JupyterLab workspace (a fresh
        workspace restores no tab of an earlier test)."""
        return f"{self.base}/lab/workspaces/{self.folder}/tree/{self.folder}/{name}" \
               f"?token={self.token}"


class _Server:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.serial = itertools.count(1)
        self.base, self.proc, self.log = _start_lab(root)

    def close(self) -> None:
        """Stop the server: it shuts its kernels down (seconds) while the next test runs;
        the end of the session waits for it."""
        self.proc.terminate()
        reaper = threading.Thread(target=self._reap, daemon=True)
        reaper.start()
        _STOPPING.append(reaper)

    def _reap(self) -> None:
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


#: The servers stopping in the background.
_STOPPING: list[threading.Thread] = []


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_lab(root: Path):
    """JupyterLab serving ``root/notebooks`` on 127.0.0.1 with a token."""
    work = root / "notebooks"
    work.mkdir(parents=True)
    port = _free_port()
    # No "get notified about news?" toast over the notebook: news are off in the settings.
    settings = root / "lab-settings"
    news = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    news.parent.mkdir(parents=True)
    news.write_text('{"fetchNews": "false"}')
    # Smoke settings by default; PRIVLAB_WALK_PROFILE=demo walks what a class sees (the
    # settings a notebook opened in JupyterLab runs on).
    from privlab.config import PROFILES

    walk_profile = os.environ.get("PRIVLAB_WALK_PROFILE", "smoke")
    if walk_profile not in PROFILES:
        pytest.fail(f"PRIVLAB_WALK_PROFILE={walk_profile!r}: use one of {', '.join(PROFILES)} "
                    "(or unset it for smoke settings)")
    # PRIVLAB_PROFILE alone picks the settings; PRIVLAB_SMOKE=0 keeps a caller's smoke
    # switch from overriding it.
    env = {**os.environ, "PRIVLAB_SMOKE": "0", "PRIVLAB_PROFILE": walk_profile,
           "JUPYTER_CONFIG_DIR": str(root / "jcfg"),
           "JUPYTER_RUNTIME_DIR": str(root / "jrt"), "JUPYTERLAB_SETTINGS_DIR": str(settings),
           "JUPYTERLAB_WORKSPACES_DIR": str(root / "workspaces")}
    log = open(root / "lab.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
         f"--ServerApp.token={TOKEN}", f"--ServerApp.root_dir={work}", "--allow-root",
         "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
         "--LabApp.expose_app_in_browser=True"],  # window.jupyterapp: see lab_page
        env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={TOKEN}", timeout=2)
            return base, proc, log
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    log.close()
    pytest.fail("JupyterLab did not start: " + (root / "lab.log").read_text()[-2000:])


class _Browser:
    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        self.playwright = sync_playwright().start()
        try:
            self.browser = self.playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        except BaseException:
            self.playwright.stop()
            raise

    def close(self) -> None:
        try:
            self.browser.close()
        finally:
            self.playwright.stop()


#: The shared server and browser of this worker, by fixture name, while in use.
_SHARED: dict[str, _Server | _Browser | _LabPage] = {}


def _shared(name: str, make):
    if name not in _SHARED:
        _SHARED[name] = make()
    return _SHARED[name]


def _api(lab: Lab, method: str, path: str):
    request = urllib.request.Request(f"{lab.base}{path}?token={lab.token}", method=method)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer) if method == "GET" else None


def _quietly(call, *args) -> None:
    try:
        call(*args)
    except OSError:
        pass  # the server was closed first: it shut the kernel down itself


@pytest.fixture
def lab(tmp_path_factory) -> Lab:
    """The shared JupyterLab server, a fresh copy of the notebooks in a folder of the
    test's own; the kernels the test started are shut down after it."""
    server = _shared("lab", lambda: _Server(tmp_path_factory.mktemp("lab")))
    folder = f"t{next(server.serial)}"
    shutil.copytree(ROOT / "notebooks", server.root / "notebooks" / folder)
    mine = Lab(server.base, TOKEN, folder)
    yield mine
    # A kernel takes seconds to shut down: the next test goes on meanwhile (it waits only
    # for kernels of its own folder); closing the server ends what is left.
    for session in _api(mine, "GET", "/api/sessions"):
        if session.get("path", "").startswith(f"{folder}/"):
            threading.Thread(target=_quietly, daemon=True, args=(
                _api, mine, "DELETE", f"/api/sessions/{session['id']}")).start()


@pytest.fixture
def chromium():
    """A fresh context of the shared headless Chromium (its pages are closed after)."""
    shared = _shared("chromium", _Browser)
    context = shared.browser.new_context()
    yield context
    context.close()


class _LabPage:
    """A page of its own browser context, on JupyterLab once a test has opened a notebook."""

    def __init__(self, browser: _Browser) -> None:
        self.context = browser.browser.new_context(viewport={"width": 1400, "height": 1000})
        self.page = self.context.new_page()

    def close(self) -> None:
        self.context.close()


#: Closes every document of the app without saving (the test's copy is thrown away).
CLOSE_DOCUMENTS = """() => { const app = window.jupyterapp; if (!app) return;
  for (const w of Array.from(app.shell.widgets('main'))) {
    if (w.context) w.context.model.dirty = false;
    w.dispose(); } }"""


@pytest.fixture
def lab_page(lab):
    """The shared Chromium's JupyterLab page (1400 x 1000), for :func:`tests.browser.lab.
    open_notebook`: loading JupyterLab takes about 5 s, opening a notebook in it under 1 s.
    After the test its documents are closed, before ``lab`` shuts their kernels down."""
    shared = _shared("lab_page", lambda: _LabPage(_shared("chromium", _Browser)))
    yield shared.page
    try:
        shared.page.evaluate(CLOSE_DOCUMENTS)
    except Exception:
        _SHARED.pop("lab_page").close()  # the page broke with the test: the next loads anew


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a test's own teardown, close the shared things that neither the next test nor
    the rest of the test's xdist group uses."""
    result = yield
    if nextitem is None:
        needed = set()
    elif _groups(item) & _groups(nextitem):
        needed = set(_SHARED)
    else:
        needed = set(getattr(nextitem, "fixturenames", ()))
    if "lab_page" in needed:
        needed.add("chromium")  # the page lives in the shared browser
    for name in [n for n in reversed(_SHARED) if n not in needed]:  # the page before its browser
        _SHARED.pop(name).close()
    return result


def _groups(item) -> set:
    return {m.args[0] for m in item.iter_markers("xdist_group") if m.args}


def pytest_sessionfinish(session):
    while _SHARED:
        _SHARED.popitem()[1].close()  # last made, first closed
    for reaper in _STOPPING:
        reaper.join(timeout=30)
