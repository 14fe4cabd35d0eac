"""A person's view: JupyterLab on loopback, the quickstart run in headless Chromium.

The panel is read as drawn (headline in view, no number wrapping in its table cell, no
table wider than the output area outside a scrolling box); every notebook is read so in
the walks of ``tests/browser/test_study_panels.py`` (``-m browser_full``). The screenshot
is saved to ``test-artifacts/quickstart-lab.png`` for a reviewer to look at.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser.lab import assert_readable_layout, wait_for_idle_kernel

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None,
                       reason="Chromium is not installed (make test installs Debian's chromium)"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def lab(tmp_path):
    """JupyterLab serving a copy of the notebooks on 127.0.0.1 with a token."""
    work = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", work)
    port, token = _free_port(), "privlab-test-token"
    # No "get notified about news?" toast over the notebook: news are off in the settings.
    settings = tmp_path / "lab-settings"
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
           "JUPYTER_CONFIG_DIR": str(tmp_path / "jcfg"),
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "jrt"), "JUPYTERLAB_SETTINGS_DIR": str(settings)}
    log = open(tmp_path / "lab.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
         f"--ServerApp.token={token}", f"--ServerApp.root_dir={work}", "--allow-root",
         "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
            break
        except OSError:
            time.sleep(0.5)
    else:
        proc.terminate()
        pytest.fail("JupyterLab did not start: " + (tmp_path / "lab.log").read_text()[-2000:])
    yield base, token
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def test_quickstart_runs_in_jupyterlab_and_shows_its_widget(lab):
    from playwright.sync_api import sync_playwright

    base, token = lab
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "quickstart-lab.png"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{base}/lab/tree/00_quickstart.ipynb?token={token}")
        page.wait_for_selector(".jp-Notebook", timeout=90_000)
        # The server answers 500 while it registers a new kernel: the helper asks again.
        wait_for_idle_kernel(base, token)
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        # The panel draws the headline (styled, once) when its first run is done.
        page.wait_for_selector(".privlab-panel .privlab-headline", timeout=300_000)
        drawn = assert_readable_layout(page, "00_quickstart")
        button = page.locator(".privlab-panel button.widget-button", has_text="Run").first
        button.scroll_into_view_if_needed()
        visible = button.is_visible()
        page.screenshot(path=str(shot), full_page=False)
        text = page.inner_text(".jp-Notebook")
        browser.close()
    assert visible, "the study panel's Run button is not visible"
    # Its tables as drawn: numbers on one line, none wider than the output area.
    assert drawn["tables"] > 0 and drawn["numeric"] > 0, drawn
    assert "Error displaying widget" not in text
    # the headline's first line, then what it rests on folded beneath it ("rests on (n)")
    assert "00 quickstart" in text and "rests on (" in text
    assert text.count("rests on (") == 1, "the headline is shown more than once"
    assert "Traceback" not in text
    assert shot.stat().st_size > 10_000
