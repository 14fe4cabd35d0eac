"""JSON-lines reading and writing: every refusal names the file and line; writes are atomic."""

from __future__ import annotations

import json

import pytest

from privlab.errors import PrivlabValueError
from privlab.io import iter_jsonl, read_jsonl, refuse_record, write_jsonl


# ---------------------------------------------------------------------------------------
# read_jsonl
# ---------------------------------------------------------------------------------------
def test_read_jsonl_skips_blank_lines_and_keeps_file_line_numbers(tmp_path):
    path = tmp_path / "records.jsonl"
    path.write_text('{"a": 1}\n\n   \n[2, 3]\n\t\n"four"\n', encoding="utf-8")
    assert read_jsonl(path, "load_x") == [(1, {"a": 1}), (4, [2, 3]), (6, "four")]
    # A str path works the same.
    assert read_jsonl(str(path), "load_x") == read_jsonl(path, "load_x")


def test_read_jsonl_handles_a_missing_final_newline_and_windows_line_ends(tmp_path):
    path = tmp_path / "crlf.jsonl"
    path.write_bytes(b'{"a": 1}\r\n\r\n{"b": "\xc3\xa9"}')
    assert read_jsonl(path, "load_x") == [(1, {"a": 1}), (3, {"b": "é"})]


def test_read_jsonl_of_an_empty_file_is_empty(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text("", encoding="utf-8")
    assert read_jsonl(path, "load_x") == []


def test_read_jsonl_refuses_a_bad_line_naming_file_and_line(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"a": 1}\n\n{"a": 2\n{"a": 3}\n', encoding="utf-8")
    with pytest.raises(PrivlabValueError) as info:
        read_jsonl(path, "load_spia", parameter="source")
    message = str(info.value)
    assert message.startswith("The 'source' parameter of load_spia must be one JSON object per line.")
    assert "broken.jsonl line 3:" in message
    assert "Fix or remove that line." in message
    assert isinstance(info.value.__cause__, json.JSONDecodeError)


def test_read_jsonl_refuses_a_missing_file(tmp_path):
    missing = tmp_path / "absent.jsonl"
    with pytest.raises(PrivlabValueError) as info:
        read_jsonl(missing, "load_x")
    message = str(info.value)
    assert "The 'path' parameter of load_x must be an existing JSON-lines file." in message
    assert "absent.jsonl" in message
    # A folder is not a file either.
    with pytest.raises(PrivlabValueError, match="an existing JSON-lines file"):
        read_jsonl(tmp_path, "load_x")


def test_read_jsonl_refuses_a_non_utf8_file(tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"name": "ok"}\n' + '{"name": "Zürich"}\n'.encode("latin-1"))
    with pytest.raises(PrivlabValueError) as info:
        read_jsonl(path, "load_x")
    message = str(info.value)
    assert "must be a UTF-8 text file" in message
    assert "latin1.jsonl line 2" in message and "column 12" in message
    assert "Re-save the file as UTF-8." in message
    assert isinstance(info.value.__cause__, UnicodeDecodeError)


def test_iter_jsonl_is_lazy_and_names_the_stream():
    lines = ['{"a": 1}', "", "not json", '{"a": 2}']
    stream = iter_jsonl(lines, "mem.jsonl", "demo")
    assert next(stream) == (1, {"a": 1})
    with pytest.raises(PrivlabValueError, match="mem.jsonl line 3"):
        next(stream)


def test_refuse_record_message_shape():
    error = refuse_record("load_x", "X lines", "x.jsonl line 3", "no 'text'", parameter="file")
    assert isinstance(error, PrivlabValueError)
    assert str(error) == ("The 'file' parameter of load_x must be X lines. "
                          "Got x.jsonl line 3: no 'text' instead. "
                          "Fix or remove that line; no record is skipped silently.")


# ---------------------------------------------------------------------------------------
# write_jsonl
# ---------------------------------------------------------------------------------------
def test_write_jsonl_round_trip_without_partial_file(tmp_path):
    records = [{"text": "Zürich ²", "n": 1}, [1, 2.5, None], "plain", {"nested": {"a": [True]}}]
    path = tmp_path / "deep" / "folder" / "out.jsonl"
    returned = write_jsonl(records, path)
    assert returned == path
    assert path.is_file()
    assert not (path.parent / "out.jsonl.partial").exists()
    assert sorted(p.name for p in path.parent.iterdir()) == ["out.jsonl"]
    # One line per object, UTF-8 written as is.
    raw = path.read_text(encoding="utf-8")
    assert raw.count("\n") == 4 and raw.endswith("\n")
    assert "Zürich ²" in raw
    assert read_jsonl(path, "demo") == list(enumerate(records, start=1))


def test_write_jsonl_accepts_a_generator_and_replaces_an_old_file(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text("old contents\n", encoding="utf-8")
    write_jsonl(({"i": i} for i in range(3)), str(path))
    assert read_jsonl(path, "demo") == [(1, {"i": 0}), (2, {"i": 1}), (3, {"i": 2})]


def test_write_jsonl_leaves_the_old_file_intact_when_a_record_fails(tmp_path):
    path = tmp_path / "out.jsonl"
    write_jsonl([{"kept": True}], path)

    def records():
        yield {"i": 0}
        yield {"bad": object()}  # not JSON-serialisable

    with pytest.raises(TypeError):
        write_jsonl(records(), path)
    # The final name still holds the previous, complete file.
    assert read_jsonl(path, "demo") == [(1, {"kept": True})]
