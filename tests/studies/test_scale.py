"""Study 11: the fast paths give the plain kernel's answer, and the screen is labelled."""

from __future__ import annotations

import pytest

from privlab.scale.screen import STATUS as SCREEN_STATUS
from privlab.studies import scale

# The module's shared fixtures are built once: its tests stay on one xdist worker.
pytestmark = pytest.mark.xdist_group("studies.test_scale")


@pytest.fixture(scope="session")
def result():
    return scale.run(scale.Config.smoke(m=1500, n=900, cost_sizes=(200, 400)))


def test_every_fast_path_equals_the_plain_kernel(result):
    frame = result.to_frame()
    assert frame["certified = plain"].all() and result.identical
    assert result.cluster["cluster = plain"] and result.cluster["workers"] == 2
    assert result.cluster["dashboard"].startswith("http")


def test_the_planted_leak_is_the_witness_and_most_work_is_skipped(result):
    planted = result.to_frame().set_index("scenario").loc["planted"]
    assert planted["witness"] == planted["planted"]
    assert planted["resolution"] == pytest.approx(0.2, abs=1e-6)
    assert planted["skipped fraction"] > 0.7  # 92.9% with these settings
    assert planted["plain-block share"] == 0  # the bound skips: no hand-over
    none = result.to_frame().set_index("scenario").loc["none"]
    assert none["resolution"] < 0.2 and none["skipped fraction"] < planted["skipped fraction"]
    # Without a leak the bound would skip almost nothing: every reference goes to the
    # plain kernel's blocks, and the answer is still the plain kernel's.
    assert none["plain-block share"] == 1 and none["certified = plain"]


def test_the_screen_is_a_lower_bound(result):
    frame = result.to_frame()
    assert (frame["screen lower bound"] <= frame["resolution"]).all()
    assert "uncertified lower bound" in result.headline().status_note
    assert SCREEN_STATUS.startswith("uncertified")


def test_cost_curve_covers_each_size(result):
    cost = result.cost_frame()
    assert cost["m = n"].tolist() == [200, 400]
    assert cost["trials"].tolist() == [40_000, 160_000]
    assert {"plain s", "certified s (none)", "certified s (planted)"} <= set(cost.columns)


def test_headline_says_what_it_rests_on(result):
    h = result.headline()
    assert h.text.startswith("certified = plain kernel in 2/2 audits of 1,500 x 900")
    assert any("synthetic" in c for c in h.caveats)
    assert result.provenance["m"] == 1500 and result.provenance["dask"]


@pytest.mark.parametrize("override, parameter", [
    (dict(scenarios=("planted", "leaky")), "'scenarios'"), (dict(m=0), "'m'"),
    (dict(screen_index="lsh"), "'screen_index'"), (dict(cluster_workers=-1), "'cluster_workers'"),
    (dict(cost_sizes=(0,)), "'cost_sizes'"),
])
def test_bad_settings_are_refused(override, parameter):
    with pytest.raises(ValueError, match=parameter):
        scale.run(scale.Config.smoke(**override))
