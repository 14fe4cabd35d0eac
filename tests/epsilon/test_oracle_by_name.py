"""The oracle ``reserved-exact``, listed by the auditors' registry: asked for by name it is
refused with how to pass it (its scorer); passed as an auditor it runs in audit_pairs."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.epsilon.auditors import audit_pairs, registry, reserved_exact
from privlab.errors import PrivlabValueError


def _two_identities():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.normal(0.0, 1.0, (300, 1)), rng.normal(3.0, 1.0, (300, 1))])
    return x, np.repeat(["p", "q"], 300)


def test_the_oracle_is_listed_and_its_refusal_says_how_to_pass_it():
    assert "reserved-exact" in registry.names()
    x, y = _two_identities()
    with pytest.raises(PrivlabValueError) as info:
        audit_pairs(x, y, [("p", "q")], methods=["reserved-exact"])
    message = str(info.value)
    assert message.startswith("The 'methods' parameter of get_auditor must be one of [")
    assert "needs the mechanism's exact scorer" in message
    assert "methods=[reserved_exact(scorer)]" in message


def test_the_oracle_passed_as_an_auditor_runs_at_the_family_level():
    x, y = _two_identities()
    table = audit_pairs(x, y, [("p", "q")], methods=[reserved_exact(lambda rows: rows[:, 0]),
                                                     "reserved"], family_alpha=0.05)
    frame = table.to_frame()
    assert list(frame["method"]) == ["reserved-exact", "reserved"]
    # two certificates on one pair: each error rate at 0.05 / (2 * 1 * 2)
    assert table.provenance["alpha_per_rate"] == pytest.approx(0.0125)
    # unit-variance Gaussians 3 apart: the exact score certifies a positive epsilon
    assert frame["value"].iloc[0] > 0.5 and frame["status"].iloc[0] == "finite-sample certificate"
