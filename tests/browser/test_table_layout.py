"""The layout check of the notebook walks, on pages whose answer is known.

:func:`tests.browser.lab.table_layout` measures, in Chromium, whether a number wraps in
its cell and whether a table is wider than the output area outside a scrolling box. Here
it reads tables drawn by :func:`privlab.ui.tables.present` in a narrow output area (none
wraps, the wide one scrolls) and hand-made faulty ones (a number squeezed into a narrow
column, a wide table with no scrolling box), which it must name.
"""

from __future__ import annotations

import pandas as pd
import pytest

from privlab.ui.tables import present
from tests.browser import lab as ui
from tests.browser.fixtures import CHROMIUM, PAGES

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group(PAGES),  # one Chromium for the page checks
    pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (make browser-deps)"),
]


def _page(body: str) -> str:
    return (f"<html><body style='margin:0;font:14px sans-serif'><div class='privlab-panel'>"
            f"<div class='privlab-output' style='width:420px'>{body}</div></div></body></html>")


def _measure(chromium, html: str) -> dict:
    page = chromium.new_page()
    page.set_viewport_size({"width": 800, "height": 600})
    page.set_content(html)
    return ui.table_layout(page)


def test_the_project_tables_in_a_narrow_area_pass_and_faulty_ones_are_named(chromium):
    wide = pd.DataFrame({f"resolution under member {k}": [0.123456 * k, 1552.0 + k]
                         for k in range(1, 10)}, index=["presidio", "concept-list"])
    narrow = pd.DataFrame({"sanitizer": ["presidio"], "interval": ["0.41 – 0.62"],
                           "emails": [1552]})
    good = present(wide, caption="nine members").to_html() + present(narrow).to_html()
    squeezed = ("<table><tr><td style='width:30px;max-width:30px'>0.4139 – 0.6217</td>"
                "<td>12<br>34</td></tr></table>")
    unboxed = ("<table style='width:900px'><tr><td>presidio</td><td>0.473</td></tr></table>")
    boxed = f"<div style='overflow-x:auto;max-width:100%'>{unboxed}</div>"
    folded = f"<details>{squeezed}</details>"

    found = _measure(chromium, _page(good + squeezed + unboxed + boxed + folded))

    # Every table drawn is measured; the folded one is not drawn.
    assert found["tables"] == 5, found["drawn"]
    # The numbers: the wide table's 18 cells (its headers are words), the narrow one's
    # interval and count, the squeezed pair, one in each of the two 900 px tables.
    assert found["numeric"] == 18 + 2 + 2 + 1 + 1
    # The squeezed interval wraps and is named; "12<br>34" breaks where it is told to.
    assert len(found["wrapped"]) == 1 and found["wrapped"][0].startswith(
        "table 2: 0.4139 – 0.6217 ("), found["wrapped"]
    # The 900 px table with no scrolling box is named; in its box it is not.
    assert found["wide"] == ["table 3: 900 px in a 420 px area"]
