"""SPIA scoring on the reference files: counts, gold against itself, empty adversary."""

from __future__ import annotations

import json

import pytest

from privlab.redaction.spia import (
    count_subjects_and_piis,
    empty_predictions,
    load_spia,
    protection,
)

FILES = {  # file -> (counted subjects, counted PIIs, all subjects), from data/README.md
    "spia_tab_144.jsonl": (580, 3064, 586),
    "spia_panorama_151.jsonl": (319, 943, 360),
    "spia_panorama_531.jsonl": (992, 2969, 1126),
}


@pytest.fixture(scope="module")
def loaded():
    from privlab.config import shared_data_dir

    folder = shared_data_dir()
    if folder is None or not (folder / "spia").is_dir():
        pytest.skip("reference data folder ../shared/data/spia is absent")
    return {name: load_spia(folder / "spia" / name) for name in FILES}


@pytest.mark.parametrize("name", sorted(FILES))
def test_counts_equal_readme_facts(shared_data, loaded, name):
    subjects, piis, all_subjects = FILES[name]
    records = loaded[name]
    assert count_subjects_and_piis(records) == (subjects, piis)
    assert sum(len(r.subjects) for r in records) == all_subjects


@pytest.mark.parametrize("name", sorted(FILES))
def test_gold_against_itself_is_fully_exposed(shared_data, loaded, name):
    records = loaded[name]
    result = protection(records, records)
    assert result.cpr == 0.0 and result.ipr == 0.0
    assert (result.n_subjects, result.n_piis) == FILES[name][:2]
    assert all(row["matched"] == row["subject"] for row in result.subjects)


@pytest.mark.parametrize("name", sorted(FILES))
def test_empty_adversary_is_fully_protected(shared_data, loaded, name):
    records = loaded[name]
    result = protection(records, empty_predictions(records))
    assert result.cpr == 1.0 and result.ipr == 1.0
    assert (result.n_subjects, result.n_piis) == FILES[name][:2]
    assert result.target["cpr"] == 1.0 and result.non_target["cpr"] == 1.0


def test_shuffled_prediction_subjects_still_match(shared_data, loaded):
    """Subject order in a prediction must not matter: the matcher finds each subject."""
    from privlab.redaction.spia import SPIARecord

    records = loaded["spia_panorama_151.jsonl"]
    shuffled = [SPIARecord(r.data_id, r.text, tuple(reversed(r.subjects))) for r in records]
    assert protection(records, shuffled).cpr == 0.0


def test_loader_refuses_malformed_lines_by_number(tmp_path):
    good = {"metadata": {"data_id": "a"}, "text": "t", "subjects": []}
    cases = {
        "one JSON object per line": "{oops",
        "line 2: 'subjects' must be a list": json.dumps({**good, "subjects": 3}),
        "must be one of the 15 SPIA tags": json.dumps({**good, "subjects": [
            {"id": 0, "PIIs": [{"tag": "SHOE_SIZE", "keyword": "9", "certainty": 5}]}]}),
        "certainty must be an integer 0-5": json.dumps({**good, "subjects": [
            {"id": 0, "PIIs": [{"tag": "AGE", "keyword": "9", "certainty": 9}]}]}),
        "already used on line 1": json.dumps(good),
    }
    for expected, bad in cases.items():
        path = tmp_path / "x.jsonl"
        path.write_text(json.dumps(good) + "\n" + bad + "\n")
        with pytest.raises(ValueError, match="line 2") as info:
            load_spia(path)
        assert expected.split(": ")[-1] in str(info.value)
