"""An audit's HTML report opens in headless Chromium with the network off and shows the
headline, the witness texts and the rendered formula (MathML: no script, nothing fetched)."""

from __future__ import annotations

import shutil

import pytest

import privlab
from privlab.datasets.quickstart import TEXTS

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None,
                       reason="Chromium is not installed (make test installs Debian's chromium)"),
]


def test_the_report_renders_offline_with_its_witness_and_math(tmp_path):
    pytest.importorskip("playwright", reason="playwright drives Chromium: pip install -e '.[dev]'")
    from playwright.sync_api import sync_playwright

    a = privlab.audit(list(TEXTS)[:8], lambda t: t.replace("Einstein", "[NAME]"),
                      encoders=["lexical"])
    path = a.report(tmp_path / "audit.html")
    refused: list[str] = []

    def only_the_file(route):
        if route.request.url == path.as_uri():
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                                          "--disable-background-networking"])
        context = browser.new_context()
        context.route("**/*", only_the_file)
        page = context.new_page()
        page.goto(path.as_uri())
        shown = page.evaluate("""() => {
            const math = document.querySelector('math');
            const box = math ? math.getBoundingClientRect() : {width: 0, height: 0};
            return {text: document.body.innerText, width: box.width, height: box.height,
                    rawTags: document.body.innerText.includes('<msub>')};
        }""")
        browser.close()
    assert refused == []
    w = a.members[0].witness
    assert a.headline() in shown["text"]
    assert w.audited_sanitized in shown["text"] and w.reference_original in shown["text"]
    assert shown["width"] > 50 and shown["height"] > 5 and not shown["rawTags"]
