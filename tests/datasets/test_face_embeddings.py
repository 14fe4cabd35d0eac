"""Loading identity-labelled embedding tables: refusals by line, counted drops, duplicates."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.datasets.face_embeddings import (find_duplicates, load_embedding_table,
                                              table_from_arrays)
from privlab.errors import PrivlabTypeError, PrivlabValueError


def write(tmp_path, text, name="t.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_malformed_rows_are_all_named_by_line_and_nothing_loads(tmp_path):
    path = write(tmp_path, "identity,e0,e1\n"
                           "a,1,0\n"          # line 2 ok
                           "a,1\n"            # line 3: too few fields
                           "b,0,1\n"          # line 4 ok
                           "b,zero,1\n"       # line 5: not a number
                           ",1,1\n"           # line 6: empty label
                           "c,1,\n"           # line 7: half missing
                           "c,inf,1\n")       # line 8: infinite
    with pytest.raises(PrivlabValueError) as info:
        load_embedding_table(path)
    message = str(info.value)
    for line in (3, 5, 6, 7, 8):
        assert f"line {line}:" in message
    for line in (2, 4):
        assert f"line {line}:" not in message
    assert "Got t.csv: 5 malformed rows" in message
    assert "'path' parameter of load_embedding_table" in message


def test_vector_cell_json_and_spaces_and_length_mismatch(tmp_path):
    ok = write(tmp_path, 'label,vec\na,"[3, 4]"\nb,0 2\nc,"1,0"\n')
    t = load_embedding_table(ok)
    assert t.labels.tolist() == ["a", "b", "c"]
    np.testing.assert_allclose(t.embeddings, [[0.6, 0.8], [0, 1], [1, 0]])
    assert t.provenance["mode"] == "cell"
    bad = write(tmp_path, 'label,vec\na,"[3, 4]"\nb,"[1, 2, 3]"\n', "bad.csv")
    with pytest.raises(PrivlabValueError, match=r"line 3: a vector of length 3, others have 2"):
        load_embedding_table(bad)


def test_missing_and_zero_norm_rows_are_dropped_with_counts(tmp_path):
    path = write(tmp_path, "label,e0,e1\na,1,1\na,,\nb,0,0\nb,nan,NaN\nb,1e-9,0\nb,2,0\n\n")
    t = load_embedding_table(path)
    assert len(t) == 2
    assert t.report.rows_read == 6 and t.report.kept == 2
    assert t.report.dropped_missing == [3, 5]
    assert t.report.dropped_zero_norm == [4, 6]
    assert t.report.blank_lines == 1
    frame = t.report.to_frame().set_index("field")["value"]
    assert frame["dropped: missing vector"] == 2
    assert frame["dropped: norm <= 1e-06"] == 2
    np.testing.assert_allclose(np.linalg.norm(t.embeddings, axis=1), 1.0)
    assert t.locations.tolist() == [2, 7]


def test_duplicates_within_and_across_identities_are_reported_not_dropped(tmp_path):
    path = write(tmp_path, "label,e0,e1\n1175,0.1,0.2\n1175,0.1,0.2\n1489,0.5,0.5\n"
                           "1490,0.5,0.5\n1490,0.9,0.1\n")
    t = load_embedding_table(path)
    assert len(t) == 5
    dup = t.report.duplicates
    assert t.report.duplicate_groups("within identity") == 1
    assert t.report.duplicate_groups("across identities") == 1
    within = dup[dup["kind"] == "within identity"].iloc[0]
    across = dup[dup["kind"] == "across identities"].iloc[0]
    assert within["labels"] == ["1175"] and within["locations"] == [2, 3]
    assert across["labels"] == ["1489", "1490"] and across["locations"] == [4, 5]


def test_find_duplicates_none():
    assert find_duplicates(np.eye(3), ["a", "b", "c"], [0, 1, 2]).empty


def test_npz_rows_and_refusals(tmp_path):
    x = np.array([[1.0, 0.0], [np.nan, np.nan], [0.0, 0.0], [0.0, 3.0]])
    np.savez(tmp_path / "t.npz", embeddings=x, labels=np.array(["a", "a", "b", "b"]))
    t = load_embedding_table(tmp_path / "t.npz")
    assert t.report.location_kind == "row"
    assert t.report.dropped_missing == [1] and t.report.dropped_zero_norm == [2]
    assert t.labels.tolist() == ["a", "b"]
    x[3, 1] = np.nan
    x[0, 0] = np.inf
    np.savez(tmp_path / "bad.npz", embeddings=x, labels=np.array(["a", "a", "b", "b"]))
    with pytest.raises(PrivlabValueError, match=r"row 0: an infinite value; row 3: 1 of 2"):
        load_embedding_table(tmp_path / "bad.npz")
    np.savez(tmp_path / "keys.npz", X=x)
    with pytest.raises(PrivlabValueError, match="embeddings_key"):
        load_embedding_table(tmp_path / "keys.npz")


def test_wrong_inputs(tmp_path):
    with pytest.raises(PrivlabValueError, match="an existing file"):
        load_embedding_table(tmp_path / "absent.csv")
    with pytest.raises(PrivlabValueError, match=r"a \.csv or \.npz file"):
        load_embedding_table(write(tmp_path, "x", "t.txt"))
    with pytest.raises(PrivlabTypeError):
        load_embedding_table(3)
    with pytest.raises(PrivlabValueError, match="label_column"):
        load_embedding_table(write(tmp_path, "label,e0\na,1\n"), label_column="who")


def test_save_csv_round_trip(tmp_path):
    rng = np.random.default_rng(1)
    t = table_from_arrays(rng.normal(size=(6, 4)), list("aabbcc"))
    path = t.save_csv(tmp_path / "round.csv")
    back = load_embedding_table(path, normalize=False)
    np.testing.assert_array_equal(back.embeddings, t.embeddings)
    np.testing.assert_allclose(load_embedding_table(path).embeddings, t.embeddings, atol=1e-15)
    assert back.labels.tolist() == t.labels.tolist()


def test_arrays_provenance_hash_is_stable():
    x = np.array([[3.0, 4.0], [0.0, 1.0]])
    one, two = table_from_arrays(x, ["a", "b"]), table_from_arrays(x.copy(), ["a", "b"])
    assert one.provenance["sha256"] == two.provenance["sha256"]
    assert len(one.provenance["sha256"]) == 64
    assert table_from_arrays(x, ["a", "c"]).provenance["sha256"] != one.provenance["sha256"]
