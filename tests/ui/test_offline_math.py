"""The HTML copies ``privlab demo`` writes typeset their math with the network off.

:func:`privlab.ui.static.write_html` (what :func:`privlab.cli.run_notebooks.run_notebook`
calls) copies MathJax beside the page; the page is opened in headless Chromium with every
request outside its folder refused.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from privlab.ui.static import copy_mathjax, write_html
from tests.browser.fixtures import CHROMIUM, PAGES

ROOT = Path(__file__).resolve().parents[2]
# One Chromium for the page checks (tests/browser/fixtures.py), the page copy made once.
pytestmark = pytest.mark.xdist_group(PAGES)


@pytest.fixture(scope="module")
def page_copy(tmp_path_factory):
    """The quickstart notebook as its HTML copy, in a folder of its own."""
    folder = tmp_path_factory.mktemp("reports")
    nb = nbformat.read(ROOT / "notebooks" / "00_quickstart.ipynb", as_version=4)
    return write_html(nb, folder / "00_quickstart.html")


def test_the_copy_loads_math_from_its_own_folder_and_nothing_from_the_network(page_copy):
    text = page_copy.read_text(encoding="utf-8")
    scripts = re.findall(r'<script[^>]+src="([^"]+)"', text)
    assert "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe" in scripts
    assert not [s for s in scripts if s.startswith(("http:", "https:", "//"))], scripts
    assert (page_copy.parent / "mathjax" / "MathJax.js").is_file()
    assert "$$a_{ij}" in text  # the math is there for MathJax to typeset


def test_copying_twice_keeps_one_copy(tmp_path):
    assert copy_mathjax(tmp_path) == copy_mathjax(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["mathjax"]


@pytest.mark.skipif(CHROMIUM is None,
                    reason="Chromium is not installed (make test installs Debian's chromium)")
def test_math_renders_in_chromium_with_the_network_off(page_copy, chromium):
    folder = page_copy.parent.as_uri()
    refused: list[str] = []

    def only_the_folder(route):
        if route.request.url.startswith(folder):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    chromium.set_offline(True)
    chromium.route("**/*", only_the_folder)
    page = chromium.new_page()
    page.goto(page_copy.as_uri())
    page.wait_for_function("() => window.MathJax && MathJax.Hub && MathJax.Hub.queue"
                           " && MathJax.Hub.queue.pending === 0"
                           " && !MathJax.Hub.queue.running", timeout=60_000)
    found = page.evaluate("""() => ({
        typeset: document.querySelectorAll('.MathJax, .MathJax_Display').length,
        errors: document.querySelectorAll('.MathJax_Error').length,
        raw: document.body.innerText.includes('a_{ij}')})""")
    assert refused == []
    assert found["typeset"] > 0 and found["errors"] == 0, found
    assert not found["raw"], "the page still shows raw LaTeX"
