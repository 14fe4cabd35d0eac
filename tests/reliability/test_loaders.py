"""Bad inputs to the corpus loaders (Enron, Reddit, SPIA, face-embedding tables).

One table per public loader: each row builds a bad file in ``tmp_path`` and names the
error type and a pattern the message must match (the parameter, the file and, where
there is one, the line). Next to the tables, checks that what a loader keeps is whole:
the records around a skipped one, the counts before and after.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import random
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pytest

from privlab.datasets import enron, reddit
from privlab.datasets.face_embeddings import load_embedding_table
from privlab.errors import PrivlabTypeError, PrivlabValueError
from privlab.redaction.spia.protection import protection
from privlab.redaction.spia.records import PII, SPIARecord, Subject, load_spia, parse_spia_record


def _write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def _zip(path: Path, member: str, data: bytes) -> Path:
    with zipfile.ZipFile(path, "w") as archive:  # stored: flipped bytes stay readable
        archive.writestr(member, data)
    return path


# ---- Enron: JSON lines, plain or zipped ---------------------------------------------

GOOD_LINE = json.dumps({"text": "Ken Lay called.", "mid": "m1"}).encode() + b"\n"


def _good_lines(count: int) -> bytes:
    """``count`` records like GOOD_LINE with distinct ids (a repeated id is refused)."""
    return b"".join(json.dumps({"text": "Ken Lay called.", "mid": f"m{k}"}).encode() + b"\n"
                    for k in range(1, count + 1))


def _cut_zip(tmp: Path) -> Path:
    raw = _zip(tmp / "k.zip", "lay-k.json", _good_lines(50)).read_bytes()
    return _write(tmp / "k.zip", raw[: len(raw) // 2])


def _crc_zip(tmp: Path) -> Path:
    raw = _zip(tmp / "k.zip", "lay-k.json", _good_lines(3)).read_bytes()
    return _write(tmp / "k.zip", raw.replace(b"Ken Lay", b"Kan Lay", 1))


JSON_CASES = [
    pytest.param(lambda t: _write(t / "box.jsonl", GOOD_LINE + b'{"text": "caf\xe9"}\n'),
                 r"'path' parameter of read_json_lines must be a UTF-8 text file\. "
                 r"Got box\.jsonl line 2: byte 0xe9 at column 14 is not UTF-8", id="latin-1"),
    pytest.param(lambda t: _zip(t / "k.zip", "lay-k.json", _good_lines(2) + b'{"text": "\xff"}'),
                 r"UTF-8 text file\. Got k\.zip/lay-k\.json line 3: byte 0xff", id="zip-latin-1"),
    pytest.param(lambda t: _write(t / "k.zip", b"PK\x03\x04 not really a zip"),
                 r"must be a readable zip archive\. Got k\.zip: ", id="corrupt-zip"),
    pytest.param(_cut_zip, r"must be a readable zip archive\. Got k\.zip: ", id="truncated-zip"),
    pytest.param(_crc_zip, r"readable zip archive\. Got k\.zip/lay-k\.json: Bad CRC-32",
                 id="crc-zip"),
    pytest.param(lambda t: _write(t / "box.jsonl", GOOD_LINE + b"not json\n"),
                 r"must be JSON lines\. Got box\.jsonl line 2: ", id="not-json"),
    pytest.param(lambda t: _write(t / "box.jsonl", b'\n{"mid": "x"}\n'),
                 r"string 'text' field\. Got box\.jsonl line 2 without one", id="no-text"),
]


@pytest.mark.parametrize("make, pattern", JSON_CASES)
def test_enron_json_lines_refusals(tmp_path, make, pattern):
    with pytest.raises(PrivlabValueError, match=pattern):
        list(enron.read_emails(make(tmp_path)))


# ---- Enron: emails.csv --------------------------------------------------------------

MESSAGE = "Message-ID: <1>\nSubject: hi\n\nKen Lay\nsays hello.\n"  # CSV lines 2-7 when quoted


def _csv(tmp: Path, *rows: str, header: str = "file,message") -> Path:
    good = io.StringIO()
    csv.writer(good, lineterminator="\n").writerow(["a/1.", MESSAGE])
    return _write(tmp / "emails.csv", header + "\n" + good.getvalue() + "".join(rows))


CSV_CASES = [
    pytest.param(lambda t: _csv(t, "a/2.\n"),
                 r"'path' parameter of read_emails_csv must be rows of 2 fields like its "
                 r"header\. Got emails\.csv line 8: 1 fields", id="short-row"),
    pytest.param(lambda t: _csv(t, "a/2.,x,y\n"), r"emails\.csv line 8: 3 fields", id="long-row"),
    pytest.param(lambda t: _write(t / "emails.csv", b"file,message\na/1.,\"Ken Lay\n"
                                                    b"caf\xe9\"\n"),
                 r"UTF-8 text file\. Got emails\.csv line 3: byte 0xe9", id="latin-1"),
    pytest.param(lambda t: _csv(t, header="path,body"),
                 r"columns 'file' and 'message'\. Got columns \['path', 'body'\]",
                 id="columns"),
]


@pytest.mark.parametrize("make, pattern", CSV_CASES)
def test_enron_csv_refusals(tmp_path, make, pattern):
    with pytest.raises(PrivlabValueError, match=pattern):
        list(enron.read_emails(make(tmp_path)))


# ---- Enron: maildir and load_mailbox ------------------------------------------------

def _tarball(tmp: Path, count: int = 20) -> Path:
    rng = random.Random(0)  # incompressible bodies: half the bytes is half the members
    path = tmp / "enron.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        for k in range(count):
            data = (f"Message-ID: <{k}>\n\nKen Lay "
                    + " ".join(str(rng.random()) for _ in range(300))).encode()
            info = tarfile.TarInfo(f"maildir/lay-k/inbox/{k}.")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def test_enron_truncated_tarball_is_refused(tmp_path):
    path = _tarball(tmp_path)
    assert len(list(enron.read_emails(path))) == 20
    _write(path, path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(PrivlabValueError, match=r"'path' parameter of read_maildir must be a "
                                                r"readable tar archive\. Got enron\.tar\.gz: "):
        list(enron.read_emails(path))


@pytest.mark.parametrize("limit, error", [(-1, PrivlabValueError), (0, PrivlabValueError),
                                          (True, PrivlabValueError), (2.5, PrivlabValueError),
                                          ("3", PrivlabValueError)])
def test_load_mailbox_refuses_limits_that_are_not_positive_ints(tmp_path, limit, error):
    path = _write(tmp_path / "box.jsonl", b"".join(
        json.dumps({"text": f"Ken Lay note {k}", "mid": f"m{k}"}).encode() + b"\n"
        for k in range(4)))
    with pytest.raises(error, match=r"'limit' parameter of load_mailbox must be a positive int "
                                    r"or None \(all emails\)\. Got .* instead\. Pass limit=None"):
        enron.load_mailbox(path, limit=limit)
    assert len(enron.load_mailbox(path, limit=None)) == 4  # None keeps every email
    assert len(enron.load_mailbox(path, limit=3)) == 3


def test_maildir_keeps_every_decodable_message_around_a_skipped_one(tmp_path):
    box = tmp_path / "maildir" / "lay-k" / "inbox"
    box.mkdir(parents=True)
    for k in range(5):
        body = base64.encodebytes(f"Ken Lay memo {k}\n".encode())
        (box / f"{k}.").write_bytes(b"Message-ID: <%d>\nContent-Transfer-Encoding: base64\n\n"
                                    % k + body)
    (box / "9.").write_bytes(b"Message-ID: <bad>\nContent-Type: text/plain; charset=us-ascii"
                             b"\n\nKen Lay in M\xfcnchen\n")
    with pytest.warns(UserWarning, match=r"load_mailbox: 1 of 6 messages in maildir could not "
                                         r"be decoded .*9\. \(<bad>\): body byte 0xfc"):
        corpus = enron.load_mailbox(tmp_path / "maildir")
    assert corpus.texts == tuple(f"Ken Lay memo {k}" for k in range(5))
    assert corpus.provenance["emails_read"] == 6
    assert [(Path(s["file"]).name, s["id"]) for s in corpus.provenance["skipped"]] == \
        [("9.", "<bad>")]


# ---- Reddit ------------------------------------------------------------------------

def _gz_cut(tmp: Path) -> Path:
    import gzip

    path = tmp / "rc.jsonl.gz"
    rng = random.Random(1)
    with gzip.open(path, "wt") as handle:
        for k in range(200):
            handle.write(json.dumps({"id": str(k), "body": f"Avengers {rng.random()}"}) + "\n")
    return _write(path, path.read_bytes()[: path.stat().st_size // 2])


REDDIT_CASES = [
    pytest.param(lambda t: _write(t / "rc.jsonl", b'{"body": "Avengers"}\n{"body": "\xe9"}\n'),
                 r"'path' parameter of read_comments must be UTF-8 text\. Got rc\.jsonl line 2: "
                 r"byte 0xe9", id="latin-1"),
    pytest.param(lambda t: (t / "txt").mkdir() or _write(t / "txt" / "one.txt",
                                                         b"Avengers\nfin\xe9") and t / "txt",
                 r"UTF-8 text\. Got one\.txt line 2: byte 0xe9", id="latin-1-txt"),
    pytest.param(lambda t: _write(t / "rc.jsonl", b'["Avengers"]\n'),
                 r"one JSON object per line\. Got rc\.jsonl line 1: a list", id="not-object"),
    pytest.param(lambda t: _write(t / "rc.jsonl", b'{"body": "Avengers"}\n{oops\n'),
                 r"must be JSON lines\. Got rc\.jsonl line 2: ", id="not-json"),
    pytest.param(_gz_cut, r"must be a readable file\. Got rc\.jsonl\.gz: ", id="truncated-gz"),
]


@pytest.mark.parametrize("make, pattern", REDDIT_CASES)
def test_reddit_refusals(tmp_path, make, pattern):
    with pytest.raises(PrivlabValueError, match=pattern):
        reddit.load_comments(make(tmp_path), limit=None)


@pytest.mark.parametrize("limit", [-1, 0, True, 1.5])
def test_reddit_limit_must_be_positive(tmp_path, limit):
    path = _write(tmp_path / "rc.jsonl", "".join(
        json.dumps({"id": str(k), "body": f"Avengers {k}"}) + "\n" for k in range(3)))
    with pytest.raises(PrivlabValueError, match=r"'limit' parameter of load_comments must be "
                                                r"a positive int or None"):
        reddit.load_comments(path, limit=limit)
    assert reddit.load_comments(path, limit=None).ids == ("0", "1", "2")


# ---- Face-embedding tables ----------------------------------------------------------

def _npz(tmp: Path, name: str = "t.npz", **arrays) -> Path:
    arrays = arrays or {"embeddings": np.arange(40.0).reshape(20, 2) + 1,
                        "labels": np.array(list("ab") * 10)}
    np.savez(tmp / name, **arrays)
    return tmp / name


def _short_member(tmp: Path) -> Path:
    buffer = io.BytesIO()
    np.save(buffer, np.ones((20, 2)))
    path = tmp / "short.npz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("embeddings.npy", buffer.getvalue()[:-40])  # 5 values short
        labels = io.BytesIO()
        np.save(labels, np.array(list("ab") * 10))
        archive.writestr("labels.npy", labels.getvalue())
    return path


def _crc_npz(tmp: Path) -> Path:
    path = _npz(tmp, "crc.npz")
    raw = bytearray(path.read_bytes())
    raw[raw.index(b"\x00\x00\x00\x00\x00\x00\xf0\x3f")] ^= 0x01  # a byte of the value 1.0
    return _write(path, bytes(raw))


def _npy_named_npz(tmp: Path) -> Path:
    np.save(tmp / "x.npy", np.ones((2, 2)))
    return (tmp / "x.npy").rename(tmp / "x.npz")


FACE_CASES = [
    pytest.param(lambda t: _write(t / "t.csv", b"label,e0,e1\nann,1,0\nren\xe9,0,1\n"),
                 r"'path' parameter of load_embedding_table must be a UTF-8 text file\. "
                 r"Got t\.csv line 3: byte 0xe9 is not UTF-8", id="latin-1-csv"),
    pytest.param(lambda t: _npz(t, "obj.npz", embeddings=np.ones((2, 2)),
                                labels=np.array(["a", "b"], dtype=object)),
                 r"Got obj\.npz: array 'labels' holds pickled Python objects \(dtype object\)"
                 r".*labels=y\.astype\(str\)", id="object-labels"),
    pytest.param(lambda t: _npz(t, "obj.npz", embeddings=np.array([[1.0, "x"]], dtype=object),
                                labels=np.array(["a"])),
                 r"Got obj\.npz: array 'embeddings' holds pickled Python objects",
                 id="object-embeddings"),
    pytest.param(lambda t: _write(t / "cut.npz", _npz(t).read_bytes()[:300]),
                 r"Got cut\.npz: not a complete zip archive", id="truncated-npz"),
    pytest.param(_short_member, r"Got short\.npz: array 'embeddings' is truncated or damaged",
                 id="truncated-array"),
    pytest.param(_crc_npz, r"Got crc\.npz: array 'embeddings' is truncated or damaged "
                           r"\(Bad CRC-32", id="crc-npz"),
    pytest.param(_npy_named_npz, r"Got x\.npz: a single \.npy array", id="npy-as-npz"),
    pytest.param(lambda t: _write(t / "x.npz", "label,e0\n"), r"Got x\.npz: not an \.npz archive",
                 id="text-as-npz"),
    pytest.param(lambda t: _write(t / "t.csv", "label,e0,e1\na,1,0\nb,1\n"),
                 r"Got t\.csv: 1 malformed row \(line 3: 2 fields, the header has 3\)",
                 id="short-csv-row"),
    pytest.param(lambda t: _write(t / "t.csv", ""), r"Got t\.csv: an empty file", id="empty-csv"),
]


@pytest.mark.parametrize("make, pattern", FACE_CASES)
def test_face_table_refusals(tmp_path, make, pattern):
    with pytest.raises(PrivlabValueError, match=pattern):
        load_embedding_table(make(tmp_path))


def test_face_table_the_good_npz_behind_the_bad_ones_loads_whole(tmp_path):
    table = load_embedding_table(_npz(tmp_path))
    assert (len(table), table.dim, table.report.rows_read) == (20, 2, 20)
    with pytest.raises(PrivlabTypeError):
        load_embedding_table(None)


# ---- SPIA records -------------------------------------------------------------------

def _pii(**change) -> dict:
    pii = {"tag": "AGE", "keyword": "34", "certainty": 4, "hardness": 1}
    for key, value in change.items():
        if value is None:
            pii.pop(key)
        else:
            pii[key] = value
    return pii


def _record(data_id: str, subject: dict | None = None, **top) -> dict:
    subject = subject if subject is not None else {"id": 0, "description": "Ann",
                                                   "PIIs": [_pii()]}
    record = {"metadata": {"data_id": data_id}, "text": "Ann, 34.", "subjects": [subject]}
    record.update(top)
    return record


def _rename(obj: dict, old: str, new: str) -> dict:
    return {new if k == old else k: v for k, v in obj.items()}


SUBJECT = {"id": 0, "description": "Ann", "PIIs": [_pii()]}

SPIA_LINE_CASES = [  # the second of three lines is bad
    pytest.param(_record("b", {**SUBJECT, "PIIs": [_pii(certainty=None)]}),
                 r"subjects\[0\]\.PIIs\[0\]: 'certainty' is missing", id="no-certainty"),
    pytest.param(_record("b", {**SUBJECT, "PIIs": [_rename(_pii(), "certainty", "certainity")]}),
                 r"subjects\[0\]\.PIIs\[0\]: 'certainity' is not a SPIA key; did you mean "
                 r"'certainty'\?", id="certainity"),
    pytest.param(_record("b", {**SUBJECT, "PIIs": [_pii(keyword=None)]}),
                 r"subjects\[0\]\.PIIs\[0\]: 'keyword' is missing", id="no-keyword"),
    pytest.param(_record("b", _rename(SUBJECT, "PIIs", "piis")),
                 r"subjects\[0\]: 'piis' is not a SPIA key; did you mean 'PIIs'\?", id="piis"),
    pytest.param(_record("b", {"id": 0, "description": "Ann"}),
                 r"subjects\[0\]: 'PIIs' is missing", id="no-PIIs"),
    pytest.param(_record("b", {"description": "Ann", "PIIs": []}),
                 r"subjects\[0\]: 'id' is missing", id="no-id"),
    pytest.param(_record("b", _rename(SUBJECT, "description", "descripton")),
                 r"subjects\[0\]: 'descripton' is not a SPIA key; did you mean 'description'\?",
                 id="descripton"),
    pytest.param(_record("b", {**SUBJECT, "PIIs": [_rename(_pii(), "hardness", "hardnes")]}),
                 r"subjects\[0\]\.PIIs\[0\]: 'hardnes' is not a SPIA key; did you mean "
                 r"'hardness'\?", id="hardnes"),
    pytest.param(_rename(_record("b"), "subjects", "subject"),
                 r"'subject' is not a SPIA key; did you mean 'subjects'\?", id="subject"),
    pytest.param({"metadata": {"data_id": "b"}, "subjects": []}, r"'text' is missing",
                 id="no-text"),
    pytest.param(_record("a"), r"data_id 'a' already used on line 1", id="duplicate-id"),
    pytest.param(_record("b", {**SUBJECT, "PIIs": [_pii(certainty=6)]}),
                 r"subjects\[0\]\.PIIs\[0\]\.certainty must be an integer 0-5, got 6",
                 id="certainty-6"),
]


@pytest.mark.parametrize("bad, pattern", SPIA_LINE_CASES)
def test_spia_refuses_the_bad_line_by_file_and_line(tmp_path, bad, pattern):
    lines = [json.dumps(_record("a")), json.dumps(bad), json.dumps(_record("c"))]
    path = _write(tmp_path / "x.jsonl", "\n".join(lines) + "\n")
    with pytest.raises(PrivlabValueError, match=r"'path' parameter of load_spia must be SPIA "
                                                r"JSON lines .* Got x\.jsonl line 2: " + pattern):
        load_spia(path)
    # The same file with that line repaired loads every record: only the line was at fault.
    lines[1] = json.dumps(_record("b"))
    _write(path, "\n".join(lines) + "\n")
    assert [r.data_id for r in load_spia(path)] == ["a", "b", "c"]


SPIA_FILE_CASES = [
    pytest.param(b"", r"Got x\.jsonl: no records \(an empty file\)", id="empty"),
    pytest.param(b"\n  \n\n", r"Got x\.jsonl: no records", id="blank-lines"),
    pytest.param(json.dumps(_record("a")).encode() + b"\n" + json.dumps(_record("b")).encode()
                 .replace(b"Ann", b"Ren\xe9"),
                 r"must be a UTF-8 text file\. Got x\.jsonl line 2: byte 0xe9", id="latin-1"),
    pytest.param(b'{"metadata": {"data_id": "a"}, "text": ""\n',
                 r"one JSON object per line\. Got x\.jsonl line 1: ", id="not-json"),
]


@pytest.mark.parametrize("data, pattern", SPIA_FILE_CASES)
def test_spia_file_refusals(tmp_path, data, pattern):
    with pytest.raises(PrivlabValueError, match=r"'path' parameter of load_spia .*" + pattern):
        load_spia(_write(tmp_path / "x.jsonl", data))


def test_spia_optional_fields_stay_optional(tmp_path):
    """``description`` and ``hardness`` may be left out; every required key is there."""
    record = parse_spia_record({"metadata": {"data_id": "d"}, "text": "", "subjects": [
        {"id": 0, "PIIs": [{"tag": "SEX", "keyword": "Male", "certainty": 3}]}]})
    assert record.subjects[0].description == "" and record.subjects[0].piis[0].hardness == 0


# ---- SPIA protection: duplicate ids and certainty 0 ---------------------------------

GOLD = [SPIARecord("d", "Ann Lee, 34.", (Subject(0, "Ann", (
    PII("NAME", "Ann Lee", 5), PII("AGE", "34", 4))),)),
        SPIARecord("e", "Bob Ray, 50.", (Subject(0, "Bob", (
            PII("NAME", "Bob Ray", 5), PII("AGE", "50", 4))),))]


def _guess(data_id: str, name: str, age: str, age_certainty: int) -> SPIARecord:
    return SPIARecord(data_id, "", (Subject(0, "", (PII("NAME", name, 3),
                                                    PII("AGE", age, age_certainty))),))


def test_protection_drops_certainty_zero_predictions_and_counts_them():
    sure = [_guess("d", "Ann Lee", "34", 1), _guess("e", "Bob Ray", "50", 2)]
    result = protection(GOLD, sure)
    assert (result.cpr, result.n_piis, result.provenance["dropped_zero_certainty"]) == (0.0, 4, 0)
    # Certainty 0 means "not inferred" in SPIA: the age no longer counts as inferred.
    unsure = [_guess("d", "Ann Lee", "34", 0), _guess("e", "Bob Ray", "50", 2)]
    result = protection(GOLD, unsure)
    assert result.provenance["dropped_zero_certainty"] == 1
    assert (result.n_subjects, result.n_piis, result.inferred) == (2, 4, 3.0)
    assert result.cpr == pytest.approx(0.25) and result.ipr == pytest.approx(0.25)
    ages = {row["data_id"]: (row["predicted"], row["score"]) for row in result.piis
            if row["tag"] == "AGE"}
    assert ages == {"d": ("", 0.0), "e": ("50", 1.0)}


@pytest.mark.parametrize("which", ["predicted", "gold"])
def test_protection_refuses_a_data_id_given_twice(which):
    guesses = [_guess("d", "Ann Lee", "34", 3), _guess("e", "Bob Ray", "50", 3)]
    gold, predicted = (GOLD, guesses + [guesses[0]]) if which == "predicted" \
        else (GOLD + [GOLD[0]], guesses)
    with pytest.raises(PrivlabValueError, match=rf"'{which}' parameter of protection must be one "
                                                r"record per data_id\. Got data_id 'd' at "
                                                r"positions 0 and 2"):
        protection(gold, predicted)
