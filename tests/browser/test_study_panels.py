"""Each converted notebook in JupyterLab, as a teacher drives it in front of a class.

For every notebook: Run All; change one choice and press Run, and the result changes;
choose an entry that cannot run here and press Run, and a short message (no traceback)
says how to fix it; choose a good entry again, Run All, and the choice is still there. After the first
run, the panel is read as drawn: its headline is in view, no number wraps in its table
cell and no table is wider than the output area outside a scrolling box
(:func:`tests.browser.lab.assert_readable_layout`). Screenshots of each panel and each message are saved under ``test-artifacts/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pytest

from tests.browser import lab as ui
from tests.browser.fixtures import CHROMIUM, GROUP

pytestmark = [
    pytest.mark.browser_full,
    pytest.mark.xdist_group(GROUP),  # one JupyterLab and one Chromium for the browser tests
    pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (make browser-deps)"),
]


#: The longest a class may look at a progress bar that does not move, in seconds.
PROGRESS_LIMIT = 10.0


@dataclass
class Walk:
    """What a teacher does in one notebook."""

    change: Callable  # change one choice (the result must change)
    unavailable: Callable | None  # choose an entry that cannot run here
    message: str  # what the message about it says
    restore: Callable  # back to a choice that runs
    kept: Callable  # reads the changed choice back after Run All
    reads: Callable = ui.headline  # what must change with the choice (default: the headline)


def _dropdown(label, pick):
    return lambda page: ui.choose(page, label, pick)


def _box(label, on=True):
    return lambda page: ui.tick(page, label, on)


WALKS = {
    "00_quickstart": Walk(_dropdown("Encoder", "lexical"), _dropdown("Encoder", "mpnet"),
                          "mpnet is not installed", _dropdown("Encoder", "lexical"),
                          lambda page: ui.chosen(page, "Encoder")),
    # describe-then-embed: the member of the headline's worst excess on smoke settings
    "01_dicaprio": Walk(_box("describe-then-embed", False), _box("clip-vit-b-32"),
                        "weights not available offline", _box("clip-vit-b-32", False),
                        lambda page: ui.ticked(page, "describe-then-embed")),
    "02_mcdonalds": Walk(_box("efficientnet-lite0", False), _box("clip-vit-b-32"),
                         "weights not available offline", _box("clip-vit-b-32", False),
                         lambda page: ui.ticked(page, "efficientnet-lite0")),
    "03_avengers": Walk(_dropdown("Encoder", "lexical"), _box("llm"),
                        "llm needs an LLM endpoint", _box("llm", False),
                        lambda page: ui.chosen(page, "Encoder")),
    "04_enron": Walk(_dropdown("Encoder", "lexical"), _box("llm"),
                     "llm needs an LLM endpoint", _box("llm", False),
                     lambda page: ui.chosen(page, "Encoder")),
    "07_redacbench": Walk(_dropdown("Headline strategy", "regex-pii"), _dropdown("Judge", "llm"),
                          "llm needs an LLM endpoint", _dropdown("Judge", "heuristic"),
                          lambda page: ui.chosen(page, "Headline strategy")),
    "08_spia": Walk(_dropdown("Adversary", "ner"), _dropdown("Value decider", "rule+llm"),
                    "needs an LLM endpoint", _dropdown("Value decider", "rule —"),
                    lambda page: ui.chosen(page, "Adversary")),
    "09_calibration": Walk(_dropdown("Encoder", "lexical"), _dropdown("Encoder", "mpnet"),
                           "mpnet is not installed", _dropdown("Encoder", "lexical"),
                           lambda page: ui.chosen(page, "Encoder")),
    # Every choice of studies 05 and 06 runs offline: no message to provoke. Study 05's
    # headline is about the true ε = 0 of every mechanism, so the explored setting's table
    # is what changes with the mechanism.
    "05_known_epsilon": Walk(_dropdown("Mechanism", "gaussian"), None, "", lambda page: None,
                             lambda page: ui.chosen(page, "Mechanism"),
                             reads=lambda page: ui.first_table(page)),
    "06_face_generators": Walk(_dropdown("Encoder", "dlib-face"), None, "", lambda page: None,
                               lambda page: ui.chosen(page, "Encoder")),
    # Every choice of study 10 runs offline: no message to provoke.
    "10_finetuning": Walk(_dropdown("Blend m", "1.0"), None, "",
                          lambda page: None, lambda page: ui.chosen(page, "Blend m")),
    # Every choice of study 11 runs offline (generated embeddings): no message to provoke.
    "11_scale": Walk(_dropdown("Screen", "ivf"), None, "", lambda page: None,
                     lambda page: ui.chosen(page, "Screen")),
}


@pytest.mark.parametrize("name", sorted(WALKS))
def test_a_teacher_drives_the_notebook(lab, lab_page, name):
    walk = WALKS[name]
    with ui.notebook_after_run_all(lab, name, lab_page) as page:
        first = walk.reads(page)
        assert "Error displaying widget" not in ui.visible_text(page)
        # As drawn: the headline in view, no number wrapping in its cell, no table
        # wider than the output area outside its scrolling box.
        drawn = ui.assert_readable_layout(page, name)
        assert drawn["tables"] > 0 and drawn["numeric"] > 0, (name, drawn)
        # The progress moved at least every PROGRESS_LIMIT seconds while the panel ran.
        still = ui.FIRST_RUN_STILL[name]
        # A run the clock did not see must have been shorter than its tick (a cached result).
        assert still["runs"] >= 1 or (still["took"] is not None and still["took"] < 0.5), \
            f"{name}: no run of the panel was seen during Run All: {still}"
        assert still["seconds"] <= PROGRESS_LIMIT, f"{name}: Run All: {still}"

        # Change one choice, press Run: the headline (and the rest) change.
        walk.change(page)
        picked = walk.kept(page)
        ui.watch_progress(page)
        status = ui.press_run(page)
        still = ui.longest_still(page)
        assert "done in" in status, status
        # What the clock saw, for a reviewer (test-artifacts/<notebook>-progress.json).
        ui.record_progress(name, {"run_all": ui.FIRST_RUN_STILL[name], "run_after_change": still})
        assert still["seconds"] <= PROGRESS_LIMIT, f"{name}: Run after a change: {still}"
        second = walk.reads(page)
        assert second != first, "the result did not change with the choice"

        # An entry that cannot run here: a short message with the fix, no traceback.
        if walk.unavailable is not None:
            walk.unavailable(page)
            status = ui.press_run(page)
            assert "✗" in status, status
            problem = page.locator(f"{ui.PANEL} .privlab-problem").first
            problem.wait_for(state="visible")
            text = problem.inner_text()
            assert walk.message in text and "Fix:" in text, text
            assert "Traceback" not in text and len(text.splitlines()) < 12
            assert "Traceback" not in ui.visible_text(page)
            ui.screenshot(page, f"{name}-message.png", f"{ui.PANEL} .privlab-problem",
                          "center")
            walk.restore(page)

        # Run All: the panel comes back with the choice made in it, and its result.
        ui.run_all(page, lab)
        ui.headline(page)
        after = walk.reads(page)
        assert walk.kept(page) == picked
        assert after == second, "Run All did not keep the choice made in the panel"
        shot = ui.screenshot(page, f"{name}-panel.png")
    assert shot.stat().st_size > 10_000
