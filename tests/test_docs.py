"""The documentation site: ``make docs``'s build, read in headless Chromium with the network off.

The site is built into a temporary folder (the committed notebooks as its notebook pages)
and opened from ``file://`` with every request that leaves the built folder refused: math
must be typeset by the local MathJax copy, and the API reference must list the kernel.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.fixtures import CHROMIUM, PAGES

ROOT = Path(__file__).resolve().parents[1]
EXECUTED = "printed by the executed copy of privlab demo"


def _missing_docs_tools() -> str | None:
    try:
        import jupyter_server_mathjax  # noqa: F401
        import mkdocs  # noqa: F401
        import mkdocs_jupyter  # noqa: F401
        import mkdocstrings  # noqa: F401
    except ImportError as exc:
        return f"the docs tools are not installed ({exc.name}): pip install -e '.[docs]'"
    return None


pytestmark = [
    # One worker builds the site once for the module, and reads it in the Chromium of the
    # other page checks.
    pytest.mark.xdist_group(PAGES),
    pytest.mark.browser,
    pytest.mark.skipif(_missing_docs_tools() is not None, reason=str(_missing_docs_tools())),
]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site as ``make docs`` builds it, in a temporary folder."""
    work = tmp_path_factory.mktemp("docs")
    out = work / "site"
    # The committed notebooks, the quickstart with the widget state and an output an
    # executed copy of privlab demo keeps (its page shows the output and must not fetch a
    # widget manager).
    notebooks = work / "notebooks"
    shutil.copytree(ROOT / "notebooks", notebooks)
    quickstart = notebooks / "00_quickstart.ipynb"
    nb = json.loads(quickstart.read_text(encoding="utf-8"))
    nb["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {
        "state": {}, "version_major": 2, "version_minor": 0}}
    code = next(cell for cell in nb["cells"] if cell["cell_type"] == "code")
    code["outputs"] = [{"output_type": "stream", "name": "stdout", "text": [EXECUTED]}]
    quickstart.write_text(json.dumps(nb), encoding="utf-8")
    env = {**os.environ, "PRIVLAB_DOCS_NOTEBOOKS": str(notebooks), "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir",
                           str(out)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def test_the_build_holds_the_pages_the_notebooks_and_a_local_mathjax(site):
    assert (site / "index.html").is_file()
    assert (site / "assets" / "mathjax" / "MathJax.js").is_file()
    notebooks = sorted(p.stem for p in (site / "notebooks").glob("*.html"))
    committed = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))
    assert notebooks == committed
    # An executed notebook's page shows its outputs.
    assert EXECUTED in (site / "notebooks" / "00_quickstart.html").read_text(encoding="utf-8")
    # Opened from file://, every link of the home page leads to a page (not a folder).
    home = (site / "index.html").read_text(encoding="utf-8")
    links = [link for link in re.findall(r'href="([^"#?]+)', home) if "://" not in link]
    assert len(links) > 20
    for link in links:
        assert (site / link).is_file(), link
    # No page loads a script, style or font from a CDN.
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for tag in ("<script src=\"http", "<link href=\"http", "rel=\"stylesheet\" href=\"http",
                    "jupyter-widgets"):
            assert tag not in text, f"{page.relative_to(site)} loads {tag!r}"


@pytest.mark.skipif(CHROMIUM is None,
                    reason="Chromium is not installed (make test installs Debian's chromium)")
def test_math_renders_and_the_reference_lists_the_kernel_with_the_network_off(site, chromium):
    refused: list[str] = []

    def only_the_site(route):
        url = route.request.url
        if url.startswith(site.as_uri()):
            route.continue_()
        else:
            refused.append(url)
            route.abort()

    chromium.route("**/*", only_the_site)
    page = chromium.new_page()
    pages = {}
    for name in ("index.html", "notebooks/00_quickstart.html"):
        page.goto((site / name).as_uri())
        page.wait_for_function(
            "() => window.MathJax && MathJax.Hub && MathJax.Hub.queue.pending === 0"
            " && !MathJax.Hub.queue.running", timeout=30_000)
        pages[name] = page.evaluate(
            """() => ({typeset: document.querySelectorAll(
                          '.MathJax, .MathJax_Display, .MathJax_SVG').length,
                      errors: document.querySelectorAll('.MathJax_Error').length,
                      raw: document.body.innerText.includes('\\\\delta^*')})""")
    page.goto((site / "reference" / "resolution.html").as_uri())
    reference = page.inner_text("article")
    assert refused == []
    for name, found in pages.items():
        assert found["typeset"] > 0 and found["errors"] == 0, (name, found)
    assert not pages["index.html"]["raw"], "the index page shows raw LaTeX"
    assert "privlab.resolution" in reference
    for name in ("symmetric_resolution", "reference_directions", "Resolution"):
        assert name in reference, name
