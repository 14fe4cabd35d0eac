"""The test suite's own set-up: xdist groups reach the scheduler."""

from __future__ import annotations

import pytest


@pytest.mark.xdist_group("suite.groups")
def test_a_grouped_test_carries_its_group_to_the_scheduler(request):
    """Under ``make test`` (pytest-xdist, ``--dist loadgroup``) a grouped test's node id
    ends with its group, which is what keeps a group on one worker (tests/conftest.py)."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("checked under pytest-xdist with --dist loadgroup, as make test runs")
    assert request.node.nodeid.endswith("::test_a_grouped_test_carries_its_group_to_the_"
                                        "scheduler@suite.groups"), request.node.nodeid
