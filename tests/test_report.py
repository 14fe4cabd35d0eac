"""The shared result face (privlab.report): headline, table, witnesses, reports."""

from __future__ import annotations

import json

import numpy as np
import pytest

from privlab.errors import PrivlabValueError
from privlab.report import Finding, ResultFace, Witness


class Demo(ResultFace):
    face_title = "Demo audit"

    def __init__(self, caveats=()):
        self.caveats = caveats
        self.provenance = {"seed": 3}

    def face_finding(self):
        return Finding("resolution", 0.4, "diagnostic", ("6 texts",), subject="'redact'",
                       control="placebo", control_value=0.15, caveats=self.caveats,
                       ruler="0 = no original singled out")

    def face_rows(self):
        return [{"sanitizer": "redact", "resolution": 0.4}, {"sanitizer": "keep", "resolution": 1.0}]

    def face_witnesses(self):
        image = np.zeros((4, 5, 3), np.uint8)
        image[1, 2] = (255, 0, 0)
        return [Witness("closest pair", (("original", "Ann | met"), ("sanitized", image)))]

    def face_formula(self):
        return "<math><mi>r</mi></math>"


def test_the_headline_is_one_line_with_control_excess_status_and_caveats():
    line = Demo(caveats=("the placebo marked 0.1% of pixels",)).headline()
    assert "\n" not in line
    assert line == ("'redact': resolution 0.400 (placebo 0.150, excess +0.250) — diagnostic; "
                    "rests on 6 texts; caveat: the placebo marked 0.1% of pixels")


def test_a_finding_without_a_control_prints_no_excess():
    f = Finding("epsilon", 1.25, "finite-sample certificate", ("A.npy",))
    assert f.excess is None and "excess" not in f.line() and f.line().startswith("epsilon 1.250")


def test_reports_embed_the_witness_and_write_the_record(tmp_path):
    html_path = Demo().report(tmp_path / "r.html")
    page = html_path.read_text()
    assert "data:image/png;base64," in page and "<math>" in page and "Ann | met" in page
    assert "http://" not in page and "https://" not in page
    record = json.loads((tmp_path / "r.json").read_text())
    assert record["finding"]["excess"] == pytest.approx(0.25)
    assert record["provenance"] == {"seed": 3} and len(record["rows"]) == 2
    md = Demo().report(tmp_path / "r.md").read_text()
    assert "| sanitizer | resolution |" in md and "| redact | 0.400 |" in md
    assert "Ann \\| met" not in md and "Ann | met" in md  # witness texts are kept verbatim


def test_a_report_path_without_a_known_suffix_is_refused(tmp_path):
    with pytest.raises(PrivlabValueError, match="'path' parameter of report"):
        Demo().report(tmp_path / "r.pdf")


def test_text_face_holds_the_witness_items():
    text = Demo().face_text()
    assert "Ann | met" in text and "<image 5x4>" in text and "redact" in text
