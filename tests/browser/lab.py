"""Driving a study notebook in JupyterLab the way a teacher does, with playwright.

Every step waits for something a person would see (a headline, a message, the status
line under the Run button), never for a fixed time.
"""

from __future__ import annotations

import json
import time
from contextlib import contextmanager
import urllib.request
from pathlib import Path

import pytest

from tests.browser.fixtures import CLOSE_DOCUMENTS, ROOT, Lab

ARTIFACTS = ROOT / "test-artifacts"
PANEL = ".privlab-panel"


def kernels(lab: Lab) -> list[dict]:
    """The kernels of the notebooks open in the test's own folder (the server is shared)."""
    with urllib.request.urlopen(f"{lab.base}/api/sessions?token={lab.token}", timeout=5) as r:
        return [s["kernel"] for s in json.load(r)
                if s.get("path", "").startswith(f"{lab.folder}/") and s.get("kernel")]


def wait_for_idle_kernel(lab: Lab, timeout: float = 300) -> None:
    """Poll the server until every kernel of the test has started and is idle."""
    deadline, last = time.time() + timeout, "no kernel listed"
    while time.time() < deadline:
        try:
            found = kernels(lab)
        except OSError as error:
            # While it registers a new kernel the server can answer 500 (the kernel has no
            # activity time yet) or time out: ask again.
            found, last = [], repr(error)
        if found and all(k.get("execution_state") == "idle" for k in found):
            return
        if found:
            last = "kernel states: " + ", ".join(str(k.get("execution_state")) for k in found)
        time.sleep(0.2)  # a cheap local request: ask often, to go on as soon as it is idle
    pytest.fail(f"the notebook's kernel did not become idle within {timeout:.0f} s ({last})")


def open_notebook(page, lab: Lab, name: str) -> None:
    """Open notebook ``name`` (with its suffix) of the test's copy; wait for its kernel.

    On a page where JupyterLab is already loaded (``lab_page``), every document open there
    is closed and the notebook opened in the same app, as a person opens the next one;
    JupyterLab is loaded afresh where it is not (or a dialog is up)."""
    ready = "() => !!(window.jupyterapp && window.jupyterapp.shell)"
    if page.evaluate(ready) and not page.locator(".jp-Dialog").count():
        page.evaluate(CLOSE_DOCUMENTS)
        page.evaluate("async path => {"
                      " await window.jupyterapp.commands.execute('docmanager:open', {path}); }",
                      f"{lab.folder}/{name}")
    else:
        page.goto(lab.url(name))
    page.wait_for_selector(".jp-Notebook", timeout=90_000)
    wait_for_idle_kernel(lab)


def run_all(page, lab: Lab, timeout: float = 600) -> None:
    """Run ▸ Run All Cells, then wait until the kernel is idle again."""
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    # Queued and running cells show "[*]" as their prompt: wait for one (or, where the
    # running cells are scrolled out of the rendered window, for a busy kernel), then for
    # none.
    busy = "() => document.querySelector('.jp-Notebook').innerText.includes('[*]')"
    deadline = time.time() + 30
    while not (page.evaluate(busy) or kernel_busy(lab)):
        if time.time() > deadline:
            pytest.fail("Run All did not start any cell")
        page.wait_for_timeout(100)
    page.wait_for_function(f"() => !({busy})()", timeout=timeout * 1000)
    wait_for_idle_kernel(lab, timeout)


#: ``{notebook: longest_still(...)}`` of each notebook's first Run All in this session.
FIRST_RUN_STILL: dict[str, dict] = {}


@contextmanager
def notebook_after_run_all(lab: Lab, name: str, page):
    """``page`` (the ``lab_page`` fixture) on notebook ``name`` (no suffix) after Run All,
    its headline drawn; how long the panel's progress stood still during that Run All goes
    to :data:`FIRST_RUN_STILL`."""
    open_notebook(page, lab, f"{name}.ipynb")
    watch_progress(page)
    run_all(page, lab)
    headline(page)
    FIRST_RUN_STILL[name] = longest_still(page)
    yield page


def kernel_busy(lab: Lab) -> bool:
    """Whether a kernel of the test is running code now."""
    try:
        return any(k.get("execution_state") == "busy" for k in kernels(lab))
    except OSError:
        return False


def headline(page, timeout: float = 300_000) -> str:
    """The text of the panel's headline, once it is shown."""
    box = page.locator(f"{PANEL} .privlab-headline").first
    box.wait_for(state="attached", timeout=timeout)
    # JupyterLab renders only the cells in view: bring the headline there before reading.
    box.scroll_into_view_if_needed()
    box.wait_for(state="visible", timeout=timeout)
    return box.inner_text()


def first_table(page, timeout: float = 300_000) -> str:
    """The text of the first table in the panel's output area, once it is shown."""
    table = page.locator(f"{PANEL} .privlab-output table").first
    table.wait_for(state="attached", timeout=timeout)
    table.scroll_into_view_if_needed()
    table.wait_for(state="visible", timeout=timeout)
    return " ".join((table.text_content() or "").split())


def dropdown(page, label: str):
    """The ``<select>`` of the panel's dropdown labelled ``label``."""
    return page.locator(f"{PANEL} .widget-dropdown").filter(
        has=page.locator("label", has_text=label)).locator("select").first


def choose(page, label: str, starts_with: str) -> str:
    """Pick the entry of dropdown ``label`` whose text starts with ``starts_with``."""
    select = dropdown(page, label)
    texts = select.evaluate("s => [...s.options].map(o => o.text)")
    # ipywidgets writes option texts with non-breaking spaces.
    text = next((t for t in texts if t.replace("\xa0", " ").startswith(starts_with)), None)
    assert text, f"no entry starting with {starts_with!r} in {label!r}: {texts}"
    select.select_option(label=text)
    return text


def chosen(page, label: str) -> str:
    """The text of the entry picked in dropdown ``label``."""
    select = dropdown(page, label)
    return select.evaluate("s => s.options[s.selectedIndex].text").replace("\xa0", " ")


def tick(page, label: str, on: bool = True) -> None:
    """Tick (or untick) the checkbox whose label starts with ``label``."""
    box = page.locator(f"{PANEL} .widget-checkbox").filter(has_text=label).first
    field = box.locator("input[type=checkbox]")
    if field.is_checked() != on:
        field.click()


def ticked(page, label: str) -> bool:
    """Whether the checkbox whose label starts with ``label`` is ticked."""
    box = page.locator(f"{PANEL} .widget-checkbox").filter(has_text=label).first
    return box.locator("input[type=checkbox]").is_checked()


def press_run(page, timeout: float = 300_000) -> str:
    """Press the panel's Run button and wait for the status line to say how it ended."""
    panel = page.locator(PANEL).first
    status = panel.locator(".widget-html").filter(has_text="done in").or_(
        panel.locator(".widget-html").filter(has_text="✗"))
    before = panel.inner_text()
    panel.locator("button.widget-button", has_text="Run").first.click()
    page.wait_for_function(
        "([sel, old]) => { const p = document.querySelector(sel);"
        " return p && !p.innerText.includes('Running…') && p.innerText !== old"
        " && (p.innerText.includes('done in') || p.innerText.includes('✗')); }",
        arg=[PANEL, before], timeout=timeout)
    return status.first.inner_text()


#: A clock in the page that times how long the progress of a running panel stands still:
#: every 200 ms, while any panel's Run button says "Running…", it reads what the panels
#: show of their progress (status line and bar); a change is a progress report. The
#: longest stretch without one (from the run's start, between reports, up to its end) is
#: kept with the text shown during it. It reads the text nodes (not ``innerText``): the
#: browser skips rendering a cell scrolled out of view, and ``innerText`` reads nothing there.
_WATCH_PROGRESS = r"""
(sel) => {
  if (window.__privlabWatch) clearInterval(window.__privlabWatch.timer);
  const w = {last: null, text: null, longest: 0, during: '', reports: 0, runs: 0};
  // The text a person reads: textContent without the panel's <style> rules.
  const words = (n) => n.nodeType === 3 ? n.nodeValue
    : n.nodeName === 'STYLE' ? '' : [...n.childNodes].map(words).join('');
  const read = () => {
    const panels = [...document.querySelectorAll(sel)];
    const running = panels.some(p => [...p.querySelectorAll('button')]
      .some(b => words(b).includes('Running')));
    const text = panels.map(p => [...p.querySelectorAll('.widget-html, .progress-bar')]
      .map(e => words(e) + '|' + (e.getAttribute('style') || '')).join('\n')).join('\n');
    return [running, text];
  };
  w.close = (now) => {
    const still = now - w.last;
    if (still > w.longest) { w.longest = still; w.during = w.text.slice(0, 300); }
  };
  w.tick = () => {
    const now = performance.now();
    const [running, text] = read();
    if (!running) { if (w.last !== null) { w.close(now); w.last = null; } return; }
    if (w.last === null) { w.last = now; w.text = text; w.runs += 1; return; }
    if (text !== w.text) { w.close(now); w.text = text; w.last = now; w.reports += 1; }
  };
  w.timer = setInterval(w.tick, 200);
  window.__privlabWatch = w;
}
"""


def watch_progress(page) -> None:
    """Start timing how long a running panel's progress stands still (see
    :data:`_WATCH_PROGRESS`); :func:`longest_still` reads the result."""
    page.evaluate(_WATCH_PROGRESS, PANEL)


def longest_still(page) -> dict:
    """Stop the clock of :func:`watch_progress` and return ``{"seconds": the longest
    stretch a running panel showed no new progress, "during": what it showed then,
    "reports": progress changes seen, "runs": runs seen, "took": the longest run time a
    panel's status line states ("done in 0.1 s"; None when none states one)}``. A run
    shorter than the clock's 200 ms tick is not seen: ``took`` says how long it was."""
    return page.evaluate(
        "([sel]) => { const w = window.__privlabWatch; if (!w) return null; w.tick();"
        " clearInterval(w.timer); if (w.last !== null) w.close(performance.now());"
        " window.__privlabWatch = null;"
        " const took = [...document.querySelectorAll(sel)].map(p => {"
        "   const m = (p.textContent || '').match(/done in ([0-9.]+) s/);"
        "   return m ? parseFloat(m[1]) : null; }).filter(x => x !== null);"
        " return {seconds: w.longest / 1000, during: w.during, reports: w.reports, runs: w.runs,"
        "         took: took.length ? Math.max(...took) : null}; }", [PANEL])


def record_progress(name: str, seen: dict) -> Path:
    """Write what the progress clock saw in notebook ``name`` to
    ``test-artifacts/<name>-progress.json``."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}-progress.json"
    path.write_text(json.dumps(seen, indent=1, ensure_ascii=False))
    return path


def visible_text(page) -> str:
    return page.inner_text(".jp-Notebook")


def dismiss_news(page) -> None:
    """Close JupyterLab's "get notified about news" toast if it is up."""
    no = page.get_by_role("button", name="No", exact=True)
    if no.count() and no.first.is_visible():
        no.first.click()


def screenshot(page, name: str, selector: str = PANEL, where: str = "start") -> Path:
    """Save the viewport with ``selector`` scrolled to ``where`` ("start", "center")."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    dismiss_news(page)
    page.locator(selector).first.evaluate(f"e => e.scrollIntoView({{block: '{where}'}})")
    page.screenshot(path=str(path), full_page=False)
    return path


#: What a table looks like on screen, measured in the page: for each table shown in the
#: output area (closed folds are skipped: nothing of them is drawn), the numeric cells
#: (a number, a count, a percentage, an interval, "—", "+∞": the rule of
#: ``privlab.ui.tables.numeric_text``, whatever class the cell has) whose text takes more
#: lines than it has line breaks, by the line boxes of its text; and whether the table is
#: wider than the output area with no horizontally scrolling box around it.
_TABLE_LAYOUT = r"""
(table) => {
  const area = table.closest('.privlab-output') || document.body;
  const areaWidth = area.getBoundingClientRect().width;
  const box = table.getBoundingClientRect();
  const out = {shown: box.width > 0 && box.height > 0, numeric: 0, wrapped: [],
               width: Math.round(box.width), height: Math.round(box.height),
               area: Math.round(areaWidth), wide: false,
               scrolls: false};
  if (!out.shown) return out;
  for (let el = table.parentElement; el && el !== area; el = el.parentElement) {
    const overflow = getComputedStyle(el).overflowX;
    if ((overflow === 'auto' || overflow === 'scroll')
        && el.getBoundingClientRect().width <= areaWidth + 1) { out.scrolls = true; break; }
  }
  out.wide = box.width > areaWidth + 1 && !out.scrolls;
  const numeric = /^[\s\d.,:;%/()+\-−–—→×·e∞xy<>=≤≥±*]+$/;
  for (const cell of table.querySelectorAll('td, th')) {
    const text = cell.innerText.trim();
    if (!text || text.length > 32 || !numeric.test(text) || !/[\d—∞]/.test(text)) continue;
    out.numeric += 1;
    const style = getComputedStyle(cell);
    const lineHeight = parseFloat(style.lineHeight) || 1.2 * parseFloat(style.fontSize);
    const range = document.createRange();
    range.selectNodeContents(cell);
    const tops = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0)
      .map(r => r.top).sort((a, b) => a - b);
    let lines = tops.length ? 1 : 0;
    for (let k = 1; k < tops.length; k++) if (tops[k] - tops[k - 1] > lineHeight / 2) lines++;
    const breaks = text.split('\n').filter(t => t.trim()).length;
    if (lines > breaks) out.wrapped.push(`${text} (${lines} lines, ${Math.round(
      cell.getBoundingClientRect().width)} px wide)`);
  }
  return out;
}
"""


# Whether a table is drawn. A closed <details> hides its content with content-visibility,
# and a layout query can still give that content a height, so the DOM is asked first.
_DRAWN = r"""
(t) => {
  for (let fold = t.closest('details:not([open])'); fold;
       fold = fold.parentElement && fold.parentElement.closest('details:not([open])')) {
    const summary = fold.querySelector(':scope > summary');
    if (!summary || !summary.contains(t)) return false;
  }
  const r = t.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}
"""


def table_layout(page, root: str = f"{PANEL} .privlab-output") -> dict:
    """How every table under ``root`` is drawn: each is scrolled into view first (so
    JupyterLab lays it out) and measured in the page (:data:`_TABLE_LAYOUT`).

    Returns:
        ``{"tables": shown tables, "numeric": numeric cells measured, "wrapped": [cells
        whose number wraps, with the table's index], "wide": [tables wider than the output
        area outside a scrolling box, with their widths], "drawn": [each table measured,
        with its index and size]}``.
    """
    found = {"tables": 0, "numeric": 0, "wrapped": [], "wide": [], "drawn": []}
    tables = page.locator(f"{root} table")
    for k in range(tables.count()):
        table = tables.nth(k)
        if not table.evaluate(_DRAWN):
            continue  # in a closed fold: not drawn
        table.scroll_into_view_if_needed()
        seen = table.evaluate(_TABLE_LAYOUT)
        if not seen["shown"]:
            continue
        found["tables"] += 1
        found["drawn"].append(f"table {k}: {seen['width']} x {seen['height']} px")
        found["numeric"] += seen["numeric"]
        found["wrapped"] += [f"table {k}: {cell}" for cell in seen["wrapped"]]
        if seen["wide"]:
            found["wide"].append(f"table {k}: {seen['width']} px in a {seen['area']} px area")
    return found


def headline_in_view(page) -> bool:
    """Whether the panel's headline, scrolled to, lies inside the window with its text."""
    box = page.locator(f"{PANEL} .privlab-headline").first
    box.scroll_into_view_if_needed()
    return bool(box.is_visible() and box.evaluate(
        "e => { const r = e.getBoundingClientRect();"
        " return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0"
        " && r.top < window.innerHeight && r.right <= window.innerWidth + 1"
        " && e.innerText.trim().length > 0; }"))


def assert_readable_layout(page, name: str) -> dict:
    """The panel's headline is in view, no number in a table wraps and no table is wider
    than the output area outside a scrolling box; returns what was measured."""
    assert headline_in_view(page), f"{name}: the headline is not visible in the window"
    found = table_layout(page)
    assert not found["wrapped"], f"{name}: numbers wrap in their cells: {found['wrapped']}"
    assert not found["wide"], f"{name}: tables wider than the output area: {found['wide']}"
    return found
