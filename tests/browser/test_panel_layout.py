"""Two table-heavy notebooks read as drawn in JupyterLab, in the default suite.

Run All, then: the headline is in view, no number wraps in its table cell and no table is
wider than the output area outside a scrolling box
(:func:`tests.browser.lab.assert_readable_layout`). The quickstart is read so in
``tests/test_browser.py``; every notebook is, within its whole walk, in
``tests/browser/test_study_panels.py`` (``-m browser_full``, off by default: about half
an hour on two cores).
"""

from __future__ import annotations

import pytest

from tests.browser import lab as ui
from tests.browser.fixtures import CHROMIUM, GROUP

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group(GROUP),  # one JupyterLab and one Chromium for the browser tests
    pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (make browser-deps)"),
]


# 05: the widest tables (a column per auditor); 07: long text beside numbers. 05 second:
# its kernel then starts later, after the contract's 05 smoke run has filled the cache.
@pytest.mark.parametrize("name", ["07_redacbench", "05_known_epsilon"])
def test_the_panel_is_drawn_readably(lab, lab_page, name):
    with ui.notebook_after_run_all(lab, name, lab_page) as page:
        drawn = ui.assert_readable_layout(page, name)
    assert drawn["tables"] >= 2 and drawn["numeric"] >= 10, drawn
