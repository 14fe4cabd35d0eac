"""privlab.epsilon.audit: your two samples from neighbouring inputs, known-ε answers."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

import privlab.epsilon
from privlab.epsilon import certified_epsilon
from privlab.epsilon.byo import ESTIMATORS, audit
from privlab.errors import PrivlabTypeError, PrivlabValueError
from privlab.status import Status


def _laplace(epsilon: float, n: int, seed: int = 0):
    """Laplace mechanism outputs on neighbouring inputs 0 and 1 (sensitivity 1): its ε is
    exactly ``epsilon``."""
    rng = np.random.default_rng(seed)
    scale = 1.0 / epsilon
    return rng.laplace(0.0, scale, n), rng.laplace(1.0, scale, n)


@pytest.fixture(scope="module")
def laplace_audit():
    a, b = _laplace(1.0, 2000)
    return audit(a, b, delta=0)


def test_laplace_certificate_is_below_the_true_epsilon_and_above_zero(laplace_audit):
    r = laplace_audit
    assert privlab.epsilon.audit is audit
    assert r.best.method == "reserved" and r.status is Status.CERTIFICATE
    assert 0.3 < r.certificate < 1.0  # true ε = 1; a valid lower bound with power
    assert r.confidence == pytest.approx(0.95)
    line = r.headline()
    assert "95% confidence" in line and "finite-sample certificate" in line
    assert f"{r.certificate:.3f}" in line
    assert "label-shuffled control" in line and "excess" in line


def test_the_certificate_is_eq_16_on_the_witness_counts(laplace_audit):
    """The printed bound is recomputed by hand from the reserved rule's test errors, at
    the level audit says it used: 0.05 / (2 error rates · 1 pair · 1 certificate)."""
    r = laplace_audit
    d = r.best.details
    alpha = 0.05 / 2
    assert r.provenance["alpha_per_rate"] == pytest.approx(alpha)
    by_hand = certified_epsilon(d["false_positives"], d["negatives"], d["false_negatives"],
                                d["positives"], alpha, 0.0)
    assert r.certificate == pytest.approx(by_hand)
    (witness,) = r.face_witnesses()
    assert f"{d['false_positives']} of {d['negatives']}" in witness.texts()[0]


def test_the_four_estimators_carry_their_status_and_a_control(laplace_audit):
    frame = laplace_audit.to_frame().set_index("method")
    assert list(frame.index) == ["reserved", *ESTIMATORS]
    assert frame.loc["gaussmech", "status"] == "diagnostic"
    assert frame.loc["kde-lr-0.01", "status"] == "diagnostic"
    assert frame.loc["mmd-tv", "status"] == "uncertified population bound"
    assert frame.loc["roc-ht", "status"] == "descriptive"
    assert frame.loc["reserved", "confidence"] == pytest.approx(0.95)
    assert math.isnan(frame.loc["gaussmech", "confidence"])
    # On the shuffled control (true ε = 0) the certificate says nothing: 0 here.
    assert frame.loc["reserved", "control"] == 0.0
    assert frame.loc["reserved", "excess"] == pytest.approx(laplace_audit.certificate)
    # The estimators are far from 0 on the control: they are no bounds.
    assert frame.loc["kde-lr-0.01", "control"] > 0.1


def test_the_level_covers_the_pairs_the_user_says():
    a, b = _laplace(1.0, 600, seed=3)
    one = audit(a, b, delta=0, control=False)
    ten = audit(a, b, delta=0, control=False, pairs=10,
                certificates=("reserved", "mmd-finite"))
    assert ten.provenance["alpha_per_rate"] == pytest.approx(0.05 / (2 * 10 * 2))
    assert ten.result("reserved").provenance["alpha"] == pytest.approx(0.05 / 40)
    d = ten.result("reserved").details  # the bound at the stricter level, by hand
    assert ten.result("reserved").value == pytest.approx(certified_epsilon(
        d["false_positives"], d["negatives"], d["false_negatives"], d["positives"],
        0.05 / 40, 0.0))
    assert one.result("reserved").provenance["alpha"] == pytest.approx(0.05 / 2)
    assert "over 10 pairs" in ten.headline()
    assert ten.certificate == max(ten.result("reserved").value, ten.result("mmd-finite").value)


def test_the_null_gives_no_certificate_and_says_so():
    rng = np.random.default_rng(5)
    r = audit(rng.laplace(0, 1, 500), rng.laplace(0, 1, 500), delta=0, control=False)
    assert r.certificate == 0.0
    assert any("no proof of privacy" in c for c in r.caveats())


def test_dataframes_are_matched_by_column():
    rng = np.random.default_rng(2)
    a = rng.normal(size=(300, 2))
    b = rng.normal(size=(300, 2)) + [0.0, 2.0]
    fa = pd.DataFrame(a, columns=["x", "y"])
    fb = pd.DataFrame(b[:, ::-1], columns=["y", "x"])  # other order, same columns
    from_frames = audit(fa, fb, control=False)
    from_arrays = audit(a, b, control=False)
    assert from_frames.certificate == from_arrays.certificate > 0
    assert from_frames.provenance["columns"] == ["x", "y"]


@pytest.mark.parametrize("kwargs, parameter", [
    ({"B": np.zeros((20, 2))}, "'B'"),
    ({"B": np.zeros(5)}, "'B'"),
    ({"A": np.array([np.nan] * 20)}, "'A'"),
    ({"delta": 1.0}, "'delta'"),
    ({"pairs": 0}, "'pairs'"),
    ({"estimators": ("reserved",)}, "'estimators'"),
    ({"certificates": ("gaussmech",)}, "'certificates'"),
    ({"certificates": ("nonesuch",)}, "'certificates'"),
    ({"names": ("A", "A")}, "'names'"),
])
def test_bad_input_names_the_parameter(kwargs, parameter):
    args = {"A": np.zeros(20), "B": np.ones(20)}
    args.update(kwargs)
    with pytest.raises(PrivlabValueError) as info:
        audit(args.pop("A"), args.pop("B"), **args)
    assert f"The {parameter} parameter of privlab.epsilon.audit" in str(info.value)


def test_a_path_is_refused_with_the_fix():
    with pytest.raises(PrivlabTypeError, match="numpy.load"):
        audit("a.npy", np.zeros(20))


def test_report_writes_html_and_the_record(laplace_audit, tmp_path):
    path = laplace_audit.report(tmp_path / "eps.html")
    page = path.read_text(encoding="utf-8")
    assert "<math" in page and "finite-sample certificate" in page
    record = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    assert record["headline"] == laplace_audit.headline()
    assert [row["method"] for row in record["rows"]] == ["reserved", *ESTIMATORS]
