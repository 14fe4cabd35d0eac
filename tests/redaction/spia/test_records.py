"""SPIA records: the reference files' counts, the loader's refusals, writing them back."""

from __future__ import annotations

import json

import pytest

from privlab.redaction.spia.records import (
    PII,
    SPIARecord,
    Subject,
    count_subjects_and_piis,
    load_spia,
    write_spia,
)

from .conftest import FILES


@pytest.mark.parametrize("name", sorted(FILES))
def test_counts_equal_readme_facts(shared_data, loaded, name):
    subjects, piis, all_subjects = FILES[name]
    records = loaded[name]
    assert count_subjects_and_piis(records) == (subjects, piis)
    assert sum(len(r.subjects) for r in records) == all_subjects


@pytest.mark.parametrize("name", sorted(FILES))
def test_reference_files_carry_every_schema_key(shared_data, name):
    """The required keys are there in every line; the optional ones too (so no default
    fills a count), and no certainty-0 value has a keyword (so none is dropped)."""
    subjects = piis = 0
    for line in (shared_data / "spia" / name).read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        assert {"metadata", "text", "subjects"} <= set(record)
        for subject in record["subjects"]:
            subjects += 1
            assert {"id", "description", "PIIs"} <= set(subject)
            for pii in subject["PIIs"]:
                piis += 1
                assert {"tag", "keyword", "certainty", "hardness"} <= set(pii)
                assert pii["certainty"] > 0 or not pii["keyword"].strip()
    assert subjects == FILES[name][2] and piis >= 15 * subjects  # every tag slot, or more


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


def test_written_records_load_back_unchanged(tmp_path):
    record = SPIARecord("d", "Ann Lée, 34.", (Subject(0, "Ann", (PII("AGE", "34", 5, 1),)),),
                        {"source": "test"})
    path = write_spia([record], tmp_path / "out" / "x.jsonl")
    assert load_spia(path) == [record] and load_spia(path)[0].metadata["source"] == "test"
    assert not list(path.parent.glob("*.partial"))
