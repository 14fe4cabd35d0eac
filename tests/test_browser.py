"""A person's view: JupyterLab on loopback, the quickstart run in headless Chromium.

The panel is read as drawn (headline in view, no number wrapping in its table cell, no
table wider than the output area outside a scrolling box); every notebook is read so in
the walks of ``tests/browser/test_study_panels.py`` (``-m browser_full``). The screenshot
is saved to ``test-artifacts/quickstart-lab.png`` for a reviewer to look at.
"""

from __future__ import annotations

import pytest

from tests.browser.fixtures import CHROMIUM, GROUP, ROOT
from tests.browser.lab import assert_readable_layout, open_notebook

ARTIFACTS = ROOT / "test-artifacts"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group(GROUP),  # one JupyterLab and one Chromium for the browser tests
    pytest.mark.skipif(CHROMIUM is None,
                       reason="Chromium is not installed (make test installs Debian's chromium)"),
]


def test_quickstart_runs_in_jupyterlab_and_shows_its_widget(lab, lab_page):
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "quickstart-lab.png"
    page = lab_page
    # The server answers 500 while it registers a new kernel: the helper asks again.
    open_notebook(page, lab, "00_quickstart.ipynb")
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
    assert visible, "the study panel's Run button is not visible"
    # Its tables as drawn: numbers on one line, none wider than the output area.
    assert drawn["tables"] > 0 and drawn["numeric"] > 0, drawn
    assert "Error displaying widget" not in text
    # the headline's first line, then what it rests on folded beneath it ("rests on (n)")
    assert "00 quickstart" in text and "rests on (" in text
    assert text.count("rests on (") == 1, "the headline is shown more than once"
    assert "Traceback" not in text
    assert shot.stat().st_size > 10_000
