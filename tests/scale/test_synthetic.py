"""Generated audits have the structure their scenarios promise."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.resolution import resolution
from privlab.scale.synthetic import synthetic_audit


@pytest.mark.parametrize("d", [16, 64, 128])
def test_the_planted_pair_is_the_decisive_witness_at_the_planted_value(d):
    audit = synthetic_audit(1500, 800, d, scenario="planted", leak=0.2, seed=d)
    res = resolution(audit.S, audit.T)
    assert res.witness == audit.planted
    assert res.value == pytest.approx(0.2, abs=1e-6)
    assert np.allclose(np.linalg.norm(audit.S, axis=1), 1.0, atol=1e-6)


def test_without_a_leak_the_resolution_is_what_chance_gives():
    audit = synthetic_audit(1000, 1000, 128, scenario="none", seed=1)
    value = resolution(audit.S, audit.T).value
    chance = 0.1 * np.sqrt(2 * np.log(1000 * 1000) / 128)  # about 0.046
    assert audit.planted is None and 0.5 * chance < value < 2 * chance


def test_realistic_references_are_mostly_small():
    audit = synthetic_audit(500, 4000, 64, scenario="realistic", seed=2)
    norms = np.linalg.norm(audit.T, axis=1)
    assert 0.03 < np.mean(norms > 0.1) < 0.08  # about 5% moved a lot
    assert np.median(norms) < 0.03
    assert "realistic: 500 audited x 4,000 references, d=64" == audit.describe()


@pytest.mark.parametrize("kwargs, parameter", [
    (dict(m=0), "'m'"), (dict(d=1), "'d'"), (dict(scenario="leaky"), "'scenario'"),
    (dict(leak=0.9), "'leak'"),
])
def test_bad_settings_are_refused(kwargs, parameter):
    args = dict(m=10, n=10, d=8) | kwargs
    with pytest.raises(ValueError, match=parameter):
        synthetic_audit(args.pop("m"), args.pop("n"), args.pop("d"), **args)
