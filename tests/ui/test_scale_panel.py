"""Study 11's panel: sizes, scenarios, the top list and the screen from its controls, and
every section drawn once per run."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from privlab.studies import scale  # noqa: E402
from privlab.ui import panels  # noqa: E402
from tests.ui.conftest import shown_text as _plain  # noqa: E402


pytestmark = pytest.mark.usefixtures("fresh_panels")


def _small(panel, **values) -> None:
    for name, value in {"m": 400, "n": 300, "cluster_workers": 0, **values}.items():
        panel.controls[name].set(value)


def test_the_scale_panel_runs_the_study_and_draws_every_section():
    panel = panels.scale_panel(d=16)
    _small(panel)
    panel.controls["scenarios"].set(("planted", "none"))
    result = panel.run()
    assert panel.problem is None and isinstance(result, scale.ScaleResult)
    assert (result.config.m, result.config.n, result.config.d) == (400, 300, 16)
    assert [a["scenario"] for a in result.audits] == ["planted", "none"]
    assert result.identical and result.cluster == {}
    text = _plain(panel)
    for section in ("Certified vs plain", "The screen and its recall",
                    "On a dask LocalCluster", "Skipped (0 workers)", "The cost curve"):
        assert section in text, section
    assert text.count("<Figure") == 1
    assert sum(line.startswith("privlab-headline") for line in text.splitlines()) == 1
    # The planted pair is the witness, and the table says so in people's form.
    planted = result.audits[0]
    assert planted["witness"] == planted["planted"]
    pair = f"x{planted['witness'][0]} → y{planted['witness'][1]}"
    table = next(o["data"]["text/html"] for o in panel.output.outputs
                 if "Certified vs plain" not in o["data"].get("text/plain", "")
                 and "planted pair" in o["data"].get("text/html", ""))
    assert table.count(pair) == 2  # the witness found and the pair planted


def test_the_screen_and_the_top_list_reach_the_config_and_the_headline():
    panel = panels.scale_panel(d=16)
    _small(panel, top_k=3)
    panel.controls["scenarios"].set(("planted",))
    panel.controls["screen_index"].set("ivf")
    result = panel.run()
    assert result.config.top_k == 3 and result.config.screen_index == "ivf"
    assert "ivf screen" in result.headline().text
    assert panel.provenance["choices"]["screen_index"] == "ivf"


def test_no_scenario_ticked_is_a_short_message_that_names_the_setting():
    panel = panels.scale_panel(d=16)
    _small(panel)
    panel.controls["scenarios"].set(())
    assert panel.run() is None
    assert panel.problem is not None
    message = panel.problem.lines()
    assert "scenarios" in message and "Traceback" not in message


def _part_text(area) -> str:
    return "\n".join(o["data"].get("text/plain", "") for o in area.outputs)


def test_each_part_shown_in_its_own_cell_follows_every_run():
    panel = panels.scale_panel(d=16)
    _small(panel)
    panel.controls["scenarios"].set(("planted", "none"))
    panel.run()
    screen, cost = panel.part("screen"), panel.part("cost")
    assert panel.part("cost") is cost                      # one area per part, kept
    # The part moved out of the panel's output area, which says where it went.
    assert "The screen and its recall" in _part_text(screen)
    assert "<Figure" in _part_text(cost) and "The cost curve" in _part_text(cost)
    text = _plain(panel)
    assert "The screen and its recall" not in text and "<Figure" not in text
    assert "screen: shown below, beside its reading guide." in text
    assert "Certified vs plain" in text and text.startswith("privlab-headline")
    assert "screen index" in text and "screen index" not in _part_text(cost)  # the settings
    assert "The cluster" not in text and "On a dask LocalCluster" in text  # not moved
    # A new run redraws the parts: two scenarios' rows become one.
    rows_before = _part_text(screen)
    panel.controls["scenarios"].set(("planted",))
    panel.run()
    assert _part_text(screen) != rows_before
    assert "The screen and its recall" in _part_text(screen)
    # A run that shows a message says so in each part, instead of a stale copy.
    panel.controls["scenarios"].set(())
    assert panel.run() is None
    assert "message instead of a result" in _part_text(screen)
    assert "message instead of a result" in _part_text(cost)
    # A part this run did not draw says so and names the ones it did.
    panel.controls["scenarios"].set(("planted",))
    panel.run()
    assert "No part named 'images' in this run" in _part_text(panel.part("images"))
    assert "'screen', 'cluster', 'cost'" in _part_text(panel.part("images"))
    assert "The screen and its recall" in _part_text(screen)
